"""Reading a written answer maps each folded character back to the text the learner typed; the
per-character folds are looked up (cached) rather than redone, and must give the same map."""

from __future__ import annotations

import unicodedata

import pytest

from attn_tui.core.exercises.written import text


def _by_hand(raw: str) -> list[tuple[int, int]]:
    """The map made the slow, obvious way: fold every character on its own."""

    def fold(s: str) -> str:
        s = s.replace("Σ", "∑").replace("’", "'").replace("‘", "'")
        return unicodedata.normalize("NFKC", s).casefold()

    out: list[tuple[int, int]] = []
    for i, ch in enumerate(raw):
        out += [(i, i + 1)] * len(fold(ch))
    n = len(fold(raw))
    if len(out) != n:
        m = max(1, len(raw))
        return [(min(m - 1, i * m // max(1, n)), min(m, i * m // max(1, n) + 1)) for i in range(n)]
    return out or [(0, 0)]


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "Softmax of QKᵀ / √d",
        "ﬁnal ﬂow: Straße, ΣΑΣ, ＱＫＶ全角",  # ligatures, ß → ss, full width: lengths change
        "查询向量与键向量做点积，再除以根号 d。",
        "e\u0301 and é, ㄱㅏ, \u1100\u1161",  # combining marks and jamo: NFKC joins them
        "it’s the ‘keys’ — not the values",
        "x" * 5000,
    ],
)
def test_fold_map_is_the_per_character_fold(raw):
    assert text._fold_map(raw) == _by_hand(raw)
    assert text._fold_map(raw, text.fold(raw)) == _by_hand(raw)
