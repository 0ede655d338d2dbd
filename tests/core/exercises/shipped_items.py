"""The shipped library, loaded once, and the two lookups the written-grader tests share."""

from __future__ import annotations

from attn_tui import paths

LIBRARY = paths.load_all()


def item(ref: str):
    """A shipped exercise: a quiz id (``sc-steps``) or ``SET/ID`` (``three-steps/name-steps``)."""
    if "/" in ref:
        set_id, ex_id = ref.split("/")
        return LIBRARY.get(set_id).exercise(ex_id)
    return next(e for e in LIBRARY.quiz_exercises if e.id == ref)


def states(g) -> dict[str, str]:
    """Each idea's id → the state the grade gave it (found, swapped, contradicted, …)."""
    return {r.idea.id: r.state for r in g.ideas}
