"""A teacher's very large set: its checked claims are bounded per file, and a file read once is
not parsed again while its bytes stay the same (what a served class shares)."""

from __future__ import annotations

from attn_tui import paths
from attn_tui.core.exercises import loader
from attn_tui.core.exercises.loader import MAX_CLAIMS, FileCache, load_file, load_library

HEAD = '[set]\nid = "big"\ntitle = { zh = "大", en = "Big" }\nsummary = { zh = "s", en = "s" }\n'


def exercise(i: int, claims: int) -> str:
    said = " ".join(f"{{= {i} + {k} = {i + k}}}" for k in range(claims))
    return (f'\n[[exercise]]\nid = "e{i}"\nkind = "number"\ntopics = ["dot-product"]\n'
            f'prompt = {{ zh = "{said}", en = "x" }}\nanswer = {i}\n'
            'explanation = { zh = "e", en = "e" }\n')  # fmt: skip


def test_claims_past_the_bound_are_one_fault_and_not_checked(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(HEAD + "".join(exercise(i, 10) for i in range(MAX_CLAIMS // 10)), "utf-8")
    loaded, problems = load_file(path, "extra")
    assert loaded is not None and problems == [], "exactly the bound: every claim checked"
    path.write_text(HEAD + "".join(exercise(i, 10) for i in range(MAX_CLAIMS // 10 + 30)),
                    "utf-8")  # fmt: skip
    checked = []
    real = loader.claims.check_text
    loader.claims.check_text = lambda text: checked.append(text) or real(text)
    try:
        loaded, problems = load_file(path, "extra")
    finally:
        loader.claims.check_text = real
    assert loaded is None
    (fault,) = problems
    assert fault.code == "ex.too_many_claims" and fault.params["limit"] == MAX_CLAIMS
    first = HEAD.count("\n") + (MAX_CLAIMS // 10) * exercise(0, 10).count("\n") + 6
    assert fault.line == first, "the line of the first claim past the bound"
    assert sum(text.count("{=") for text in checked) == MAX_CLAIMS


def test_a_file_read_before_with_the_same_bytes_is_not_parsed_again(tmp_path, monkeypatch):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "big.toml").write_text(HEAD + exercise(1, 1), "utf-8")
    parsed = []
    real = loader.load_text
    monkeypatch.setattr(
        loader, "load_text", lambda text, path: parsed.append(path) or real(text, path)
    )
    cache = FileCache()
    first = load_library([(folder, "extra")], cache=cache)
    again = load_library([(folder, "extra")], cache=cache)
    assert len(parsed) == 1 and again.get("big") is first.get("big")
    (folder / "big.toml").write_text(HEAD + exercise(2, 1), "utf-8")  # the same size, other bytes
    changed = load_library([(folder, "extra")], cache=cache)
    assert len(parsed) == 2 and changed.get("big").exercises[0].id == "e2"
    assert cache.unread_bytes([folder / "big.toml"]) == 0


def test_progress_is_told_before_each_file(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    for name in ("a", "b"):
        text = HEAD.replace('"big"', f'"{name}"') + exercise(1, 1)
        (folder / f"{name}.toml").write_text(text, "utf-8")
    told = []

    def heard(done, total, path):
        told.append((done, total, path.name))

    library = paths.load_all([folder], progress=heard)
    assert {s.id for s in library.sets} >= {"a", "b"}
    mine = [x for x in told if x[2] in ("a.toml", "b.toml")]
    total = told[0][1]
    assert [d for d, _, _ in told] == list(range(total)) and {t for _, t, _ in told} == {total}
    assert [n for _, _, n in mine] == ["a.toml", "b.toml"]
