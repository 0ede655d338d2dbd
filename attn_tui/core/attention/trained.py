"""The lab opened on a trained Transformer: every layer as a lab computation, trained numbers.

The lab's ``compute`` takes tokens X and the projections W_Q, W_K, W_V, W_O. For layer l of a
trained model, X is what that layer's attention reads (the residual stream entering it, after
its layer norm when the model has one) and the W are the layer's trained weights, so every
lab view — Q, K, V, scores, weights, heads, concat and W_O, shapes — shows the numbers the
model really computes on that sequence (a test checks them against the model's own pass).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_tui.core.attention.lab import LabResult, Projections, Tokens, compute
from attn_tui.core.models import tasks
from attn_tui.core.models.loop import Snapshot
from attn_tui.core.models.transformer import TinyTransformer
from attn_tui.core.models.transformer_trainer import TransformerConfig, evaluate, targets


def token_labels(x: np.ndarray, numbered: bool = True, task: str = "reverse") -> tuple[str, ...]:
    """Symbol and position, so two copies of a symbol stay apart in a list: D1 A2 D3 … (the
    induction task's tokens, which include digits, as T·1 0·2 …); or the symbols alone, for
    axes whose order already gives the position."""
    sep = "·" if task == "induction" else ""
    return tuple(f"{tasks.label(task, s)}{sep}{i + 1}" if numbered else tasks.label(task, s)
                 for i, s in enumerate(x))  # fmt: skip


def parse_sequence(text: str, length: int, task: str = "reverse") -> np.ndarray:
    """A learner's sequence for a model of ``length`` positions: letters A–F ("ABCDEF…",
    spaces allowed), or for the induction task its 64 tokens (``tasks.parse``)."""
    return tasks.parse(task, text, length)


@dataclass(frozen=True)
class TrainedView:
    """One sequence through a trained model, each layer's attention as the lab computes it."""

    config: TransformerConfig
    x: np.ndarray  # (L,) the input symbols
    target: np.ndarray  # (L,) what the task wants
    prediction: np.ndarray  # (L,) what the model writes
    layers: tuple[LabResult, ...]  # one per layer

    @property
    def labels(self) -> tuple[str, ...]:
        return token_labels(self.x, task=self.config.task)

    @property
    def copy(self) -> tuple[int, int] | None:
        """(source, copy) start, 0-based, of the sequence's repeated segment (induction)."""
        return tasks.find_copy(self.x) if self.config.task == "induction" else None

    def to_dict(self) -> dict[str, object]:
        task = self.config.task
        out: dict[str, object] = {
            "input": self.labels, "target": token_labels(self.target, task=task),
            "prediction": token_labels(self.prediction, task=task),
            "layers": [layer.to_dict() for layer in self.layers],
        }  # fmt: skip
        copy = self.copy
        if copy is not None:
            out["copy"] = {"source": copy[0] + 1, "start": copy[1] + 1}
        return out


def open_trained(
    model: TinyTransformer, config: TransformerConfig, x: np.ndarray, numbered: bool = True
) -> TrainedView:
    """``numbered``: token labels with their positions (D1 A2 …) or letters alone."""
    x = np.asarray(x, np.int64)
    logits, caches, _ = model.forward(x[None])  # one sequence, batch of one
    prediction = logits.argmax(axis=0)
    labels = token_labels(x, numbered, config.task)
    layers = []
    for layer, cache in zip(model.layers, caches, strict=True):
        proj = Projections(
            W_Q=np.array(layer.W_Q, np.float64),
            W_K=np.array(layer.W_K, np.float64),
            W_V=np.array(layer.W_V, np.float64),
            W_O=np.array(layer.W_O, np.float64),
        )
        tokens = Tokens(labels, np.array(cache.Y, np.float64))  # what this layer's attention reads
        layers.append(compute(tokens, proj=proj, heads=config.heads, causal=config.causal))
    return TrainedView(config, x, targets(config.task, x), prediction, tuple(layers))


def held_out(model: TinyTransformer, config: TransformerConfig) -> Snapshot:
    """The model on its held-out set (the trainer's, rebuilt from the settings): accuracy and
    what each head does on average."""
    batch = tasks.held_out(config.task, config.length, config.eval_size, config.eval_seed)
    return evaluate(model, config.task, batch)
