"""Models the trainer runs: the reversal RNN (``rnn``) and the training loop (``trainer``)."""
