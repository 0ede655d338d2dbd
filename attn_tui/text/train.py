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
}
