"""attn-tui: a full-screen terminal tutor for the attention mechanism."""

__version__ = "0.1.0"
