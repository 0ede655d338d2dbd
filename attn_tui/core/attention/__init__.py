"""Attention itself: the calculator's four steps (``steps``), the self-attention lab (``lab``)."""
