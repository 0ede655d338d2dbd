"""What the learner reads: numbers, arithmetic and wrapped prose."""

import pytest

from attn_tui.core.format import cell_len, dot_arithmetic, fixed, num, vec, wrap


def test_the_worked_dot_product_reads_like_the_book():
    assert dot_arithmetic([1, 0, 1], [1, 0, 0]) == "1×1 + 0×0 + 1×0"
    assert dot_arithmetic([1, -2], [0.5, 3]) == "1×0.5 + (−2)×3"


def test_long_dot_products_are_elided():
    text = dot_arithmetic(range(64), range(64))
    assert text.startswith("0×0 + 1×1 + 2×2 + 3×3 + …") and text.endswith("63×63")


@pytest.mark.parametrize(
    ("x", "expected"),
    [(2.0, "2"), (-1.0, "−1"), (0.57735, "0.5774"), (0.5, "0.5"), (-0.0, "0"), (2e6, "2e+06")],
)
def test_num(x, expected):
    assert num(x) == expected


def test_fixed_never_prints_negative_zero():
    assert fixed(-0.0) == "0.0000" and fixed(-1e-9) == "0.0000"
    assert fixed(0.8707291, sign=True) == "+0.8707" and fixed(-0.25) == "−0.2500"


def test_vec_elides_long_vectors():
    assert vec([1, 0, 1]) == "(1, 0, 1)"
    assert vec(range(10)) == "(0, 1, 2, 3, 4, 5, …, 9)"


def test_wrap_breaks_chinese_between_characters_and_keeps_punctuation_off_line_starts():
    text = "softmax 不会给出正好 0：再不相关的键也留一点权重，梯度还能流过去。"
    for width in range(8, 44):
        lines = wrap(text, width)
        assert all(cell_len(line) <= width for line in lines), width
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert not any(line[:1] in "，。：" for line in lines[1:]), (width, lines)
    # lines are filled: only the last may be much shorter than the width
    lines = wrap(text, 20)
    assert all(cell_len(line) >= 18 for line in lines[:-1])


def test_wrap_never_starts_a_line_with_a_closing_quote_nor_ends_one_with_an_opening_one():
    # issue 26 #19: "“我 爱 中国" / "”, so…" in the lab's cross-attention note
    texts = [
        "Cross-attention: the queries come from “猫 坐 在 垫子 上”, the keys and values from "
        "“我 爱 中国”, so the matrix has 5 rows and 3 columns.",
        "交叉注意力：查询来自“I love China”，键和值来自“我 爱 中国”，所以矩阵是 3×3 的。",
        "a ‘单引号 里的 词’, then more words after it to wrap",
    ]
    for text in texts:
        for width in range(16, 90):  # (from the longest word's width)
            lines = wrap(text, width)
            assert not any(line[:1] in "”’" for line in lines), (width, lines)
            assert not any(line[-1:] in "“‘" for line in lines), (width, lines)
            assert all(cell_len(line) <= width for line in lines), (width, lines)
            assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_wrap_keeps_english_words_whole():
    lines = wrap("The variance of a dot product grows with d.", 12)
    assert lines == ["The variance", "of a dot", "product", "grows with", "d."]


def test_wrap_never_ends_a_line_with_an_opening_bracket():
    text = "答案写成「对/错」两种，用（括号）表示的也可以，全角【方括号】也一样。"
    for width in range(6, 30):
        lines = wrap(text, width)
        assert not any(line[-1:] in "（「【" for line in lines), (width, lines)
        assert "".join(lines) == text


def test_wrap_keeps_a_short_equation_and_a_row_of_numbers_on_one_line():
    for width in range(12, 60):
        lines = wrap("self-attention · 3 tokens · d_model = 8 · 2 heads · d_k = 4", width)
        assert "d_k = 4" in "\n".join(lines) and "d_model = 8" in "\n".join(lines), lines
        lines = wrap("keys -1 -2 2; 2 0 -2; -2 -1 0 and more words", width)
        assert all(group in "\n".join(lines) for group in ("-1 -2 2;", "-2 -1 0")), lines
