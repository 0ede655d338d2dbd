"""The training screen's pieces: its settings form, guide, live panel, tables and models."""
