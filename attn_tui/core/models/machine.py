"""Which arithmetic this process trains with: numpy's version, its BLAS, and the BLAS kernel.

    where = machine()     # Machine(numpy='2.4.6', blas='scipy-openblas 0.3.31', kernel='SkylakeX')
    where.label           # 'numpy 2.4.6, scipy-openblas 0.3.31, kernel SkylakeX'

Float32 training amplifies the last bits of every matrix product, and those bits are BLAS's:
OpenBLAS picks a kernel per CPU (SkylakeX on an AVX-512 machine, Haswell on an AVX2 one; the
``OPENBLAS_CORETYPE`` environment variable overrides the choice), macOS's numpy may use
Accelerate, others MKL. The same seed then ends elsewhere, so the stored tables say where they
were made, and the learner's own runs are compared with them by their spread, not their bits.
Reads only what numpy and the loaded OpenBLAS library report; never fails (unknown parts are
"").
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

# OpenBLAS names its "which kernel did you pick" function differently per build
_CORENAME = (
    "scipy_openblas_get_corename64_",
    "scipy_openblas_get_corename",
    "openblas_get_corename64_",
    "openblas_get_corename",
)


@dataclass(frozen=True)
class Machine:
    numpy: str
    blas: str  # name and version, e.g. "scipy-openblas 0.3.31.188.0"; "" if numpy does not say
    kernel: str  # OpenBLAS's kernel, e.g. "SkylakeX"; "" for another BLAS or if unknown
    forced: str = ""  # OPENBLAS_CORETYPE when set: the kernel was chosen by hand, not by the CPU

    @property
    def label(self) -> str:
        parts = [f"numpy {self.numpy}"]
        if self.blas:
            parts.append(self.blas)
        if self.kernel:
            parts.append(f"kernel {self.kernel}")
        if self.forced:
            parts.append(f"OPENBLAS_CORETYPE={self.forced}")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, str]:
        return {"numpy": self.numpy, "blas": self.blas, "kernel": self.kernel,
                "forced": self.forced}  # fmt: skip


@cache
def machine() -> Machine:
    forced = os.environ.get("OPENBLAS_CORETYPE", "").strip()
    return Machine(np.__version__, _blas_name(), _openblas_kernel(), forced)


def _blas_name() -> str:
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return " ".join(str(blas[k]) for k in ("name", "version") if blas.get(k)).strip()
    except Exception:  # an older numpy, or a build that does not say: not worth a failure
        return ""


def _openblas_libraries() -> list[Path]:
    """The OpenBLAS libraries numpy may have loaded: its wheel's own copy, else what the
    process has mapped (Linux)."""
    root = Path(np.__file__).resolve().parent
    found = [
        p
        for folder in (root.parent / "numpy.libs", root / ".dylibs", root / ".libs")
        if folder.is_dir()
        for p in sorted(folder.iterdir())
        if "openblas" in p.name.lower()
    ]
    if not found and os.path.exists("/proc/self/maps"):
        try:
            with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
                mapped = {line.split()[-1] for line in f if "openblas" in line.lower()}
            found = [Path(p) for p in sorted(mapped) if p.startswith("/")]
        except OSError:
            pass
    return found


def _openblas_kernel() -> str:
    for path in _openblas_libraries():
        try:
            lib = ctypes.CDLL(str(path))  # already loaded by numpy: the same handle
        except OSError:
            continue
        for name in _CORENAME:
            fn = getattr(lib, name, None)
            if fn is None:
                continue
            fn.restype, fn.argtypes = ctypes.c_char_p, []
            value = fn()
            return value.decode("ascii", "replace").strip() if value else ""
    return ""


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def other_kernel() -> str | None:
    """A second OpenBLAS kernel this CPU can run beside its own choice, to check that a result
    does not hang on one kernel's rounding: Haswell (AVX2), or Sandybridge (AVX) where Haswell
    is the CPU's own choice or beyond it. None without OpenBLAS, off x86, or without AVX."""
    here = machine()
    if not here.kernel:
        return None
    own = here.forced or here.kernel
    flags = _cpu_flags()
    if "avx2" in flags and own.lower() != "haswell":
        return "Haswell"
    if "avx" in flags and own.lower() != "sandybridge":
        return "Sandybridge"
    return None
