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
    "train.seconds": ("{value:.2f} 秒", "{value:.2f} s"),
    "train.speed": ("{value:,.0f} 次/秒", "{value:,.0f} it/s"),
    "train.probe": (
        "输入 {x} → 应为 {target}，得到 {prediction}",
        "input {x} → expected {target}, got {prediction}",
    ),
    "train.variant.plain": ("不用注意力", "no attention"),
    "train.variant.attention": ("用注意力", "attention"),
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
        "每行峰值所在的输入位置（从 1 数起）：{peaks}",
        "input position of each row's peak (counting from 1): {peaks}",
    ),
    "train.out_row": ("输出 {i}", "out {i}"),
    "train.compare_title": (
        "长度 {length}、{iters} 次迭代、{n} 个种子：两种做法对比",
        "Length {length}, {iters} iterations, {n} seeds: both variants",
    ),
    "train.col.variant": ("做法", "variant"),
    "train.col.params": ("参数", "params"),
    "train.col.seq_mean": ("整串 均值±标准差", "whole seq. mean±sd"),
    "train.col.seq_range": ("整串 最低–最高", "whole min–max"),
    "train.col.pos_mean": ("逐位 均值±标准差", "per position mean±sd"),
    "train.seed_run": ("原文（单次运行）", "seed text (one run)"),
    "train.col.per_seed": ("每个种子的整串准确率", "whole-sequence accuracy per seed"),
    "train.compare_note": (
        "原文的数字是一次运行的结果；一次运行会因随机种子不同而上下浮动。只有当两种做法的差距"
        "明显大于各自的波动（标准差、最低–最高）时，才能说这个差距是真的。",
        "The seed text's numbers come from one run, and one run moves with its random seed. "
        "A gap between the variants is real only when it is clearly larger than their spread "
        "(sd, min–max).",
    ),
    "train.interrupted_runs": (
        "对比中途停止：只完成了 {done} 次运行。",
        "Comparison stopped early: only {done} runs finished.",
    ),
    # the training screen
    "train.ui.settings": ("设置", "Settings"),
    "train.ui.length": ("长度", "length"),
    "train.ui.attention": ("注意力", "attention"),
    "train.ui.iters": ("迭代", "iterations"),
    "train.ui.seed": ("种子", "seed"),
    "train.ui.lr": ("学习率", "learn rate"),
    "train.ui.batch": ("批大小", "batch"),
    "train.ui.pace": ("节奏", "pace"),
    "train.ui.seeds": ("多种子数", "seeds (F10)"),
    "train.ui.pace.fast": ("全速", "as fast as it goes"),
    "train.ui.pace.watch": ("慢放（约 15 秒）", "watchable (~15 s)"),
    "train.ui.pace.step": ("单步（按 F8）", "single step (F8)"),
    "train.ui.bad_number": (
        "{field}“{value}”不是数。",
        "{field}: “{value}” is not a number.",
    ),
    "train.ui.live": ("训练", "Training"),
    "train.ui.compare_view": ("对比", "Comparison"),
    "train.ui.intro": (
        "模型要学会把 {length} 个字母（A–F）的序列倒过来写：编码器 RNN 读入序列，解码器 RNN "
        "一个一个写出反序。这次：{variant}，{params} 个参数。按 F5 开始训练；F9 用同一个种子依次训练"
        "两种做法；F10 做多种子对比；F4 看对比表。",
        "The model learns to write a sequence of {length} letters (A–F) backwards: an encoder "
        "RNN reads it, a decoder RNN writes the reverse one letter at a time. This run: {variant}, "
        "{params} parameters. F5 trains; F9 trains both variants with the same seed; F10 compares many "
        "seeds; F4 shows the tables.",
    ),
    "train.ui.state.running": ("训练中", "training"),
    "train.ui.state.paused": ("已暂停 · F6 继续", "paused · F6 resumes"),
    "train.ui.state.stepping": ("单步 · 按 F8 走一次迭代", "single step · F8 = one iteration"),
    "train.ui.state.stopping": ("正在停止…", "stopping…"),
    "train.ui.run_label": (
        "{variant} · 长度 {length} · 种子 {seed}",
        "{variant} · length {length} · seed {seed}",
    ),
    "train.ui.iteration": ("迭代 {i:,}/{total:,}", "iteration {i:,}/{total:,}"),
    "train.ui.rate": (
        "{rate} 次/秒 · 已用 {elapsed} · 预计还要 {eta}",
        "{rate} it/s · {elapsed} elapsed · ETA {eta}",
    ),
    "train.ui.times": (
        "训练 {train} · 评估 {eval}",
        "training {train} · evaluation {eval}",
    ),
    "train.ui.loss_title": ("每次迭代的损失", "Loss per iteration"),
    "train.ui.loss_now": ("最近：{loss}", "latest: {loss}"),
    "train.ui.acc_line": (
        "留出集（第 {iteration:,} 次）：整串 {whole} · 逐位 {pos}",
        "Held-out, it. {iteration:,}: whole {whole} · per pos. {pos}",
    ),
    "train.ui.acc_wait": (
        "还没有评估：每 {every} 次迭代在留出集上评估一次。",
        "No evaluation yet: the held-out set is scored every {every} iterations.",
    ),
    "train.ui.position": ("位置", "pos."),
    "train.ui.heat_title": (
        "探针 {x} 的注意力：行 = 输出位置，列 = 输入位置；下划线 = 反转对角线（F3 看留出集平均）",
        "Probe {x}: rows = output, columns = input positions; underlined = the reversal "
        "diagonal (F3: held-out average)",
    ),
    "train.ui.heat_mean_title": (
        "留出集平均注意力：行 = 输出位置，列 = 输入位置；下划线 = 反转对角线（F3 换回探针）",
        "Held-out average attention: rows = output, columns = input positions; underlined = "
        "the reversal diagonal (F3: the probe)",
    ),
    "train.ui.peak": ("峰", "peak"),
    "train.key.mean": ("平均/探针", "Avg/probe"),
    "train.ui.in_col": ("入{i}", "in{i}"),
    "train.ui.out_row": ("出{i}", "out{i}"),
    "train.ui.heat_none": (
        "这个做法没有注意力，所以没有注意力矩阵可看：勾选“注意力”再训练。",
        "This variant has no attention, so there is no matrix to watch: tick attention and "
        "train again.",
    ),
    "train.ui.heat_wait": ("第一次评估后出现。", "It appears at the first evaluation."),
    "train.ui.timeline": (
        "时间线 {k}/{n}（第 {iteration:,} 次迭代）· PgUp/PgDn 前后拖动",
        "Timeline {k}/{n} (iteration {iteration:,}) · PgUp/PgDn to scrub",
    ),
    "train.ui.what_next": (
        "按 PgUp 回到训练早期，看对角线怎样从梯度里长出来。",
        "Press PgUp to go back to early training and watch the diagonal grow out of the gradients.",
    ),
    "train.ui.session_title": (
        "本次完成的运行，旁边是原文的数字",
        "Runs finished this session, beside the seed text's numbers",
    ),
    "train.ui.session_empty": (
        "还没有完成的运行：F5 训练一次，或 F9 用同一个种子依次训练两种做法。",
        "No finished runs yet: F5 trains one, F9 trains both variants with the same seed.",
    ),
    "train.ui.col.length": ("长度", "L"),
    "train.ui.col.seed": ("种子", "seed"),
    "train.ui.col.iters": ("迭代", "iters"),
    "train.ui.col.whole": ("整串", "whole"),
    "train.ui.col.pos": ("逐位", "per pos"),
    "train.ui.col.ref_whole": ("原文整串", "seed whole"),
    "train.ui.col.ref_pos": ("原文逐位", "seed pos"),
    "train.ui.multi_empty": (
        "F10：两种做法 × {n} 个种子（从种子 {seed} 起），看一次运行里的差距是真的还是运气。",
        "F10: both variants × {n} seeds (from seed {seed}), to see whether one run's gap is "
        "real or luck.",
    ),
    "train.ui.multi_running": (
        "多种子对比：已完成 {done}/{total} 次运行",
        "Multi-seed comparison: {done}/{total} runs done",
    ),
    "train.ui.strip_legend": (
        "每个种子一个点（数字 = 几个种子落在同一格），▲ = 原文的单次运行；横轴 {lo}–{hi}",
        "one dot per seed (a digit = that many seeds in one cell), ▲ = the seed text's single "
        "run; axis {lo}–{hi}",
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
    "train.key.compare": ("两种做法", "Both"),
    "train.key.seeds": ("多种子", "Seeds"),
    "train.key.view": ("对比表", "Tables"),
    "train.key.earlier": ("更早", "Earlier"),
    "train.key.later": ("更晚", "Later"),
    "train.ui.help.settings": (
        "左边是训练设置：序列长度（2–12）、是否用注意力、迭代次数、随机种子、学习率、批大小和节奏。"
        "“全速”几秒内就训完；“慢放”把同一次训练拉长到约 15 秒，方便看清；“单步”每按一次 F8 训练一次"
        "迭代。设置不合理时，字段下会说明原因，训练不会开始。",
        "On the left are the settings: sequence length (2–12), attention on or off, iterations, "
        "random seed, learning rate, batch size and pace. “As fast as it goes” finishes in a "
        "second or so; “watchable” stretches the same run over about 15 s; “single step” trains "
        "one iteration per F8 press. An impossible setting is explained under the fields and "
        "nothing starts.",
    ),
    "train.ui.help.live": (
        "F5 开始，F6 暂停或继续，F7 停止（立刻生效）。进度条下是速度和预计剩余时间、损失曲线、留出集"
        "上的准确率（整串全对与逐位）、一条示例解码（绿色 = 对，红色 = 错），以及探针序列的注意力矩阵"
        "（探针序列是从留出集里固定挑出的一条序列，每次都用它来解码、画注意力，前后的图才能对照着看）："
        "行是输出位置，列是输入位置，下划线标出反转所需的对角线，最后一列是每行峰值所在的输入位置。颜色按矩阵自己的最小–最大值着色："
        "刚开始每个权重都接近 1/L，规律藏在细小的差别里。F3 在探针和留出集平均之间切换。",
        "F5 starts, F6 pauses or resumes, F7 stops (at once). Under the progress bar: speed and "
        "time left, the loss curve, held-out accuracy (whole sequence and per position), a "
        "sample decode (green = right, red = wrong) and the probe's attention matrix (the probe "
        "sequence is one held-out sequence kept fixed and decoded at every update, so its "
        "pictures can be compared over time): rows are "
        "output positions, columns input positions, the reversal diagonal underlined, and each "
        "row's peak input position last. Colours span the matrix's own min–max: early on every "
        "weight is near 1/L and the pattern is in small differences. F3 switches between the "
        "probe and the held-out average.",
    ),
    "train.ui.help.timeline": (
        "训练结束后，PgUp 和 PgDn（在右侧面板上也可按 ← → 或 [ ]）在快照之间前后移动：注意力、准确率和损失曲线都回到"
        "那一刻。长度 10 加注意力时，可以看到对齐一点点长向反对角线。",
        "After a run, PgUp and PgDn (or ← → and [ ] on the right-hand panel) move between its "
        "snapshots: the "
        "attention, the accuracy and the loss curve return to that moment. At length 10 with "
        "attention you can watch the alignment grow toward the anti-diagonal.",
    ),
    "train.ui.help.compare": (
        "F4 切换到对比表：本次完成的每次运行与原文的数字并排。F9 用同一个种子依次训练两种做法；F10 "
        "对两种做法各训练 N 个种子，给出均值±标准差、最低–最高，每个种子一个点。",
        "F4 switches to the tables: each run finished this session beside the seed text's "
        "numbers. F9 trains both variants with the same seed, one after the other; F10 trains "
        "both over N seeds and shows mean ± sd, min–max and each seed as a dot.",
    ),
}
