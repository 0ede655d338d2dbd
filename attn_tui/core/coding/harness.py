"""The child's side of a code check: run the learner's function on the cases it is sent.

Started by :mod:`attn_tui.core.coding.sandbox` as ``python -I -B -X utf8 harness.py LIMITS``,
never imported by the learner's process for anything else: it reads numpy and the standard
library only (not ``attn_tui``, so there is no reference in this process to change, and the
parent decides every verdict). In order:

1. import numpy, set the limits (address space, CPU seconds, open files, file size, no core
   file) and, where the kernel has Landlock, take away writing outside a private scratch
   folder, running programs, TCP, and signalling processes outside this one;
2. say it is ready (a frame on fd 3), and wait for one job on stdin: the file, the function
   and the cases' arguments;
3. arm a watchdog (:func:`faulthandler.dump_traceback_later`) that writes where the code was
   to fd 4 and ends the process when its time is up — it runs in C, so a ``while True: pass``
   is stopped too;
4. load the file, then call the function on each case in turn, sending each result (or the
   exception, as frames of the learner's file only) as a frame on fd 3.

Frames are length-prefixed: a JSON header, then the arrays it refers to in ``.npy`` format
(``allow_pickle=False`` both ways). The parent reads them with the same two functions,
:func:`pack` and :func:`unpack`, bounded in size.
"""

from __future__ import annotations

import io
import json
import os
import struct
import sys
import time
import traceback
from typing import Any

# -- frames: shared with the parent ----------------------------------------------------------

_LEN = struct.Struct(">I")
MAX_FRAME = 32 * 2**20  # no case of ours comes near; a learner's huge result is refused


class FrameError(Exception):
    """A frame that is not one (too large, cut short, not JSON, a pickled array...)."""


def pack(header: dict[str, Any], arrays: list[Any] = ()) -> bytes:  # type: ignore[assignment]
    """One frame: ``header`` (JSON) and ``arrays`` (numpy arrays, in order)."""
    import numpy as np

    body = io.BytesIO()
    head = json.dumps({**header, "arrays": len(arrays)}, ensure_ascii=False).encode("utf-8")
    body.write(_LEN.pack(len(head)))
    body.write(head)
    for a in arrays:
        np.lib.format.write_array(body, np.asarray(a), allow_pickle=False)
    data = body.getvalue()
    return _LEN.pack(len(data)) + data


def unpack(data: bytes) -> tuple[dict[str, Any], list[Any]]:
    """The header and arrays of one frame's body (without its length prefix)."""
    import numpy as np

    try:
        (n,) = _LEN.unpack_from(data, 0)
        header = json.loads(data[4 : 4 + n].decode("utf-8"))
        if not isinstance(header, dict) or not isinstance(header.get("arrays"), int):
            raise FrameError("no header")
        stream = io.BytesIO(data[4 + n :])
        arrays = [
            np.lib.format.read_array(stream, allow_pickle=False) for _ in range(header["arrays"])
        ]
    except FrameError:
        raise
    except Exception as err:  # a malformed frame, whatever the reason
        raise FrameError(f"{type(err).__name__}: {err}") from None
    return header, arrays


def encode(value: Any, arrays: list[Any]) -> Any:
    """A value as JSON, its arrays appended to ``arrays``: {"a": i}, {"t": [...]}, {"v": x}.

    Anything else is described, not sent: {"type": "str"} (the parent says what came back)."""
    import numpy as np

    if isinstance(value, tuple | list) and not _numeric_list(value):
        return {"t": [encode(v, arrays) for v in value], "kind": type(value).__name__}
    if (
        value is None
        or isinstance(value, bool | int | float | str)
        and not isinstance(value, np.generic)
    ):
        if isinstance(value, str):
            return {"type": "str", "text": value[:200]}
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**62:
            value = float(value)
        return {"v": value}
    try:
        a = np.asarray(value)
    except Exception:  # an object numpy cannot read
        return {"type": type(value).__name__}
    if a.dtype.kind not in "biufc":
        return {"type": type(value).__name__, "dtype": str(a.dtype)}
    arrays.append(a)
    return {"a": len(arrays) - 1, "kind": type(value).__name__}


def _numeric_list(value: Any) -> bool:
    """A (nested) list of numbers reads as one array; a tuple of arrays stays a tuple."""
    if isinstance(value, tuple):
        return False
    return all(
        isinstance(v, int | float)
        and not isinstance(v, bool)
        or isinstance(v, list)
        and _numeric_list(v)
        for v in value
    )


def decode(obj: Any, arrays: list[Any]) -> Any:
    if "a" in obj:
        return arrays[obj["a"]]
    if "t" in obj:
        return tuple(decode(v, arrays) for v in obj["t"])
    return obj.get("v")


# -- limits ----------------------------------------------------------------------------------


def set_limits(limits: dict[str, Any]) -> None:
    import resource

    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = int(used.ru_utime + used.ru_stime) + 1 + int(limits["cpu"])
    for name, value in (
        ("RLIMIT_AS", limits["memory"]),
        ("RLIMIT_CPU", cpu),
        ("RLIMIT_NOFILE", limits["open_files"]),
        ("RLIMIT_FSIZE", limits["file_size"]),
        ("RLIMIT_CORE", 0),
    ):
        which = getattr(resource, name, None)
        if which is None:
            continue
        hard = value + 1 if name == "RLIMIT_CPU" else value  # SIGXCPU first, then SIGKILL
        try:
            resource.setrlimit(which, (value, hard))
        except (ValueError, OSError):
            pass  # a hard limit already lower: it binds anyway


# Landlock (Linux ≥ 5.13): the same system call numbers on every architecture.
_CREATE, _ADD_RULE, _RESTRICT = 444, 445, 446
_FS_EXECUTE, _FS_WRITE_FILE, _FS_READ_FILE, _FS_READ_DIR = 1, 2, 4, 8
# write file, remove dir/file, make char/dir/reg/sock/fifo/block/sym: bits 1 and 4–12
_FS_WRITES = sum(1 << bit for bit in (1, 4, 5, 6, 7, 8, 9, 10, 11, 12))
_FS_REFER, _FS_TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3
_NET_TCP = 3  # bind and connect, ABI 4
_SCOPE = 3  # abstract unix sockets and signals outside the domain, ABI 6


def restrict_files(read_roots: list[str], scratch: str) -> int:
    """Landlock: read only below ``read_roots``; write only below ``scratch`` (and /dev/null);
    run no program, open no TCP connection, signal no process outside this one.
    The ABI version applied (0: not available here, nothing restricted)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        abi = libc.syscall(_CREATE, None, 0, 1)  # LANDLOCK_CREATE_RULESET_VERSION
        if abi < 1:
            return 0
        reads = _FS_READ_FILE | _FS_READ_DIR
        writes = _FS_WRITES | (_FS_REFER if abi >= 2 else 0) | (_FS_TRUNCATE if abi >= 3 else 0)
        handled = _FS_EXECUTE | reads | writes

        class Ruleset(ctypes.Structure):
            _fields_ = [
                ("fs", ctypes.c_uint64),
                ("net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64),
            ]

        class Beneath(ctypes.Structure):
            _pack_ = 1
            _fields_ = [("allowed", ctypes.c_uint64), ("fd", ctypes.c_int32)]

        attr = Ruleset(handled, _NET_TCP if abi >= 4 else 0, _SCOPE if abi >= 6 else 0)
        size = ctypes.sizeof(Ruleset) if abi >= 6 else (16 if abi >= 4 else 8)
        ruleset = libc.syscall(_CREATE, ctypes.byref(attr), size, 0)
        if ruleset < 0:
            return 0
        rules = [(root, reads) for root in read_roots] + [(scratch, reads | writes)]
        rules.append(("/dev/null", _FS_READ_FILE | _FS_WRITE_FILE))
        for path, allowed in rules:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            if not os.path.isdir(path):
                allowed &= _FS_READ_FILE | _FS_WRITE_FILE | (_FS_TRUNCATE if abi >= 3 else 0)
            rule = Beneath(allowed, fd)
            libc.syscall(_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0)
            os.close(fd)
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            return 0
        if libc.syscall(_RESTRICT, ruleset, 0) != 0:
            return 0
        os.close(ruleset)
        return int(abi)
    except Exception:  # no ctypes, no libc: the other limits still hold
        return 0


# -- running the learner's code --------------------------------------------------------------

MAX_SOURCE = 512 * 2**10
MAX_MESSAGE = 1500


def _their_frames(tb: Any, path: str) -> list[list[Any]]:
    """The traceback's frames in the learner's file only: [line, function, source]."""
    frames = []
    for frame in traceback.extract_tb(tb):
        if frame.filename == path:
            frames.append([frame.lineno, frame.name, (frame.line or "").strip()[:200]])
    return frames[-8:]


def describe_error(err: BaseException, path: str) -> dict[str, Any]:
    message = str(err)
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + " …"
    found: dict[str, Any] = {
        "type": type(err).__name__,
        "message": message,
        "frames": _their_frames(err.__traceback__, path),
    }
    if isinstance(err, SyntaxError) and err.filename == path:
        found["frames"] = [[err.lineno or 1, "<module>", (err.text or "").strip()[:200]]]
        found["message"] = err.msg
        found["column"] = err.offset
    return found


def _send(fd: int, header: dict[str, Any], arrays: list[Any] = ()) -> None:  # type: ignore[assignment]
    data = pack(header, arrays)
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _read_job(stream: Any) -> tuple[dict[str, Any], list[Any]]:
    raw = stream.read(4)
    if len(raw) < 4:
        raise SystemExit(0)  # the parent went away before sending a job
    (size,) = _LEN.unpack(raw)
    if size > MAX_FRAME:
        raise SystemExit(3)
    return unpack(stream.read(size))


def main(argv: list[str]) -> int:
    config = json.loads(argv[1])
    results, watchdog = int(config["results_fd"]), int(config["watchdog_fd"])
    import faulthandler

    import numpy as np  # before the limits: the learner's code finds it loaded

    set_limits(config["limits"])
    abi = restrict_files(config["read_roots"], config["scratch"]) if config["landlock"] else 0
    _send(results, {"ready": True, "landlock": abi, "pid": os.getpid()})

    job, arrays = _read_job(sys.stdin.buffer)
    sys.stdin = open(os.devnull)  # the learner's input() ends at once
    path = job["file"]
    faulthandler.dump_traceback_later(float(job["seconds"]), exit=True, file=watchdog)
    start = time.perf_counter()
    try:
        os.chdir(os.path.dirname(path))
        sys.path.insert(0, os.path.dirname(path))
        with open(path, "rb") as fh:
            source = fh.read(MAX_SOURCE + 1)
        if len(source) > MAX_SOURCE:
            _send(results, {"stage": "load", "too_large": MAX_SOURCE})
            return 0
        code = compile(source, path, "exec", dont_inherit=True)
        module = type(sys)("learner")
        module.__file__ = path
        sys.modules["learner"] = module
        exec(code, module.__dict__)  # the learner's own file, in this process only
    except BaseException as err:  # their file did not load: a syntax error, an exception...
        _send(results, {"stage": "load", "error": describe_error(err, path)})
        return 0
    function = module.__dict__.get(job["function"])
    if not callable(function):
        defined = sorted(
            k
            for k, v in module.__dict__.items()
            if callable(v) and not k.startswith("_") and k != "np"
        )
        _send(results, {"stage": "load", "missing": job["function"], "defined": defined[:20]})
        return 0
    _send(results, {"stage": "loaded", "seconds": time.perf_counter() - start})
    for i, case in enumerate(job["cases"]):
        args = [decode(a, arrays) for a in case["args"]]
        given = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        _send(results, {"case": i, "begin": True})
        t0 = time.perf_counter()
        try:
            out = function(*given)
        except BaseException as err:
            _send(results, {"case": i, "error": describe_error(err, path)})
            continue
        seconds = time.perf_counter() - t0
        sent: list[Any] = []
        try:
            encoded = encode(out, sent)
            changed = {
                str(k): encode(g, sent)
                for k, (a, g) in enumerate(zip(args, given, strict=True))
                if isinstance(a, np.ndarray)
                and not (g.shape == a.shape and np.array_equal(g, a, equal_nan=True))
            }
            _send(
                results, {"case": i, "out": encoded, "changed": changed, "seconds": seconds}, sent
            )
        except BaseException as err:  # their result could not be sent (too large...)
            _send(results, {"case": i, "error": describe_error(err, path), "sending": True})
    faulthandler.cancel_dump_traceback_later()
    _send(results, {"done": True, "seconds": time.perf_counter() - start})
    return 0


if __name__ == "__main__":
    try:
        status = main(sys.argv)
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 1
    sys.stdout.flush()
    os._exit(status)  # the learner's atexit handlers, threads and finalisers do not run
