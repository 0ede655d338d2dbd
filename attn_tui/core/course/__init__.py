"""The course: one path of lessons through the three chapters, checked do-tasks, mastery per
topic, reviews spaced over days and feedback that names the mistake. Pure (numpy and the
standard library); the spaced-repetition library is imported lazily in :mod:`.review` alone.
"""
