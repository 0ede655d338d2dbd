"""The home screen comes up before the course is read: importing the app (which imports the
home screen) loads neither the coursebook nor the exercise library's loader nor numpy; the
home screen imports them in its background worker, and draws the course when it is there."""

import subprocess
import sys

LATE = ("attn_tui.coursebook", "attn_tui.core.exercises.loader", "attn_tui.paths", "numpy")


def test_importing_the_app_reads_no_course():
    code = f"import sys, attn_tui.app\nprint(','.join(m for m in {LATE!r} if m in sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


async def test_the_home_screen_draws_the_course_once_it_has_loaded(tmp_path):
    from attn_tui.app import AttnApp
    from attn_tui.screens.home import loaded_book

    app = AttnApp(lang="en", data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert loaded_book(app) is not None
        course = app.screen.query_one("#course")
        assert "Continue" in str(course.get_option_at_index(0).prompt)


async def test_the_path_line_counts_the_course_s_own_chapters_and_lessons(tmp_path):
    """The home's path line said "three chapters, twelve lessons" in words after a thirteenth
    lesson came: the counts are the course's, in both languages."""
    from attn_tui.app import AttnApp
    from attn_tui.screens.home import loaded_book

    for lang, words in (("en", "{c} chapters, {n} lessons"), ("zh", "{c} 章 {n} 课")):
        app = AttnApp(lang=lang, data_dir=tmp_path / lang)
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            status = loaded_book(app).status()
            chapters = {entry.lesson.chapter for entry in status.lessons}
            line = str(app.screen.query_one("#course").get_option("path").prompt)
            assert words.format(c=len(chapters), n=len(status.lessons)) in line


def test_a_coursebook_half_imported_by_another_thread_reads_as_not_loaded(monkeypatch):
    """While the areas' background import (or any thread) is inside the coursebook's import,
    sys.modules holds it half made, without ``loaded``: the home screen resumed then (Esc
    from an area) must see "not loaded yet", not crash (the benchmark met it under load)."""
    import types

    from attn_tui.screens import home

    monkeypatch.setattr(home, "_coursebook", None)
    monkeypatch.setitem(sys.modules, "attn_tui.coursebook", types.ModuleType("attn_tui.coursebook"))
    assert home.loaded_book(types.SimpleNamespace(data_dir=None)) is None
