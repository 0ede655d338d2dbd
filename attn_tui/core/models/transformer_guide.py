"""The trainer's guided experiments for the tiny Transformer, as the RNN has its 1–5.

Each step is a setting that finishes in seconds at the watchable pace (300 iterations, 1,500
for sorting, where the default 3,000 took about two minutes to watch) and the sentence that
says what to look at once it has run:

1. reversal by position (learned positions): the head's map is the anti-diagonal;
2. positions off: reversal fails, up to the ceiling a position-blind model can reach;
3. sorting by content: the head looks at the letter each output needs, wherever it is;
4. two heads: one reads by position, the other may do little;
5. a causal mask: output i sees inputs 1…i only, so reversal cannot see what it needs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from attn_tui.core.models.transformer_trainer import TransformerConfig, position_blind_ceiling


@dataclass(frozen=True)
class GuideStep:
    config: TransformerConfig
    label: str  # catalogue key: the line in the guide's list
    text: str  # catalogue key: what to look at, once the run is over


TF_GUIDE = (
    GuideStep(TransformerConfig(task="reverse"), "transformer.guide.1", "transformer.guide.1.look"),
    GuideStep(
        TransformerConfig(task="reverse", positions="none"),
        "transformer.guide.2",
        "transformer.guide.2.look",
    ),
    GuideStep(
        TransformerConfig(task="sort", iters=1500),
        "transformer.guide.3",
        "transformer.guide.3.look",
    ),
    GuideStep(
        TransformerConfig(task="reverse", heads=2),
        "transformer.guide.4",
        "transformer.guide.4.look",
    ),
    GuideStep(
        TransformerConfig(task="reverse", causal=True),
        "transformer.guide.5",
        "transformer.guide.5.look",
    ),
)


def blind_ceiling(config: TransformerConfig) -> float:
    """The best per-position accuracy a position-blind model can expect on this run's held-out
    sequences (what step 2 is measured against)."""
    from attn_tui.core.models.trainer import ReversalData

    data = ReversalData(config.length, eval_size=config.eval_size, eval_seed=config.eval_seed)
    return position_blind_ceiling(config.task, data.eval_x)


def guide_step(config: TransformerConfig) -> GuideStep | None:
    """The guide step these settings are (the seed and evaluation aside), if any."""
    for step in TF_GUIDE:
        e = step.config
        if replace(config, seed=e.seed, eval_every=e.eval_every, eval_size=e.eval_size) == e:
            return step
    return None
