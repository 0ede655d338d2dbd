"""Strings of the trained heads and their patterns: the pattern tasks, the head scores, the
induction run's plateau and drop, and the ablation (headless output and screens)."""

TEXT = {
    "heads.feed_forward_both": (
        "--feed-forward 和 --no-feed-forward 互相矛盾：只能选一个。",
        "--feed-forward and --no-feed-forward contradict each other: choose one.",
    ),
    # the pattern scores (core/models/head_scores.py)
    "heads.score.previous": ("上一个词元", "previous-token"),
    "heads.score.local": ("邻近带", "local band"),
    "heads.score.stripe": ("竖条", "stripe"),
    "heads.score.block": ("块内", "block"),
    "heads.score.induction": ("归纳", "induction"),
    "heads.scores": (
        "  图样分数：上一个词元 {previous} · 邻近带 {local} · 竖条 {stripe}（第 {column} 列）"
        " · 块内 {block}{induction}",
        "  pattern scores: previous token {previous} · local band {local} · stripe {stripe} "
        "(column {column}) · block {block}{induction}",
    ),
    "heads.scores_induction": (" · 归纳 {value}", " · induction {value}"),
    "heads.uniform": (
        "对照：一个把权重平均分给能看到的每一列的头（什么也没学到）得分为 上一个词元 {previous} · "
        "邻近带 {local} · 竖条 {stripe} · 块内 {block}{induction}",
        "For comparison, a head that spreads its weight evenly over every column it may see "
        "(one that has learned nothing) scores previous token {previous} · local band {local} "
        "· stripe {stripe} · block {block}{induction}",
    ),
    "heads.big_map": (
        "  （{n}×{n} 的权重图太宽，这里不印出来；用 --json 或 lab --model FILE 查看）",
        "  (the {n}×{n} map of weights is too wide to print here: see --json, or save the "
        "model and open it with lab --model FILE)",
    ),
    "heads.copy": (
        "复制：第 {source}–{source_end} 位的片段在第 {start}–{end} 位重现；计分的是第 {first}–{last} "
        "位的预测（它们要说出副本的第 2–8 个词元）",
        "copy: positions {source}–{source_end} reappear at {start}–{end}; scored are the "
        "predictions at {first}–{last} (they must name the copy's tokens 2–8)",
    ),
    # the loss curve's phases (core/models/phases.py)
    "heads.phases.plateau": (
        "损失的平台：第 {start}–{end} 步，约 {level} nats（第 {seen} 步时确认）",
        "loss plateau: steps {start}–{end}, at about {level} nats (confirmed at step {seen})",
    ),
    "heads.phases.no_plateau": (
        "损失没有平台：一开始就在下降。",
        "no plateau in the loss: it falls from the start.",
    ),
    "heads.phases.drop": (
        "骤降：从第 {start} 步开始；到第 {seen} 步已比平台低 {fall} nats",
        "drop: from step {start}; by step {seen} it was {fall} nats below the plateau",
    ),
    "heads.phases.no_drop": ("还没有骤降。", "no drop (yet)."),
    "heads.phases.rule": (
        "平台 = 最近 {window} 步的平均损失在 {span} 步内变化不到 {flat} nats，且离起点不到 {near} "
        "nats；骤降 = 平台之后，平均损失比平台最后的水平再低 {drop} nats。",
        "plateau = the loss averaged over the last {window} steps moves by less than {flat} "
        "nats over {span} steps while within {near} nats of where it began; drop = after a "
        "plateau, that average falls {drop} nats below the plateau's last level.",
    ),
    # the ablation (core/models/ablation.py)
    "heads.ablation.title": (
        "关掉第 {layer} 层的上一个词元头（头 {head}）",
        "Layer {layer}'s previous-token head (head {head}) switched off",
    ),
    "heads.ablation.col.figure": ("指标", "figure"),
    "heads.ablation.col.before": ("训练好的模型", "trained model"),
    "heads.ablation.col.after": ("关掉这个头", "that head off"),
    "heads.ablation.copy_acc": (
        "复制准确率（副本第 2–8 个词元）",
        "copy accuracy (the copy's tokens 2–8)",
    ),
    "heads.ablation.seq_acc": ("七个都对的序列", "sequences with all seven right"),
    "heads.ablation.induction": (
        "第 {layer} 层头 {head} 的归纳分数",
        "induction score of layer {layer}, head {head}",
    ),
    "heads.ablation.note": (
        "关掉 = 把这个头的输出换成 0：它的权重照样算，但什么也传不进残差流。第 2 层的归纳头要靠它写下的"
        "信息（每个位置前面是哪个词元）才能找到目标；关掉它以后归纳分数若随之下降，就说明两个头是串起来工作的。",
        "Switched off = its output replaced by zeros: its weights are still computed, but "
        "nothing it finds reaches the residual stream. A layer-2 induction head finds its "
        "target through what this head writes (which token came before each position): when "
        "its score falls with this head off, the two heads work as a chain.",
    ),
    # over seeds (train --compare, F10)
    "heads.seeds.pattern": (
        "每个种子里{score}分数最高的头：{value}（平均分配权重的头：{uniform}）",
        "each seed's best {score} head: {value} (a head spreading its weight evenly: {uniform})",
    ),
    "heads.seeds.induction": (
        "复制准确率 {copy}；最后一层最好的归纳头 {induction}；第 1 层最好的上一个词元头 {previous}",
        "copy accuracy {copy}; the last layer's best induction head {induction}; layer 1's "
        "best previous-token head {previous}",
    ),
    "heads.seeds.ablation": (
        "关掉上一个词元头之后：复制准确率 {copy}，归纳分数 {induction}",
        "with the previous-token head off: copy accuracy {copy}, induction score {induction}",
    ),
    "heads.seeds.phases": (
        "{n} 个种子中 {plateaus} 个有平台、{drops} 个有骤降；平台结束于第 {end} 步，骤降在第 {seen} 步确认",
        "{plateaus} of {n} seeds show a plateau and {drops} a drop; the plateau ends at step "
        "{end}, the drop is confirmed at step {seen}",
    ),
}
