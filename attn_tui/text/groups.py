"""A class's written answers in groups (``quiz grade DIR --groups``), the teacher's marks per
group in an overrides file, and how often those marks disagree with the grader's."""

TEXT = {
    # -- the groups, in the terminal
    "groups.title": (
        "书面作答分组（相似的答案归为一组，老师一组只批一次）",
        "Written answers in groups (alike answers together: mark a group once)",
    ),
    "groups.question": (
        "{question}：{answers} 份作答，{groups} 组{blank}",
        "{question}: {answers} {answers:answer|answers} in {groups} {groups:group|groups}{blank}",
    ),
    "groups.blank": ("，另有 {count} 份空白", ", {count} left blank"),
    "groups.col_group": ("组", "group"),
    "groups.col_answers": ("份数", "answers"),
    "groups.col_grader": ("批改器", "grader"),
    "groups.col_typical": ("典型答案 · 学生", "a typical answer · students"),
    "groups.wordings": ("（{count} 种写法）", " ({count} {count:wording|wordings})"),
    "groups.more_students": ("等 {count} 人", " and {count} more"),
    "groups.more_groups": (
        "……另有 {groups} 组（{answers} 份作答）未列出；--write-groups FILE 把所有组写进文件",
        "… {groups} more {groups:group|groups} ({answers} {answers:answer|answers}) not shown; "
        "--write-groups FILE writes them all",
    ),
    "groups.legend": (
        "✓ 批改器判为通过 ✗ 判为未通过，后接分数（一组分数不同时为范围）；?n：其中 n 份批改器没有把握",
        "✓ the grader passed it, ✗ failed it, then its mark (a range when they differ); ?n: "
        "the grader was unsure of n of them",
    ),
    "groups.none": ("这个班没有书面作答可分组。", "The class has no written answers to group."),
    # -- the file of groups to mark (--write-groups)
    "groups.file.head": (
        "书面作答的分组，供老师批改。每组给一个分数：去掉 mark 前的 # 并填上 0 到 1 的分数，\n"
        "然后用 attn-tui quiz grade 目录 --overrides 这个文件 应用。学生名后是其答案的指纹：\n"
        "答案改过的学生不会沿用这组的分数。某个学生要单独给分，写在 [学生名] 表里即可（它优先）。\n"
        "和典型答案写法不同的学生，行末注明了他的写法；不属于这一组的，删掉那一行、单独给分。",
        "Written answers in groups, for the teacher to mark. Give each group one mark: remove\n"
        "the # before mark and write a mark from 0 to 1, then apply the file with\n"
        "attn-tui quiz grade FOLDER --overrides THIS-FILE. Each student is named with the\n"
        "fingerprint of their answer: a student whose answer has changed keeps no group mark.\n"
        "A student who wrote it otherwise has their words at the end of their line; to mark one\n"
        "apart, delete their line, or give them a [student] table (it wins over the group).",
    ),
    "groups.file.group": (
        "{question} · 第 {number} 组 · {answers} 份 · 批改器：{verdict} {marks}{flagged}",
        "{question} · group {number} · {answers} {answers:answer|answers} · the grader: {verdict} "
        "{marks}{flagged}",
    ),
    "groups.file.flagged": ("（{count} 份没有把握）", " (unsure of {count})"),
    "groups.file.passed": ("通过", "passed"),
    "groups.file.failed": ("未通过", "failed"),
    "groups.wrote": (
        "{groups} 组书面作答已写入 {path}，每组填上 mark 后用 --overrides 应用",
        "{groups} {groups:group|groups} of written answers written to {path}: fill in each "
        "mark, then apply it with --overrides",
    ),
    "groups.exists": (
        "{path} 已存在：分组文件不覆盖已有的文件（里面可能有老师的批改），请换一个文件名",
        "{path} already exists: a groups file never replaces a file (it may hold a teacher's "
        "marks); give a new name",
    ),
    # -- faults of group marks in an overrides file
    "groups.ov.not_groups": (
        "group 应是一组表：每组以 [[group]] 开头",
        "group must be an array of tables: each group starts with [[group]]",
    ),
    "groups.ov.unknown_key": (
        "这一组里有不认识的键 {keys}（只能有 question、mark、comment 和 students）",
        "this group has keys that mean nothing: {keys} (only question, mark, comment and "
        "students do)",
    ),
    "groups.ov.no_question": (
        '这一组没有写题号：question = "题号"',
        'this group names no question: question = "id"',
    ),
    "groups.ov.bad_mark": (
        "{question} 的一组：分数 {value} 应是 0 到 1 之间的数",
        "a group of {question}: the mark {value} must be a number from 0 to 1",
    ),
    "groups.ov.bad_comment": (
        "{question} 的一组：comment 应是一段文字（加引号）",
        "a group of {question}: the comment must be text (in quotes)",
    ),
    "groups.ov.no_students": (
        "{question} 的一组没有学生：[group.students] 下每行写「学生名 = 指纹」",
        "a group of {question} has no students: under [group.students], one line each: "
        'name = "fingerprint"',
    ),
    "groups.ov.bad_fingerprint": (
        "{question} 的一组：{student} 后面应是其答案的指纹（加引号）",
        "a group of {question}: {student} must be given their answer's fingerprint (in quotes)",
    ),
    "groups.ov.no_answer": (
        "{student} 没有书面回答 {question}，这一组的分数给不了他",
        "{student} has no written answer to {question}, so the group's mark cannot be theirs",
    ),
    "groups.ov.changed": (
        "{student} 对 {question} 的答案在分组之后改过了：重新分组（--write-groups）后再批",
        "{student}'s answer to {question} has changed since it was grouped: group the class "
        "again (--write-groups) and mark it anew",
    ),
    "groups.ov.two_marks": (
        "{student} 的 {question} 在两组里分数不同（另一组在第 {line} 行）",
        "{student}'s {question} is in two groups with different marks (the other on line {line})",
    ),
    # -- the teacher's marks against the grader's
    "groups.agree.title": (
        "老师的分与批改器的对照（每题）",
        "The teacher's marks against the grader's, per question",
    ),
    "groups.agree.col_question": ("题目", "question"),
    "groups.agree.col_marked": ("老师批了", "marked"),
    "groups.agree.col_disagreed": ("判定相反", "disagreed"),
    "groups.agree.col_agree": ("一致", "agree"),
    "groups.agree.col_flagged": ("相反中有把握不足", "of them unsure"),
    "groups.agree.note": (
        "判定相反：老师的分和批改器的分落在及格线两侧（↑ 老师判过而批改器没判过，↓ 反之）。"
        "每次批改都看这一栏，就能看出一学期里批改器和你有多一致。",
        "Disagreed: the teacher's mark and the grader's fall on two sides of the pass mark "
        "(↑ the teacher passed what the grader failed, ↓ the other way). Watch it over a term "
        "to see how far the grader can be trusted on each question.",
    ),
}
