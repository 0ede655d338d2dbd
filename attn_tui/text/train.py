"""Strings of the trainer: settings faults, how a run ended, the headless command's tables."""

TEXT = {
    # settings that cannot run (InputError codes raised by TrainConfig.validate)
    "train.bad_length": (
        "序列长度 {value} 不可用：请取 {lo} 到 {hi} 之间的整数。",
        "sequence length {value} is not usable: choose a whole number from {lo} to {hi}.",
    ),
    "train.bad_iters": (
        "迭代次数 {value} 不可用：请取 1 到 {hi} 之间的整数。",
        "{value} iterations is not usable: choose a whole number from 1 to {hi}.",
    ),
    "train.bad_seed": (
        "随机种子 {value} 不可用：请用不小于 0 的整数。",
        "random seed {value} is not usable: use a whole number, 0 or more.",
    ),
    "train.bad_lr": (
        "学习率 {value} 不可用：它必须是大于 0 的有限数，例如 0.003。",
        "learning rate {value} is not usable: it must be a finite number above 0, e.g. 0.003.",
    ),
    "train.bad_batch": (
        "批大小 {value} 不可用：请取 1 到 {hi} 之间的整数。",
        "batch size {value} is not usable: choose a whole number from 1 to {hi}.",
    ),
    "train.bad_clip": (
        "梯度裁剪阈值 {value} 不可用：请用不小于 0 的有限数（0 表示不裁剪）。",
        "gradient clip {value} is not usable: use a finite number, 0 or more (0 = no clipping).",
    ),
    "train.bad_dtype": (
        "数值类型 {value} 不可用：可选 {choices}。",
        "number type {value} is not usable: choose one of {choices}.",
    ),
    "train.bad_eval_size": (
        "留出集大小 {value} 不可用：请取 1 到 {hi} 之间的整数。",
        "held-out set size {value} is not usable: choose a whole number from 1 to {hi}.",
    ),
    "train.bad_eval_every": (
        "评估间隔 {value} 不可用：请用整数（0 表示只在最后评估）。",
        "evaluation interval {value} is not usable: use a whole number (0 = only at the end).",
    ),
    "train.bad_hidden": (
        "隐状态维数 {value} 不可用：请取 1 到 {hi} 之间的整数。",
        "hidden size {value} is not usable: choose a whole number from 1 to {hi}.",
    ),
    "train.bad_beta": (
        "Adam 的衰减系数 {value} 不可用：它必须在 0（含）到 1（不含）之间。",
        "Adam decay {value} is not usable: it must be at least 0 and below 1.",
    ),
    "train.bad_eps": (
        "Adam 的 eps {value} 不可用：它必须是大于 0 的有限数。",
        "Adam eps {value} is not usable: it must be a finite number above 0.",
    ),
    "train.bad_score": (
        "打分方式 {value} 不可用：可选 {choices}。",
        "score {value} is not usable: choose one of {choices}.",
    ),
    "train.bad_feed": (
        "解码器输入 {value} 不可用：可选 {choices}。",
        "decoder input {value} is not usable: choose one of {choices}.",
    ),
    "train.bad_workers": (
        "进程数 {value} 不可用：请取 1 到 {hi} 之间的整数。",
        "{value} workers is not usable: choose a whole number from 1 to {hi}.",
    ),
    "train.same_variants": (
        "要对比的两种做法都是 {variant}：用 --versus 选另一种。",
        "both sides of the comparison are {variant}: pick another with --versus.",
    ),
    "train.too_long": (
        "这项训练估计要 {about}（{runs} 次运行，每次 {iters} 次迭代 × 批大小 {batch} × 长度 {length}），"
        "超过了 {limit} 的上限：请减少迭代次数、批大小或种子个数。",
        "this would take {about} ({runs} {runs:run|runs} of {iters} iterations × batch {batch} × length "
        "{length}), past the {limit} limit: use fewer iterations, a smaller batch or fewer seeds.",
    ),
    "train.budget": (
        "估计需要{about}；按 Ctrl+C 可随时停止。",
        "this will take {about} (estimated); Ctrl+C stops it.",
    ),
    "train.about_s": ("约 {n} 秒", "about {n} s"),
    "train.about_min": ("约 {n} 分钟", "about {n} min"),
    "train.about_h": ("约 {n} 小时", "about {n} h"),
    "train.bad_seeds": (
        "种子个数 {value} 不可用：请取 1 到 {hi} 之间的整数。",
        "{value} seeds is not usable: choose a whole number from 1 to {hi}.",
    ),
    # how a run ended
    "train.outcome.finished": (
        "训练完成：共 {iteration} 次迭代。",
        "Training finished after {iteration} iterations.",
    ),
    "train.outcome.stopped": (
        "已在第 {iteration} 次迭代后停止；下面的准确率是此刻模型的成绩。",
        "Stopped after iteration {iteration}; the accuracy below is the model as it stands.",
    ),
    "train.outcome.diverged_loss": (
        "第 {iteration} 次迭代的损失变成了 {value}：参数更新步子太大，训练已经发散，于是停了下来。"
        "请把学习率从 {lr} 调小（例如 {suggest}），并保持梯度裁剪开启。",
        "At iteration {iteration} the loss became {value}: the updates were too large and "
        "training blew up, so it stopped. Try a smaller learning rate than {lr} (e.g. {suggest}) "
        "and keep gradient clipping on.",
    ),
    "train.outcome.diverged_gradient": (
        "第 {iteration} 次迭代的梯度溢出成了 {value}：参数已经大到数值无法表示，训练停止。"
        "请把学习率从 {lr} 调小（例如 {suggest}），或改用 float64。",
        "At iteration {iteration} the gradient overflowed to {value}: the weights grew past what "
        "the numbers can hold, so training stopped. Try a smaller learning rate than {lr} "
        "(e.g. {suggest}) or float64.",
    ),
    # the headless command
    "train.help": (
        "训练序列反转 RNN（可选注意力），打印结果",
        "train the sequence-reversal RNN (optionally with attention) and print the result",
    ),
    "train.progress": ("训练中", "training"),
    "train.compare_progress": ("多种子对比", "comparing seeds"),
    "train.result_title": ("训练结果", "Training result"),
    "train.col.item": ("项目", "item"),
    "train.col.value": ("数值", "value"),
    "train.row.variant": ("做法", "variant"),
    "train.row.feed": ("解码器输入", "decoder input"),
    "train.row.length": ("序列长度", "sequence length"),
    "train.row.params": ("参数个数", "parameters"),
    "train.row.seed": ("随机种子", "random seed"),
    "train.row.iters": ("迭代次数", "iterations"),
    "train.row.seq_acc": ("整串全对", "whole sequence right"),
    "train.row.pos_acc": ("逐位正确", "per-position right"),
    "train.row.final_loss": ("最终损失（最后 50 次平均）", "final loss (mean of last 50)"),
    "train.row.seconds": ("训练用时", "training time"),
    "train.row.eval_seconds": ("评估用时", "evaluation time"),
    "train.row.speed": ("速度", "speed"),
    "train.row.probe": ("示例解码", "sample decode"),
    "train.row.diag_weight": (
        "反转对角线上的权重（各行平均）",
        "weight on the reversal diagonal (mean of rows)",
    ),
    "train.row.diag_peaks": ("峰值落在对角线上的行", "rows peaking on the diagonal"),
    "train.seconds": ("{value:.2f} 秒", "{value:.2f} s"),
    "train.speed": ("{value:,.0f} 次/秒", "{value:,.0f} it/s"),
    "train.probe": (
        "输入 {x} → 应为 {target}，得到 {prediction}",
        "input {x} → expected {target}, got {prediction}",
    ),
    "train.variant.none": ("不用注意力", "no attention"),
    "train.variant.dot": ("点积注意力（书中）", "dot attention (book)"),
    "train.variant.general": ("general 注意力", "general attention"),
    "train.variant.qk": ("q·k 注意力", "q·k attention"),
    "train.feed.previous": ("上一个目标字母", "the previous target"),
    "train.feed.none": ("无（什么也不喂）", "none (fed nothing)"),
    "train.held_out_note": (
        "准确率在 {n} 条留出序列上测得：这些序列从不参与训练，解码时模型吃的是自己上一步的预测。",
        "Accuracy is measured on {n} held-out sequences that are never trained on, decoding "
        "greedily from the model's own previous prediction.",
    ),
    "train.attention_title": (
        "注意力矩阵（留出集平均；行 = 输出位置，列 = 输入位置）",
        "Attention (held-out average; rows = output positions, columns = input positions)",
    ),
    "train.attention_peaks": (
        "每行峰值所在的输入位置（从 1 数起）：{peaks}；反转需要的是 {diagonal}（下划线）",
        "input position of each row's peak (counting from 1): {peaks}; reversal needs "
        "{diagonal} (underlined)",
    ),
    "train.out_row": ("输出 {i}", "out {i}"),
    "train.compare_title": (
        "长度 {length}、{iters} 次迭代、{n} 个种子、解码器输入：{feed}",
        "Length {length}, {iters} iterations, {n} seeds, decoder input: {feed}",
    ),
    "train.col.variant": ("做法", "variant"),
    "train.col.params": ("参数", "params"),
    "train.col.seq_mean": ("整串", "whole"),
    "train.col.seq_range": ("整串范围", "min–max"),
    "train.col.pos_mean": ("逐位", "per pos."),
    "train.col.diag_mean": ("对角线", "diagonal"),
    "train.col.legend": (
        "整串 = 整条序列全对的比例，逐位 = 单个字母对的比例，对角线 = 反转对角线上的注意力权重；"
        "每格是 {n} 个种子的均值±标准差。",
        "whole = share of sequences all right, per pos. = share of letters right, diagonal = "
        "attention weight on the reversal diagonal; each cell is the mean ± sd of {n} seeds.",
    ),
    "train.book_run": ("书中的一次运行", "the book's run"),
    "train.col.per_seed": ("每个种子的整串准确率", "whole-sequence accuracy per seed"),
    "train.compare_note": (
        "书中的数字是一次运行的结果；一次运行会因随机种子不同而上下浮动。两种做法平均值的差距，"
        "要明显大于这个差的标准误 √(sd₁²/n₁ + sd₂²/n₂)（两个标准误以上），才能说是真的。",
        "The book's figures come from one run, and one run moves with its random seed. "
        "A gap between two means is real only when it is clearly larger than the standard error "
        "of that gap, √(sd₁²/n₁ + sd₂²/n₂): two of them or more.",
    ),
    # the training screen
    "train.ui.settings": ("设置", "Settings"),
    "train.ui.variant": ("注意力", "attention"),
    "train.ui.length": ("长度", "length"),
    "train.ui.feed": ("解码器输入", "dec. input"),
    "train.ui.iters": ("迭代", "iterations"),
    "train.ui.seed": ("种子", "seed"),
    "train.ui.lr": ("学习率", "learn rate"),
    "train.ui.batch": ("批大小", "batch"),
    "train.ui.pace": ("节奏", "pace"),
    "train.ui.versus": ("F9 对照", "F9 versus"),
    "train.ui.seeds": ("F10 种子", "F10 seeds"),
    # after F9, the run on the right may be the other variant, not the one the rows say
    "train.ui.versus_run": ("F9 对照：{run}", "F9 versus: {run}"),
    "train.ui.versus_shown": ("右边是 F9 对照", "right: F9 versus run"),
    "train.ui.variant.qk": ("q·k", "q·k"),
    "train.ui.variant.general": ("general", "general"),
    "train.ui.variant.dot": ("书中点积", "dot (book)"),
    "train.ui.variant.none": ("不用", "off"),
    "train.ui.feed.previous": ("上一个字母", "previous"),
    "train.ui.feed.none": ("无", "none"),
    "train.ui.pace.watch": ("慢放", "watchable"),
    "train.ui.pace.fast": ("全速", "full speed"),
    "train.ui.pace.step": ("单步（F8）", "step (F8)"),
    "train.ui.guide": ("引导对比", "Guided comparison"),
    "train.ui.guide_title": ("引导对比（键 1–5）", "Guide (keys 1–5)"),
    "train.ui.guide_figure": ("整串", "whole"),
    "train.ui.guide_item": ("{k} {variant} 长度{length}", "{k} {variant}  L{length}"),
    # attention off: a guide row holds 23 columns, so zh has room for one character here
    "train.ui.guide_no_attention": ("关", "off"),
    "train.ui.guide_nofeed": (" 无输入", " no input"),
    "train.guide.qk10": (
        "看对角线长出来：几百次迭代后，第 t 个输出几乎只看第 L+1−t 个输入，整串准确率随之上升。",
        "Watch the diagonal grow: within a few hundred iterations output t looks almost only "
        "at input L+1−t, and whole-sequence accuracy follows.",
    ),
    "train.guide.dot10": (
        "书中的模型：热力图几乎是平的（每格约 1/L），多数行里略高的那一格在对角线左边一列；"
        "按 ctrl+r 换成自身范围的色标，才看得出这点差别。",
        "The book's model: the map is nearly flat (about 1/L in every cell), and in most rows "
        "what little peak there is sits one column left of the diagonal; ctrl+r switches to "
        "the own-range colours that make the small differences visible.",
    ),
    "train.guide.none10": (
        "不用注意力：整条序列都得挤过最后一个状态 h_L，长度 10 时整串全对的比例很低。",
        "No attention: the whole sequence must squeeze through the last state h_L, and at "
        "length 10 few sequences come out entirely right.",
    ),
    "train.guide.qk20": (
        "长度 20，解码器什么也不喂：q·k 注意力照样把大多数序列整串反转正确。",
        "Length 20, the decoder fed nothing: q·k attention still reverses most sequences "
        "entirely right.",
    ),
    "train.guide.none20": (
        "瓶颈：不用注意力、也不喂输入时，长度 20 的序列几乎没有一条整串全对。",
        "The bottleneck: with no attention and nothing fed, hardly a length-20 sequence comes "
        "out entirely right.",
    ),
    "train.ui.live": ("训练", "Training"),
    "train.ui.compare_view": ("对比", "Comparison"),
    "train.ui.intro": (
        "模型要学会把 {length} 个字母（A–F）的序列倒过来写。这次：{variant}，{params} 个参数，"
        "全速{about}。F5 开始；F9 用同一个种子依次训练它和“F9 对照”里的做法；F10 对两者做多种子"
        "对比；F4 看对比表。",
        "The model learns to write a sequence of {length} letters (A–F) backwards. This run: "
        "{variant}, {params} parameters, {about} at full speed. F5 trains; F9 trains it and the "
        "“F9 versus” variant with the same seed; F10 compares both over many seeds; F4 shows "
        "the tables.",
    ),
    "train.ui.state.running": ("训练中", "training"),
    "train.ui.state.paused": ("已暂停 · F6 继续", "paused · F6 resumes"),
    "train.ui.state.stepping": (
        "单步 · 按 F8 走一次迭代",
        "single step · press F8 for one iteration",
    ),
    "train.ui.state.stopping": ("正在停止…", "stopping…"),
    "train.ui.run_label": (
        "{variant} · 长度 {length} · 种子 {seed}",
        "{variant} · length {length} · seed {seed}",
    ),
    "train.ui.no_feed": ("解码器无输入", "decoder fed nothing"),
    "train.ui.iteration": ("迭代 {i:,}/{total:,}", "iteration {i:,}/{total:,}"),
    "train.ui.rate": (
        "{rate} 次/秒 · 已用 {elapsed} · 预计还要 {eta}",
        "{rate} it/s · {elapsed} elapsed · ETA {eta}",
    ),
    "train.ui.rate_no_eta": (
        "{rate} 次/秒 · 训练用时 {elapsed}",
        "{rate} it/s · {elapsed} of training",
    ),
    "train.ui.loss_title": ("每次迭代的损失", "Loss per iteration"),
    "train.ui.loss_now": ("最近：{loss}", "latest: {loss}"),
    "train.ui.acc_line": (
        "留出集（第 {iteration:,} 次）：整串 {whole} · 逐位 {pos}",
        "Held-out at {iteration:,}: whole {whole} · per letter {pos}",
    ),
    "train.ui.acc_wait": (
        "还没有评估：每 {every} 次迭代在留出集上评估一次。",
        "No evaluation yet: the held-out set is scored every {every} iterations.",
    ),
    "train.ui.position": ("位置", "pos."),
    "train.ui.heat_title": (
        "探针 {x} 的注意力（%，行 = 输出 t，列 = 输入；F3 看平均）",
        "Probe {x}: attention in % (rows = output t, columns = input; F3: average)",
    ),
    "train.ui.heat_mean_title": (
        "{n} 条留出序列的平均注意力（%，行 = 输出 t，列 = 输入；F3 看探针）",
        "Attention in %, mean of {n} held-out sequences (rows = output t; F3: the probe)",
    ),
    "train.ui.heat_legend": (
        "下划线 = 反转对角线 L+1−t；峰：✓ 在对角线上，← 在它左边一列，→ 右边一列。"
        "均匀 = 1/L = {uniform}，各行最大值平均 {row_max}。色标：{scale}（ctrl+r 切换）。",
        "Underlined = the reversal diagonal L+1−t; peak: ✓ on it, ← one column left, → one "
        "right. Uniform = 1/L = {uniform}; rows' largest weight averages {row_max}. Colours: "
        "{scale} (ctrl+r switches).",
    ),
    "train.ui.scale_abs": ("绝对 0–100", "absolute 0–100"),
    "train.ui.scale_own": ("本图自身范围 {lo}–{hi}", "this map's own range {lo}–{hi}"),
    "train.ui.peak": ("峰", "peak"),
    "train.ui.heat_none": (
        "这个做法没有注意力，所以没有注意力矩阵可看：在“注意力”里选一种再训练。",
        "This variant has no attention, so there is no matrix to watch: pick one under "
        "attention and train again.",
    ),
    "train.ui.heat_wait": ("第一次评估后出现。", "It appears at the first evaluation."),
    "train.ui.timeline": (
        "时间线 {k}/{n}（第 {iteration:,} 次迭代）· PgUp/PgDn 前后拖动",
        "Timeline {k}/{n} (iteration {iteration:,}) · PgUp/PgDn to scrub",
    ),
    "train.ui.stored_whole": (
        "本应用 {n} 个种子的结果（存表）：整串 {mean} ± {sd}",
        "This app over {n} seeds (stored table): whole {mean} ± {sd}",
    ),
    "train.ui.stored_weight": ("，对角线权重 {weight}", ", diagonal weight {weight}"),
    "train.ui.stored_run": ("存表（{n} 个种子）", "stored ({n} seeds)"),
    # your runs beside the stored table (render/beside.py)
    "train.beside.line": ("和存表比：{items}。{why}", "Beside the stored table: {items}. {why}"),
    "train.beside.sep": ("；", "; "),
    "train.beside.agree": (
        "{variant}与存表在波动之内一致（差 {diff}，标准误 {se}）",
        "{variant} agrees with it within the spread (difference {diff}, standard error {se})",
    ),
    "train.beside.differ": (
        "{variant}与存表的差超出了波动能解释的范围（差 {diff}，约 {z} 个标准误）",
        "{variant} differs from it by more than the spread allows (difference {diff}, about {z} standard errors)",
    ),
    "train.beside.inside": (
        "{variant}这一次 {value}，落在存表 {n} 个种子的范围 {lo}–{hi} 之内",
        "the {variant} run, {value}, lies inside the range of its {n} stored seeds, {lo}–{hi}",
    ),
    "train.beside.outside": (
        "{variant}这一次 {value}，落在存表 {n} 个种子的范围 {lo}–{hi} 之外",
        "the {variant} run, {value}, lies outside the range of its {n} stored seeds, {lo}–{hi}",
    ),
    "train.beside.why": (
        "{shared} 个种子里有 {same} 个和存表的数字分毫不差：同一个种子换一台机器可能落在别处，因为每种 CPU 的 BLAS 对最后几位的舍入各有不同，float32 训练又把这点差别越滚越大。",
        "{same} of {shared} seeds gave the stored figure exactly: a single seed can end elsewhere on another machine, since each CPU's BLAS rounds the last bits its own way and float32 training amplifies the difference.",
    ),
    "train.beside.why_none": (
        "同一个种子换一台机器可能落在别处，因为每种 CPU 的 BLAS 对最后几位的舍入各有不同，float32 训练又把这点差别越滚越大；能比的是多个种子的分布。",
        "A single seed can end elsewhere on another machine, since each CPU's BLAS rounds the last bits its own way and float32 training amplifies the difference; what carries over is the spread over seeds.",
    ),
    "train.beside.kernels": (
        "（存表是在 OpenBLAS 的 {there} 内核上跑的，这台机器用的是 {here}。）",
        " (The table was made on OpenBLAS's {there} kernel; this machine uses {here}.)",
    ),
    "train.ui.book_line": ("书中的一次运行：{figures}", "The book's run: {figures}"),
    "train.ui.book_whole": ("整串 {value}", "whole {value}"),
    "train.ui.book_pos": ("逐位 {value}", "per letter {value}"),
    "train.ui.pair": (
        "种子 {seed}：{a}；{b}",
        "Seed {seed}: {a}; {b}",
    ),
    "train.ui.pair_whole": ("{variant} 整串 {whole}", "{variant} whole {whole}"),
    "train.ui.pair_weight": ("、对角线权重 {weight}", ", diagonal weight {weight}"),
    "train.ui.same_variant": (
        "“F9 对照”和当前做法都是 {variant}：请在“F9 对照”里选另一种。",
        "F9 versus and the settings are both {variant}: pick another under F9 versus.",
    ),
    "train.ui.book_loaded": (
        "已换成书中的模型：点积注意力，解码器读上一个字母。F5 开始。",
        "The book's model is set: dot-product attention, the decoder fed the previous letter. "
        "F5 trains it.",
    ),
    "train.ui.child_died": (
        "训练进程意外结束；请再按 F5 试一次。",
        "The training process ended unexpectedly; press F5 to try again.",
    ),
    "train.ui.session_title": (
        "本次完成的运行，旁边是书中的一次运行",
        "Runs finished this session, beside the book's run",
    ),
    "train.ui.session_empty": (
        "还没有完成的运行：F5 训练一次，或 F9 用同一个种子依次训练两种做法。",
        "No finished runs yet: F5 trains one, F9 trains two variants with the same seed.",
    ),
    "train.ui.session_legend": (
        "整串、逐位在 1000 条留出序列上测得；对角线 = 反转对角线上的平均注意力权重；"
        "“书”是书中同样设置的一次运行，它用的随机种子不明。相同设置只保留一行：同样的设置给出同样的数字。",
        "whole and per letter are measured on 1000 held-out sequences; diagonal = mean "
        "attention weight on the reversal diagonal; book = the book's one run with the same "
        "settings (its random seed unknown). Identical settings keep one row: they give "
        "identical numbers.",
    ),
    "train.ui.session_nofeed": ("* = 解码器无输入。", "* = decoder fed nothing."),
    "train.ui.col.length": ("长度", "L"),
    "train.ui.col.seed": ("种子", "seed"),
    "train.ui.col.iters": ("迭代", "iters"),
    "train.ui.col.whole": ("整串", "whole"),
    "train.ui.col.pos": ("逐位", "letter"),
    "train.ui.col.diag": ("对角线", "diag."),
    "train.ui.col.book": ("书：整串/逐位", "book whole/letter"),
    "train.ui.col.book_short": ("书", "book"),
    "train.ui.multi_empty": (
        "F10：{variants} 各训练 {n} 个种子（从种子 {seed} 起），看一次运行里的差距是真的还是运气。",
        "F10: {variants}, {n} seeds each (from seed {seed}), to see whether one run's gap is "
        "real or luck.",
    ),
    "train.ui.multi_running": (
        "多种子对比：已完成 {done}/{total} 次运行",
        "Multi-seed comparison: {done}/{total} runs done",
    ),
    "train.ui.strip_legend": (
        "每个种子一个点（几个种子落在同一处就写几），▲ = 书中的一次运行；横轴 {lo}–{hi}",
        "one dot per seed (a number where that many share a spot), ▲ = the book's run; axis "
        "{lo}–{hi}",
    ),
    "train.ui.noise": (
        "一次运行的差距可能只是噪声：换一个种子，结果就会挪动。看均值和波动，而不是某一次的数字。",
        "One run's difference may be noise: change the seed and the numbers move. Judge by the "
        "mean and the spread, not by one run.",
    ),
    "train.ui.busy": (
        "正在训练：先按 F7 停止。",
        "Training is running: press F7 to stop it first.",
    ),
    "train.ui.nothing": ("没有在训练。", "Nothing is training."),
    "train.key.start": ("开始", "Start"),
    "train.key.pause": ("暂停/继续", "Pause"),
    "train.key.stop": ("停止", "Stop"),
    "train.key.step": ("单步", "Step"),
    "train.key.compare": ("对照", "Versus"),
    "train.key.seeds": ("多种子", "Seeds"),
    "train.key.view": ("对比表", "Tables"),
    "train.key.mean": ("平均/探针", "Avg/probe"),
    "train.key.scale": ("色标", "Scale"),
    "train.key.book": ("书中模型", "Book model"),
    "train.key.guide": ("引导对比", "Guide"),
    "train.key.earlier": ("更早", "Earlier"),
    "train.key.later": ("更晚", "Later"),
    "train.key.numpy": ("numpy 代码", "numpy"),
    "train.ui.numpy_title": ("这次训练背后的 numpy", "The numpy behind this run"),
    "train.ui.numpy_note": (
        "这里训练的 RNN，用最直白的 numpy 写出来：沿时间一步一步循环，反向传播每行都有注释。"
        "训练用的是另一份为速度重排的代码；在 float64 下两者的损失和每个梯度都相等（有测试检查）。"
        "最后一行（按 End 跳过去）用本次的设置调用它。",
        "The RNN trained here, written in plain numpy: a loop over time, a comment on every "
        "line of the backward pass. Training runs another version, arranged for speed; in "
        "float64 the two give the same loss and every gradient (a test checks). The last line "
        "(End jumps to it) calls it with this run's settings.",
    ),
    "train.ui.numpy_note_transformer": (
        "这里训练的小 Transformer，用最直白的 numpy 写出来：逐层、逐头循环，反向传播每行都有注释。"
        "训练用的是另一份为速度重排的代码；在 float64 下两者的损失和每个梯度都相等（有测试检查）。"
        "最后一行（按 End 跳过去）用本次的设置调用它。",
        "The tiny Transformer trained here, written in plain numpy: a loop over the layers "
        "and the heads, a comment on every line of the backward pass. Training runs another "
        "version, arranged for speed; in float64 the two give the same loss and every gradient "
        "(a test checks). The last line (End jumps to it) calls it with this run's settings.",
    ),
    "train.ui.help.numpy": (
        "ctrl+n 打开这次训练背后的 numpy：RNN 或 Transformer 的前向和反向传播，用最直白的写法，"
        "最后一行带着本次的设置（RNN：注意力、打分方式、解码器输入；Transformer：头数、位置编码、"
        "因果掩码、层归一化）。Esc 关闭。（其他区域里这是 F9；这里 F9 是对照。）",
        "ctrl+n opens the numpy behind this run: the RNN's or the Transformer's forward and "
        "backward pass written plainly, its last line carrying this run's settings (the RNN's "
        "attention, score and decoder input; the Transformer's heads, positions, causal mask "
        "and norm). Esc closes it. (Elsewhere this is F9; here F9 is the versus.)",
    ),
    "train.ui.help.settings": (
        "左边是训练设置：注意力的打分方式（q·k、general、书中的点积，或不用）、序列长度（2–20）、"
        "解码器输入（上一个字母，或什么也不喂）、迭代次数、随机种子、学习率、批大小和节奏。"
        "“慢放”把一次训练拉长到十来秒，方便看清；“全速”一两秒就训完；“单步”每按一次 F8 训练一次"
        "迭代，热力图每步都更新。ctrl+t 换成书中的模型。设置不合理时，字段下会说明原因，训练不会开始。",
        "On the left are the settings: how attention scores (q·k, general, the book's dot "
        "product, or off), sequence length (2–20), what the decoder reads (the previous "
        "letter, or nothing), iterations, random seed, learning rate, batch size and pace. "
        "“Watchable” stretches a run over about ten seconds; “full speed” finishes in a second "
        "or two; “step” trains one iteration per F8 press, the heatmap following each. ctrl+t "
        "sets the book's model. An impossible setting is explained under the fields and "
        "nothing starts.",
    ),
    "train.ui.help.guide": (
        "引导对比列出五个实验，按数字键（或选中后回车）就会填好设置并开始训练：长度 10 时 q·k、书中的"
        "点积和不用注意力；长度 20、解码器无输入时 q·k 和不用注意力。每项右边的数字是本应用 10 个种子"
        "整串准确率的平均（存表）；训练时面板上有一句话告诉你该看什么，旁边是存表的多种子结果和书中的"
        "一次运行。之后 F9 用同一个种子训练它的对照，F10 在多个种子上对比。",
        "The guided comparison lists five experiments; a number key (or Enter on one) fills "
        "the settings and trains it: at length 10, q·k, the book's dot product and no "
        "attention; at length 20 with the decoder fed nothing, q·k and no attention. The "
        "figure beside each is this app's mean whole-sequence accuracy over 10 seeds (stored "
        "table). While it trains, one sentence says what to look at, beside the stored "
        "multi-seed result and the book's one run. Then F9 trains its counterpart with the "
        "same seed, and F10 compares them over many seeds.",
    ),
    "train.ui.help.live": (
        "F5 开始，F6 暂停或继续，F7 停止（立刻生效）。进度条下是速度和预计剩余时间、注意力热力图、"
        "留出集上的准确率（整串全对与逐位）、一条示例解码（绿色 = 对，红色 = 错）和损失曲线。",
        "F5 starts, F6 pauses or resumes, F7 stops (at once). Under the progress bar: speed "
        "and time left, the attention heatmap, held-out accuracy (whole sequence and per "
        "letter), a sample decode (green = right, red = wrong) and the loss curve.",
    ),
    "train.ui.help.heatmap": (
        "热力图是探针序列的注意力，以百分数表示（探针序列是从留出集里固定挑出的一条序列，每次都用它来解码、画注意力，前后的图才能对照着看）：行是输出位置 t，列是输入位置，下划线标出反转需要的"
        "对角线（输出 t 读输入 L+1−t），最后一列是每行峰值所在的输入（✓ 在对角线上，← 左边一列）。"
        "颜色默认是绝对的 0–100，平的图看起来就是平的；ctrl+r 换成本图自身的最小–最大值，细小差别会被"
        "放大（图例会说明现在用哪种）。图例还给出均匀水平 1/L。F3 在探针和留出集平均之间切换。",
        "The heatmap is the probe's attention in percent (the probe sequence is one held-out "
        "sequence kept fixed and decoded at every update, so its pictures can be compared "
        "over time): rows are output positions t, columns "
        "input positions, the diagonal reversal needs (output t reads input L+1−t) underlined, "
        "and each row's peak input last (✓ on the diagonal, ← one column left). Colours span "
        "an absolute 0–100 by default, so a flat map looks flat; ctrl+r switches to the map's "
        "own min–max, which magnifies small differences (the legend says which is on). The "
        "legend also gives the uniform level 1/L. F3 switches between the probe and the "
        "held-out average.",
    ),
    "train.ui.help.timeline": (
        "训练结束后，PgUp 和 PgDn（在右侧面板上也可按 ← → 或 [ ]）在快照之间前后移动：注意力、准确率"
        "和损失曲线都回到那一刻。q·k 或 general 注意力时，可以看到对齐怎样从均匀长成对角线。",
        "After a run, PgUp and PgDn (or ← → and [ ] on the right-hand panel) move between its "
        "snapshots: the attention, the accuracy and the loss curve return to that moment. "
        "With q·k or general attention you can watch the alignment grow from uniform into "
        "the diagonal.",
    ),
    "train.ui.help.compare": (
        "F4 切换到对比表（PgUp/PgDn 或方向键滚动）：本次完成的每次运行与书中的一次运行并排。"
        "F9 用同一个种子依次训练当前做法和“F9 对照”；F10 对这两种做法各训练 N 个种子（分给多个进程），"
        "给出均值±标准差、最低–最高，每个种子一个点，以及存表里同样设置的结果。",
        "F4 switches to the tables (PgUp/PgDn or arrows scroll them): each run finished this "
        "session beside the book's one run. F9 trains the settings' variant and the F9 "
        "versus one with the same seed; F10 trains both over N seeds (spread over several "
        "processes) and shows mean ± sd, min–max, each seed as a dot, and the stored table's "
        "figures for the same settings.",
    ),
}
