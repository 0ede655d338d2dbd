"""Rich renderables: numbers the core computed, laid out as text (no Textual here).

Each module draws one kind of thing (a heatmap, a loss curve, the calculator's steps, the
trainer's panels) from plain values and keeps no state, so tests render them directly and the
headless commands and the SVG export reuse them. Textual widgets live in ``attn_tui.widgets``.
"""
