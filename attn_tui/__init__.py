"""attn-tui: a full-screen terminal tutor for the attention mechanism."""

import os as _os

# numpy's BLAS starts a thread per core for a large enough matrix product. Every product here
# is small (16 × 16 weights, at most 1024 rows), too small for threads to pay, and on a busy
# 2-core machine a second BLAS thread made training 5× slower (benchmarks/bench_trainer.py;
# train --json's seconds against the benchmark's, which already ran one thread). It must be
# set before numpy is first imported; a value the user set is kept.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
