"""The self-attention lab's pieces: its settings form and its views."""
