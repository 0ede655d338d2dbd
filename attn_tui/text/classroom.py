"""The classroom: composed quizzes, the gradebook (CSV, feedback files, the teacher's own marks)
and figures saved as SVG."""

TEXT = {
    # -- composing a quiz (attn-tui quiz template --ids/--topics/--sets/--count)
    "classroom.compose.unknown_set": (
        "没有 id 为“{name}”的题库（现有：{known}）",
        "no quiz bank “{name}” (there are: {known})",
    ),
    "classroom.compose.unknown_id": (
        "题库里没有“{name}”这道题（attn-tui quiz template --json 列出所有题号）",
        "no question “{name}” in the quiz banks (attn-tui quiz template --json lists them all)",
    ),
    "classroom.compose.unknown_topic": (
        "没有题目属于主题“{name}”（可选：{known}）",
        "no question is tagged “{name}” (topics: {known})",
    ),
    "classroom.compose.count": (
        "--count {count}：选中的题只有 {available} 道，数量应在 1 到 {available} 之间",
        "--count {count}: the chosen questions number {available}, so N must be 1 to {available}",
    ),
    "classroom.tpl.record": (
        "这份测验的 {count} 道题（老师据此批改，请勿改动这一项）：",
        "The {count} questions of this quiz (grading follows this list; leave it as it is):",
    ),
    # -- answer files that carry a record
    "classroom.bad_record": (
        '_quiz 应是题号列表，例如 _quiz = ["sc-dot", "sc-steps"]',
        '_quiz must be a list of question ids, such as _quiz = ["sc-dot", "sc-steps"]',
    ),
    "classroom.record_unknown": (
        "这份测验含有题库里没有的题：{ids}（出题用的题库是否也要用 --exercises 给出？）",
        "this quiz holds questions the quiz banks lack: {ids} (was it composed from a bank "
        "that --exercises should name here too?)",
    ),
    # -- overrides
    "classroom.ov.not_table": (
        "“{student}”应是一个表：[{student}] 下面每行写「题号 = 分数」",
        "“{student}” must be a table: [{student}], then one line per question: id = mark",
    ),
    "classroom.ov.unknown_key": (
        "{question} 里有不认识的键 {keys}（只能有 mark 和 comment）",
        "{question} has unknown key(s) {keys} (only mark and comment mean something)",
    ),
    "classroom.ov.bad_mark": (
        "{student} 的 {question}：分数 {value} 应是 0 到 1 之间的数",
        "{student}, {question}: the mark {value} must be a number from 0 to 1",
    ),
    "classroom.ov.bad_comment": (
        "{student} 的 {question}：comment 应是一段文字（加引号）",
        "{student}, {question}: the comment must be text (in quotes)",
    ),
    "classroom.ov.too_big": (
        "改分文件超过 {limit} 字节，不像是改分文件",
        "the overrides file is larger than {limit} bytes; that is not an overrides file",
    ),
    "classroom.ov.no_student": (
        "班里没有学生“{student}”（学生名是答题文件名去掉扩展名，有歧义时是完整文件名：{known}）",
        "no student “{student}” in the class (a student is an answer file's name without "
        "its extension, or the whole name where that is ambiguous: {known})",
    ),
    "classroom.same_student": (
        "这份文件和 {others} 在不区分大小写的磁盘上同名，会被当成同一个学生：两份都没有批改，请改掉其中一个的文件名",
        "this file and {others} have one name on a case-blind disk, so they would be one "
        "student: neither is graded; rename one of them",
    ),
    "classroom.ov.broken_student": (
        "{student} 的答题文件无法读取，不能给 {question} 改分",
        "{student}'s answer file could not be read, so {question} cannot be marked",
    ),
    "classroom.ov.no_question": (
        "{student} 的测验里没有 {question} 这道题",
        "{student}'s quiz does not hold the question {question}",
    ),
    "classroom.ov.none_applied": (
        "改分文件有错，一处也没有应用，也没有写出成绩文件。",
        "The overrides file has faults: none of it was applied and no gradebook was written.",
    ),
    "classroom.overridden": (
        "老师改分：{auto} → {mark}",
        "overridden by the teacher: {auto} → {mark}",
    ),
    "classroom.overridden_comment": ("（{comment}）", " ({comment})"),
    "classroom.overrides_title": ("老师改过的分（*）", "Marks set by the teacher (*)"),
    # -- writing files
    "classroom.would_overwrite": (
        "{path} 是一份正在批改的答题文件，不能覆盖它",
        "{path} is one of the answer files being graded; it will not be overwritten",
    ),
    "classroom.cannot_write": ("无法写入 {path}：{error}", "cannot write {path}: {error}"),
    "classroom.said_sep": ("；", "; "),  # between the things quiz grade wrote, on one line
    "classroom.wrote_csv": (
        "成绩表已写入 {path}（{rows} 行）",
        "gradebook written to {path} ({rows} rows)",
    ),
    "classroom.fb.refused": (
        "；{count} 份没有写：{files}",
        "; {count} not written: {files}",
    ),
    "classroom.fb.refused_more": ("，另有 {count} 份", ", and {count} more"),
    "classroom.fb.link": (
        "那里已有一个链接，反馈从不穿过链接写入",
        "a link is there, and feedback is never written through one",
    ),
    "classroom.fb.not_plain": (
        "那里已有一个不是普通文件的东西",
        "something that is not a plain file is there",
    ),
    "classroom.fb.answer_file": (
        "那是一份正在批改的答题文件",
        "it is one of the answer files being graded",
    ),
    "classroom.fb.same_student": (
        "另一份答题文件的学生名与它相同",
        "another answer file has the same student's name",
    ),
    "classroom.fb.bad_name": ("这个名字不能做文件名", "that name cannot be a file name"),
    "classroom.wrote_feedback": (
        "已在 {path} 写出 {count} 份反馈",
        "{count} feedback file(s) written to {path}",
    ),
    # -- the CSV's header and status words
    "classroom.csv.student": ("学生", "student"),
    "classroom.csv.file": ("文件", "file"),
    "classroom.csv.status": ("状态", "status"),
    "classroom.csv.score": ("得分", "score"),
    "classroom.csv.max": ("满分", "max"),
    "classroom.csv.percent": ("百分比", "percent"),
    "classroom.csv.topic": ("主题：{topic} %", "topic: {topic} %"),
    "classroom.csv.overridden": ("老师改分", "overridden"),
    "classroom.csv.problems": ("问题", "problems"),
    "classroom.status.graded": ("已批改", "graded"),
    "classroom.status.broken": ("无法读取", "could not be read"),
    # -- a feedback file
    "classroom.fb.title": ("自测反馈：{student}", "Quiz feedback: {student}"),
    "classroom.fb.file": ("答题文件：{file}", "Answer file: {file}"),
    "classroom.fb.broken": (
        "这份答题文件没能读取，所以没有批改。改好下面的问题后再交一次：",
        "This answer file could not be read, so it was not graded. Fix the fault below and "
        "hand it in again:",
    ),
    "classroom.fb.total": (
        "总分：{score} / {total}（{percent}%）",
        "Total: {score} / {total} ({percent}%)",
    ),
    "classroom.fb.total_overridden": (
        "其中 {count} 道题的分数是老师改过的（见各题）。",
        "The teacher set the mark of {count} question(s) by hand (shown at each).",
    ),
    "classroom.fb.question": ("{n}. {id}：{score} / 1 分", "{n}. {id}: {score} / 1"),
    "classroom.fb.your_answer": ("你的答案：{answer}", "Your answer: {answer}"),
    "classroom.fb.reference": ("参考答案：{answer}", "Reference answer: {answer}"),
    # -- figures
    "classroom.key.svg": ("存为 SVG 图", "Save as SVG"),
    "classroom.fig.saved": ("这一屏已存为 SVG：{path}", "This screen was saved as SVG: {path}"),
    "classroom.fig.sent": (
        "这一屏已存为 SVG，浏览器会把它下载下来。",
        "This screen was saved as SVG; your browser downloads it.",
    ),
    "classroom.fig.failed": ("没能保存这一屏的图。", "The screen could not be saved as a figure."),
    "classroom.fig.written": ("图已写入 {path}", "figure written to {path}"),
}
