"""Do-tasks: a lesson's "now do it", checked from the state the calculator, trainer or lab
reaches (:mod:`.state`), never from what the learner says they did.

Each check is a pure function ``(state, params, typed) → TaskResult``: ``typed`` is what the
learner read off the screen when the task asks for it (the largest weight, a row of weights,
a head's number), compared with the state itself, so the number the learner types must be the
one the screen shows. A result that is not done names what is still missing
(``course.task.<code>``), which the lesson shows as the hint of the moment.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attn_tui.core.course.state import CalcState, LabState, TrainState
from attn_tui.core.exercises.generators import fmt_number, fmt_vector
from attn_tui.core.parse import InputError, parse_matrix, parse_vector

REQUIRED = object()


@dataclass(frozen=True)
class TaskResult:
    done: bool
    code: str  # course.task.<code>: what is missing, or "done"
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"course.task.{self.code}"


def _miss(code: str, **params: Any) -> TaskResult:
    return TaskResult(False, code, params)


DONE = TaskResult(True, "done")


@dataclass(frozen=True)
class TaskSpec:
    area: str  # calc | train | lab
    params: Mapping[str, tuple[type, Any]]  # name → (type, default or REQUIRED)
    asks: bool  # the learner types what they read on the screen
    check: Callable[[Any, Mapping[str, Any], str | None], TaskResult]


def _read_number(typed: str | None) -> float | None:
    if typed is None or not typed.strip():
        return None
    try:
        values = parse_vector(typed, "answer")
    except InputError:
        return None
    return float(values[0]) if len(values) == 1 else None


def _read_vector(typed: str | None) -> np.ndarray | None:
    if typed is None or not typed.strip():
        return None
    try:
        return parse_vector(typed, "answer")
    except InputError:
        return None


# -- the calculator ----------------------------------------------------------------------------


def _calc_ready(state: CalcState) -> TaskResult | None:
    if not isinstance(state, CalcState):
        return _miss("open_calc")
    if state.steps is None:
        return _miss("calc_fault")
    return None


def _top_key(state: CalcState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """Change key ``key`` alone (the others stay as the preset has them) until it has the
    largest weight, strictly, under softmax."""
    if (bad := _calc_ready(state)) is not None:
        return bad
    s = state.steps
    assert s is not None
    k = int(p["key"]) - 1
    preset = parse_matrix(p["keys"], "keys")
    if s.K.shape != preset.shape:
        return _miss("keys_count", count=preset.shape[0], dim=preset.shape[1])
    changed = [i + 1 for i in range(len(preset)) if not np.array_equal(s.K[i], preset[i])]
    others = [i for i in changed if i != k + 1]
    if others:
        return _miss("changed_other", key=p["key"], other=others[0])
    if k + 1 not in changed:
        return _miss("change_key", key=p["key"])
    if s.hard:
        return _miss("hard_on")
    w = s.weights
    top = int(np.argmax(w))
    if top != k or np.count_nonzero(np.isclose(w, w[top], rtol=0, atol=1e-12)) > 1:
        return _miss(
            "not_top",
            key=p["key"],
            weight=fmt_number(w[k]),
            top=top + 1,
            top_weight=fmt_number(w[top]),
        )
    return DONE


def _saturate(state: CalcState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """The √d experiment at a large d (≥ ``d_min``), and the largest weight *without*
    scaling read off it: the softmax has saturated."""
    if not isinstance(state, CalcState):
        return _miss("open_calc")
    if state.experiment is None:
        return _miss("open_experiment")
    large = max(state.experiment, key=lambda e: e.d)
    if large.d < int(p["d_min"]):
        return _miss("need_d", d=large.d, d_min=p["d_min"])
    got = _read_number(typed)
    if got is None:
        return _miss("read_max", d=large.d)
    if abs(got - large.max_unscaled) > 0.01:
        if abs(got - large.max_scaled) <= 0.01:
            return _miss("read_scaled", got=fmt_number(got), d=large.d)
        return _miss("read_again", got=fmt_number(got))
    return DONE


def _temperature(state: CalcState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """The preset's q and K unchanged, softmax kept, and a temperature low enough that the
    largest weight reaches ``at_least``."""
    if (bad := _calc_ready(state)) is not None:
        return bad
    s = state.steps
    assert s is not None
    q, K = parse_vector(p["query"], "query"), parse_matrix(p["keys"], "keys")
    if (
        s.q.shape != q.shape
        or s.K.shape != K.shape
        or not (np.array_equal(s.q, q) and np.array_equal(s.K, K))
    ):
        return _miss("keep_inputs")
    if s.hard:
        return _miss("hard_on")
    if not s.scale:
        return _miss("need_scale_on")
    top = float(np.max(s.weights))
    if top < float(p["at_least"]):
        return _miss(
            "need_sharper",
            weight=fmt_number(top),
            at_least=fmt_number(p["at_least"]),
            T=fmt_number(s.temperature),
        )
    return DONE


def _output_reaches(state: CalcState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """Values typed apart from the keys, so that one output component reaches a target."""
    if (bad := _calc_ready(state)) is not None:
        return bad
    s = state.steps
    assert s is not None
    if not state.values_given:
        return _miss("need_values")
    c = int(p["component"]) - 1
    if c >= s.output.shape[0]:
        return _miss("values_dim", component=p["component"])
    if s.output[c] < float(p["at_least"]):
        return _miss(
            "output_low",
            component=p["component"],
            got=fmt_number(s.output[c]),
            at_least=fmt_number(p["at_least"]),
            hi=fmt_number(s.hi[c]),
        )
    return DONE


# -- the trainer -------------------------------------------------------------------------------


def _train_ready(state: TrainState, model: str) -> TaskResult | None:
    if not isinstance(state, TrainState):
        return _miss("open_train")
    if state.model != model:
        return _miss(f"need_{model}")
    return None


def _diagonal(state: TrainState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """The RNN with a learned score at length ≥ ``length``, stopped once the held-out
    attention puts ≥ ``weight`` on the reversal diagonal."""
    if (bad := _train_ready(state, "rnn")) is not None:
        return bad
    cfg = state.config
    if not cfg.attention or cfg.score != p["score"]:
        return _miss("need_score", score=p["score"])
    if cfg.length < int(p["length"]):
        return _miss("need_length", length=p["length"], got=cfg.length)
    snap = state.snapshot
    alignment = None if snap is None else snap.alignment
    if alignment is None:
        return _miss("train_first")
    if alignment.weight < float(p["weight"]):
        return _miss(
            "need_diagonal",
            weight=fmt_number(round(alignment.weight, 2)),
            target=fmt_number(p["weight"]),
        )
    if state.running:
        return _miss("stop_now", weight=fmt_number(round(alignment.weight, 2)))
    return DONE


def _transformer_trained(state: TrainState, p: Mapping[str, Any]) -> TaskResult | None:
    if (bad := _train_ready(state, "transformer")) is not None:
        return bad
    cfg = state.config
    if cfg.task != p["task"]:
        return _miss("need_task", task=p["task"])
    if state.running:
        return _miss("wait_run")
    if state.snapshot is None or state.iteration < cfg.iters:
        return _miss("train_first")
    return None


def _blind(state: TrainState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """Positions off, reversal trained to the end, and its accuracy per position read off."""
    if (bad := _train_ready(state, "transformer")) is not None:
        return bad
    if state.config.positions != "none":
        return _miss("need_positions_off")
    if (bad := _transformer_trained(state, p)) is not None:
        return bad
    got = _read_number(typed)
    if got is None:
        return _miss("read_accuracy")
    shown = float(state.snapshot.pos_acc)
    if abs(got - shown) > 0.01 and abs(got / 100 - shown) > 0.01:
        return _miss("read_again", got=fmt_number(got))
    return DONE


def _mirror_head(state: TrainState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """At least ``heads`` heads, trained on reversal; the learner names the head whose map is
    the anti-diagonal (the largest mean weight on input L+1−i)."""
    if (bad := _train_ready(state, "transformer")) is not None:
        return bad
    if state.config.heads * state.config.layers < int(p["heads"]):
        return _miss("need_heads", heads=p["heads"])
    if state.config.positions == "none":
        return _miss("need_positions_on")
    if (bad := _transformer_trained(state, p)) is not None:
        return bad
    stats = state.snapshot.heads
    best = max(stats, key=lambda h: h.mirror)
    got = _read_vector(typed)
    if got is None:
        return _miss("name_head")
    picked = [int(v) for v in got]
    if len(picked) == 1 and state.config.layers == 1:
        picked = [1, picked[0]]
    if picked != [best.layer, best.head]:
        return _miss("other_head", got=typed.strip() if typed else "")
    return DONE


def _ablation(state: TrainState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """The induction run trained to the end, its previous-token head switched off (a), and
    the copy accuracy without it read off the table beside the trained model's."""
    if (bad := _transformer_trained(state, p)) is not None:
        return bad
    result = state.finished[-1] if state.finished else None
    ablation = getattr(result, "ablation", None)
    if result is None or ablation is None or result.config != state.config:
        return _miss("train_first")
    if not state.ablated:
        return _miss("press_ablate")
    got = _read_number(typed)
    if got is None:
        return _miss("read_ablated")
    shown = float(ablation.after.copy_acc)
    if abs(got - shown) > 0.01 and abs(got / 100 - shown) > 0.01:
        return _miss("read_again", got=fmt_number(got))
    return DONE


# -- the lab -----------------------------------------------------------------------------------


def _lab_ready(state: LabState) -> TaskResult | None:
    if not isinstance(state, LabState):
        return _miss("open_lab")
    if state.result is None:
        return _miss("lab_fault")
    return None


def _mask_row(state: LabState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """The causal mask on, and row ``row`` of the head on show read off, entry by entry."""
    if (bad := _lab_ready(state)) is not None:
        return bad
    r = state.result
    assert r is not None
    if p["mask"] == "causal" and not r.causal:
        return _miss("need_causal")
    if p["mask"] == "window" and (r.window != int(p["window"]) or r.causal):
        return _miss("need_window", window=p["window"])
    row = int(p["row"]) - 1
    if row >= r.n_q:
        return _miss("need_tokens", row=p["row"])
    want = r.weights[state.head, row]
    got = _read_vector(typed)
    if got is None:
        return _miss("read_row", row=p["row"])
    if got.shape != want.shape:
        return _miss("row_length", n=want.shape[0], got=got.shape[0])
    if np.any(np.abs(got - want) > 0.006):
        return _miss("read_again", got=fmt_vector(got))
    return DONE


def _head_size(state: LabState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """``heads`` heads at ``d_model``, and each head's size d_k read off."""
    if (bad := _lab_ready(state)) is not None:
        return bad
    r = state.result
    assert r is not None
    if r.d_model != int(p["d_model"]) or r.heads != int(p["heads"]):
        return _miss(
            "need_heads_lab",
            heads=p["heads"],
            d_model=p["d_model"],
            got_heads=r.heads,
            got_d=r.d_model,
        )
    got = _read_number(typed)
    if got is None:
        return _miss("read_dk")
    if got != r.d_k:
        return _miss("read_again", got=fmt_number(got))
    return DONE


def _shape(state: LabState, p: Mapping[str, Any], typed: str | None) -> TaskResult:
    """A projection's shape read off the lab's shapes (``matrix`` is Q, K, V, scores …)."""
    if (bad := _lab_ready(state)) is not None:
        return bad
    r = state.result
    assert r is not None
    if int(p["d_model"]) and r.d_model != int(p["d_model"]):
        return _miss("need_d_model", d_model=p["d_model"], got=r.d_model)
    if int(p["heads"]) and r.heads != int(p["heads"]):
        return _miss(
            "need_heads_lab",
            heads=p["heads"],
            d_model=r.d_model,
            got_heads=r.heads,
            got_d=r.d_model,
        )
    want = r.shapes.get(p["matrix"])
    got = _read_vector(typed)
    if got is None:
        return _miss("read_shape", matrix=p["matrix"])
    if want is None or tuple(int(v) for v in got) != tuple(want):
        return _miss("read_again", got=fmt_vector(got))
    return DONE


TASKS: dict[str, TaskSpec] = {
    "calc.top_key": TaskSpec(
        "calc", {"key": (int, REQUIRED), "keys": (str, REQUIRED)}, False, _top_key
    ),
    "calc.saturate": TaskSpec("calc", {"d_min": (int, 300)}, True, _saturate),
    "calc.temperature": TaskSpec(
        "calc",
        {"query": (str, REQUIRED), "keys": (str, REQUIRED), "at_least": (float, 0.9)},
        False,
        _temperature,
    ),
    "calc.output_reaches": TaskSpec(
        "calc", {"component": (int, 1), "at_least": (float, REQUIRED)}, False, _output_reaches
    ),
    "train.diagonal": TaskSpec(
        "train",
        {"score": (str, "qk"), "length": (int, 10), "weight": (float, 0.8)},
        False,
        _diagonal,
    ),
    "train.blind": TaskSpec("train", {"task": (str, "reverse")}, True, _blind),
    "train.mirror_head": TaskSpec(
        "train", {"task": (str, "reverse"), "heads": (int, 2)}, True, _mirror_head
    ),
    "train.ablation": TaskSpec("train", {"task": (str, "induction")}, True, _ablation),
    "lab.mask_row": TaskSpec(
        "lab", {"row": (int, 3), "mask": (str, "causal"), "window": (int, 1)}, True, _mask_row
    ),
    "lab.head_size": TaskSpec(
        "lab", {"d_model": (int, REQUIRED), "heads": (int, REQUIRED)}, True, _head_size
    ),
    "lab.shape": TaskSpec(
        "lab", {"matrix": (str, "Q"), "d_model": (int, 0), "heads": (int, 0)}, True, _shape
    ),
}


def check(fn: str, state: Any, params: Mapping[str, Any], typed: str | None = None) -> TaskResult:
    """Check one do-task against a screen's state (params as the lesson file gives them,
    defaults filled in by :func:`params_of`)."""
    spec = TASKS[fn]
    return spec.check(state, params_of(fn, params), typed)


def params_of(fn: str, given: Mapping[str, Any]) -> dict[str, Any]:
    spec = TASKS[fn]
    out = {name: default for name, (_type, default) in spec.params.items()}
    out.update(given)
    return out
