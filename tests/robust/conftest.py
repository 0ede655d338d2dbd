"""Every robustness test runs in a scratch working directory: a hostile relative path
(``--data-dir "[bold]x"``) creates its folder where it is given, which must not be the
repository."""

import pytest


@pytest.fixture(autouse=True)
def _scratch_cwd(tmp_path, monkeypatch):
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
