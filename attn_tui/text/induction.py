"""Strings of the induction run on the training screen (render/induction.py): its two heads,
its probe, its ablation key."""

TEXT = {
    "induction.map_title": ("第 {layer} 层", "Layer {layer}"),
    "induction.map_scores": (
        "上一个词元 {previous} · 归纳 {induction}",
        "previous {previous} · induction {induction}",
    ),
    "induction.probe_title": (
        "两层的头：探针序列上的注意力（行 = 查询位置，列 = 它能看的键，越亮越大，0–1；F3 看平均）",
        "Both layers' heads: attention on the probe (rows = query positions, columns = the keys "
        "they may see, brighter = more, 0–1; F3: average)",
    ),
    "induction.ablated_maps": (
        "第 {layer} 层的上一个词元头（头 {head}）已关掉：下面是关掉后的注意力（a 重新打开）",
        "Layer {layer}'s previous-token head (head {head}) is off: the maps below are the "
        "model's without it (a: back on)",
    ),
    "induction.decode_copy": (
        "副本的第 2–8 个词元：应为 {target}，得到",
        "the copy's tokens 2–8: expected {target}, got",
    ),
    "induction.head_legend": (
        "上一个词元 = 每一行放在第 i−1 列上的权重；归纳 = 副本里的每一行放在“它前一次出现之后那个词元”"
        "上的权重（都在留出序列上量）。训练好时，第 1 层是上一个词元头，第 2 层是归纳头。",
        "previous = the weight each row puts on column i−1; induction = the weight a row of the "
        "copy puts on the token that followed its earlier occurrence (both on the held-out "
        "set). Trained, layer 1 is a previous-token head and layer 2 an induction head.",
    ),
    "induction.map_off": (
        "头 {head} 关掉：权重照算，输出为 0",
        "head {head} off: weights as before, output 0",
    ),
    "induction.map_after": ("关掉后 归纳 {induction}", "without it: induction {induction}"),
    "induction.row.copy_acc": ("复制准确率", "copy accuracy"),
    "induction.row.seq_acc": ("七个全对", "all seven right"),
    "induction.row.induction": ("归纳 第{layer}层头{head}", "induction L{layer} H{head}"),
    "induction.row.previous": ("上一个词元 第{layer}层头{head}", "previous L{layer} H{head}"),
    "induction.col.before": ("训练好的", "trained"),
    "induction.col.after": ("关掉那个头", "head off"),
    "induction.no_ablation": (
        "这个模型只有一层，没有可以关掉的上一个词元头。",
        "This model has one layer: there is no previous-token head to switch off.",
    ),
    "induction.ablation_key": (
        "a：重新打开这个头，回到训练好的模型。",
        "a: switch the head back on, back to the trained model.",
    ),
    "induction.ablation_hint": (
        "按 a 关掉第 1 层的上一个词元头：看归纳分数和复制准确率会怎样。",
        "Press a to switch off layer 1's previous-token head: watch the induction score and "
        "the copy accuracy.",
    ),
    "induction.ablation_wait": (
        "训练结束后才能关掉一个头（a）。",
        "A head can be switched off (a) once a run has finished.",
    ),
    "induction.acc_line": (
        "留出集（第 {iteration:,} 次）：复制准确率 {copy} · 七个都对的序列 {whole}",
        "Held-out at {iteration:,}: copy accuracy {copy} · all seven right {whole}",
    ),
    "induction.copy_token": ("副本词元", "copy token"),
    "induction.pair": (
        "位置{positions} 复制准确率 {copy}",
        "positions {positions} copy accuracy {copy}",
    ),
    "induction.key": ("关掉一个头", "head off"),
    "induction.help": (
        "归纳复制（任务一栏）：两层各一个头。训练时，损失曲线下面的 ━ 标出平台、▼ 标出骤降，都在检测到的那一刻"
        "画上。训练结束后按 a 关掉第 1 层的上一个词元头：注意力图换成关掉后的模型，旁边一张表把归纳分数和复制"
        "准确率和训练好的模型并排比较；再按 a 重新打开。",
        "Induction copy (the task row): two layers of one head. While it trains, ━ under the "
        "loss curve marks the plateau and ▼ the drop, each drawn the moment it is detected. "
        "After the run, a switches off layer 1's previous-token head: the maps become the "
        "model's without it, and a table sets the induction score and the copy accuracy "
        "beside the trained model's; a again switches it back on.",
    ),
    "induction.seeds_title": (
        "归纳复制的指标（每个位置编码，{n} 个种子）",
        "The induction run's figures ({n} seeds per positional encoding)",
    ),
}
