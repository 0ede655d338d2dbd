"""The one error type of the core: a fault in what a learner or teacher gave.

Its own module, importing nothing, so the command line can catch it without loading numpy.
"""

from __future__ import annotations


class InputError(ValueError):
    """A fault in learner input: ``code`` names it, ``params`` locate it (field, row, entry...)."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        detail = ", ".join(f"{k}={v!r}" for k, v in params.items())
        super().__init__(f"{code}({detail})")
