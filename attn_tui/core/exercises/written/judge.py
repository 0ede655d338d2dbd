"""Judging a written answer against a rubric of ideas, as a careful teacher reads it.

The answer is read into units (:mod:`.text`); every glossary term, rubric phrase and grammar
word (:mod:`.lexicon`) found in it becomes a *mention*. A longer mention hides the shorter ones
inside it ("不同" is no "不"; "√d" is no "d"; "self-attention" no "attention"). Then, per idea:

* **alternatives**: an idea is found when all the terms of one of its alternatives are
  mentioned in one sentence (``"VARIANCE INCREASE"``);
* **negation**: a negator governs the words after it to the end of its clause ("not", "不",
  "it is false that"), the next few words ("no", "without"), or the clause before it ("无关",
  "is wrong"); an alternative asserted under an odd number of negators is *negated* — unless
  the rubric asks for the denial (``"!BOTTLENECK"``: "there is no bottleneck"); 学不到 is 学到
  denied; a clause that is only "no" denies the clause (or question) before it; a clause that
  points back and calls it false ("but that is all wrong", "以上都是错的") takes it back;
* **questions** assert nothing ("为什么帮不上忙？"), unless a bare yes or no answers them;
* **roles**: ``from`` pairs the anchor with the source its sentence names (``Q from the
  decoder``, ``the encoder supplies K``) and a different source is a *swap*; ``scope`` puts the
  idea after the term it belongs to (cross-attention, not self-attention); ``with``/``against``
  name the roles its clause may mention ("softmax the *keys*" is a swap: it is the scores);
* **order**: when an answer speaks in steps ("first", "then", "然后"), ideas the rubric orders
  must come in that order;
* **contradictions**: a claim the rubric lists ("variance shrinks with d") cancels credit, when
  said plainly (each predicate beside its term);
* **keyword lists**: fragments with no function word and no operator ("16 dimensions, no
  bottleneck, 934") earn at most half the pass mark: a teacher asked for sentences.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from attn_tui.core.exercises.model import (
    CONTRADICTED,
    FOUND,
    MISSING,
    NEGATED,
    OUT_OF_ORDER,
    SWAPPED,
    Contradiction,
    Exercise,
    Idea,
    IdeaResult,
)
from attn_tui.core.exercises.written import lexicon
from attn_tui.core.exercises.written.text import (
    BOUNDARY_KINDS,
    Reading,
    add_words,
    english_words,
    form_units,
    has_units,
    read,
    stem,
)

Atom = tuple[str, bool]  # (TERM id or 'phrase', whether the rubric wants it denied)
_ATOM = re.compile(r"""(!?)\s*([A-Z][A-Z0-9_]*|'[^']+'|"[^"]+")""")
NEAR_PASS = 0.1501  # a fail this close to the pass mark (a pass half as close) is uncertain
UNKNOWN_SHARE = 0.5  # more than this share of unknown content words: uncertain
MAX_COMBOS = 64  # mentions tried per alternative
MAX_NEGATORS = 8  # negators read per clause
WINDOW = 16  # the terms of one alternative lie within this many units of each other
# Terms that say something about another term ("grows", "is 1", "vanish"): such a term must
# share a clause with a term it can be said of, so "variance grows, so gradients vanish"
# never reads as "gradients grow".
PREDICATES = frozenset({"INCREASE", "DECREASE", "ONE", "GOOD", "HURT", "TIGHT", "CANCEL", "NEED"})
# A contradiction cancels every idea, so it must be plain: each of its predicates lies within
# this many units of a term it is said of ("the gradients get larger"), never across a clause
# full of other things ("huge inputs make softmax's output one-hot and its derivative 0").
CONTRA_REACH = 4
# A keyword list's fragment may pair two concepts in at most this many words ("variance d").
PAIR_WORDS = 3
# A one-fragment answer of at most this many words, with no function word, operator or
# predicate, is a label ("seed noise", "方差 饱和"), not a sentence.
SHORT_LABEL = 3

_GRAMMAR = {
    "@NEG": lexicon.NEG,
    "@NEG_SHORT": lexicon.NEG_SHORT,
    "@NEG_POST": lexicon.NEG_POST,
    "@NEG_BOTH": lexicon.NEG_BOTH,
    "@NOT_NEG": lexicon.NOT_NEG,
    "@END": lexicon.END,
    "@STEP": lexicon.STEP,
    "@FROM": lexicon.FROM,
    "@GIVE": lexicon.GIVE,
    "@ANAPHOR": lexicon.ANAPHOR,
    "@ANAPHOR_ALL": lexicon.ANAPHOR_ALL,
    "@FALSE": lexicon.FALSE,
    "@RETRACT": lexicon.RETRACT,
    "@HEDGE": lexicon.HEDGE,
    "@TELL": lexicon.TELL,
    "@ECHO": lexicon.ECHO,
    "@ONLY_REASON": lexicon.ONLY_REASON,
    "@OTHERWISE": lexicon.OTHERWISE,
}
_NEGATORS = ("@NEG", "@NEG_SHORT", "@NEG_POST", "@NEG_BOTH")
# Words that start a clause or a step: in Chinese, only where a word starts.
_JOINERS = frozenset({"@END", "@STEP"})


def parse_alternative(text: str) -> tuple[Atom, ...] | None:
    """``"VARIANCE !INCREASE 'back to 1'"`` → atoms; None when the text is not of that form."""
    atoms: list[Atom] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _ATOM.match(text, pos)
        if m is None:
            return None
        name = m.group(2)
        if name[0] in "'\"":
            name = "'" + name[1:-1].strip() + "'"
            if not has_units(name[1:-1]):
                return None
        atoms.append((name, m.group(1) == "!"))
        pos = m.end()
        while pos < len(text) and text[pos] == " ":
            pos += 1
    return tuple(atoms) or None


def terms_of(alternatives: Iterable[str]) -> set[str]:
    """The glossary ids an idea's alternatives name (for the loader to check)."""
    out: set[str] = set()
    for alt in alternatives:
        for name, _ in parse_alternative(alt) or ():
            if name[0] != "'":
                out.add(name)
    return out


# -- the lexicon of one exercise ------------------------------------------------------------


@dataclass(frozen=True)
class _Form:
    keys: tuple[str, ...]
    term: str
    single_zh: bool  # one Chinese character: must not sit inside a longer ordinary word


@dataclass
class _Lexicon:
    # forms by their first two unit keys (None for one-unit forms): a unit looks up only the
    # few forms that can start there
    by_first: dict[tuple[str, str | None], list[_Form]] = field(default_factory=dict)
    # A teacher's English phrase ending in a word stem ("saturat") matches any word it begins:
    # phrases keyed by their first four letters.
    by_prefix: dict[str, list[_Form]] = field(default_factory=dict)
    # A teacher's English phrase of two or more words also matches with one more word inside
    # it ("same pattern" in "the same attention pattern"): phrases keyed by their first word.
    gapped: dict[str, list[_Form]] = field(default_factory=dict)
    domain_words: set[str] = field(default_factory=set)  # Chinese forms of two or more characters
    vocabulary: frozenset[str] = frozenset()  # English words a typo may be mended toward
    choices: tuple[str, ...] = ()
    known_stems: frozenset[str] = frozenset()

    def add(self, form: str, term: str) -> None:
        keys = form_units(form)
        if not keys:
            return
        single = (
            not term.startswith("@")
            and len(keys) == 1
            and len(form.strip()) == 1
            and "\u3400" <= form.strip() <= "\ufaff"
        )
        pair = (keys[0], keys[1] if len(keys) > 1 else None)
        self.by_first.setdefault(pair, []).append(_Form(keys, term, single))
        if term.startswith("'") and all(k.isascii() and k.isalpha() for k in keys):
            if any(len(k) >= 5 for k in keys):
                self.by_prefix.setdefault(keys[0][:4], []).append(_Form(keys, term, False))
            if len(keys) >= 2:
                self.gapped.setdefault(keys[0], []).append(_Form(keys, term, False))
        if len(form) > 1 and all("\u3400" <= c <= "\ufaff" for c in form):
            self.domain_words.add(form)


@dataclass(frozen=True)
class _Shared:
    """The glossary's and the grammar's forms, read once per glossary (most of a lexicon)."""

    forms: tuple[tuple[str, str], ...]  # (form, term)
    words: frozenset[str]


_shared: dict[int, tuple[object, _Shared]] = {}


def _shared_forms(glossary) -> _Shared:
    hit = _shared.get(id(glossary))
    if hit is not None and hit[0] is glossary:
        return hit[1]
    forms: list[tuple[str, str]] = []
    words: set[str] = set()
    for term in glossary:
        for form in [
            term.forms["zh"],
            term.forms["en"],
            *term.also.get("zh", ()),
            *term.also.get("en", ()),
        ]:
            forms.append((form, term.id))
            words |= english_words(form)
    for name, entry in _GRAMMAR.items():
        zh, en = lexicon.split_forms(entry)
        forms += [(form, name) for form in zh + en]
    words |= english_words(" ".join(lexicon.split_forms(lexicon.FUNCTION)[1]))
    words |= english_words(" ".join(lexicon.split_forms(lexicon.COMMON)[1]))
    shared = _Shared(tuple(forms), frozenset(words))
    _shared[id(glossary)] = (glossary, shared)
    return shared


def _lexicon(glossary, exercise: Exercise, literals: Iterable[str]) -> _Lexicon:
    lex = _Lexicon()
    shared = _shared_forms(glossary)
    words = set(shared.words)
    for form, term in shared.forms:
        lex.add(form, term)
    for lit in literals:
        lex.add(lit[1:-1], lit)
        words |= english_words(lit[1:-1])
    for text in (exercise.prompt, exercise.explanation, exercise.answer):
        if hasattr(text, "en"):
            words |= english_words(text.en)
    lex.vocabulary = frozenset(words)
    lex.choices = tuple(sorted(w for w in words if len(w) >= 5))
    lex.known_stems = frozenset(stem(w) for w in words)
    for forms in lex.by_first.values():
        forms.sort(key=lambda f: -len(f.keys))
    add_words(lex.domain_words)
    return lex


@dataclass
class Compiled:
    """A rubric made ready to judge with: alternatives parsed, the lexicon built once."""

    exercise: Exercise
    lex: _Lexicon
    ideas: list[tuple[Idea, list[tuple[Atom, ...]], list[str]]]  # idea, alternatives, forbid
    contradictions: list[tuple[Contradiction, list[tuple[Atom, ...]]]]
    sources: frozenset[str]
    scopes: frozenset[str]
    targets: frozenset[str] = frozenset({"QUERY", "KEY", "VALUE"})
    prompt: str = ""  # the prompt's units, as _sentence_keys joins them, both languages
    topic: frozenset[str] = frozenset()  # the concepts the prompt itself names


# A found idea is quoted by its clause when the clause is at most this many characters long.
PHRASE_CHARS = 48
# A sentence of at least this many units found word for word in the prompt is the prompt
# copied back: it restates what was given and earns nothing ("课本跑了一次长度 5 的反转").
COPIED_UNITS = 6
_SEP = "\x1f"


def _sentence_keys(keys: Iterable[str]) -> str:
    return _SEP + _SEP.join(keys) + _SEP


def _alternatives(match: Sequence[str], phrases: Iterable[str]) -> list[tuple[Atom, ...]]:
    alts = [a for a in (parse_alternative(m) for m in match) if a]
    alts += [(("'" + p.strip() + "'", False),) for p in phrases if form_units(p)]
    return alts


_compiled: dict[int, tuple[Exercise, Compiled]] = {}


def compile_rubric(exercise: Exercise, glossary) -> Compiled:
    """The rubric of ``exercise`` ready to judge with (built once per exercise object)."""
    hit = _compiled.get(id(exercise))
    if hit is not None and hit[0] is exercise:
        return hit[1]
    ideas = []
    literals: set[str] = set()
    for idea in exercise.rubric:
        alts = _alternatives(idea.match, idea.all_phrases())
        forbid = ["'" + p.strip() + "'" for p in idea.all_forbid() if form_units(p)]
        ideas.append((idea, alts, forbid))
        literals |= {name for alt in alts for name, _ in alt if name[0] == "'"}
        literals |= set(forbid)
        literals |= {
            name for u in idea.unless for name, _ in parse_alternative(u) or () if name[0] == "'"
        }
    contradictions = []
    for c in exercise.contradictions:
        phrases = [p for lang in ("zh", "en") for p in c.phrases.get(lang, ())]
        alts = _alternatives(c.match, phrases)
        contradictions.append((c, alts))
        literals |= {name for alt in alts for name, _ in alt if name[0] == "'"}
        literals |= {  # an excuse's phrases must be found too ("unless = ["'if'"]")
            name for u in c.unless for name, _ in parse_alternative(u) or () if name[0] == "'"
        }
    lex = _lexicon(glossary, exercise, sorted(literals))
    prompt = "\x1e".join(
        _sentence_keys(
            u.key
            for u in read(
                getattr(exercise.prompt, lang, "") or "", lex.vocabulary, lex.choices
            ).units
            if u.kind not in BOUNDARY_KINDS
        )
        for lang in ("zh", "en")
    )
    topic = frozenset(
        m.term
        for lang in ("zh", "en")
        for m in Analysis(
            read(getattr(exercise.prompt, lang, "") or "", lex.vocabulary, lex.choices), lex
        ).mentions
        if _noun(m.term)
    )
    comp = Compiled(
        exercise,
        lex,
        ideas,
        contradictions,
        frozenset(i.source for i in exercise.rubric if i.source),
        frozenset(i.scope for i in exercise.rubric if i.scope),
        prompt=prompt,
        topic=topic,
    )
    if len(_compiled) > 512:
        _compiled.clear()
    _compiled[id(exercise)] = (exercise, comp)
    return comp


# -- one answer, read -----------------------------------------------------------------------


@dataclass(frozen=True)
class Mention:
    term: str
    first: int  # unit indices, inclusive
    last: int


class Analysis:
    """Every mention in one answer, with its sentence, clause and the negators over it."""

    def __init__(self, reading: Reading, lex: _Lexicon) -> None:
        self.reading = reading
        units = reading.units
        n = len(units)
        found: list[Mention] = []
        self._potentials: set[tuple[int, int]] = set()
        for i, u in enumerate(units):
            if u.kind in BOUNDARY_KINDS:
                continue
            after = units[i + 1].key if i + 1 < n else None
            for form in (
                *lex.by_first.get((u.key, None), ()),
                *lex.by_first.get((u.key, after), ()),
            ):
                j = i + len(form.keys) - 1
                if j >= n or any(
                    units[i + k].key != form.keys[k] or units[i + k].kind in BOUNDARY_KINDS
                    for k in range(1, len(form.keys))
                ):
                    continue
                if form.single_zh and not (u.word_start and u.word_end):
                    if reading.words[u.word] not in lex.domain_words:
                        continue  # "键" inside "关键", "值" inside "数值"
                if form.term in _JOINERS and u.kind == "zh" and not u.word_start:
                    continue  # "于是" inside "等于是": no new clause there
                found.append(Mention(form.term, i, j))
            if u.kind == "en" and len(u.key) >= 4:
                for form in lex.by_prefix.get(u.key[:4], ()):
                    j = i + len(form.keys) - 1
                    if j < n and all(
                        units[i + k].kind == "en" and _same_word(units[i + k].key, form.keys[k])
                        for k in range(len(form.keys))
                    ):
                        found.append(Mention(form.term, i, j))
            if u.kind == "en":
                found += _gapped(units, i, lex.gapped.get(u.key, ()))
            if u.kind == "zh" and i + 2 < n and units[i + 1].key == "不":
                found += self._potential(i, lex)
        self.mentions = _outermost(list(dict.fromkeys(found)))
        self.by_term: dict[str, list[Mention]] = {}
        for m in self.mentions:
            self.by_term.setdefault(m.term, []).append(m)
        # sentences and clauses
        starts = {m.first for m in self.mentions if m.term in ("@END", "@STEP")}
        self.sent = [0] * n
        self.clause = [0] * n
        s = c = 0
        for i, u in enumerate(units):
            if u.kind == "sent":
                s += 1
                c += 1
            elif u.kind == "clause" or i in starts:
                c += 1
            self.sent[i], self.clause[i] = s, c
        self.clause_span: dict[int, tuple[int, int]] = {}
        for i in range(n):
            a, b = self.clause_span.get(self.clause[i], (i, i))
            self.clause_span[self.clause[i]] = (min(a, i), max(b, i))
        # negation scopes: (negator index, first unit, last unit)
        self.scopes: list[tuple[int, int, int]] = []
        per_clause: dict[int, int] = {}
        negators = []
        for m in self.mentions:  # a clause of a hundred "不" is noise: its first few count
            if m.term in _NEGATORS:
                c = self.clause[m.first]
                per_clause[c] = per_clause.get(c, 0) + 1
                if per_clause[c] <= MAX_NEGATORS:
                    negators.append(m)
        for k, m in enumerate(negators):
            lo, hi = self.clause_span[self.clause[m.first]]
            if m.term == "@NEG":
                # "is not tight and attention has nothing to fix": "and" ends a "not", unless
                # it joins two things ("not the keys and values")
                nxt = next(
                    (
                        j
                        for j in range(m.last + 1, hi + 1)
                        if units[j].key == "and" and not self._joins_nouns(j)
                    ),
                    None,
                )
                self.scopes.append((k, m.last + 1, hi if nxt is None else nxt - 1))
            elif m.term == "@NEG_SHORT":
                self.scopes.append((k, m.last + 1, min(hi, m.last + lexicon.NEG_SHORT_REACH)))
            elif m.term == "@NEG_POST":
                self.scopes.append((k, lo, m.first - 1))
            else:
                self.scopes.append((k, lo, m.first - 1))
                self.scopes.append((k, m.last + 1, hi))
        # a negator inside brackets denies only what they hold: "除以 √d（而不是 d）把方差拉回
        # 1", "divide by √d (not by d) to bring the variance back to 1"
        brackets: list[tuple[int, int]] = []
        opened: list[int] = []
        for i, u in enumerate(units):
            if u.kind == "sym" and u.key in "([":
                opened.append(i)
            elif u.kind == "sym" and u.key in ")]" and opened:
                brackets.append((opened.pop(), i))
        if brackets:
            clipped = []
            for k, lo, hi in self.scopes:
                m = negators[k]
                inner = [(o, c) for o, c in brackets if o < m.first and m.last < c]
                if inner:
                    o, c = max(inner)
                    lo, hi = max(lo, o + 1), min(hi, c - 1)
                clipped.append((k, lo, hi))
            self.scopes = clipped
        extra = itertools.count(len(negators))
        for m in self.mentions:  # 学不到 is 学到 denied, and what it takes: 收不到梯度
            if (m.first, m.last) in self._potentials:
                self.scopes.append(
                    (next(extra), m.first, self.clause_span[self.clause[m.first]][1])
                )
        self._bare_denials(negators, extra)
        self._denied_labels(negators, extra)
        self._echoes(negators, extra)
        self._retractions(extra)
        self.asks = self._questions(negators)
        # sentences opening with a late turn: (first, last unit, whether a strong one)
        self.turned: dict[int, tuple[int, int, bool]] = {}
        self.has_steps = "@STEP" in self.by_term
        self.otherwise = frozenset(
            self.sent[m.first]
            for m in self.mentions
            if m.term in ("@OTHERWISE", "HARD_ATTENTION", "LONG")
        )

    def _questions(self, negators: list[Mention]) -> frozenset[int]:
        """The sentences that ask and are not answered by a bare yes or no right after."""
        units = self.reading.units
        words = self.reading.words
        q_zh, q_en, aux, yes_zh, yes_en = _question_words()
        negated = {i for n in negators for i in range(n.first, n.last + 1)}
        sentence_start: dict[int, int] = {}
        for i in range(len(units)):
            sentence_start.setdefault(self.sent[i], i)
        out = set()
        for i, u in enumerate(units):
            if u.kind != "sent" or u.key != "?":
                continue
            asked = self.sent[i] - 1
            if asked not in sentence_start:
                continue
            content = [
                j for j in range(sentence_start[asked], i) if units[j].kind not in BOUNDARY_KINDS
            ]
            asks = bool(content) and (
                (units[content[0]].kind == "en" and units[content[0]].key in aux)
                or any(
                    (units[j].kind == "en" and units[j].key in q_en)
                    or (
                        units[j].kind == "zh"
                        and (words[units[j].word] in q_zh or units[j].key in q_zh)
                    )
                    for j in content
                )
            )
            if not asks:
                continue
            lo, hi = self.clause_span[self.clause[i]]
            answer = [j for j in range(lo, hi + 1) if units[j].kind not in BOUNDARY_KINDS]
            answered = bool(answer) and all(
                j in negated
                or (units[j].kind == "en" and units[j].key in yes_en)
                or (units[j].kind == "zh" and (words[units[j].word] in yes_zh))
                for j in answer
            )
            if not answered:
                out.add(asked)
        return frozenset(out)

    def _potential(self, i: int, lex: _Lexicon) -> list[Mention]:
        """A known Chinese word with 不 after its first character ("学不到", "装不下", "记不住":
        the negative potential complement) is that word, denied."""
        units = self.reading.units
        out = []
        for form in lex.by_first.get((units[i].key, units[i + 2].key), ()):
            j = i + len(form.keys)  # the form, and the 不 inside it
            if form.term.startswith("@") or len(form.keys) < 2 or j >= len(units):
                continue
            if all(
                units[i + 1 + k].kind == "zh" and units[i + 1 + k].key == form.keys[k]
                for k in range(1, len(form.keys))
            ):
                out.append(Mention(form.term, i, j))
                self._potentials.add((i, j))
        return out

    def _bare_denials(self, negators: list[Mention], extra) -> None:
        """A clause that is nothing but a negator ("why it decides: no", "原因？不能") denies the
        clause before it in its sentence, or the question just before it."""
        units = self.reading.units
        covered = {i for n in negators for i in range(n.first, n.last + 1)}
        for m in negators:
            c = self.clause[m.first]
            lo, hi = self.clause_span[c]
            if any(
                i not in covered for i in range(lo, hi + 1) if units[i].kind not in BOUNDARY_KINDS
            ):
                continue
            if c - 1 not in self.clause_span:
                continue
            plo, phi = self.clause_span[c - 1]
            same_sentence = self.sent[plo] == self.sent[m.first]
            after_question = units[lo].kind == "sent" and units[lo].key == "?"
            if same_sentence or after_question:
                self.scopes.append((next(extra), plo, phi))

    def _denied_labels(self, negators: list[Mention], extra) -> None:
        """A label that denies, tells and names no concept, then a colon ("不能说明：决策的原因",
        "doesn't tell you: the cause"), denies the clause the colon opens ("Nothing is cut
        off: …" is a claim of its own, not a label)."""
        units = self.reading.units
        named = {self.clause[m.first] for m in self.mentions if not m.term.startswith("@")}
        tells = {self.clause[m.first] for m in self.by_term.get("@TELL", ())}
        for c in dict.fromkeys(self.clause[m.first] for m in negators):
            if c in named or c not in tells or c + 1 not in self.clause_span:
                continue
            nlo, nhi = self.clause_span[c + 1]
            if units[nlo].kind == "clause" and units[nlo].key == ":":
                self.scopes.append((next(extra), nlo + 1, nhi))

    def _echoes(self, negators: list[Mention], extra) -> None:
        """A clause that is only a subject and a helping verb after a denied clause ("a single
        softmax can't attend to two places; several heads can") takes back that denial and
        joins its sentence, so the subject has what the clause before it denied."""
        units = self.reading.units
        words = self.reading.words
        func_en = _func_en()
        by_clause: dict[int, list[Mention]] = {}
        for m in self.mentions:
            by_clause.setdefault(self.clause[m.first], []).append(m)
        negated_clauses = {self.clause[n.first] for n in negators}
        for c, ms in by_clause.items():
            echo = [m for m in ms if m.term == "@ECHO"]
            nouns = [m for m in ms if not m.term.startswith("@")]
            if not echo or not nouns or c in negated_clauses or c - 1 not in negated_clauses:
                continue
            if min(m.first for m in echo) < min(m.first for m in nouns):
                continue  # "can several heads …": not an echo
            covered = {i for m in ms for i in range(m.first, m.last + 1)}
            lo, hi = self.clause_span[c]
            if not all(
                i in covered
                or (u.kind == "en" and u.key in func_en)
                or (u.kind == "zh" and (words[u.word] in _FUNC_ZH_SET or u.key in _FUNC_ZH_CHARS))
                for i in range(lo, hi + 1)
                if (u := units[i]).kind not in BOUNDARY_KINDS
            ):
                continue
            plo, phi = self.clause_span[c - 1]
            self.scopes.append((next(extra), plo, phi))
            for i in range(lo, hi + 1):
                self.sent[i] = self.sent[phi]

    def _retractions(self, extra) -> None:
        """A clause that names no concept, points back and calls it false ("but that is all
        wrong", "以上都是错的", "just kidding") denies what it points at: everything before it
        ("all of the above", "以上", "just kidding"), else the sentence before it, or the
        clauses before it in its own sentence."""
        units = self.reading.units
        terms: dict[int, set[str]] = {}
        for m in self.mentions:
            terms.setdefault(self.clause[m.first], set()).add(m.term)
        sentence_start: dict[int, int] = {}
        for i in range(len(units)):
            sentence_start.setdefault(self.sent[i], i)
        k = next(extra)  # one id for them all: "just kidding, none of this is true" denies once
        for c, (lo, _) in self.clause_span.items():
            said = terms.get(c, set())
            if lo == 0 or "@HEDGE" in said or any(not t.startswith("@") for t in said):
                continue
            if "@RETRACT" not in said and not (
                said & {"@FALSE", "@NEG_POST"}
                and (said & {"@ANAPHOR", "@ANAPHOR_ALL"} or self._only_false(c))
            ):
                continue
            # a sentence's boundary mark opens it: "." then "but that is wrong" is a new one
            first_of_sentence = units[lo].kind == "sent" or units[lo - 1].kind == "sent"
            # a sentence that only pauses and says "wrong" ("嗯，不对。", "Hmm, no, that can't
            # be right.") takes back the whole answer before it, as "just kidding" does
            s_lo = sentence_start.get(self.sent[lo], lo)
            alone = all(
                self._only_grammar(c2)
                for c2 in range(self.clause[s_lo], c + 1)
                if c2 in self.clause_span
            )
            if said & {"@RETRACT", "@ANAPHOR_ALL"} or alone:
                start = 0
            else:
                start = sentence_start.get(self.sent[lo] - first_of_sentence, lo)
            if start < lo:
                self.scopes.append((k, start, lo - 1))

    def _only_grammar(self, c: int) -> bool:
        """Whether every word of clause ``c`` is a negator, a FALSE form or an interjection."""
        units = self.reading.units
        lo, hi = self.clause_span[c]
        covered = {
            i
            for m in self.mentions
            if m.term in ("@FALSE", "@NEG_POST", "@NEG_SHORT", "@NEG", "@ANAPHOR")
            and self.clause[m.first] == c
            for i in range(m.first, m.last + 1)
        }
        covered |= {
            i
            for name in ("turn", "correct")
            for first, last in _signal(self, name)
            for i in range(first, last + 1)
        }
        return all(
            i in covered or u.key in _INTERJECTIONS
            for i in range(lo, hi + 1)
            if (u := units[i]).kind not in BOUNDARY_KINDS
        )

    def _only_false(self, c: int) -> bool:
        """Whether clause ``c`` says nothing but "wrong" ("嗯不对", "hmm, no, wrong"): each of
        its words is a form of FALSE or an interjection."""
        units = self.reading.units
        lo, hi = self.clause_span[c]
        covered = {
            i
            for m in self.mentions
            if m.term in ("@FALSE", "@NEG_POST") and self.clause[m.first] == c
            for i in range(m.first, m.last + 1)
        }
        return bool(covered) and all(
            i in covered or u.key in _INTERJECTIONS
            for i in range(lo, hi + 1)
            if (u := units[i]).kind not in BOUNDARY_KINDS
        )

    def _joins_nouns(self, j: int) -> bool:
        """Whether the "and" at unit ``j`` stands between two things named by terms."""
        after = j + 1
        while after < len(self.reading.units) and self.reading.units[after].key in ("the", "a"):
            after += 1
        before = [m for m in self.mentions if m.last == j - 1 and _noun(m.term)]
        return bool(before) and any(m.first == after and _noun(m.term) for m in self.mentions)

    def governed(self, m: Mention) -> frozenset[int]:
        return frozenset(k for k, lo, hi in self.scopes if lo <= m.first <= hi)

    def in_sentence(self, term: str, sentence: int) -> list[Mention]:
        return [m for m in self.by_term.get(term, ()) if self.sent[m.first] == sentence]

    def source_of(
        self, target: Mention, sources: frozenset[str], targets: frozenset[str] = frozenset()
    ) -> Mention | None:
        """The source the target's sentence gives it: after a "from" that follows it (in its
        own clause: "Q while K and V come from the encoder" is K's and V's "from"), before a
        "gives" that precedes it, or the only (else the nearest) source in the sentence that
        no other target has already taken ("the encoder provides the keys")."""
        s = self.sent[target.first]
        cands = sorted((m for t in sources for m in self.in_sentence(t, s)), key=lambda m: m.first)
        if not cands:
            return None
        if len(cands) == 1:
            return cands[0]
        ends = [m.first for m in self.in_sentence("@END", s)]
        froms = [m for m in self.in_sentence("@FROM", s) if m.first > target.last]
        for f in froms:
            if any(target.last < e < f.first for e in ends):
                continue
            if not any(target.last < c.first < f.first for c in cands):
                after = [c for c in cands if c.first > f.last]
                if after:
                    return after[0]
        gives = [m for m in self.in_sentence("@GIVE", s) if m.last < target.first]
        for g in reversed(gives):
            if not any(g.last < c.first < target.first for c in cands):
                before = [c for c in cands if c.last < g.first]
                if before:
                    return before[-1]
        free = [c for c in cands if not self._taken(c, target, targets, s)] or cands
        return min(free, key=lambda c: min(abs(c.first - target.last), abs(target.first - c.last)))

    def _taken(self, c: Mention, target: Mention, targets: frozenset[str], s: int) -> bool:
        """Whether source ``c`` is another target's: it gives the target named next after it
        ("the encoder provides the keys"), or a "from" just before it belongs to the target
        named last before that ("the keys come from the encoder")."""
        named = sorted((m for t in targets for m in self.in_sentence(t, s)), key=lambda m: m.first)
        for g in self.in_sentence("@GIVE", s):
            if c.last < g.first and g.first - c.last <= 2:
                nxt = [m for m in named if m.first > g.last]
                if nxt and nxt[0].first - g.last <= 4 and nxt[0].term != target.term:
                    return True
        ends = [m.first for m in self.in_sentence("@END", s)]
        for f in self.in_sentence("@FROM", s):
            if f.last < c.first and c.first - f.last <= 3:
                prev = [m for m in named if m.last < f.first]
                if not prev or prev[-1].term == target.term:
                    continue
                # "Q, K and V come from X" is Q's "from" too; "K and V come from X, the query
                # …" and "Q while K and V come from X" are not
                if target.first > f.last or any(target.last < e < f.first for e in ends):
                    return True
        return False

    def scope_at(self, pos: int, scopes: frozenset[str]) -> Mention | None:
        """The scope term that governs unit ``pos``: the last one named before it, else the
        first named after it in the same sentence."""
        cands = [m for t in scopes for m in self.by_term.get(t, ())]
        before = [m for m in cands if m.last < pos]
        if before:
            return max(before, key=lambda m: m.last)
        after = [m for m in cands if m.first > pos and self.sent[m.first] == self.sent[pos]]
        return min(after, key=lambda m: m.first) if after else None

    def quote(self, m: Mention) -> str:
        """The learner's words for ``m``, whole words only (“看了哪儿”, never “看了哪”)."""
        first, last = self._whole(m.first, m.last)
        return self.reading.quote(first, last)

    def phrase(self, mentions: Sequence[Mention]) -> str:
        """The phrase that carries an idea: its clause when that is short, else the words from
        its first term to its last (“the scores are turned into weights by softmax”, not
        “softmax”)."""
        first = min(m.first for m in mentions)
        last = max(m.last for m in mentions)
        lo = self.clause_span[self.clause[first]][0]
        hi = self.clause_span[self.clause[last]][1]
        units = self.reading.units
        while lo < first and units[lo].kind in BOUNDARY_KINDS:
            lo += 1
        while hi > last and units[hi].kind in BOUNDARY_KINDS:
            hi -= 1
        whole = self.reading.quote(*self._whole(lo, hi))
        if len(whole) <= PHRASE_CHARS:
            return whole
        return self.reading.quote(*self._whole(first, last))

    def _whole(self, first: int, last: int) -> tuple[int, int]:
        units = self.reading.units
        while first > 0 and units[first].kind == "zh" and not units[first].word_start:
            first -= 1
        while last + 1 < len(units) and units[last].kind == "zh" and not units[last].word_end:
            last += 1
        return first, last


# Words that only voice a pause or a doubt ("嗯不对", "hmm, wrong", "oh wait, no").
_INTERJECTIONS = frozenset("嗯 呃 啊 哦 唔 诶 哎 咦 hmm hm um uh oh ah wait no nope well".split())


@cache
def _question_words() -> tuple[frozenset[str], ...]:
    q_zh, q_en = lexicon.split_forms(lexicon.QUESTION)
    _, aux = lexicon.split_forms(lexicon.AUXILIARY)
    yes_zh, yes_en = lexicon.split_forms(lexicon.YES)
    return (
        frozenset(q_zh),
        frozenset(stem(w) for w in q_en),
        frozenset(stem(w) for w in aux),
        frozenset(yes_zh),
        frozenset(stem(w) for w in yes_en),
    )


def _noun(term: str) -> bool:
    return not term.startswith("@") and term not in PREDICATES


# Words that may never stand inside a teacher's phrase: they turn or join what it says
# ("same pattern" is not in "same or different pattern", "can be updated" not in "can not be").
_NO_GAP = frozenset(
    "not no never nor without and or but than from to if only any every all none".split()
)


def _gapped(units, i: int, forms: Iterable[_Form]) -> list[Mention]:
    """Each multi-word English phrase starting at unit ``i`` with one more word inside it."""
    out = []
    n = len(units)
    for form in forms:
        size = len(form.keys)
        if i + size >= n:
            continue
        for gap in range(1, size):
            g = units[i + gap]
            if g.kind != "en" or g.key in _NO_GAP:
                continue
            picked = [*range(i, i + gap), *range(i + gap + 1, i + size + 1)]
            if all(
                units[k].kind == "en" and units[k].key == key
                for k, key in zip(picked, form.keys, strict=True)
            ):
                out.append(Mention(form.term, i, i + size))
                break
    return out


def _same_word(key: str, form: str) -> bool:
    """An answer's stem against a teacher's word: equal, or one begins the other (5+ letters)."""
    if key == form:
        return True
    short, long = sorted((key, form), key=len)
    return len(short) >= 5 and long.startswith(short)


def _outermost(found: list[Mention]) -> list[Mention]:
    """Drop every mention strictly inside a longer one; equal spans all stay ("键值" is both
    KEY and VALUE)."""
    found.sort(key=lambda m: (m.first, -m.last))
    out: list[Mention] = []
    reach = -1
    i = 0
    while i < len(found):
        j = i
        while j < len(found) and (found[j].first, found[j].last) == (found[i].first, found[i].last):
            j += 1
        if found[i].last > reach:
            out += found[i:j]
        reach = max(reach, found[i].last)
        i = j
    return out


# -- ideas ----------------------------------------------------------------------------------

_RANK = {FOUND: 3, SWAPPED: 2, NEGATED: 1}


@dataclass
class _Hit:
    state: str
    mentions: tuple[Mention, ...]
    against: Mention | None = None
    found_at: list[int] = field(default_factory=list)  # every position the idea is found at
    # the states of every other reading of the idea in the answer ("softmax makes weights …;
    # the weights may be negative" is found once and negated once): a self-conflict
    seen: frozenset[str] = frozenset()
    retaken: bool = False  # found, then denied or swapped in a later sentence
    # swapped by a relation the answer spells out ("K from the decoder", "解码器提供 K"), not
    # by the nearest source in the sentence: a wrong claim, not only a missing idea
    stated: bool = False
    said: _Hit | None = None  # what was found before it was taken back
    first_found: int | None = None  # where any reading first found it, whatever its state

    @property
    def pos(self) -> int:
        return min(m.first for m in self.mentions)


def _try(
    alts: list[tuple[Atom, ...]],
    a: Analysis,
    comp: Compiled,
    idea: Idea | None = None,
    unless: Sequence[str] = (),
    near: bool = False,
    listing: _Lists | None = None,
) -> _Hit | None:
    best: _Hit | None = None
    found_at: list[int] = []
    found_hits: list[_Hit] = []
    seen: set[tuple[int, str, int]] = set()  # (alternative, state, sentence)
    swapped: _Hit | None = None
    readings: list[tuple[int, _Hit]] = []  # (sentence, hit): what each sentence says of it
    unless_terms = [parse_alternative(u) for u in unless]
    together = idea is not None and bool(idea.source)
    for alt_no, alt in enumerate(alts):
        lists = [a.by_term.get(name, []) for name, _ in alt]
        if together and len(alt) == 1 and alt[0][0] in comp.targets:
            # "all three come from the encoder" gives every role its source, this one too
            lists[0] = lists[0] + _together(a, comp)
            together = False
        if any(not ls for ls in lists):
            continue
        want = sum(neg for _, neg in alt) % 2
        for combo in itertools.islice(itertools.product(*lists), MAX_COMBOS):
            s = a.sent[combo[0].first]
            if s in a.asks or any(a.sent[m.first] != s for m in combo):
                continue
            if max(m.last for m in combo) - min(m.first for m in combo) > WINDOW:
                continue
            subjects = {a.clause[m.first] for m in combo if m.term not in PREDICATES}
            if subjects and any(
                a.clause[m.first] not in subjects for m in combo if m.term in PREDICATES
            ):
                continue
            if near and not _predicates_near(combo):
                continue
            if any(u and _excused(a, u, combo, s) for u in unless_terms):
                continue
            hit = _judge_combo(combo, want, a, comp, idea, not any(neg for _, neg in alt))
            if hit is None:
                continue
            if want and hit.state == FOUND:
                # the denial must reach a term the rubric wants denied: in "there is a
                # bottleneck: five letters do not fit in the hidden state" the "not" is the
                # hidden state's, and "HIDDEN_STATE !BOTTLENECK" does not hold
                denied = [m for m, (_, neg) in zip(combo, alt, strict=True) if neg]
                if not any(a.governed(m) for m in denied):
                    hit = _Hit(NEGATED, hit.mentions, hit.against)
            if hit.state == FOUND and listing is not None and listing.item:
                if any(m.first in listing.bare for m in combo if _noun(m.term)):
                    continue  # named inside a bare list of keywords: no claim
                if listing.joins_items(combo):
                    continue  # "标准差 8、数值稳定": two items of a list are not one claim
            if hit.state == FOUND:
                found_at.append(hit.pos)
                found_hits.append(hit)
            seen.add((alt_no, hit.state, s))
            if not want:
                readings.append((s, hit))
            if hit.state == SWAPPED and swapped is None and hit.against is not None:
                if hit.against.term in comp.sources:  # a wrong source, in the idea's own part
                    swapped = hit
            if best is None or (_RANK[hit.state], -hit.pos) > (_RANK[best.state], -best.pos):
                best = hit
    if best is not None and swapped is not None and idea is not None and idea.source:
        # "K from the decoder, Q and V from the encoder": the values' right source does not
        # make up for the keys' wrong one — an idea about roles is swapped when any of its
        # targets is given the wrong source
        best = swapped
        # said right after it ("the query comes from the encoder — wait, no: from the
        # decoder"): mended, so no wrong claim stands
        wrong = {m.term for m in best.mentions if m.term in comp.targets}
        best.stated = best.stated and not any(
            m.term in wrong and m.first > best.pos for h in found_hits for m in h.mentions
        )
    if best is not None and best.state == FOUND and idea is not None:
        # the last word stands: an idea said, then denied or swapped in a later sentence that
        # says it nowhere ("…so we add positional encoding. On second thought, the heads can
        # tell the order apart, so it is optional") is taken back — unless that sentence
        # only says what would happen otherwise ("with a hard max the others get none")
        found_in = {sent for _, st, sent in seen if st == FOUND}
        later = [
            (s, h)
            for s, h in readings
            if (
                h.state == NEGATED
                or (h.state == SWAPPED and h.against is not None and h.against.term in comp.sources)
            )
            and s > max(found_in)
            and (s not in a.otherwise or s in a.turned)
            and not _other_scope(a, comp, idea, h)
        ]
        if later:
            said = best
            best = max(later, key=lambda sh: (sh[0], _RANK[sh[1].state]))[1]
            best.retaken, best.said = True, said
    if best is not None:
        best.first_found = min(found_at, default=None)
        best.found_at = sorted(set(found_at)) if best.state == FOUND else []
        # the same alternative said in one sentence and denied or swapped in another
        found_where = {(k, sent) for k, st, sent in seen if st == FOUND}
        best.seen = frozenset(
            st
            for k, st, sent in seen
            if st != FOUND and any(k == k2 and sent != s2 for k2, s2 in found_where)
        )
    return best


def _bare_yes(a: Analysis) -> Mention | None:
    """The answer's first sentence when it is only a yes ("Yes.", "是的。") and more follows."""
    units = a.reading.units
    if not units or a.sent[-1] == 0:
        return None
    _, _, _, yes_zh, yes_en = _question_words()
    content = [j for j, u in enumerate(units) if a.sent[j] == 0 and u.kind not in BOUNDARY_KINDS]
    said = [
        (units[j].kind == "en" and units[j].key in yes_en)
        or (units[j].kind == "zh" and a.reading.words[units[j].word] in yes_zh)
        for j in content
    ]
    particle = [units[j].kind == "zh" and units[j].key in "的了啊呀" for j in content]
    if not any(said) or not all(y or p for y, p in zip(said, particle, strict=True)):
        return None
    return Mention("@YES", content[0], content[-1])


_prompt_memo: dict[int, tuple[Exercise, tuple[Analysis, ...]]] = {}


def _prompt_claims(comp: Compiled) -> tuple[Analysis, ...]:
    """The prompt read as if it asserted what it asks (in each language)."""
    ex = comp.exercise
    hit = _prompt_memo.get(id(ex))
    if hit is not None and hit[0] is ex:
        return hit[1]
    out = []
    for lang in ("zh", "en"):
        text = getattr(ex.prompt, lang, "") or ""
        if text:
            pa = Analysis(read(text, comp.lex.vocabulary, comp.lex.choices), comp.lex)
            pa.asks = frozenset(range(pa.sent[-1] + 1 if pa.sent else 0)) - _yes_no(pa)
            out.append(pa)
    if len(_prompt_memo) > 512:
        _prompt_memo.clear()
    _prompt_memo[id(ex)] = (ex, tuple(out))
    return tuple(out)


_YES_NO_ZH = ("吗", "是否", "是不是", "有没有", "会不会", "能不能", "能否")


def _yes_no(pa: Analysis) -> frozenset[int]:
    """The sentences of a prompt that ask a yes-or-no question ("Did attention make the model
    worse?", "注意力让模型变差了吗？")."""
    units = pa.reading.units
    _, _, aux, _, _ = _question_words()
    out = set()
    for i, u in enumerate(units):
        if u.kind != "sent" or u.key != "?":
            continue
        s = pa.sent[i] - 1
        content = [j for j in range(i) if pa.sent[j] == s and units[j].kind not in BOUNDARY_KINDS]
        if not content:
            continue
        first = units[content[0]]
        text = "".join(units[j].key for j in content if units[j].kind == "zh")
        if (first.kind == "en" and first.key in aux) or any(w in text for w in _YES_NO_ZH):
            out.add(s)
    return frozenset(out)


def _asserts(pa: Analysis, alts, comp: Compiled, unless: Sequence[str]) -> bool:
    hit = _try(alts, pa, comp, unless=unless, near=True)
    return hit is not None and hit.state == FOUND


def _together(a: Analysis, comp: Compiled) -> list[Mention]:
    """Where the answer gives all the roles one source at once ("all three are taken from
    the encoder", "三个都来自编码器"): an "all" a "from" follows closely, with no role named
    just before it (in "K and V all come from X" the "all" is K's and V's)."""
    memo = a.__dict__.setdefault("_together_memo", {})
    if id(comp) in memo:
        return memo[id(comp)]
    roles = set(comp.targets) | {
        name for idea, alts, _ in comp.ideas if idea.source for alt in alts for name, _ in alt
    }
    named = [m for m in a.mentions if m.term in roles]
    froms = a.by_term.get("@FROM", [])
    ends = [m.first for m in a.by_term.get("@END", ())]
    out: list[Mention] = []
    cands = [m for m in a.by_term.get("@ANAPHOR_ALL", ()) if a.quote(m).casefold() != "it all"]
    cands += [m for m in froms if a.quote(m).startswith("都")]
    for m in cands:
        if m.term == "@ANAPHOR_ALL" and not any(
            0 < f.first - m.last <= 4
            and a.clause[f.first] == a.clause[m.first]
            and not any(m.last < e <= f.first for e in ends)
            for f in froms
        ):
            continue
        if any(
            a.clause[r.first] == a.clause[m.first] and 0 <= m.first - r.last <= 4 for r in named
        ):
            continue
        out.append(m)
    memo[id(comp)] = out
    return out


def _other_scope(a: Analysis, comp: Compiled, idea: Idea, h: _Hit) -> bool:
    """Whether a hit is said of another part than its idea's ("sorting does not rely on the
    keys' positions" takes nothing back from reversal's "the keys' positions tell it where")."""
    if not idea.scope:
        return False
    sc = a.scope_at(h.pos, comp.scopes)
    return sc is not None and sc.term != idea.scope


def _excused(a: Analysis, excuse: tuple[Atom, ...], combo: tuple[Mention, ...], s: int) -> bool:
    """Whether every term of an excuse is said in the claim's sentence, near the claim: "the
    scores may be negative, the weights never" excuses "negative weights", but a long sentence
    that named the scores at its start does not excuse "a key can get a negative weight" at
    its end."""
    lo = min(m.first for m in combo) - WINDOW
    hi = max(m.last for m in combo) + WINDOW
    near = [
        {a.clause[m.first] for m in a.in_sentence(name, s) if lo <= m.first and m.last <= hi}
        for name, _ in excuse
    ]
    if len(near) > 1:
        # an excuse of several terms says them of each other, in one clause: "the scores may
        # be negative" excuses, "softmax turns the scores into weights, which can be negative"
        # does not (the negative is the weights')
        return bool(set.intersection(*near))
    return all(near)


def _predicates_near(combo: tuple[Mention, ...]) -> bool:
    nouns = [m for m in combo if m.term not in PREDICATES]
    return all(
        any(max(p.first - m.last, m.first - p.last) - 1 <= CONTRA_REACH for m in nouns)
        for p in combo
        if p.term in PREDICATES and nouns
    )


def _judge_combo(
    combo: tuple[Mention, ...],
    want: int,
    a: Analysis,
    comp: Compiled,
    idea: Idea | None,
    plain: bool = True,
) -> _Hit | None:
    negs = set().union(*(a.governed(m) for m in combo))
    state, against = FOUND, None
    stated = False
    mentions = combo
    if idea is not None and idea.source:
        targets = [m for m in combo if m.term in comp.targets] or [combo[0]]
        src = a.source_of(targets[0], comp.sources, comp.targets)
        if src is None:
            return None
        negs |= a.governed(src)
        mentions = combo + (src,)
        if src.term != idea.source:
            if len(negs) % 2:  # "Q does not come from the encoder": true, but no credit
                return None
            state, against = SWAPPED, src
            stated = _relates(a, targets[0], src)
            if idea.scope:
                sc = a.scope_at(combo[0].first, comp.scopes)
                if sc is not None and sc.term != idea.scope:
                    against = sc  # said of another part ("self-attention: Q from X")
    # each term denied by a negator of its own ("heads do not capture different relations,
    # they do not have their own …") is denied, not a double negation that cancels out
    by_clause: dict[int, set[int]] = {}
    for m in combo:
        by_clause.setdefault(a.clause[m.first], set()).update(a.governed(m))
    denied = len(negs) % 2 or (
        plain and len(by_clause) > 1 and any(len(n) % 2 for n in by_clause.values())
    )
    if state == FOUND and int(bool(denied)) != want:
        state = NEGATED
    if state == FOUND and idea is not None and idea.scope:
        sc = a.scope_at(combo[0].first, comp.scopes)
        if sc is not None and sc.term != idea.scope:
            state, against = SWAPPED, sc
    if state == FOUND and idea is not None and (idea.with_roles or idea.against):
        clause = a.clause[combo[0].first]
        inside = {(m.first, m.last) for m in combo}
        named = [
            m
            for t in set(idea.with_roles) | set(idea.against)
            for m in a.by_term.get(t, ())
            if a.clause[m.first] == clause and (m.first, m.last) not in inside
        ]
        if not any(m.term in idea.with_roles for m in named):
            wrong = [m for m in named if m.term in idea.against]
            if wrong:
                state, against = SWAPPED, wrong[0]
    return _Hit(state, mentions, against, stated=stated and state == SWAPPED)


def _relates(a: Analysis, target: Mention, src: Mention) -> bool:
    """Whether a "from" or a "gives" in one clause joins ``target`` and ``src``: "K from the
    decoder", "K 和 V 来自解码器", "the decoder provides the keys"."""
    lo, hi = (
        sorted((target.last, src.first)) if target.first < src.first else (src.last, target.first)
    )
    if a.sent[target.first] != a.sent[src.first]:
        return False
    if target.term == "@FROM":  # "三个都来自编码器": the "from" speaks for all the roles
        return target.first < src.first and a.clause[target.first] == a.clause[src.first]
    words = ("@FROM",) if target.first < src.first else ("@GIVE",)
    return any(
        lo < m.first and m.last < hi and a.clause[m.first] == a.clause[src.first]
        for w in words
        for m in a.by_term.get(w, ())
    )


@dataclass(frozen=True)
class Judgement:
    results: tuple[IdeaResult, ...]
    score: float
    keyword_list: bool
    unknown_share: float
    cut: bool
    # what a careful reader would double-check (each makes a grade on its side uncertain):
    conflict: bool = False  # an idea found and also denied or swapped elsewhere in the answer
    denied: bool = False  # some idea is negated, swapped or contradicted
    turn: bool = False  # a turn ("不过其实", "that said") after the first idea found
    analogy: bool = False  # the answer leans on a comparison ("就像", "it's like")
    dont_know: bool = False  # the answer says only that it does not know
    unread: float = 0.0  # share of its words in sentences that credit no idea
    words: int = 0  # words in the answer (a Chinese word is one, whatever its characters)


def judge(exercise: Exercise, answer: str, glossary) -> Judgement:
    """Every idea's state in ``answer``, the score and what the grader noticed."""
    comp = compile_rubric(exercise, glossary)
    reading = read(answer, comp.lex.vocabulary, comp.lex.choices)
    a = Analysis(reading, comp.lex)
    a.asks = a.asks | _copied(a, comp.prompt)
    a.turned = _turned(a)
    fr = _fragments(a)
    listing = _lists(fr)
    hits: list[_Hit | None] = []
    for idea, alts, forbid in comp.ideas:
        hit = _try(alts, a, comp, idea, idea.unless, listing=listing)
        if forbid:
            bad = _try([((f, False),) for f in forbid], a, comp)
            if bad is not None and bad.state == FOUND:
                hit = _Hit(NEGATED, bad.mentions)
        hits.append(hit)
    # a later sentence takes an idea back only when it credits no other idea: "…so it is
    # optional" does, "dividing by √d makes the spread independent of d" (which says the
    # scaling's idea) does not take back "the spread grows with d"
    for k, hit in enumerate(hits):
        if hit is not None and hit.retaken and hit.said is not None:
            s = a.sent[hit.pos]
            if any(
                o is not None
                and o is not hit
                and o.state == FOUND
                and s in {a.sent[p] for p in o.found_at}
                for o in hits
            ):
                hits[k] = hit.said
    states = [h.state if h is not None else MISSING for h in hits]
    against: list[Mention | None] = [h.against if h is not None else None for h in hits]
    # contradictions cancel credit
    ids = [idea.id for idea, _, _ in comp.ideas]
    for c, alts in comp.contradictions:
        hit = _try(alts, a, comp, unless=c.unless, near=True)
        if hit is None or hit.state != FOUND:
            continue
        for k, idea_id in enumerate(ids):
            if states[k] == FOUND and (not c.cancels or idea_id in c.cancels):
                states[k], against[k] = CONTRADICTED, hit.mentions[0]
    # a bare "Yes." opening the answer says what a yes-or-no prompt asks ("Did attention make
    # the model worse?"): a contradiction the question states is then the answer's claim
    yes = _bare_yes(a)
    if yes is not None:
        for c, alts in comp.contradictions:
            if not any(_asserts(pa, alts, comp, c.unless) for pa in _prompt_claims(comp)):
                continue
            for k, idea_id in enumerate(ids):
                if states[k] == FOUND and (not c.cancels or idea_id in c.cancels):
                    states[k], against[k] = CONTRADICTED, yes
    # another reason given as the only or the real one, in a sentence that credits nothing
    credited = [m for h in hits if h is not None and h.state == FOUND for m in h.mentions]
    for m in a.by_term.get("@ONLY_REASON", ()):
        s = a.sent[m.first]
        if s in a.asks or a.governed(m):
            continue
        if any(a.sent[c.first] == s and c.first > m.last for c in credited):
            continue  # the reason it gives is one of the rubric's
        for k in range(len(ids)):
            if states[k] == FOUND and hits[k].pos < m.first:  # type: ignore[union-attr]
                states[k], against[k] = CONTRADICTED, m
    # a self-correction ("on second thought…", "不过再想想…") takes back each idea said only
    # before it whose terms it speaks of again
    corrections = [(i, j) for i, j in _signal(a, "correct") if a.sent[i] not in a.asks]
    if corrections:
        at, end = corrections[-1]
        tail = {m.term for m in a.mentions if m.first > end and not m.term.startswith("@")}
        before = [
            k
            for k, h in enumerate(hits)
            if states[k] == FOUND and h is not None and not any(p > end for p in h.found_at)
        ]
        # it takes back what it speaks of, and so puts in doubt all it followed: an answer
        # that changes its mind about one idea has not said the others with conviction either
        said_before = [
            k
            for k, h in enumerate(hits)
            if h is not None and h.first_found is not None and h.first_found < at
        ]
        if any(
            {n for alt in comp.ideas[k][1] for n, _ in alt if n not in PREDICATES} & tail
            for k in said_before
        ):
            for k in before:
                states[k] = CONTRADICTED
                against[k] = Mention("@SELF_CORRECT", at, end)
    _late_turns(a, comp, hits, states, against)
    _clause_turns(a, [alts for _, alts, _ in comp.ideas], hits, states, against)
    # steps out of order: each idea in turn must be found somewhere after the one before
    if exercise.order and a.has_steps:
        last = -1
        for idea_id in exercise.order:
            k = ids.index(idea_id)
            if states[k] != FOUND:
                continue
            later = [p for p in hits[k].found_at if p > last]  # type: ignore[union-attr]
            if later:
                last = later[0]
            else:
                states[k] = OUT_OF_ORDER
    results = tuple(
        IdeaResult(
            idea,
            states[k],
            _evidence(a, hits[k], states[k]),
            "" if (mention := against[k]) is None else a.quote(mention),
        )
        for k, (idea, _, _) in enumerate(comp.ideas)
    )
    total = core_weight(exercise.rubric)
    found = sum(r.idea.weight for r in results if r.state == FOUND)
    # a role the answer states wrongly ("K from the decoder") is a wrong claim: it costs its
    # idea and as much again (a teacher fails "Q and K from the decoder, V from the encoder")
    found -= sum(
        idea.weight
        for (idea, _, _), h, st in zip(comp.ideas, hits, states, strict=True)
        if st == SWAPPED and h is not None and h.stated and not idea.bonus
    )
    found = max(found, 0.0)
    score = min(1.0, found / total) if total else 0.0
    listed = _keyword_list(a, fr)
    if listed:
        score = min(score, exercise.pass_mark / 2)
    first = min((h.pos for h in hits if h is not None and h.state == FOUND), default=None)
    conflict = any(
        h is not None and (h.retaken or (h.state == FOUND and h.seen & {NEGATED, SWAPPED}))
        for h in hits
    )
    denied = any(r.state in (CONTRADICTED, NEGATED, SWAPPED) for r in results)
    turn = first is not None and any(
        i > first and a.sent[i] not in a.asks for i, _ in _signal(a, "turn")
    )
    credited_sentences = {
        a.sent[p]
        for h, st in zip(hits, states, strict=True)
        if st == FOUND and h
        for p in h.found_at
    }
    return Judgement(
        results,
        score,
        listed,
        _unknown_share(a, comp.lex),
        reading.cut,
        conflict=conflict,
        denied=denied,
        turn=turn,
        analogy=bool(_signal(a, "analogy")),
        dont_know=_dont_know(a),
        unread=_unread_share(a, credited_sentences),
        words=sum(fr.words),
    )


# Words that may stand before a late turn and keep it the sentence's opening ("Well, actually").
_OPENERS = _INTERJECTIONS | set("so and ok okay yes sure 所以 而且 并且 好吧".split())


# What opens a condition ("不过如果…", "but if…"): a turn into another setting, not a claim
# against the answer ("with or without the division" is no condition).
_CONDITIONALS = frozenset(
    "if unless otherwise suppose imagine 如果 要是 假如 假设 否则 不然 若 一旦 倘若 要不然".split()
)


def _turned(a: Analysis) -> dict[int, tuple[int, int, bool]]:
    """The sentences that open with a late turn ("不过其实…", "Well, actually…"), each with
    where its turn lies; not a question, nor a sentence that says what would happen otherwise
    ("不过如果…", "but if…")."""
    units = a.reading.units
    opening: dict[int, int] = {}  # sentence -> its first unit that is not an opener
    for i, u in enumerate(units):
        s = a.sent[i]
        if s in opening or u.kind in BOUNDARY_KINDS:
            continue
        if u.key in _OPENERS or (u.kind == "zh" and a.reading.words[u.word] in _OPENERS):
            continue
        opening[s] = i
    iffy = {
        a.sent[m.first]
        for m in a.by_term.get("@OTHERWISE", ())
        if a.quote(m).casefold() in _CONDITIONALS
    }
    out: dict[int, tuple[int, int, bool]] = {}
    for name in ("plain_turn", "late_turn"):  # "但其实" is the strong one
        for i, j in _signal(a, name):
            s = a.sent[i]
            if s in out and out[s][2]:
                continue
            if opening.get(s) == i and s not in a.asks and s not in iffy:
                out[s] = (i, j, name == "late_turn")
            elif name == "late_turn" and s in out and out[s][1] + 1 == i:
                out[s] = (out[s][0], j, True)  # "不过其实", "but actually"
            elif (
                name == "late_turn"
                and s in out
                and a.clause[i] == a.clause[out[s][0]]
                and i - out[s][1] <= 4
            ):
                # "不过 softmax 其实就是…", "but the softmax really just…": the "actually"
                # a word or two on is the turn's
                out[s] = (out[s][0], out[s][1], True)
    return out


def _late_turns(
    a: Analysis,
    comp: Compiled,
    hits: list[_Hit | None],
    states: list[str],
    against: list[Mention | None],
) -> None:
    """A sentence that opens with a turn ("不过其实…", "In practice, though, …") after the
    ideas and credits none of them makes a claim against what came before: each idea found only
    before it whose concepts (not its predicates) the sentence speaks of again is taken back.
    A question, or a sentence saying what would happen otherwise ("不过如果用 argmax…"), is no
    claim against them."""
    credited = {
        a.sent[p]
        for h, st in zip(hits, states, strict=True)
        if st == FOUND and h is not None
        for p in h.found_at
    }
    if not credited:
        return
    units = a.reading.units
    said: dict[int, list[Mention]] = {}  # each sentence's concepts, read once
    for m in a.mentions:
        if _noun(m.term):
            said.setdefault(a.sent[m.first], []).append(m)
    ends: dict[int, int] = {}  # each sentence's last unit that is not a boundary
    for k, u in enumerate(units):
        if u.kind not in BOUNDARY_KINDS:
            ends[a.sent[k]] = k
    # a "but" sentence that reverses ("不过缩放以后 softmax 反而更尖锐") is a claim against what
    # came before even when it names an idea again
    reversed_ = {a.sent[i] for i, _ in _signal(a, "reversal")}
    for s, (i, j, strong) in a.turned.items():
        if s <= min(credited) or (s in credited and not strong and s not in reversed_):
            continue
        # the concepts the question itself names are its topic: a caveat about them ("不过头也
        # 不是越多越好") speaks of the topic, not against an idea
        spoken = {
            m.term for m in said.get(s, ()) if m.first > j and (strong or m.term not in comp.topic)
        }
        if not spoken:
            continue
        last = max(ends.get(s, i), i)
        before = [
            k
            for k, h in enumerate(hits)
            if states[k] == FOUND and h is not None and not any(a.sent[p] >= s for p in h.found_at)
        ]
        struck = [
            k
            for k in before
            if {n for alt in comp.ideas[k][1] for n, _ in alt if _noun(n)} & spoken
        ]
        if struck and strong:
            # like a self-correction: an answer that turns against one idea ("actually…") has
            # not said the others with conviction either
            struck = before
        for k in struck:
            states[k] = CONTRADICTED
            end = last if last - i <= 24 else a.clause_span[a.clause[i]][1]
            against[k] = Mention("@LATE_TURN", i, end)


@cache
def _really() -> frozenset[str]:
    return frozenset(stem(w) for w in ("really", "truly"))  # stemmed on first use: no import cost


def _clause_turns(
    a: Analysis,
    ideas: list[list[tuple[Atom, ...]]],
    hits: list[_Hit | None],
    states: list[str],
    against: list[Mention | None],
) -> None:
    """A clause inside a sentence that opens with "though really", "although in practice",
    "不过其实" makes a claim against what came before it: when it speaks of a concept again,
    every idea found only before it is taken back (as by a strong late turn)."""
    units = a.reading.units
    plain = _signal(a, "plain_turn") + [
        (i, i) for i, u in enumerate(units) if u.kind == "en" and u.key in ("although", "albeit")
    ]
    late = _signal(a, "late_turn") + [
        (i, i) for i, u in enumerate(units) if u.kind == "en" and u.key in _really()
    ]
    for i, j in plain:
        s = a.sent[i]
        if s in a.turned or s in a.asks:
            continue  # a sentence's own opening turn is read by _late_turns
        if i == 0 or units[i - 1].kind not in ("clause", "list"):
            continue  # only at a clause's start, after a comma
        strong = next((j2 for i2, j2 in late if 0 < i2 - j <= 2 and a.sent[i2] == s), None)
        if strong is None:
            continue
        spoken = {m.term for m in a.mentions if a.sent[m.first] == s and m.first > strong}
        spoken = {t for t in spoken if _noun(t)}
        before = [
            k
            for k, h in enumerate(hits)
            if states[k] == FOUND and h is not None and h.found_at and max(h.found_at) < i
        ]
        # only what it speaks of again: "…, though in practice the keys are scaled first" is
        # a caveat about the keys, not a claim against the weighted sum
        struck = [k for k in before if {n for alt in ideas[k] for n, _ in alt if _noun(n)} & spoken]
        end = a.clause_span[a.clause[strong]][1] if a.clause[strong] in a.clause_span else strong
        for k in struck:
            states[k] = CONTRADICTED
            against[k] = Mention("@LATE_TURN", i, max(end, strong))


def _unread_share(a: Analysis, credited: set[int]) -> float:
    """The share of the answer's words in sentences that credit no idea: what the grader
    passed over (a claim it has no rule for, a comparison in words it does not know)."""
    total = unread = 0
    for i, u in enumerate(a.reading.units):
        if u.kind in BOUNDARY_KINDS:
            continue
        total += 1
        unread += a.sent[i] not in credited
    return unread / total if total else 0.0


_SIGNALS = {
    "turn": lexicon.TURN,
    "analogy": lexicon.ANALOGY,
    "dont_know": lexicon.DONT_KNOW,
    "correct": lexicon.SELF_CORRECT,
    "late_turn": lexicon.LATE_TURN,
    "plain_turn": lexicon.PLAIN_TURN,
    "reversal": lexicon.REVERSAL,
}


@cache
def _signal_forms(name: str) -> dict[str, list[tuple[str, ...]]]:
    zh, en = lexicon.split_forms(_SIGNALS[name])
    out: dict[str, list[tuple[str, ...]]] = {}
    for form in zh + en:
        keys = form_units(form)
        if keys:
            out.setdefault(keys[0], []).append(keys)
    return out


def _signal(a: Analysis, name: str) -> list[tuple[int, int]]:
    """Where the answer says one of the forms of signal ``name`` (first, last unit): read
    apart from the mentions, so these words never hide a term or a negator."""
    memo = a.__dict__.setdefault("_signal_memo", {})  # asked once per clause while reading
    if name in memo:
        return memo[name]
    forms = _signal_forms(name)
    units = a.reading.units
    out: list[tuple[int, int]] = []
    memo[name] = out
    for i, u in enumerate(units):
        for keys in forms.get(u.key, ()):
            j = i + len(keys) - 1
            if j >= len(units) or any(units[i + k].key != keys[k] for k in range(len(keys))):
                continue
            if u.kind == "zh" and not (u.word_start and units[j].word_end):
                continue  # "不会" inside "不会议", "像" inside "图像"
            out.append((i, j))
            break
    return out


def _evidence(a: Analysis, hit: _Hit | None, state: str) -> tuple[str, ...]:
    """What the feedback quotes: for a found idea the phrase that carries it, else each term
    the verdict rests on (the swapped role, the denied term)."""
    if hit is None:
        return ()
    nouns = [m for m in hit.mentions if not m.term.startswith("@")] or list(hit.mentions)
    if state == FOUND:
        return (a.phrase(nouns),)
    return tuple(dict.fromkeys(a.quote(m) for m in hit.mentions))


def _dont_know(a: Analysis) -> bool:
    """Only "I don't know" (or "不会", "no idea"), and nothing of the rubric's said."""
    said = _signal(a, "dont_know")
    if not said:
        return False
    covered = {i for first, last in said for i in range(first, last + 1)}
    rest = [
        u
        for i, u in enumerate(a.reading.units)
        if i not in covered and u.kind not in BOUNDARY_KINDS
    ]
    return not any(not m.term.startswith("@") for m in a.mentions) and len(rest) <= 6


_FUNC_ZH, _FUNC_EN = lexicon.split_forms(lexicon.FUNCTION)
_COMMON_ZH, _COMMON_EN = lexicon.split_forms(lexicon.COMMON)
_FUNC_ZH_SET = frozenset(_FUNC_ZH)
# Characters that are function words wherever the segmenter puts them ("只用" has 用).
_FUNC_ZH_CHARS = frozenset(
    "的了是把让使会就用被在都要能对给从而也才将得着过这那它其每即又还很太越当时里比只所因如再先然"
)
_OPERATORS = frozenset("·∑/=→←^()×<>≈∝√")


@cache
def _func_en() -> frozenset[str]:
    return frozenset(stem(w) for w in _FUNC_EN)


@cache
def _common_en() -> frozenset[str]:
    return _func_en() | {stem(w) for w in _COMMON_EN}


def _copied(a: Analysis, prompt: str) -> frozenset[int]:
    """The sentences of the answer that are sentences (or runs) of the prompt, word for word."""
    keys: dict[int, list[str]] = {}
    for i, u in enumerate(a.reading.units):
        if u.kind not in BOUNDARY_KINDS:
            keys.setdefault(a.sent[i], []).append(u.key)
    return frozenset(
        s for s, ks in keys.items() if len(ks) >= COPIED_UNITS and _sentence_keys(ks) in prompt
    )


def core_weight(rubric: Iterable[Idea]) -> float:
    """The total a score is taken over: every idea's weight but the bonus ones'."""
    return sum(i.weight for i in rubric if not i.bonus)


@dataclass(frozen=True)
class _Fragments:
    """The answer cut at every boundary (sentence, clause, list mark): for each fragment its
    units, its sentence, the concepts it names, whether it says something of one (a
    predicate) and whether it has any grammar of its own (a function word or an operator)."""

    units: list[list[int]]
    sentence: list[int]
    nouns: list[set[tuple[int, int]]]
    said: list[bool]
    structured: list[bool]
    words: list[int]  # words in the fragment (a Chinese word is one, whatever its characters)
    related: list[bool]  # a word of the grader's grammar (from, gives, not …) relates its terms
    roles: list[bool]  # a "from" or a "gives" relates its terms ("Q 来自解码器")


def _fragments(a: Analysis) -> _Fragments:
    func_en = _func_en()
    units = a.reading.units
    inside = {
        i
        for m in a.mentions
        if not m.term.startswith("@") or m.term in _NEGATORS
        for i in range(m.first, m.last + 1)
    }
    fragments: list[list[int]] = [[]]
    for i, u in enumerate(units):
        if u.kind in BOUNDARY_KINDS:
            fragments.append([])
        else:
            fragments[-1].append(i)
    fragments = [f for f in fragments if f]
    where = {i: k for k, f in enumerate(fragments) for i in f}
    nouns: list[set[tuple[int, int]]] = [set() for _ in fragments]
    said: list[bool] = [False] * len(fragments)
    related: list[bool] = [False] * len(fragments)
    roles: list[bool] = [False] * len(fragments)
    for m in a.mentions:
        if m.first not in where:
            continue
        if m.term.startswith("@"):
            # "non-zero" (@NOT_NEG) is one word of a concept, not grammar relating two
            if m.term not in ("@STEP", "@END", "@NOT_NEG"):
                related[where[m.first]] = True
            if m.term in ("@FROM", "@GIVE"):
                roles[where[m.first]] = True
        elif m.term in PREDICATES:
            said[where[m.first]] = True
        else:
            nouns[where[m.first]].add((m.first, m.last))

    def structured(f: list[int]) -> bool:
        for i in f:
            u = units[i]
            if i in inside:  # "√" of "√d", "of" of "square root of d"
                continue
            if u.kind == "sym" and u.key in _OPERATORS:
                return True
            if u.kind == "en" and u.key in func_en:
                return True
            if u.kind == "zh" and (
                a.reading.words[u.word] in _FUNC_ZH_SET or u.key in _FUNC_ZH_CHARS
            ):
                return True
        return False

    def n_words(f: list[int]) -> int:
        return len({("zh", units[i].word) if units[i].kind == "zh" else i for i in f})

    return _Fragments(
        fragments,
        [a.sent[f[0]] for f in fragments],
        nouns,
        said,
        [structured(f) for f in fragments],
        [n_words(f) for f in fragments],
        related,
        roles,
    )


def _keyword_list(a: Analysis, fr: _Fragments) -> bool:
    """Fragments with no function word and no operator, and at most one concept each (a
    fragment that says something of its concept, "梯度消失", still counts as one, as long as
    such fragments are not the most of the list); or one long run of three concepts or more.
    A function word or an operator inside a concept's own words ("square root *of* d", "√d")
    or a negator ("not cause") is no grammar of the answer's."""
    fragments, nouns, said = fr.units, fr.nouns, fr.said
    if not fragments:
        return False
    if len(fragments) == 1:
        # three concepts in a row, or a label of a few words that says nothing of its concept
        # ("seed noise"): no sentence either way
        return not fr.structured[0] and (
            len(nouns[0]) >= 3 or (bool(nouns[0]) and not said[0] and fr.words[0] <= SHORT_LABEL)
        )
    if sum(1 for c in nouns if c) < 2 or 2 * sum(said) > len(fragments):
        return False
    # A fragment of two concepts and nothing else ("variance d", "different patterns") is
    # still a label, not a claim: it says nothing of how the two relate.
    # A fragment whose terms a grammar word relates ("Q 来自解码器": from) is a claim.
    return all(
        not st and not rel and (len(c) <= 1 or (len(c) == 2 and w <= PAIR_WORDS))
        for st, rel, c, w in zip(fr.structured, fr.roles, nouns, fr.words, strict=True)
    )


# A sentence of at least this many fragments, all but one of them bare concepts, is a list
# ("Query, key, value. Dot product, scaling, softmax, weighted sum."), even when the answer
# around it has sentences: the concepts it names are named, not claimed.
LIST_FRAGMENTS = 3


@dataclass(frozen=True)
class _Lists:
    """The list sentences of an answer: the units of their bare fragments (a concept, no
    grammar, nothing said of it), where an idea is not credited, and for every unit of such
    a sentence its fragment: an idea is not made of terms from two items of a list."""

    bare: frozenset[int] = frozenset()
    item: dict[int, int] = field(default_factory=dict)

    def joins_items(self, combo: Iterable[Mention]) -> bool:
        return len({self.item.get(m.first, -1 - m.first) for m in combo}) > 1 and all(
            m.first in self.item for m in combo
        )


def _lists(fr: _Fragments) -> _Lists:
    by_sentence: dict[int, list[int]] = {}
    for k, s in enumerate(fr.sentence):
        by_sentence.setdefault(s, []).append(k)
    bare_units: set[int] = set()
    item: dict[int, int] = {}
    for ks in by_sentence.values():
        loose = [k for k in ks if not fr.structured[k] and not fr.related[k]]
        bare = [k for k in loose if not fr.said[k] and fr.nouns[k] and fr.words[k] <= 4]
        if len(ks) >= LIST_FRAGMENTS and len(bare) >= LIST_FRAGMENTS and len(loose) >= len(ks) - 1:
            bare_units |= {i for k in bare for i in fr.units[k]}
            item |= {i: k for k in ks for i in fr.units[k]}
    return _Lists(frozenset(bare_units), item)


def _unknown_share(a: Analysis, lex: _Lexicon) -> float:
    """The share of content words the grader knows nothing about."""
    covered = {i for m in a.mentions for i in range(m.first, m.last + 1)}
    func_en = _common_en()
    common_zh = _FUNC_ZH_SET | set(_COMMON_ZH)
    seen_words: set[int] = set()
    content = unknown = 0
    for i, u in enumerate(a.reading.units):
        if u.kind == "en":
            if u.key in func_en or len(u.key) < 3:
                continue
            content += 1
            unknown += i not in covered and u.key not in lex.known_stems
        elif u.kind == "zh":
            if u.word in seen_words:
                continue
            seen_words.add(u.word)
            if a.reading.words[u.word] in common_zh:
                continue
            content += 1
            unknown += i not in covered
    return unknown / content if content else 0.0


__all__ = [
    "Compiled",
    "Judgement",
    "NEAR_PASS",
    "UNKNOWN_SHARE",
    "compile_rubric",
    "core_weight",
    "judge",
    "parse_alternative",
    "terms_of",
]
