"""The course: lessons, do-tasks, mastery, reviews, and the misconception bank's diagnoses.

A diagnosis (``course.mis.<code>``) names what a wrong answer *is*, from the exercise's own
numbers ({got} is what the learner gave); it never gives the right answer away.
"""

TEXT = {
    # -- the clock
    "course.bad_now": (
        "环境变量 {var} 的值“{value}”不是时间：请写 ISO 日期（2026-05-03 或 2026-05-03T09:30）、相对时间（+2d、+36h、-1d）或 unix 秒数",
        "{var} is “{value}”, which is not a time: give an ISO date (2026-05-03 or 2026-05-03T09:30), an offset (+2d, +36h, -1d) or unix seconds",
    ),
    # -- diagnoses: what a wrong answer is
    "course.mis.choice": ("{why}", "{why}"),
    "course.mis.std-for-variance": (
        "{got} 是 √{d}，也就是点积的标准差；题目问的是方差。",
        "{got} is √{d}, the standard deviation of the dot product; the question asks for the variance.",
    ),
    "course.mis.variance-for-std": (
        "{got} 是方差；标准差是方差的平方根。",
        "{got} is the variance; the standard deviation is its square root.",
    ),
    "course.mis.variance-after-scaling": (
        "1 是除以 √d 之后的方差；题目问的是缩放之前的点积。",
        "1 is the variance after dividing by √d; the question asks about the dot product before scaling.",
    ),
    "course.mis.no-root": (
        "{got} 就是 {x} 本身；这里要的是它的平方根。",
        "{got} is {x} itself; what is asked is its square root.",
    ),
    "course.mis.unscaled": (
        "这是没有除以 √d 的结果（这里 √d = {sqrt_d}）：分数要先缩放。",
        "This is what you get without dividing by √d (here √d = {sqrt_d}): the scores are scaled first.",
    ),
    "course.mis.scaled-anyway": (
        "这是除以了 √d（{sqrt_d}）的结果；这道题把缩放关掉了，直接用点积。",
        "This is what dividing by √d ({sqrt_d}) gives; this question turns scaling off and uses the dot products as they are.",
    ),
    "course.mis.divided-by-d": (
        "这是把分数除以 d = {d} 的结果；缩放除的是 √d = {sqrt_d}。",
        "This is what dividing the scores by d = {d} gives; the scaling divides by √d = {sqrt_d}.",
    ),
    "course.mis.sqrt-where-d-asked": (
        "这是照常除以 √d = {sqrt_d} 得到的标准差；这道题问的是改成除以 d = {d} 会怎样。",
        "This is the standard deviation after the usual division by √d = {sqrt_d}; the question asks what dividing by d = {d} would give.",
    ),
    "course.mis.scaled-for-raw": (
        "这些已经除以了 √d = {sqrt_d}；题目只问点积 q·kᵢ 本身。",
        "These are already divided by √d = {sqrt_d}; the question asks only for the dot products q·kᵢ.",
    ),
    "course.mis.temperature-ignored": (
        "这是温度为 1 时的权重；题目的温度是 T = {T}，分数要先除以 T。",
        "These are the weights at temperature 1; the question has T = {T}, so the scores are divided by T first.",
    ),
    "course.mis.scores-as-weights": (
        "这些是（缩放后的）分数，还差 softmax 这一步：权重非负、加起来等于 1。",
        "These are the (scaled) scores: the softmax step is still missing. Weights are non-negative and add up to 1.",
    ),
    "course.mis.no-exp": (
        "你把分数直接除以了它们的和；softmax 先对每个分数取 exp，再除以这些 exp 的和。",
        "You divided the scores by their sum; softmax takes exp of each score first, then divides by the sum of those exps.",
    ),
    "course.mis.not-normalised": (
        "这些是 exp 的值，还没有除以它们的和（{sum}）；权重要加起来等于 1。",
        "These are the exps, not yet divided by their sum ({sum}); the weights must add up to 1.",
    ),
    "course.mis.no-max-shift": (
        "这是没有先减去最大值 {shift} 的 exp 之和；题目问的是减去最大值之后的和（权重不会变，数却不同）。",
        "This is the sum of exps without first subtracting the largest, {shift}; the question asks for the sum after the shift (the weights come out the same, this number does not).",
    ),
    "course.mis.uniform": (
        "每个都是 1/{n}：这是平均分配，好像分数不起作用；softmax 的权重随分数变化。",
        "Each is 1/{n}: an even split, as if the scores did not matter; softmax weights follow the scores.",
    ),
    "course.mis.plain-average": (
        "这是值向量的平均（每个权重都是 1/{n}）；输出要按 softmax 的权重加权。",
        "This is the plain average of the values (every weight 1/{n}); the output weights them by the softmax weights.",
    ),
    "course.mis.hard-max": (
        "这是硬注意力（argmax）：最大的那个拿走全部。softmax 给每个位置都留一点权重。",
        "This is a hard max: the largest takes everything. Softmax leaves every position some weight.",
    ),
    "course.mis.mask-after-softmax": (
        "你先在整行上做了 softmax，再把后面的位置清零，所以这一行加起来只有 {sum}；掩码要在 softmax 之前加（把后面的分数设为 −∞），再对看得见的 {visible} 个做 softmax。",
        "You took the softmax over the whole row and then zeroed the later positions, so the row adds up to only {sum}; the mask goes in before the softmax (later scores set to −∞), and the softmax runs over the {visible} visible ones.",
    ),
    "course.mis.mask-transposed": (
        "这是上三角：每一行都看见了后面的位置。因果掩码只让位置 i 看见 j ≤ i。",
        "This is upper-triangular: every row sees the positions after it. A causal mask lets position i see only j ≤ i.",
    ),
    "course.mis.mask-no-diagonal": (
        "对角线应该是 1：每个位置都可以看见它自己。",
        "The diagonal should be 1: every position may see itself.",
    ),
    "course.mis.mask-inverted": (
        "你标出的是被遮住的位置；题目要的是能看见的位置记 1。",
        "You marked the hidden cells; the question wants 1 where a position can see.",
    ),
    "course.mis.dmodel-for-dk": (
        "{got} 是 d_model；每个头的维度 d_k 是 d_model 除以头数 {heads}。",
        "{got} is d_model; each head's size d_k is d_model divided by the {heads} heads.",
    ),
    "course.mis.heads-times": (
        "{got} 是 d_model × {heads}；拆成 {heads} 个头是把 d_model 分开，要除以头数。",
        "{got} is d_model × {heads}; splitting into {heads} heads divides d_model among them.",
    ),
    "course.mis.rnn-no-wider-output": (
        "{got} 是不加注意力的参数量；加了注意力，输出层读的是 [h; 上下文]，宽 {wide} 而不是 {hidden}。",
        "{got} is the count without attention; with attention the output layer reads [h; context], {wide} wide instead of {hidden}.",
    ),
    "course.mis.rnn-no-bias": (
        "少了偏置：编码器、解码器和输出层各有一个偏置向量。",
        "The biases are missing: the encoder, the decoder and the output layer each have a bias vector.",
    ),
    "course.mis.rnn-one-rnn": (
        "只算了一个 RNN：编码器和解码器各有一套 W_xh、W_hh 和偏置。",
        "Only one RNN is counted: the encoder and the decoder each have their own W_xh, W_hh and bias.",
    ),
    "course.mis.rnn-projections": (
        "你算进了 W_q、W_k、W_v；书里这一版点积注意力没有投影：查询就是解码器状态，打分本身不带参数。",
        "You counted W_q, W_k, W_v; the book's plain dot-product attention has none: the query is the decoder state and scoring has no parameters.",
    ),
    "course.mis.cost-linear": (
        "{got} 是长度之比 {n_to}/{n_from}；每个查询要和每个键打分，分数个数是 n²，所以代价按平方增长。",
        "{got} is the ratio of the lengths, {n_to}/{n_from}; every query scores every key, n² scores, so the cost grows with the square.",
    ),
    "course.mis.count-linear": (
        "{got} 是 n；每个查询都要和每个键打分，一共 n × n 个。",
        "{got} is n; every query scores every key, n × n in all.",
    ),
    "course.mis.percent": (
        "{got} 和答案差了 100 倍：百分数和小数弄混了。",
        "{got} is off by a factor of 100: a percent and a fraction mixed up.",
    ),
    "course.mis.rounded": (
        "很接近：{got} 像是答案只保留了 {places} 位小数；多保留几位。",
        "Close: {got} looks like the answer rounded to {places} decimal places; keep more digits.",
    ),
    "course.mis.sign": (
        "符号反了：{got} 的正负和答案相反。",
        "The sign is flipped: {got} has the opposite sign.",
    ),
    "course.mis.transposed": (
        "这是答案的转置：行和列对调了（第 i 行应是第 i 个查询）。",
        "This is the answer transposed: rows and columns swapped (row i belongs to query i).",
    ),
    "course.mis.shape-swapped": (
        "两个尺寸的顺序反了：形状先写行数（序列长度），再写列数。",
        "The two sizes are in the wrong order: a shape gives the rows (the sequence length) first, then the columns.",
    ),
    # -- lesson files: faults (file:line: message, like the sets')
    "course.lesson.missing": ("缺少 [lesson] 表。", "the [lesson] table is missing."),
    "course.lesson.no_steps": ("课程没有任何 [[step]]。", "the lesson has no [[step]]."),
    "course.lesson.duplicate_step": ("步骤 id“{id}”重复。", "step id “{id}” is repeated."),
    "course.lesson.bad_kind": (
        "步骤类型“{kind}”未知；可用的有：{known}。",
        "unknown step kind “{kind}”; known: {known}.",
    ),
    "course.lesson.bad_area": (
        "area“{area}”未知；可用的有：{known}。",
        "unknown area “{area}”; known: {known}.",
    ),
    "course.lesson.bad_preset": ("preset 不对：{detail}", "the preset is not valid: {detail}"),
    "course.lesson.bad_check": (
        "check 的 fn“{fn}”不是这个 area 的检查；可用的有：{known}。",
        "check fn “{fn}” is not a check of this area; known: {known}.",
    ),
    "course.lesson.needs_ask": (
        "检查 {fn} 要比对学习者读出的数，这一步需要 ask（要学习者写什么）。",
        "check {fn} compares what the learner reads off the screen: the step needs an ask (what to type).",
    ),
    "course.lesson.bad_param": (
        "{fn} 的参数 {param} 应是 {want}。",
        "{fn}: parameter {param} must be a {want}.",
    ),
    "course.lesson.want_items": (
        "items 应是一组“set/id”。",
        "items must be a list of “set/id”.",
    ),
    "course.lesson.bad_need": (
        "{key} 应是 1 到 {count} 之间的整数。",
        "{key} must be a whole number from 1 to {count}.",
    ),
    "course.lesson.bad_item": (
        "“{item}”不是“set/id”的形式。",
        "“{item}” is not of the form “set/id”.",
    ),
    "course.lesson.no_item": (
        "找不到练习“{item}”（先确认那个练习组已加载）。",
        "no exercise “{item}” (is its set loaded?).",
    ),
    "course.lesson.want_hints": (
        "hints 应写成 {{ zh = [...], en = [...] }}。",
        "hints must be {{ zh = [...], en = [...] }}.",
    ),
    "course.lesson.too_long": (
        "{key}（{language}）有 {chars} 个字，超过 {limit}：读的部分是一屏，不是一页。",
        "{key} ({language}) is {chars} characters, over {limit}: a read step is a screen, not a page.",
    ),
    "course.lesson.duplicate": (
        "课程 id“{id}”已经在 {other} 里用过了。",
        "lesson id “{id}” is already used by {other}.",
    ),
    # -- do-tasks: what is still missing (checked from the screen's state)
    "course.task.done": ("做到了！", "Done!"),
    "course.task.open_calc": (
        "在计算器里做这一步（Enter 打开）。",
        "This task is done in the calculator (Enter opens it).",
    ),
    "course.task.calc_fault": ("输入有错，先把它改对。", "An input has a fault: fix it first."),
    "course.task.keys_count": (
        "保持 {count} 个 {dim} 维的键。",
        "Keep {count} keys of {dim} dimensions.",
    ),
    "course.task.changed_other": (
        "只改第 {key} 个键：第 {other} 个键也被改了。",
        "Change key {key} alone: key {other} has changed too.",
    ),
    "course.task.change_key": ("改第 {key} 个键。", "Change key {key}."),
    "course.task.hard_on": (
        "把硬注意力（argmax）关掉，用 softmax。",
        "Turn hard attention (argmax) off: use softmax.",
    ),
    "course.task.not_top": (
        "k{key} 现在的权重是 {weight}；最大的是 k{top}（{top_weight}）。",
        "k{key} now has weight {weight}; the largest is k{top} ({top_weight}).",
    ),
    "course.task.open_experiment": ("按 F4 打开 √d 实验。", "Press F4 to open the √d experiment."),
    "course.task.need_d": (
        "大的维度现在是 {d}；把它设到 {d_min} 或更大。",
        "The large dimension is {d}; set it to {d_min} or more.",
    ),
    "course.task.read_max": (
        "读出 d = {d} 时不除 √d 的最大权重，写在下面。",
        "Read the largest weight without √d at d = {d} and type it below.",
    ),
    "course.task.read_scaled": (
        "{got} 是除以 √d 之后的最大权重；要的是不除 √d 的那一个。",
        "{got} is the largest weight after dividing by √d; the one asked for is without it.",
    ),
    "course.task.read_again": (
        "{got} 不是屏幕上现在显示的数，再读一遍。",
        "{got} is not what the screen shows now; read it again.",
    ),
    "course.task.keep_inputs": (
        "查询和键保持原样（F5 恢复课本例子）。",
        "Keep the query and the keys as they were (F5 restores the textbook example).",
    ),
    "course.task.need_scale_on": ("把“除以 √d”打开。", "Turn “Divide by √d” back on."),
    "course.task.need_sharper": (
        "T = {T} 时最大的权重是 {weight}；要达到 {at_least}。",
        "At T = {T} the largest weight is {weight}; it must reach {at_least}.",
    ),
    "course.task.need_values": (
        "在“值”一栏里写出自己的值向量。",
        "Type value vectors of your own in the Values field.",
    ),
    "course.task.values_dim": (
        "值向量至少要有 {component} 维。",
        "The values need at least {component} components.",
    ),
    "course.task.output_low": (
        "输出的第 {component} 个分量是 {got}，还不到 {at_least}；值里这一分量最大是 {hi}。",
        "Output component {component} is {got}, short of {at_least}; the largest value there is {hi}.",
    ),
    "course.task.open_train": (
        "在训练器里做这一步（Enter 打开）。",
        "This task is done in the trainer (Enter opens it).",
    ),
    "course.task.need_rnn": ("模型选 RNN。", "Choose the RNN model."),
    "course.task.need_transformer": ("模型选 Transformer。", "Choose the Transformer model."),
    "course.task.need_score": (
        "打开注意力，打分方式选 {score}。",
        "Turn attention on with the {score} score.",
    ),
    "course.task.need_length": (
        "序列长度要 {length} 或更长（现在是 {got}）。",
        "The length must be {length} or more (it is {got}).",
    ),
    "course.task.train_first": ("先训练（F5）。", "Train first (F5)."),
    "course.task.need_diagonal": (
        "反对角线上的权重现在是 {weight}，还不到 {target}：继续训练。",
        "The weight on the anti-diagonal is {weight}, not yet {target}: keep training.",
    ),
    "course.task.stop_now": (
        "反对角线上已经有 {weight}：现在暂停（F6）或停止（F7）。",
        "The anti-diagonal holds {weight}: pause (F6) or stop (F7) now.",
    ),
    "course.task.need_task": ("任务选 {task}。", "Choose the {task} task."),
    "course.task.wait_run": ("等这一轮训练结束。", "Wait for the run to finish."),
    "course.task.need_positions_off": (
        "把位置关掉（positions = none）。",
        "Switch positions off (positions = none).",
    ),
    "course.task.need_positions_on": ("把位置打开。", "Switch positions on."),
    "course.task.press_ablate": (
        "训练完后按 a，关掉第 1 层的上一个词元头。",
        "Once it has trained, press a to switch off layer 1's previous-token head.",
    ),
    "course.task.read_ablated": (
        "把关掉那个头之后的复制准确率写在下面。",
        "Type the copy accuracy with that head off below.",
    ),
    "course.task.read_accuracy": (
        "把逐位准确率写在下面。",
        "Type the accuracy per position below.",
    ),
    "course.task.need_heads": ("至少用 {heads} 个头。", "Use at least {heads} heads."),
    "course.task.name_head": ("写出头的编号。", "Type the head's number."),
    "course.task.other_head": (
        "{got} 号头画的不是反对角线；再看看另一个。",
        "Head {got} does not draw the anti-diagonal; look at the other.",
    ),
    "course.task.open_lab": (
        "在实验室里做这一步（Enter 打开）。",
        "This task is done in the lab (Enter opens it).",
    ),
    "course.task.lab_fault": (
        "实验室的输入有错，先把它改对。",
        "A lab input has a fault: fix it first.",
    ),
    "course.task.need_causal": ("打开因果掩码（F3）。", "Turn the causal mask on (F3)."),
    "course.task.need_window": (
        "把局部窗口设为 {window}（并关掉因果掩码）。",
        "Set the local window to {window} (with the causal mask off).",
    ),
    "course.task.need_tokens": ("至少要有 {row} 个词。", "There must be at least {row} words."),
    "course.task.read_row": (
        "把第 {row} 行的权重写在下面。",
        "Type the weights of row {row} below.",
    ),
    "course.task.row_length": (
        "这一行有 {n} 个数，你写了 {got} 个。",
        "The row has {n} numbers; you typed {got}.",
    ),
    "course.task.need_heads_lab": (
        "设 d_model = {d_model}、{heads} 个头（现在是 {got_d}、{got_heads}）。",
        "Set d_model = {d_model} and {heads} heads (now {got_d} and {got_heads}).",
    ),
    "course.task.read_dk": ("把每个头的 d_k 写在下面。", "Type each head's d_k below."),
    "course.task.need_d_model": (
        "设 d_model = {d_model}（现在是 {got}）。",
        "Set d_model = {d_model} (it is {got}).",
    ),
    "course.task.read_shape": ("把 {matrix} 的形状写在下面。", "Type the shape of {matrix} below."),
    # -- progress: the course's tables
    "course.prog.path": (
        "学习路线：通过 {passed} / {total} 课",
        "The path: {passed} of {total} lessons passed",
    ),
    "course.prog.col_lesson": ("课", "Lesson"),
    "course.prog.col_state": ("状态", "State"),
    "course.prog.col_steps": ("步骤", "Steps"),
    "course.prog.next": ("继续：第 {number} 课 · {title}", "Continue: lesson {number} · {title}"),
    "course.prog.all_passed": ("每一课都通过了。", "Every lesson is passed."),
    "course.prog.mastery": ("掌握程度", "Mastery"),
    "course.prog.col_topic": ("主题", "Topic"),
    "course.prog.col_level": ("程度", "Level"),
    "course.prog.col_right": ("答对", "Right"),
    "course.prog.col_days": ("天数", "Days"),
    "course.prog.not_started": ("还有 {count} 个主题没有开始。", "{count} topics not started yet."),
    "course.prog.due": ("现在要复习的题：{count}", "Reviews due now: {count}"),
    "course.prog.reviews": ("复习", "Reviews"),
    "course.prog.col_item": ("题目", "Item"),
    "course.prog.col_due": ("到期（UTC）", "Due (UTC)"),
    "course.prog.col_reps": ("次数", "Reps"),
    "course.state.locked": ("未解锁", "locked"),
    "course.state.open": ("可以开始", "open"),
    "course.state.started": ("进行中", "started"),
    "course.state.passed": ("已通过", "passed"),
    "course.level.not-started": ("未开始", "not started"),
    "course.level.practised": ("练过", "practised"),
    "course.level.familiar": ("熟悉", "familiar"),
    "course.level.proficient": ("熟练", "proficient"),
    "course.level.mastered": ("掌握", "mastered"),
    "course.valid_lessons": (
        "其中课程 {count} 课，每一课用到的题目都找得到。",
        "Of them {count} {count:lesson|lessons}, every item they name found.",
    ),
    # -- the screens: home, the path, a lesson, the reviews
    "course.home.loading": ("正在载入学习路线……", "Loading the path…"),
    "course.home.passed": ("  通过 {passed}/{total}", "  {passed} of {total} passed"),
    "course.home.continue": ("继续：第 {n} 课 · {title}", "Continue: lesson {n} · {title}"),
    "course.home.continue.desc": ("  · 下一步：{step}", "  · next: {step}"),
    "course.home.all_passed": ("学习路线全部通过", "The whole path is passed"),
    "course.home.all_passed.desc": (
        "可以复习，或者随意逛逛各个练习区。",
        "Review, or roam the areas freely.",
    ),
    "course.home.review": ("复习：{count} 题到期", "Review: {count} due"),
    "course.home.review.desc": (
        "学过、做错过的题按间隔回来，生成的题换新数字。",
        "What you learned and missed comes back, spaced over days; generated items with new numbers.",
    ),
    "course.home.review.later": ("  · 下一次在 {when}", "  · the next on {when}"),
    "course.home.review.none": (
        "  · 答过的题会按间隔回到这里",
        "  · what you answer comes back here, spaced over days",
    ),
    "course.home.path": ("学习路线", "The path"),
    "course.home.path.desc": (
        "  · {chapters} 章 {lessons} 课，各主题的掌握程度",
        "  · {chapters} chapters, {lessons} lessons, mastery by topic",
    ),
    "course.path": ("学习路线", "The path"),
    "course.help.path": (
        "每一课一行：✓ 已通过，▸ 进行中，○ 可以开始，· 未解锁（先通过前一课的检测）。右边是每个主题的掌握程度：练过、熟悉、熟练、掌握，靠分散在几天里的正确回答升上去，复习答错会降一级。Enter 打开一课。",
        "One line a lesson: ✓ passed, ▸ started, ○ open, · locked (pass the lesson before first). On the right, mastery per topic: practised, familiar, proficient, mastered, raised by right answers spread over days and lowered by a miss in review. Enter opens a lesson.",
    ),
    "course.path.title": (
        "学习路线 · 通过 {passed}/{total}",
        "The path · {passed} of {total} passed",
    ),
    "course.chapter.1": ("第一章 · RNN 上的注意力", "Chapter 1 · Attention on an RNN"),
    "course.chapter.2": ("第二章 · Q、K、V", "Chapter 2 · Q, K and V"),
    "course.chapter.3": ("第三章 · 种类、代价与解释", "Chapter 3 · Kinds, cost and explanations"),
    "course.lesson": ("一课", "A lesson"),
    "course.help.lesson": (
        "每课四步：读 → 做 → 练 → 测。读完按 Enter；“做”这一步按 F4 打开计算器、训练器或实验室（已经按这一课设好），应用根据那里的状态检查你做到没有；“练”和“测”在这里直接作答，Enter 提交，F3 提示，F5 换下一题。测验通过就解锁下一课。PgDn / PgUp 换步骤，Esc 回去——做到哪里都会记住。",
        "Four steps: read → do → practise → check. Enter after reading; in “do”, F4 opens the calculator, trainer or lab set up for the lesson, and the app checks from the state you reach there; “practise” and “check” are answered here: Enter submits, F3 gives a hint, F5 the next item. Passing the check opens the next lesson. PgDn / PgUp change step, Esc goes back — where you are is kept.",
    ),
    "course.lesson.head": ("第 {n} / {total} 课", "Lesson {n} of {total}"),
    "course.step.read": ("读", "Read"),
    "course.step.do": ("做", "Do"),
    "course.step.practise": ("练", "Practise"),
    "course.step.check": ("测", "Check"),
    "course.key.next_step": ("下一步", "Next step"),
    "course.key.prev_step": ("上一步", "Previous step"),
    "course.key.open_area": ("去做", "Do it"),
    "course.key.hint": ("提示", "Hint"),
    "course.key.next_item": ("下一题", "Next item"),
    "course.key.go": ("确定", "Go"),
    "course.area.calc": ("计算器", "calculator"),
    "course.area.train": ("训练器", "trainer"),
    "course.area.lab": ("实验室", "lab"),
    "course.read.next": (
        "读完按 Enter 或 PgDn 进入“做”。",
        "Enter or PgDn when you have read it: on to “do”.",
    ),
    "course.do.keys": (
        "F4 打开{area}（已按这一课设好），做完按 Esc 回来；F3 提示。",
        "F4 opens the {area}, set up for this lesson; Esc comes back when done. F3 for a hint.",
    ),
    "course.do.next": ("PgDn：去练习。", "PgDn: on to practise."),
    "course.do.opened": ("任务：{task}", "Task: {task}"),
    "course.do.done_back": (
        "做到了！按 Esc 回到这一课。",
        "Done! Esc takes you back to the lesson.",
    ),
    "course.item.heading": ("第 {n} / {total} 题", "Item {n} of {total}"),
    "course.item.type.number": ("写一个数，按 Enter", "Type a number, then Enter"),
    "course.item.type.vector": (
        "写几个数，用空格隔开，按 Enter",
        "Type the numbers separated by spaces, then Enter",
    ),
    "course.item.type.matrix": ("每行用分号隔开，按 Enter", "Rows separated by ;, then Enter"),
    "course.item.type.choice": (
        "写选项字母，按 Enter",
        "Type the letter of your choice, then Enter",
    ),
    "course.item.type.multi": (
        "写所有正确的字母，如 a c，按 Enter",
        "Type every right letter, such as a c, then Enter",
    ),
    "course.item.type.truefalse": (
        "写 对 或 错（true / false），按 Enter",
        "Type true or false, then Enter",
    ),
    "course.item.type.text": ("用自己的话写，按 Enter", "Write it in your own words, then Enter"),
    "course.practise.status": (
        "练习：做对 {right} / {total}（需要 {need}）。F5 换下一题，F3 提示。",
        "Practise: {right} of {total} right ({need} needed). F5 for the next item, F3 for a hint.",
    ),
    "course.practise.done": (
        "练习完成（做对 {right} / {total}）。PgDn 去检测。",
        "Practice done ({right} of {total} right). PgDn: on to the check.",
    ),
    "course.check.status": (
        "检测：答了 {answered} / {total}，对 {right}；通过要 {need}。每题答一次，Enter 下一题。",
        "Check: {answered} of {total} answered, {right} right; {need} to pass. One answer each; Enter for the next.",
    ),
    "course.check.failed": (
        "这一轮对了 {right} / {total}，通过要 {need}。再答一遍（F5 换题）就是新的一轮。",
        "{right} of {total} right this round, {need} needed. Answer again (F5 for another item) to start a new round.",
    ),
    "course.check.passed": (
        "通过！第 {next} 课已经解锁——Enter 继续。",
        "Passed! Lesson {next} is open — Enter to go on.",
    ),
    "course.check.all_passed": (
        "通过！整条学习路线都完成了。",
        "Passed! That completes the whole path.",
    ),
    "course.check.passed_note": (
        "检测通过，下一课解锁了。",
        "Check passed: the next lesson is open.",
    ),
    "course.review": ("复习", "Reviews"),
    "course.help.review": (
        "到期的题一题一题来：生成的题换新数字。每题答一次，Enter 下一题，F3 提示，F5 先跳过。答对的隔得更久才回来，答错的明天再来，而且相应主题的掌握程度降一级。",
        "The items due, one by one; generated ones with new numbers. One answer each, Enter for the next, F3 for a hint, F5 to put one off. Right answers come back later, misses tomorrow — and a miss lowers its topics' mastery one level.",
    ),
    "course.review.head": ("复习 {n} / {total}", "Review {n} of {total}"),
    "course.review.head_done": ("复习", "Reviews"),
    "course.review.keys": (
        "Enter 提交；F3 提示；F5 先跳过。",
        "Enter submits; F3 for a hint; F5 puts it off.",
    ),
    "course.review.answered": ("Enter：下一题。", "Enter: the next item."),
    "course.review.done": (
        "今天的复习做完了：对了 {right} / {total}。",
        "Today's reviews are done: {right} of {total} right.",
    ),
    "course.review.nothing": ("现在没有到期的题。", "Nothing is due now."),
    "course.review.next": (
        "Enter：继续第 {n} 课 · {title}。",
        "Enter: continue with lesson {n} · {title}.",
    ),
    "course.key.continue": ("继续课程", "Continue"),
    "course.key.review": ("复习", "Review"),
    "course.key.path": ("学习路线", "The path"),
    "course.path.legend": ("■ 越多越熟：练过 → 掌握", "■ per level: practised → mastered"),
    "course.quiz.weak": (
        "还不稳的“{topic}”：第 {n} 课 · {title} 讲它，练习“{sets}”练它。",
        "Weak, {topic}: lesson {n} · {title} teaches it; the set “{sets}” practises it.",
    ),
    "course.quiz.next": (
        "下一步：学习路线的第 {n} 课 · {title}（主页按 C）。",
        "Next: lesson {n} · {title} on the path (C on the home screen).",
    ),
    "course.lesson.no_code": (
        "找不到代码练习“{item}”（attn-tui code list 列出全部）。",
        "no code exercise “{item}” (attn-tui code list shows them).",
    ),
    "course.step.code": ("写代码", "Code"),
    "course.code.status": (
        "代码练习：通过 {passed} / {total}（需要 {need}）。F4 打开代码区写这一题，写完按 Esc 回来。",
        "Code: {passed} of {total} passed ({need} needed). F4 opens the code area on the next one; Esc comes back.",
    ),
    "course.code.done": ("代码练习完成。PgDn：去检测。", "Code done. PgDn: on to the check."),
}
