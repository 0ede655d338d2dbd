"""The course's progress store belongs to the student the tab is for, never the server's own.

Before the fix the home screen loaded the course (and opened its store) as a served tab
mounted, before the student was named: every student's lessons and reviews went to one
``progress.db`` in the server's data folder (tests/classroom/test_serve.py checks that file
is never made, against a real server)."""

from types import SimpleNamespace

from attn_tui import coursebook


def test_no_store_before_the_name_and_the_students_own_after(tmp_path):
    app = SimpleNamespace(data_dir=tmp_path / "server", extra_exercises=(), keeps_progress=False)
    unnamed = coursebook.of(app)
    assert unnamed.store is None
    assert not (tmp_path / "server" / "progress.db").exists()

    app.data_dir, app.keeps_progress = tmp_path / "ann", True
    assert coursebook.loaded(app) is None, "a book for another folder is not this one's"
    ann = coursebook.of(app)
    assert ann is not unnamed and ann.store is not None
    assert (tmp_path / "ann" / "progress.db").exists()
    assert coursebook.of(app) is ann, "loaded once per folder"
    ann.close()
