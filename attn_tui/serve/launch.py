"""The command textual-serve runs for a tab when the pool is on (see pool.py).

    python -I -S launch.py SOCKET [--student=NAME]

Standard library only and run without site-packages, so it starts in a few milliseconds: it
hands its stdin, stdout and stderr to the pool, which forks a warm session onto them, then
waits for that session to end and exits with its status. Killed, it takes its session with it
(the pool sees the socket close).
"""

import json
import os
import signal
import socket
import sys


def main(argv: list[str]) -> int:
    student = None
    if len(argv) == 2 and argv[1].startswith("--student="):  # one word: a name is never an option
        student = argv[1][len("--student=") :]
    elif len(argv) == 3 and argv[1] == "--student":
        student = argv[2]
    elif len(argv) != 1:
        print("usage: launch.py SOCKET [--student=NAME]", file=sys.stderr)
        return 2
    env = {k: os.environ[k] for k in ("COLUMNS", "ROWS") if k in os.environ}
    request = json.dumps({"student": student, "env": env}).encode("utf-8")
    pool = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        pool.connect(argv[0])
        socket.send_fds(pool, [request], [0, 1, 2])
    except OSError as err:
        print(f"attn-tui: the session pool is not answering: {err}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server ends sessions, not a stray Ctrl+C
    replies = b""
    while replies.count(b"\n") < 2:  # the session's pid, then its exit status
        chunk = pool.recv(64)
        if not chunk:
            return 1  # the pool went away
        replies += chunk
    return int(replies.split(b"\n")[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
