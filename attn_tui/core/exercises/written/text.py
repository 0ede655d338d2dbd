"""A written answer as a row of units the rubric can be matched against.

One pass turns what a learner typed into *units*: an English word becomes its stem ("queries",
"query" → ``queri``; a small typo in a long word is first mended against the words the rubric
knows), a Chinese character stays one unit but remembers the word the segmenter put it in (so
"键" is not found inside "关键"), a number or a symbol (√, ·, ∑, α, →, =, parentheses) is a unit
of its own, and punctuation becomes a boundary between clauses or sentences. Mathematical
notation is rewritten first into one written form: ``q^T k``, ``qᵀk``, ``<q,k>`` and ``q.k``
all read ``q · k``; ``sqrt(d_k)``, ``d^0.5`` and ``根号 d`` read ``√d``; ``exp(x)/Σexp`` reads
``softmax``; ``Σ αᵢ vᵢ`` and ``softmax(…)V`` read as a weighted sum of ``v``. Every unit keeps the
span of the original text it came from, so feedback quotes the learner's own words.

The three libraries (rjieba for Chinese words, snowballstemmer for English stems, rapidfuzz for
typos) are imported the first time an answer is read, never at import: the app's cold start
does not pay for them. rjieba carries its dictionary inside the library: no cache file, no
download, nothing printed.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

MAX_CHARS = 4000  # an answer longer than this is read up to here (the grade says so)

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_SCAN = re.compile(
    r"(?P<zh>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)"
    r"|(?P<en>[a-z]+(?:'[a-z]+)?)"
    r"|(?P<num>\d+(?:\.\d+)?)"
    r"|(?P<sent>[。;!?\n]|\.(?!\d))"
    r"|(?P<clause>[,:—–]|--)"
    r"|(?P<list>[、])"
    r"|(?P<sym>[√·∑σαβ→←=/^()+×<>≈~∝])"
)
SYMBOLS = set("√·∑σαβ→←=/^()+×<>≈~∝")
BOUNDARY_KINDS = ("sent", "clause", "list")

# -- mathematical notation, rewritten into one form -----------------------------------------

_VAR = r"(?:q|k|v|s|a|x|h|e|α)"
_DOT: list[tuple[re.Pattern[str], str]] = [
    # q·k: q^T k, qᵀk (NFKC: qTk), q k^T, QKᵀ, q.k, q*k, q@k, <q,k>, ⟨q,k⟩
    (re.compile(r"[<⟨]\s*q\s*,\s*k\s*[>⟩]"), " q · k "),
    (
        re.compile(
            r"(?<![a-z])(?:q\s*(?:\^\s*\(?t\)?|ᵀ)\s*k|q\s*[·.*@×]\s*k(?:\s*\^\s*\(?t\)?)?"
            r"|qk(?:\s*\^\s*\(?t\)?|t)?|q\s+k(?:\s*\^\s*\(?t\)?|t))(?![a-z])"
        ),
        " q · k ",
    ),
    (re.compile(r"(?<![a-z])q\s*t\s*k(?![a-z])"), " q · k "),
]
_REWRITES: list[tuple[re.Pattern[str], str]] = [
    # "权重高≠因果", "weight != cause": a denial, read as one ("not equal to")
    (re.compile(r"≠|!=|=/="), " not equal to "),
    (re.compile(r"->|=>|⟶|⇒"), " → "),
    # a hyphen with a space on each side is a dash: "not worse - it is one run" ends the "not"
    # (between words, not in "l - i" or "q·k - 3")
    (
        re.compile(r"(?:(?<=[a-z][a-z])|(?<=[\u4e00-\u9fff])) - (?=[a-z][a-z]|[\u4e00-\u9fff])"),
        " — ",
    ),
    (re.compile(r"<-|⟵|⇐"), " ← "),
    (re.compile(r"[⋅∙•]"), "·"),
    *_DOT,  # before indices go ("q kᵀ" is not "q k" with an index t) and after ("q·kᵢ")
    # indices: kᵢ (NFKC: ki), k_i, k_{i}, α_ij, d_k → k, α, d
    (re.compile(rf"(?<![a-z])({_VAR})_?\{{?(?:[ijt]|[ij][ij]|\d)\}}?(?![a-z])"), r"\1"),
    (re.compile(r"(?<![a-z])d_?\{?k\}?(?![a-z])"), "d"),
    *_DOT,
    # √d: sqrt(d), sqrt d, √(d), d^0.5, d^(1/2), d**0.5, 根号 d, 根号下 d, 开根号 d
    (
        re.compile(
            r"(?:√|sqrt|根号下?|开根号)\s*(?:\(\s*d(?:imension)?\s*\)|d(?:imension)?)"
            r"|(?<![a-z])d\s*(?:\^|\*\*)\s*\(?\s*(?:0?\.5|1\s*/\s*2)\s*\)?"
        ),
        " √d ",
    ),
    # softmax written out: exp(x)/Σexp(x), e^x / sum e^x
    (
        re.compile(
            r"(?:exp|e\s*\^)\s*\(?[^/()]{0,24}\)?\s*/\s*(?:∑|sum|σ)\s*(?:_?[a-z]{0,2})?\s*(?:exp|e\s*\^)"
            r"[^,;。]{0,24}?\)?(?=[\s,;。)]|$)"
        ),
        " softmax ",
    ),
    # Σ α v: ∑ α v, ∑_i α_i v_i, sum a v, ∑ softmax(...) v
    (
        re.compile(
            r"(?:∑|sum)\s*(?:_?\{?[ij]\}?)?\s*(?:α|a|alpha|w|weights?)\s*[·*×]?\s*v(?:alues?)?(?![a-z])"
        ),
        " weighted sum of v ",
    ),
    (re.compile(r"\)\s*[·*@]?\s*v(?![a-z])"), ") weighted sum of v "),
    (re.compile(r"(?<![a-z])(?:α|alpha)\s*[·*×]?\s*v(?:alues?)?(?![a-z])"), " weighted sum of v "),
]


def _rewrite(text: str) -> tuple[str, list[tuple[int, int]]]:
    """Apply every rewrite in turn; ``origin[i]`` is the span of the original text that
    character i of the result came from."""
    origin = [(i, i + 1) for i in range(len(text))]
    for pattern, replacement in _REWRITES:
        out: list[str] = []
        new_origin: list[tuple[int, int]] = []
        last = 0
        for m in pattern.finditer(text):
            out.append(text[last : m.start()])
            new_origin += origin[last : m.start()]
            piece = m.expand(replacement)
            if m.end() > m.start():
                span = (origin[m.start()][0], origin[m.end() - 1][1])
            else:
                span = origin[m.start()] if m.start() < len(origin) else (len(text), len(text))
            out.append(piece)
            new_origin += [span] * len(piece)
            last = m.end()
        if last == 0 and not out:
            continue
        out.append(text[last:])
        new_origin += origin[last:]
        text, origin = "".join(out), new_origin
    return text, origin


def fold(text: str) -> str:
    """NFKC (full-width → half-width, ᵢ → i), case folded; Σ kept apart from σ."""
    text = text.replace("Σ", "∑").replace("’", "'").replace("‘", "'")
    return unicodedata.normalize("NFKC", text).casefold()


# -- the libraries, loaded once, on first use -----------------------------------------------

_lock = threading.Lock()
_segmenter = None
_added: set[str] = set()
_stem_cache: dict[str, str] = {}
_stemmer = None


def _jieba():
    global _segmenter
    if _segmenter is None:
        with _lock:
            if _segmenter is None:
                import rjieba

                _segmenter = rjieba.Jieba()
    return _segmenter


def warm() -> None:
    """Load the three libraries now (a screen that may grade written answers calls this in a
    background thread, so the first answer does not wait for them)."""
    _jieba()
    stem("warming")
    from rapidfuzz import process  # noqa: F401
    from rapidfuzz.distance import OSA  # noqa: F401


def add_words(words: Iterable[str]) -> None:
    """Teach the segmenter the domain's Chinese words (glossary and rubric forms), so that
    "查询向量" or "加权求和" stay whole words."""
    seg = _jieba()
    with _lock:
        for w in words:
            if len(w) > 1 and w not in _added and all(CJK.match(c) for c in w):
                seg.add_word(w, None, None)
                _added.add(w)


def stem(word: str) -> str:
    """The English stem of a lower-case word ("saturates" → "satur"); short words as they are."""
    found = _stem_cache.get(word)
    if found is not None:
        return found
    global _stemmer
    if _stemmer is None:
        import snowballstemmer

        _stemmer = snowballstemmer.stemmer("english")
    out = word if len(word) <= 2 else _stemmer.stemWord(word)
    if len(_stem_cache) > 50_000:
        _stem_cache.clear()
    _stem_cache[word] = out
    return out


def mend(word: str, vocabulary: frozenset[str], choices: tuple[str, ...]) -> str | None:
    """A long word the rubric does not know, mended to the known word one edit away (two for
    words of nine letters or more; a swap of neighbours is one edit). Same first letter only:
    a typo rarely hits it, and "decoder" never turns into "encoder"."""
    if len(word) < 6 or word in vocabulary or not choices:
        return None
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    limit = 2 if len(word) >= 9 else 1
    found = process.extractOne(
        word,
        [c for c in choices if c[0] == word[0] and abs(len(c) - len(word)) <= limit],
        scorer=OSA.distance,
        score_cutoff=limit,
    )
    return found[0] if found else None


# -- units ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    key: str  # an English stem, one Chinese character, a number, a symbol, or the boundary mark
    kind: str  # "en", "zh", "num", "sym", or a boundary: "sent", "clause", "list"
    start: int  # span in the original answer
    end: int
    word: int  # zh: index of the segmenter's word this character belongs to
    word_start: bool = True  # zh: first character of its word
    word_end: bool = True  # zh: last character of its word
    typo: bool = False  # an English word mended from a typo


# Quotation marks and brackets the learner typed are dropped from a quote (it is quoted
# already, and a phrase cut between 「 and 」 would keep one of them).
_QUOTE_MARKS = str.maketrans("", "", '「」『』“”‘’"《》【】')


@dataclass(frozen=True)
class Reading:
    """An answer read into units, with what it takes to quote it back."""

    text: str  # the answer as typed (cut at MAX_CHARS)
    units: tuple[Unit, ...]
    words: tuple[str, ...]  # zh: the segmenter's words, by Unit.word
    cut: bool  # the answer was longer than MAX_CHARS

    def quote(self, first: int, last: int) -> str:
        """The learner's own words from unit ``first`` to unit ``last`` (inclusive)."""
        a, b = self.units[first].start, self.units[last].end
        return " ".join(self.text[a:b].translate(_QUOTE_MARKS).split())


_CONTRACTIONS = {"can't": "can", "won't": "will", "shan't": "shall", "cannot": "can"}


def read(
    answer: str,
    vocabulary: frozenset[str] = frozenset(),
    choices: tuple[str, ...] = (),
) -> Reading:
    """Read ``answer`` into units. ``vocabulary`` (raw lower-case English words the rubric and
    the exercise use) decides which long words may be mended as typos, toward ``choices``."""
    cut = len(answer) > MAX_CHARS
    raw = answer[:MAX_CHARS]
    folded = fold(raw)
    text, origin = _rewrite(folded)
    # NFKC can change lengths (ligatures); map folded offsets back through a per-char fold.
    back = _fold_map(raw, folded)
    units: list[Unit] = []
    words: list[str] = []

    def span(a: int, b: int) -> tuple[int, int]:
        s, e = origin[a][0], origin[b - 1][1]
        return back[min(s, len(back) - 1)][0], back[min(e - 1, len(back) - 1)][1]

    for m in _SCAN.finditer(text):
        kind = m.lastgroup or ""
        a, b = m.span()
        if kind == "zh":
            for word, ws, we in _jieba().tokenize(m.group(), "default", False):
                w_index = len(words)
                words.append(word)
                for j in range(ws, we):
                    s, e = span(a + j, a + j + 1)
                    units.append(Unit(word[j - ws], "zh", s, e, w_index, j == ws, j == we - 1))
        elif kind == "en":
            s, e = span(a, b)
            word = m.group()
            if word.endswith("'s"):
                word = word[:-2]
            negated = False
            if word in _CONTRACTIONS:
                word, negated = _CONTRACTIONS[word], True
            elif word.endswith("n't"):
                word, negated = word[:-3], True
            mended = mend(word, vocabulary, choices) if vocabulary else None
            units.append(Unit(stem(mended or word), "en", s, e, -1, typo=mended is not None))
            if negated:
                units.append(Unit("not", "en", s, e, -1))
        elif kind == "num":
            s, e = span(a, b)
            value = m.group()
            if "." in value:
                value = value.rstrip("0").rstrip(".") or "0"
            units.append(Unit(value, "num", s, e, -1))
        else:
            s, e = span(a, b)
            units.append(Unit(m.group(), kind, s, e, -1))
    return Reading(raw, tuple(units), tuple(words), cut)


@lru_cache(maxsize=4096)
def _fold_len(ch: str) -> int:
    return len(fold(ch))


def _fold_map(raw: str, folded: str | None = None) -> list[tuple[int, int]]:
    """For each character of ``fold(raw)`` (``folded``, when already made), the span of ``raw``
    it came from. Each character's fold is looked up, not redone: folding every character of
    every answer was a third of reading one."""
    folded = fold(raw) if folded is None else folded
    lengths = [_fold_len(ch) for ch in raw]
    if len(folded) == len(raw) and all(n == 1 for n in lengths):
        out = [(i, i + 1) for i in range(len(raw))]  # the common case: one for one
    else:
        out = []
        for i, n in enumerate(lengths):
            out += [(i, i + 1)] * n
    if len(out) != len(folded):  # a fold that joins characters: fall back to proportional
        n, m = len(folded), max(1, len(raw))
        return [(min(m - 1, i * m // max(1, n)), min(m, i * m // max(1, n) + 1)) for i in range(n)]
    return out or [(0, 0)]


@lru_cache(maxsize=8192)
def form_units(form: str) -> tuple[str, ...]:
    """A glossary or rubric form as the unit keys it must match ("Query vectors" →
    ``("queri", "vector")``, "加权求和" → its four characters, "√d" → ``("√", "d")``)."""
    text, _ = _rewrite(fold(form))
    keys: list[str] = []
    for m in _SCAN.finditer(text):
        kind = m.lastgroup
        if kind == "zh":
            keys += list(m.group())
        elif kind == "en":
            word = m.group()
            if word.endswith("'s"):
                word = word[:-2]
            if word in _CONTRACTIONS:
                keys += [stem(_CONTRACTIONS[word]), "not"]
            elif word.endswith("n't"):
                keys += [stem(word[:-3]), "not"]
            else:
                keys.append(stem(word))
        elif kind == "num":
            value = m.group()
            if "." in value:
                value = value.rstrip("0").rstrip(".") or "0"
            keys.append(value)
        elif kind == "sym":
            keys.append(m.group())
    return tuple(keys)


def has_units(text: str) -> bool:
    """Whether a form reads into any unit at all (checked without loading a library)."""
    folded, _ = _rewrite(fold(text))
    return any(m.lastgroup in ("zh", "en", "num", "sym") for m in _SCAN.finditer(folded))


def english_words(text: str) -> set[str]:
    """The lower-case English words of a text (the vocabulary typos are mended toward)."""
    return set(re.findall(r"[a-z]+", fold(text)))
