"""Shared pieces for the classroom tests: a clean data directory, what a widget shows, and
``attn-tui serve`` running on a free loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from rich.console import Console


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTN_TUI_DATA_DIR", str(tmp_path / "data"))
    yield
    from attn_tui import i18n

    i18n.set_lang("en")


def shown(widget, width: int = 60) -> str:
    """The plain text a Static currently shows, rendered at ``width`` columns."""
    with open(os.devnull, "w") as sink:
        console = Console(width=width, record=True, file=sink, color_system=None)
        console.print(widget.content)
        return console.export_text()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """``attn-tui serve`` in a subprocess; ``stop()`` sends Ctrl+C (SIGINT) and waits."""

    def __init__(
        self, data: Path, *args: str, host: str = "127.0.0.1", files: int | None = None,
        argv: list[str] | None = None, ready: str = "Ctrl+C",
    ) -> None:  # fmt: skip
        """``files``: the server's limit on open descriptors (soft and hard, as ``ulimit -n``
        sets it); ``argv``: another command than ``attn-tui serve`` (``{port}`` filled in),
        ready once it prints a line holding ``ready``."""
        self.port = free_port()
        self.data = data
        self.base = f"http://127.0.0.1:{self.port}/"
        if argv is None:
            argv = [sys.executable, "-m", "attn_tui", "--data-dir", str(data), "serve",
                    "--host", host, "--port", str(self.port), *args]  # fmt: skip
        else:
            argv = [a.replace("{port}", str(self.port)) for a in argv]

        def limit() -> None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
            preexec_fn=limit if files else None,
        )  # fmt: skip
        self.banner: list[str] = []
        deadline = time.monotonic() + 90
        while not any(ready in line for line in self.banner):
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"serve did not start: {self.proc.stderr.read()}")
            self.banner.append(line.rstrip("\n"))
            if time.monotonic() > deadline:
                raise RuntimeError("serve did not start in time")
        # stderr is read all along: a server that says too much must not block on a full pipe
        self._err: list[str] = []
        self._err_reader = threading.Thread(target=self._read_err, daemon=True)
        self._err_reader.start()

    def _read_err(self) -> None:
        for chunk in iter(lambda: self.proc.stderr.read(65536), ""):
            self._err.append(chunk)

    @property
    def err(self) -> str:
        """What the server has written to stderr so far."""
        return "".join(self._err)

    @property
    def text(self) -> str:
        """What the server printed when it started."""
        return "\n".join(self.banner)

    def descendants(self) -> list[int]:
        """Every live process below the server (Linux /proc): the children of each of a
        process's threads (a pool started from a worker thread is that thread's)."""
        found, todo = [], [self.proc.pid]
        while todo:
            pid = todo.pop()
            kids = []
            try:
                for task in Path(f"/proc/{pid}/task").iterdir():
                    kids += (task / "children").read_text().split()
            except OSError:
                continue
            for kid in map(int, kids):
                if alive(kid):
                    found.append(kid)
                    todo.append(kid)
        return found

    def stop(self, timeout: float = 30) -> tuple[int, str, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
        finally:
            out = self.proc.stdout.read()
            self._err_reader.join(10)
        return self.proc.returncode, out, self.err


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1][0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.fixture
def serve(tmp_path):
    """A factory: ``serve(*args)`` starts a server; every one is stopped after the test."""
    started: list[Served] = []

    def start(*args: str, host: str = "127.0.0.1", **options) -> Served:
        served = Served(tmp_path / "data", *args, host=host, **options)
        started.append(served)
        return served

    yield start
    for served in started:
        if served.proc.poll() is None:
            served.proc.kill()
            served.proc.wait()
