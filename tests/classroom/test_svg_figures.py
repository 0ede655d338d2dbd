"""Figures for slides: the calculator's steps and the lab's heatmaps as SVG from the shell, and
any screen saved with one key. Chinese text must be in the SVG as text, each character given
the two cells it takes on screen (Rich alone gives it one: Textualize/rich#2742)."""

from __future__ import annotations

import html
import re
import unicodedata

import pytest

from attn_tui.app import AttnApp
from attn_tui.cli import main
from attn_tui.svg import FIGURE_KEY, widen

RUN = re.compile(r'<text\b[^>]*?\btextLength="([0-9.]+)"[^>]*>([^<]*)</text>')


def cells(text: str) -> int:
    """Terminal cells by hand: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def runs(svg: str) -> list[tuple[float, str]]:
    return [(float(length), html.unescape(text)) for length, text in RUN.findall(svg)]


def assert_cells_fit(svg: str) -> None:
    """Every run of text is as long as the cells it fills, at one width per cell."""
    found = runs(svg)
    assert found
    per_cell = {round(length / cells(text), 3) for length, text in found if text.strip()}
    assert len(per_cell) == 1, per_cell


def text_of(svg: str) -> str:
    """The SVG's text runs joined, its no-break spaces (how Rich writes a space) as spaces."""
    return "".join(text for _, text in runs(svg)).replace("\xa0", " ")


def test_calc_svg_holds_the_chinese_steps_at_their_width(tmp_path, capsys):
    out = tmp_path / "steps.svg"
    assert main(["--lang", "zh", "calc", "--svg", str(out)]) == 0
    assert "图已写入" in capsys.readouterr().err
    svg = out.read_text("utf-8")
    shown = text_of(svg)
    for words in ("算分数", "把分数变成权重", "加权求和", "0.2303", "0.1293", "0.4102"):
        assert words in shown
    assert_cells_fit(svg)


def test_calc_svg_draws_the_typed_example(tmp_path):
    out = tmp_path / "typed.svg"
    assert main(["--lang", "en", "calc", "-q", "2 0 0", "--svg", str(out)]) == 0
    shown = text_of(out.read_text("utf-8"))
    assert "q = (2, 0, 0)" in shown and "0.3016" in shown and "0.4102" not in shown


def test_lab_svg_holds_each_heads_heatmap(tmp_path):
    out = tmp_path / "lab.svg"
    argv = "--lang zh lab --preset love_zh --heads 2 --causal --svg".split()
    assert main([*argv, str(out)]) == 0
    svg = out.read_text("utf-8")
    shown = text_of(svg)
    assert "第 1 个头" in shown and "第 2 个头" in shown
    assert "中国" in shown
    assert_cells_fit(svg)


def test_lab_shapes_svg(tmp_path):
    out = tmp_path / "shapes.svg"
    assert main(["--lang", "en", "lab", "--shapes", "--svg", str(out)]) == 0
    assert "(10, 512)" in text_of(out.read_text("utf-8"))


def test_an_unwritable_svg_path_is_one_line(tmp_path, capsys):
    assert main(["calc", "--svg", str(tmp_path / "no" / "dir.svg")]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and err.count("\n") == 1


def test_widen_only_touches_runs_of_wide_characters():
    svg = (
        '<text class="a" x="0" y="20" textLength="24.4" clip-path="u">ab&#160;c</text>'
        '<text class="b" x="0" y="40" textLength="24.4" clip-path="u">中文&#160;c</text>'
    )
    out = widen(svg)
    assert 'textLength="24.4" clip-path="u">ab&#160;c' in out
    assert 'textLength="36.6" clip-path="u">中文&#160;c' in out  # 4 chars → 6 cells


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_one_key_saves_any_screen_as_svg(tmp_path, monkeypatch, lang):
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_downloads_path", lambda: tmp_path)
    app = AttnApp(lang=lang, data_dir=tmp_path / "data")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await app.switch_mode("calc")
        await pilot.pause()
        await pilot.press(FIGURE_KEY)
        for _ in range(50):
            await pilot.pause(0.05)
            if list(tmp_path.glob("attn-tui-calc-*.svg")):
                break
        (saved,) = tmp_path.glob("attn-tui-calc-*.svg")
        await pilot.pause(0.1)
        said = [n.message for n in app._notifications]
    svg = saved.read_text("utf-8")
    shown = text_of(svg)
    assert ("查询 q" if lang == "zh" else "Query q") in shown
    assert_cells_fit(svg)
    assert any(str(saved) in message for message in said)


async def test_the_key_is_in_the_help_and_no_screen_takes_it(tmp_path):
    app = AttnApp(lang="en", data_dir=tmp_path / "data")
    async with app.run_test(size=(100, 30)) as pilot:
        for mode in ("home", *app.AREAS):
            await app.switch_mode(mode)
            await pilot.pause()
            keys = dict((text, key) for key, text in app.screen.help_keys())
            assert keys.get("Save as SVG") == "^s", (mode, keys)


CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]")


@pytest.mark.parametrize(
    "args",
    [
        ["lab", "--tokens", "a b\x1b]52;c;Y3VybA==\x07 c\x1b[2J"],
        ["lab", "--tokens", "x y", "--cross", "p\x9b2J q\x07"],
    ],
)
def test_a_figure_shows_control_characters_instead_of_carrying_them(tmp_path, capsys, args):
    """Tokens typed with ESC, BEL or an OSC 52 clipboard write went into the SVG raw: not XML,
    and ``cat figure.svg`` ran them in the teacher's terminal (issue 20, item 6)."""
    import xml.etree.ElementTree as ET

    path = tmp_path / "f.svg"
    assert main(["--lang", "en", *args, "--svg", str(path)]) == 0
    capsys.readouterr()
    text = path.read_text("utf-8")
    assert not CONTROL.search(text), CONTROL.findall(text)
    ET.fromstring(text)  # well-formed XML now
    assert r"\x1b" in text_of(text) or r"\x9b" in text_of(text)
