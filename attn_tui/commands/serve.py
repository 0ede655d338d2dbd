"""``attn-tui serve``: the tutor in a browser, one app process per tab, for a whole class.

    attn-tui serve [--host 127.0.0.1] [--port 8000] [--lang zh] [--token TOKEN] [--max-sessions 60]

Each student opens the printed address; the first screen asks their name (or ``&name=…`` in
the address gives it) and their progress goes to ``<data dir>/students/<name>/``. Bound to
127.0.0.1 by default: only this machine. Any other host is a deliberate choice, said so on
start, and then an access token is required (made up and printed unless ``--token`` gives one);
``--token`` on loopback turns it on there too. Ctrl+C stops the server and every session.

textual-serve (and the web server under it) is imported only here, only when serving.
"""

from __future__ import annotations

import argparse
import re
import socket
import sys
from pathlib import Path

NAME = "serve"
MAX_WORKERS = 1024  # --workers: more training processes than any machine has cores
WARM = 10  # parked sessions: the first 10 tabs of a burst open at once; the rest start then
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,128}")


def add_parser(subparsers) -> argparse.ArgumentParser:
    from attn_tui.i18n import t

    p = subparsers.add_parser(
        NAME,
        help=t("serve.cli.help", lang="en"),
        description="Serve the tutor to a class: each browser tab runs its own app, each "
        "student keeps their own progress. Loopback only unless --host says otherwise.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0 serves the whole network)",
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a name students may reach the server by, besides its address and "
                   "localhost (a classroom DNS name; repeatable): requests for any other "
                   "Host are refused, which stops DNS rebinding")  # fmt: skip
    p.add_argument(
        "--lang",
        dest="serve_lang",
        choices=("zh", "en"),
        help="the language sessions start in (students can switch with F2)",
    )
    p.add_argument(
        "--token",
        help="access token students need (?token=…); made up when the host is "
        "not loopback and none is given",
    )
    p.add_argument("--max-sessions", type=int, default=60, metavar="N",
                   help="most sessions at once (default 60); "
                   "more tabs get a 'class is full' page")  # fmt: skip
    p.add_argument("--workers", type=int, metavar="N",
                   help="training processes all sessions together may run for comparisons over "
                   "seeds (default: one per core; 0: each runs inside its session)")  # fmt: skip
    p.add_argument("--no-preload", action="store_true",
                   help="start every session from scratch instead of forking it from a warm "
                   "pool (slower; the pool is used on Linux only)")  # fmt: skip
    p.add_argument("--warm", type=int, metavar="N",
                   help=f"sessions kept started and waiting for a tab (default {WARM}, at most "
                   "--max-sessions): as many as students arriving at the same moment; "
                   "each holds ~30 MB")  # fmt: skip
    return p


def session_argv(root: Path, lang: str, exercises: list[Path]) -> list[str]:
    """The command one tab runs (the server appends ``--student NAME`` when the URL names one)."""
    argv = [sys.executable, "-m", "attn_tui.serve.session", "--root", str(root), "--lang", lang]
    for folder in exercises:
        argv += ["--exercises", str(Path(folder).expanduser().resolve())]
    return argv


def refusal_page(page_html, kind: str, lang: str, limit: int) -> str:
    """The page a browser gets instead of the tutor (``kind``: refused, full, host, expired):
    in the class's language, then in the other one — a student may read either."""
    from attn_tui.i18n import t

    other = "en" if lang == "zh" else "zh"
    said = [
        (code, t(f"serve.{kind}.title", lang=code), t(f"serve.{kind}.body", lang=code, limit=limit))
        for code in (lang, other)
    ]
    return page_html(*said[0][1:], lang, more=said[1:])


def run(args: argparse.Namespace) -> int:
    from attn_tui import paths
    from attn_tui.core.parse import InputError
    from attn_tui.i18n import get_lang, set_lang, t

    if not 1 <= args.port <= 65535:
        raise InputError("serve.bad_port", port=args.port)
    if args.token is not None and not _TOKEN.fullmatch(args.token):
        raise InputError("serve.bad_token")
    if args.max_sessions < 1:
        raise InputError("serve.bad_max", value=args.max_sessions)
    if not args.host.strip():  # "" binds every interface, and made the address "http://:8000/"
        raise InputError("serve.bad_host")
    try:  # before the warm pool is started: a name that cannot be looked up is one line
        socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as err:  # UnicodeError: a label over 63 characters, "a..b"
        raise InputError("serve.cannot_bind", host=args.host, port=args.port,
                         error=getattr(err, "strerror", None) or str(err)) from None  # fmt: skip
    from attn_tui.serve.hosts import valid_name

    for name in args.allow_host:
        if not valid_name(name):
            raise InputError("serve.bad_allow_host", name=name)
    if args.warm is None:
        args.warm = min(WARM, args.max_sessions)
    if not 0 <= args.warm <= args.max_sessions:
        raise InputError("serve.bad_warm", value=args.warm, limit=args.max_sessions)
    if args.workers is not None and not 0 <= args.workers <= MAX_WORKERS:
        raise InputError("serve.bad_workers", value=args.workers, limit=MAX_WORKERS)
    try:
        from attn_tui.serve.server import ClassroomServer, is_loopback, make_token, page_html
    except ImportError:
        raise InputError("serve.no_textual_serve") from None

    lang = args.serve_lang or get_lang()
    set_lang(lang)  # what the server tells the teacher while it runs, in the class's language
    root = paths.data_dir(args.data_dir).expanduser().resolve()
    loopback = is_loopback(args.host)
    token, made_up = args.token, False
    if token is None and not loopback:
        token, made_up = make_token(), True

    def page(kind: str) -> str:
        return refusal_page(page_html, kind, lang, args.max_sessions)

    def announce() -> None:
        shown = args.host if args.host not in ("0.0.0.0", "::") else socket.gethostname()
        if ":" in shown:
            shown = f"[{shown}]"
        url = f"http://{shown}:{args.port}/"
        lines = [t("serve.started", lang=lang)]
        if token is not None:
            lines += [f"  {url}?token={token}", t("serve.url_name", lang=lang)]
        else:
            lines += [f"  {url}", t("serve.url_name_first", lang=lang)]
        if not loopback:
            lines.append(t("serve.beyond", lang=lang, host=args.host))
        if made_up:
            lines.append(t("serve.token_made", lang=lang))
        lines += [
            t("serve.progress", lang=lang, path=root / "students"),
            t("serve.stop", lang=lang),
        ]
        print("\n".join(lines), flush=True)

    server = ClassroomServer(
        session_argv(root, lang, args.exercises),
        host=args.host,
        port=args.port,
        token=token,
        max_sessions=args.max_sessions,
        page=page,
        announce=announce,
        preload=not args.no_preload,
        warm=args.warm,
        allow_hosts=args.allow_host,
        workers=args.workers,
        session_log=str(root / "logs" / "sessions.log"),  # session.LOG
    )
    try:
        server.serve()
    except (OSError, UnicodeError) as err:
        raise InputError("serve.cannot_bind", host=args.host, port=args.port,
                         error=getattr(err, "strerror", None) or str(err)) from None  # fmt: skip
    print(t("serve.stopped", lang=lang, count=server.ended), flush=True)
    return 0
