"""Code exercises: the learner writes attention in numpy, the core checks it.

    model.py     the data: code sets, exercises, cases, reports
    loader.py    reading and checking a teacher's TOML file (faults as file:line)
    checks.py    each kind of check: its reference, its cases, the mistakes it can name
    engine.py    one check: cases → sandbox → compare → the first failure, diagnosed
    sandbox.py   the learner's code in a child process with limits (harness.py is the child)
    workspace.py the learner's folder of files; progress.py what was passed, in the store

numpy and the standard library only, like the rest of the core.
"""
