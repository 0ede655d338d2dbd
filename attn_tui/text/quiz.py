"""The self-check quiz: its screen, the topic names in the per-topic breakdown, and
``attn-tui quiz grade`` / ``attn-tui quiz template``."""

TEXT = {
    # -- topic tags, as the per-topic breakdown names them
    "quiz.topic.dot-product": ("点积打分", "dot-product scores"),
    "quiz.topic.scaling": ("除以 √d", "scaling by √d"),
    "quiz.topic.softmax": ("softmax", "softmax"),
    "quiz.topic.weighted-sum": ("加权求和", "weighted sum"),
    "quiz.topic.convex": ("凸组合", "convex combination"),
    "quiz.topic.variance": ("方差", "variance"),
    "quiz.topic.saturation": ("softmax 饱和", "saturation"),
    "quiz.topic.qkv": ("Q、K、V", "Q, K, V"),
    "quiz.topic.shapes": ("形状", "shapes"),
    "quiz.topic.self-cross": ("自注意力与交叉注意力", "self vs cross"),
    "quiz.topic.causal-mask": ("因果掩码", "causal mask"),
    "quiz.topic.multi-head": ("多头", "multi-head"),
    "quiz.topic.params": ("参数量", "parameters"),
    "quiz.topic.bottleneck": ("信息瓶颈", "bottleneck"),
    "quiz.topic.alignment": ("对齐与权重", "alignment"),
    "quiz.topic.soft-hard": ("软与硬注意力", "soft vs hard"),
    "quiz.topic.global-local": ("全局与局部", "global vs local"),
    "quiz.topic.scoring": ("打分函数", "scoring functions"),
    "quiz.topic.cost": ("计算代价", "cost"),
    "quiz.topic.interpretability": ("可解释性", "interpretability"),
    "quiz.topic.rnn": ("RNN", "RNN"),
    "quiz.topic.positions": ("位置编码", "positional encoding"),
    "quiz.topic.patterns": ("热力图的模式", "heatmap patterns"),
    "quiz.topic.context": ("随上下文变化", "context-dependent weights"),
    "quiz.topic.lineage": ("结构的来龙去脉", "the lineage of architectures"),
    "quiz.topic.mlm": ("掩码语言模型", "masked language model"),
    # -- the screen: choosing
    "quiz.title": ("自测", "Self-check quiz"),
    "quiz.intro": (
        "一次一题，提交后立刻给出对错、参考答案和讲解；最后按主题给出得分。"
        "选择题输入选项字母（多选如 a c），判断题输入「对」或「错」，简答题用自己的话写出要点。",
        "One question at a time: after each answer you see whether it was right, the reference "
        "answer and why. At the end, a score by topic. Choices: type the letter (several: a c); "
        "true/false: t or f; written answers: the key ideas in your own words.",
    ),
    "quiz.quick": ("快速自测（{n} 题）", "Quick quiz ({n} questions)"),
    "quiz.full": ("完整自测（{n} 题）", "Full quiz ({n} questions)"),
    "quiz.history": ("以往成绩", "Past attempts"),
    "quiz.no_history": ("还没有做过自测。", "No quiz taken yet."),
    "quiz.best": (
        "最好成绩：{mode} {score}/{total}（{percent}%）",
        "Best: {mode} {score}/{total} ({percent}%)",
    ),
    "quiz.history_line": (
        "{when}  {mode}  {score}/{total} 分  {percent}%",
        "{when}  {mode}  {score}/{total}  {percent}%",
    ),
    "quiz.mode.quick": ("快速", "quick"),
    "quiz.mode.full": ("完整", "full"),
    "quiz.mode.retry": ("重做错题", "retry"),
    "quiz.empty_bank": (
        "没有可用的自测题（题库文件都没能载入）。",
        "No quiz questions are available (no quiz bank loaded).",
    ),
    "quiz.broken_banks": (
        "有 {count} 个题库文件无法载入。",
        "{count} quiz {count:file|files} could not be loaded.",
    ),
    # -- the screen: a question
    "quiz.question_of": ("第 {n} 题 / 共 {total} 题", "Question {n} of {total}"),
    "quiz.topics": ("主题：{topics}", "topics: {topics}"),
    "quiz.kind.number": ("填一个数", "a number"),
    "quiz.kind.vector": ("填一串数", "numbers"),
    "quiz.kind.matrix": ("填一个矩阵（行用 ; 分隔）", "a matrix (rows split by ;)"),
    "quiz.kind.choice": ("单选：输入选项字母", "one choice: type its letter"),
    "quiz.kind.multi": (
        "多选：输入所有正确选项，如 a c",
        "several choices: type them all, e.g. a c",
    ),
    "quiz.kind.truefalse": ("判断：对 / 错（t / f）", "true or false (t / f)"),
    "quiz.kind.text": (
        "简答：用自己的话写出要点",
        "written answer: the key ideas in your own words",
    ),
    "quiz.answer_placeholder": ("在此输入答案，回车提交", "type your answer, Enter to submit"),
    "quiz.submit": ("提交", "Submit"),
    "quiz.skip": ("跳过", "Skip"),
    "quiz.next": ("下一题", "Next"),
    "quiz.finish": ("看成绩", "See the score"),
    "quiz.your_answer": ("你的答案：{answer}", "Your answer: {answer}"),
    "quiz.no_answer": ("（未作答）", "(no answer)"),
    "quiz.type_first": (
        "先输入答案；不会做可以点「跳过」。",
        "Type an answer first, or press Skip.",
    ),
    "quiz.not_an_answer": (
        "这还不算作答（本题不扣分），改一下再按回车：",
        "Not an answer yet (the question is not used up); fix it and press Enter:",
    ),
    "quiz.running": ("得分 {score}/{done}", "score {score}/{done}"),
    # -- the screen: the summary
    "quiz.score": ("得分 {score}/{total}（{percent}%）", "Score {score}/{total} ({percent}%)"),
    "quiz.by_topic": ("按主题", "By topic"),
    "quiz.new_best": ("新的最好成绩！", "A new best score!"),
    "quiz.all_right": ("全部答对！", "Every question right!"),
    "quiz.missed_count": (
        "有 {count} 题没有全对。",
        "{count} {count:question|questions} not fully right.",
    ),
    "quiz.not_recorded": (
        "这是重做错题的练习，不计入成绩记录。",
        "A retry of missed questions: practice, not recorded.",
    ),
    "quiz.review": ("回顾错题", "Review missed"),
    "quiz.retry": ("重做错题", "Retry missed"),
    "quiz.again": ("再来一次", "New quiz"),
    "quiz.review_title": ("错题回顾", "What I missed"),
    "quiz.reference": ("参考答案：{answer}", "Reference answer: {answer}"),
    "quiz.why": ("讲解", "Why"),
    "quiz.more_hint": (
        "F6 看完整讲解：背后的数字和理由。",
        "F6 shows the rest: the figures and the reasons behind it.",
    ),
    "quiz.key.more": ("完整讲解", "More"),
    "quiz.panel.start": ("选择自测", "Choosing a quiz"),
    "quiz.panel.question": ("答题", "Answering"),
    "quiz.panel.summary": ("成绩", "The score"),
    "quiz.back_to_summary": ("返回成绩", "Back to the score"),
    "quiz.when_today": ("今天 {time}", "today {time}"),
    # -- keys and help
    "quiz.key.review": ("回顾", "Review"),
    "quiz.key.retry": ("重做", "Retry"),
    "quiz.key.new": ("新测验", "New quiz"),
    "quiz.help.start": (
        "快速自测从各个主题里抽 10 题；完整自测做完整个题库。"
        "成绩会记下来，这里显示以往的成绩和最好成绩。",
        "The quick quiz draws 10 questions across the topics; the full quiz asks the whole "
        "bank. Scores are kept: past attempts and the best score are listed here.",
    ),
    "quiz.help.question": (
        "输入答案后按回车提交。每题只判一次：随后显示对错、参考答案和讲解，再按回车进入下一题。"
        "简答题按要点给分，部分答对有部分分；不会做可以跳过（记 0 分）。"
        "讲解长的先给简短的答案，F6 展开完整讲解。",
        "Type an answer and press Enter. Each question is graded once: you then see whether it "
        "was right, the reference answer and why; Enter again moves on. Written answers earn "
        "marks for each key idea; a skipped question scores 0. A long explanation opens with "
        "its short answer; F6 shows the rest.",
    ),
    "quiz.help.summary": (
        "每题 1 分，部分答对按比例计分。一道题可能属于几个主题，每个主题都算上它。"
        "「回顾错题」看每道错题的答案和讲解，「重做错题」只练这几题（不计入记录）。",
        "Each question is worth 1 mark; a partly right answer earns its share. A question "
        "counts for every topic it is tagged with. Review shows each missed question with its "
        "answer and explanation; Retry asks just those again (practice, not recorded).",
    ),
    # -- attn-tui quiz
    "quiz.cli.help": (
        "批改自测答案文件，或生成空白答题文件",
        "grade quiz answer files, or print a blank one",
    ),
    "quiz.cli.none": ("没有可批改的答题文件：{path}", "no answer files to grade in {path}"),
    "quiz.cli.nothing_graded": ("没有一个文件能批改。", "Not one file could be graded."),
    "quiz.cli.learner": (
        "{file}：{score}/{total}（{percent}%）",
        "{file}: {score}/{total} ({percent}%)",
    ),
    "quiz.cli.class": (
        "已批改 {graded} 个文件，{broken} 个无法读取；平均 {percent}%",
        "{graded} {graded:file|files} graded, {broken} could not be read; mean {percent}%",
    ),
    "quiz.cli.col_file": ("文件", "file"),
    "quiz.cli.col_score": ("得分", "score"),
    "quiz.cli.col_percent": ("%", "%"),
    "quiz.cli.col_weakest": ("最弱的主题", "weakest topics"),
    "quiz.cli.col_questions": ("各题（{first}–{last}）", "per question ({first}–{last})"),
    "quiz.cli.col_topic": ("主题", "topic"),
    "quiz.cli.col_question": ("题", "question"),
    "quiz.cli.col_mean": ("全班平均", "class mean"),
    "quiz.cli.col_status": ("结果", "result"),
    "quiz.cli.col_feedback": ("反馈", "feedback"),
    "quiz.cli.col_answer": ("答案", "answer"),
    "quiz.cli.marks_legend": (
        "✓ 对  ◐ 部分对  ✗ 错  · 未答；题号：",
        "✓ right  ◐ partly  ✗ wrong  · blank; questions:",
    ),
    "quiz.cli.by_topic": ("按主题", "By topic"),
    "quiz.cli.by_question": ("按题", "By question"),
    "quiz.cli.key": ("答案（--show-key）", "Answer key (--show-key)"),
    "quiz.cli.broken": ("无法读取的文件", "Files that could not be read"),
    "quiz.cli.warnings": ("提醒", "Warnings"),
    "quiz.tpl.header": (
        "自测答题文件：在每个 = 后面填上答案，保存后交给老师\n"
        "（老师用 attn-tui quiz grade 批改）。",
        "Quiz answer file: fill in each answer after its =, save, and hand it in\n"
        "(your teacher grades it with attn-tui quiz grade).",
    ),
    "quiz.tpl.forms": (
        '数字写 2 或 0.25；单选写 "b"；多选写 ["a", "c"]；判断写 true 或 false；\n'
        '简答写在引号里，多行时用三个引号 """ …… """。',
        'Numbers: 2 or 0.25; one choice: "b"; several: ["a", "c"]; true or false: true, false;\n'
        'written answers in quotes, or """ … """ for several lines.',
    ),
    "quiz.tpl.kind": ("（{kind}。主题：{topics}）", "({kind}. Topics: {topics}.)"),
    # -- faults in answer files
    "quiz.json_syntax": ("JSON 语法错误：{detail}", "JSON syntax error: {detail}"),
    "quiz.not_a_table": (
        "答题文件应是「题号 → 答案」的表（对象）。",
        "an answer file must be a table (object) of question id → answer.",
    ),
    "quiz.unknown_id": (
        "题库里没有“{id}”这道题（已忽略）。",
        "no question “{id}” in the quiz bank (ignored).",
    ),
    "quiz.missing_path": ("找不到 {path}", "{path} does not exist"),
    "quiz.confirm_escape": (
        "离开这次测验？已答的 {done} 题会保留：回到自测页可以接着做（退出程序也不会丢）。",
        "Leave this quiz? The {done} {done:answer|answers} so far are kept: the quiz's start "
        "page offers to resume it (even after quitting the app).",
    ),
    "quiz.confirm_escape_yes": ("离开", "Leave"),
    "quiz.confirm_escape_no": ("接着做", "Stay"),
    "quiz.resume": (
        "继续上次的{mode}自测（第 {n} 题 / 共 {total} 题）",
        "Resume the {mode} quiz (question {n} of {total})",
    ),
    "quiz.resume_gone": (
        "上次没做完的测验无法恢复（题库变了），已放弃。",
        "The quiz left unfinished could not be resumed (the question bank changed); it was dropped.",
    ),
    "quiz.key.leave": ("离开", "Leave"),
    "quiz.confirm_leave": (
        "测验还没做完：再按一次 F5 放弃这次测验，重新开始。",
        "This quiz is not finished: press F5 again to abandon it and start over.",
    ),
}
