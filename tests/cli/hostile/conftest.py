"""Every robustness test runs in a scratch working directory and with a scratch data
directory: a hostile relative path (``--data-dir "[bold]x"``) creates its folder where it is
given, which must not be the repository, and a fuzzed ``progress --reset --yes`` without
``--data-dir`` resets the progress in $ATTN_TUI_DATA_DIR, which must not be the user's own
(it was, before this fixture set it: the fuzz test reset the real progress.db)."""

import os
import stat

import pytest


@pytest.fixture(autouse=True)
def _scratch_cwd(tmp_path, monkeypatch):
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(tmp_path / "user-data"))


@pytest.fixture(autouse=True)
def _never_replace_a_device(monkeypatch):
    """The hostile targets include /dev/full and /dev/null, and the suite may run as root, who
    can rename a file over a device: a write that renames instead of writing into it (what
    the figure, gradebook and model writers did) fails here, loudly, and the device stays."""
    real_replace, real_rename = os.replace, os.rename

    def guarded(real):
        def move(src, dst, *args, **kwargs):
            try:
                mode = os.stat(dst).st_mode
            except (OSError, ValueError, TypeError):
                mode = None
            if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise PermissionError(1, "test guard: would rename a file over a device or pipe")
            return real(src, dst, *args, **kwargs)

        return move

    monkeypatch.setattr(os, "replace", guarded(real_replace))
    monkeypatch.setattr(os, "rename", guarded(real_rename))
