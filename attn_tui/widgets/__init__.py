"""Textual widgets: pieces of a screen that own their state and post messages up.

What they draw comes from ``attn_tui.render`` (Rich renderables) and the numbers from
``attn_tui.core``; a widget never imports a screen.
"""
