"""The counts the README states in words are the shipped course's and library's own (it said
"twelve lessons" after a thirteenth lesson had landed)."""

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
WORDS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
NUMBER = {word: n for n, word in enumerate(WORDS.split())}


def stated(noun: str) -> int:
    found = re.findall(rf"\b({'|'.join(NUMBER)}) {noun}\b", README)
    assert found, f"the README names no count of {noun}"
    return NUMBER[found[0]]


def test_the_readme_counts_the_shipped_lessons_chapters_and_sets():
    from attn_tui import paths

    course = paths.load_course()
    assert stated("lessons") == len(course.lessons)
    assert stated("chapters") == len({lesson.chapter for lesson in course.lessons})
    assert stated("sets") == len(paths.load_all().sets)
