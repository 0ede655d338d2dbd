"""Exercise sets: the data shapes (``model``), reading files (``loader``), generated
instances (``generators``) and marking answers (``grading``). Imports run one way:
model ← generators ← loader, and model ← generators ← grading."""
