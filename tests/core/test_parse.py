"""The parser accepts what learners type and names every fault it refuses."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_tui.core.parse import MAX_ABS, MAX_DIM, MAX_ROWS, InputError, parse_matrix, parse_vector
from attn_tui.i18n import describe


@pytest.mark.parametrize(
    "text",
    [
        "1 0 1",
        "1,0,1",
        "[1, 0, 1]",
        "1，0，1",
        "１ ０ １",
        "(1 0 1)",
        " 1  0\t1 ",
        "1, 0, 1,",
        "1、0、1",
    ],
)
def test_accepted_spellings_of_one_vector(text):
    assert parse_vector(text).tolist() == [1.0, 0.0, 1.0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("−2 .5 1e-3", [-2.0, 0.5, 0.001]), ("-1.25 +3", [-1.25, 3.0]), ("－１．５", [-1.5])],
)
def test_signs_decimals_and_full_width(text, expected):
    assert parse_vector(text).tolist() == expected


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "empty", {}),
        ("   ", "empty", {}),
        ("[]", "empty", {}),
        ("1 a 1", "not_a_number", {"entry": 2, "token": "a"}),
        ("1,,2", "empty_entry", {"entry": 2}),
        ("nan 1", "not_finite", {"entry": 1}),
        ("1 -inf", "not_finite", {"entry": 2}),
        ("1e400", "too_large", {"entry": 1}),
        ("2000000", "too_large", {"entry": 1}),
        ("1.2.3", "not_a_number", {"token": "1.2.3"}),
    ],
)
def test_vector_faults_are_named_and_located(text, code, params):
    with pytest.raises(InputError) as info:
        parse_vector(text, "query")
    assert info.value.code == code
    assert info.value.params["field"] == "query"
    for key, value in params.items():
        assert info.value.params[key] == value


def test_dimension_limit_is_stated():
    parse_vector(" ".join(["1"] * MAX_DIM))
    with pytest.raises(InputError) as info:
        parse_vector(" ".join(["1"] * (MAX_DIM + 1)))
    assert info.value.code == "too_many_dims"
    assert str(MAX_DIM) in describe(info.value, "en")
    assert str(MAX_DIM) in describe(info.value, "zh")


def test_matrix_rows_by_newline_semicolon_or_nested_brackets():
    expected = [[1.0, 0.0], [0.0, 1.0]]
    for text in [
        "1 0\n0 1",
        "1 0; 0 1",
        "1 0；0 1",
        "[[1, 0], [0, 1]]",
        "[1,0],[0,1]",
        "\n1 0\n\n0 1\n",
    ]:
        assert parse_matrix(text).tolist() == expected, text


def test_ragged_rows_name_the_row():
    with pytest.raises(InputError) as info:
        parse_matrix("1 0 0\n0 1\n1 1 1", "keys")
    assert (info.value.code, info.value.params["row"], info.value.params["length"]) == (
        "ragged",
        2,
        2,
    )
    assert "2" in describe(info.value, "en") and "keys" in describe(info.value, "en")


def test_a_bad_entry_in_a_matrix_names_row_and_entry():
    with pytest.raises(InputError) as info:
        parse_matrix("1 0\n0 x", "values")
    assert info.value.params == {"field": "values", "row": 2, "entry": 2, "token": "x"}
    assert describe(info.value, "en") == "values row 2: entry 2, “x”, is not a number."


def test_row_limit_is_stated():
    with pytest.raises(InputError) as info:
        parse_matrix("\n".join(["1"] * (MAX_ROWS + 1)))
    assert info.value.code == "too_many_rows"


# ---- fuzzing: whatever is typed, only InputError escapes, and it can be described ----------

typed = st.text(
    alphabet=st.sampled_from(list("0123456789.,;-+eE[]() \n，；１２−abinfNa")), max_size=40
)


@settings(max_examples=400, deadline=None)
@given(typed)
def test_fuzzed_vectors_parse_or_raise_input_error(text):
    try:
        v = parse_vector(text)
    except InputError as err:
        message = describe(err, "en")
        assert message and "{" not in message
        assert describe(err, "zh")
    else:
        assert v.ndim == 1 and 1 <= v.size <= MAX_DIM
        assert np.all(np.isfinite(v)) and np.all(np.abs(v) <= MAX_ABS)


@settings(max_examples=300, deadline=None)
@given(typed)
def test_fuzzed_matrices_parse_or_raise_input_error(text):
    try:
        m = parse_matrix(text)
    except InputError as err:
        assert describe(err, "en") and describe(err, "zh")
    else:
        assert m.ndim == 2 and m.shape[0] <= MAX_ROWS and np.all(np.isfinite(m))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.floats(min_value=-MAX_ABS, max_value=MAX_ABS, allow_nan=False), min_size=1, max_size=12
    )
)
def test_round_trip_of_printed_floats(values):
    text = ", ".join(repr(v) for v in values)
    parsed = parse_vector(text)
    assert all(
        math.isclose(a, b, rel_tol=0, abs_tol=0) for a, b in zip(parsed, values, strict=True)
    )


def test_chinese_messages_space_a_latin_field_name():
    with pytest.raises(InputError) as info:
        parse_matrix("1 2\n3 x", "X")  # the lab's matrices are fields the catalogue does not name
    assert describe(info.value, "zh") == "X 第 2 行的第 2 个位置“x”不是数字。"
    assert describe(info.value, "en") == "X row 2: entry 2, “x”, is not a number."
    with pytest.raises(InputError) as info:
        parse_matrix("1 2\n3 x", "keys")
    assert describe(info.value, "zh").startswith("键第 2 行")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(
                ["", *"1 -2 .5 3. 1e3 2E-1 +4 x nan 1_0 1e --1 2e7 １ −3 inf 1.2.3".split()]
            ),
            min_size=0,
            max_size=5,
        ),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from([" ", ", ", ","]),
    st.sampled_from(["\n", "; ", ";"]),
)
def test_the_fast_path_reads_exactly_what_the_entry_by_entry_path_reads(rows, sep, row_sep):
    """One conversion for every entry gives the same numbers and the same first fault as
    checking each entry with its regex (issue 14: 2.5 ms for 64 × 32 in a Python loop)."""
    from attn_tui.core import parse

    text = row_sep.join(sep.join(row) for row in rows)

    def outcome():
        try:
            return ("ok", parse.parse_matrix(text).tolist())
        except parse.InputError as err:
            return ("error", err.code, err.params)

    fast = outcome()
    saved = parse._fast_values, parse._fast_matrix
    parse._fast_values = lambda tokens: None
    parse._fast_matrix = lambda lines, field: None
    try:
        slow = outcome()
    finally:
        parse._fast_values, parse._fast_matrix = saved
    assert fast == slow, text
