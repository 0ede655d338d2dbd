"""Reading written answers: the text normalisation rubric matching works on.

The loader uses it to reject rubric phrases that normalise to nothing; the grader to match.
"""

from __future__ import annotations

import unicodedata


def normalise_text(text: str) -> str:
    """For rubric matching: full-width folded, case folded, every space and punctuation mark
    dropped. Symbols stay, so "√d" does not shrink to "d"."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if not unicodedata.category(ch).startswith(("P", "Z", "C")))
