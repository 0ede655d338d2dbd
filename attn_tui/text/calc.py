"""The attention calculator: inputs, the four steps, switches, presets, the √d experiment."""

TEXT = {
    "calc.title": ("注意力计算器", "Attention calculator"),
    "calc.blurb": (
        "输入一个查询和几个键，逐步看注意力怎样算出来。",
        "Type a query and some keys, then watch attention being computed step by step.",
    ),
    # inputs
    "calc.query": ("查询 q", "Query q"),
    "calc.keys": ("键 K（每行一个）", "Keys K (one per line)"),
    "calc.values": ("值 V（留空 = 与键相同）", "Values V (empty = same as keys)"),
    "calc.query_placeholder": ("例如 1 0 1", "e.g. 1 0 1"),
    "calc.scale": ("除以 √d", "Divide by √d"),
    "calc.hard": ("硬注意力（argmax）", "Hard max (argmax)"),
    "calc.temperature": ("温度 T", "Temperature T"),
    "calc.preset": ("示例", "Preset"),
    "calc.stale": (
        "（下面仍是上一次有效输入的结果）",
        "(the steps below still show the last valid input)",
    ),
    # presets
    "calc.preset.seed": ("课本手算例子", "Textbook hand example"),
    "calc.preset.orthogonal": ("正交的键", "Orthogonal keys"),
    "calc.preset.identical": ("相同的键（均匀权重）", "All keys the same"),
    "calc.preset.dominant": ("一个键占主导", "One dominant key"),
    "calc.preset.plane": ("二维：看凸包", "2-D: see the hull"),
    "calc.preset.experiment": ("维度实验：√d 的作用", "Why √d? (experiment)"),
    "calc.typed_kept": (
        "你输入的向量已保留：按 F5 换回来。",
        "What you typed is kept: F5 brings it back.",
    ),
    "calc.typed_back": ("你输入的向量回来了。", "What you typed is back."),
    "calc.exp.panel": (
        "维度实验：d = {small} 对 {large}",
        "Dimension experiment: d = {small} vs {large}",
    ),
    # step navigation
    "calc.step_of": ("第 {step}/4 步", "Step {step} of 4"),
    "calc.all_steps": ("全部四步", "All four steps"),
    # a step that runs on below the panel (at 80×24 the weighted sum does)
    "calc.more_below": ("{step} · PgDn 看下文 ↓", "{step} · PgDn: more ↓"),
    "calc.next": ("下一步", "Next"),
    "calc.prev": ("上一步", "Back"),
    "calc.all": ("全部", "All"),
    "calc.steps_panel": ("计算步骤", "The steps"),
    "calc.inputs_panel": ("输入", "Inputs"),
    # step 1
    "calc.s1.title": ("算分数：q 与每个键做点积", "Scores: the dot product of q with each key"),
    "calc.s1.intro": (
        "q·k = |q| |k| cos θ：键越朝向查询，分数越大；键越长，分数按比例放大。",
        "q·k = |q| |k| cos θ: a score grows as the key turns toward the query, and a longer key "
        "scales it up.",
    ),
    "calc.s1.shortened": (
        "“…”代表为了放得下而省略的几项；每个分数都是完整求和的结果。",
        "“…” stands for terms left out to fit the width; each score is the full sum.",
    ),
    # step 2
    "calc.s2.title": ("缩放：除以 √d", "Scaling: divide by √d"),
    "calc.s2.sqrt": ("d = {d}，√d = {sqrt_d}", "d = {d}, so √d = {sqrt_d}"),
    "calc.s2.why": (
        "维度越高，点积的方差越大（约为 d）；除以 √d 把它拉回到 1 左右，softmax 才不会过早饱和。",
        "The variance of a dot product grows with d (about d); dividing by √d brings it back "
        "near 1, so the softmax does not saturate.",
    ),
    "calc.s2.off": (
        "缩放已关闭：分数原样进入 softmax。维度高时权重会变得极端。",
        "Scaling is off: the scores go into the softmax as they are. At high d the weights turn extreme.",
    ),
    "calc.s2.temperature": (
        "再除以温度 T = {T}：T > 1 让权重更平，T < 1 让权重更尖。",
        "Then divided by the temperature T = {T}: T > 1 flattens the weights, T < 1 sharpens them.",
    ),
    "calc.col.key": ("键", "key"),
    "calc.col.score": ("分数", "score"),
    "calc.col.scaled": ("缩放后", "scaled"),
    "calc.col.logit": ("÷T", "÷T"),
    "calc.col.shifted": ("减最大值", "− max"),
    "calc.col.exp": ("exp", "exp"),
    "calc.col.weight": ("权重 α", "weight α"),
    "calc.col.term": ("αᵢ·vᵢ", "αᵢ·vᵢ"),
    # step 3
    "calc.s3.title": ("softmax：把分数变成权重", "Softmax: turn the scores into weights"),
    "calc.s3.title_hard": (
        "硬注意力：最大的分数拿走全部权重",
        "Hard max: the largest score takes all the weight",
    ),
    "calc.s3.shift": (
        "先减去最大值 {m}（结果不变，但 exp 不会溢出），再取 exp、求和、相除。",
        "First subtract the largest, {m} (same result, but exp cannot overflow), then exp, sum, divide.",
    ),
    "calc.s3.sum": ("Σ exp = {s}", "Σ exp = {s}"),
    "calc.s3.check": ("权重之和 = {s}  ✓ 全都非负", "Weights sum to {s}  ✓ all non-negative"),
    "calc.s3.never_zero": (
        "softmax 不会给出正好 0：再不相关的键也留一点权重，梯度还能流过去。",
        "A softmax never gives exactly 0: even an unrelated key keeps a little weight, so gradients still reach it.",
    ),
    "calc.s3.underflow": (
        "{keys} 的权重在这里正好是 0：exp({x}) 比 float64 能表示的最小正数 {tiny} 还小（这是一个非规格化数；"
        "规格化数最小约为 {normal}），于是下溢成了 0——自变量低于约 {limit} 时，exp 都会得到 0。"
        "按精确的数学它应是一个极小的正数，softmax 本身不会给出 0。",
        "The weight of {keys} is exactly 0 here: exp({x}) is smaller than the smallest positive "
        "float64, {tiny} (a subnormal; the normal floats stop at about {normal}), so it underflowed "
        "to 0, as exp does for any argument below about {limit}. In exact arithmetic it would be "
        "a tiny positive number: the softmax itself never gives 0.",
    ),
    "calc.s3.hard": (
        "硬注意力（argmax）：第一个最大分数（k{i}）拿到权重 1，其余全是 0。",
        "Hard max: the first largest score (k{i}) gets weight 1, every other key gets 0.",
    ),
    "calc.s3.hard_grad": (
        "代价：argmax 是分段常数，对分数的梯度处处为 0（或不存在）——没有学习信号经由分数传回查询和键。"
        "只有被选中的那个值向量还能拿到梯度。",
        "The price: argmax is piecewise constant, so its gradient with respect to the scores is 0 "
        "(or undefined) everywhere — no learning signal reaches the query or the keys through the "
        "scores. Only the chosen value still gets a gradient.",
    ),
    "calc.s3.hard_grad_same": (
        "代价：argmax 是分段常数，对分数的梯度处处为 0（或不存在）——没有学习信号经由分数传回查询和键。"
        "不过这里值就是键：被选中的键以“值”的身份出现在输出里，所以它仍拿到梯度；查询和其余的键拿不到。",
        "The price: argmax is piecewise constant, so its gradient with respect to the scores is 0 "
        "(or undefined) everywhere — no learning signal reaches the query or the keys through the "
        "scores. But here the values are the keys: the chosen key is the output, so it still gets "
        "a gradient in its role as a value; the query and the other keys get none.",
    ),
    # step 4
    "calc.s4.title": ("加权求和：输出 = Σ αᵢ·vᵢ", "Weighted sum: output = Σ αᵢ·vᵢ"),
    "calc.s4.output": ("输出 o = {o}", "Output o = {o}"),
    "calc.s4.values_are_keys": ("（值 = 键）", "(values = keys)"),
    "calc.s4.convex": (
        "凸组合检验：权重非负且和为 1，所以每个分量都落在值的最小与最大之间。",
        "Convex-combination check: the weights are non-negative and sum to 1, so each component "
        "lies between the smallest and largest value component.",
    ),
    "calc.s4.component": ("o{i} = {o} ∈ [{lo}, {hi}]", "o{i} = {o} ∈ [{lo}, {hi}]"),
    "calc.s4.all_inside": (
        "其余分量也一样：全部 {n} 个分量都在各自的范围内。",
        "The rest too: all {n} components lie inside their ranges.",
    ),
    "calc.s4.some_outside": (
        "{n} 个分量中有 {k} 个超出了范围。",
        "{k} of the {n} components lie outside their ranges.",
    ),
    "calc.s4.cannot_create": (
        "注意力只能在已有的值之间调配，造不出范围外的新向量。",
        "Attention can only blend the values it has; it cannot create a vector outside their range.",
    ),
    "calc.s4.plot": (
        "二维图：数字是各个值 vᵢ，● 是输出，落在它们围成的范围内。",
        "The plane: digits are the values vᵢ, ● is the output, inside the shape they span.",
    ),
    # experiment
    "calc.exp.title": ("维度实验：为什么要除以 √d", "Dimension experiment: why divide by √d"),
    "calc.exp.intro": (
        "随机抽取 q 和 {n} 个键（每个分量服从标准正态）。两个这样的向量的点积，标准差约为 √d；"
        "下表的 σ 是在许多对随机向量上实测的（对数见表）。",
        "Random q and {n} keys (each entry standard normal). The dot product of two such vectors "
        "has a standard deviation of about √d; the σ below is measured over many random pairs "
        "(how many is in the table).",
    ),
    "calc.exp.d_small": ("小 d", "small d"),
    "calc.exp.d_large": ("大 d", "large d"),
    "calc.exp.seed": ("种子", "seed"),
    "calc.exp.redraw": ("重新抽样", "Redraw"),
    "calc.exp.back": ("回到四步", "Back to the steps"),
    "calc.exp.pairs": ("实测对数", "pairs measured"),
    "calc.exp.std": ("分数标准差 {s}（√d = {r}）", "score std {s} (√d = {r})"),
    "calc.exp.unscaled": ("不缩放", "unscaled"),
    "calc.exp.scaled": ("除以 √d", "÷ √d"),
    "calc.exp.max": ("最大权重", "max weight"),
    "calc.exp.entropy": ("熵（均匀 = {u}）", "entropy (uniform = {u})"),
    "calc.exp.lesson": (
        "d 大而不缩放时，一个键几乎拿走全部权重（接近 one-hot），其余梯度几乎为 0；除以 √d 后分布又平缓了。"
        "除以 d 则压过头：方差变成 1/d，权重几乎均匀。",
        "At large d without scaling one key takes almost all the weight (nearly one-hot) and the others "
        "get almost no gradient; dividing by √d calms it again. Dividing by d would overdo it: the "
        "variance drops to 1/d and the weights go nearly uniform.",
    ),
    "calc.exp.bad_d": (
        "维度要是 1 到 {limit} 的整数。",
        "d must be a whole number from 1 to {limit}.",
    ),
    # help per panel
    "calc.help.inputs": (
        "在这里输入查询、键和（可选的）值。键和值每行一个，也可以用 ; 分隔；逗号、空格、方括号、全角字符都可以。"
        "出错时会在该栏下面直接说明哪里不对。F5 换成课本的例子，你输入的会保留，再按 F5 就换回来。",
        "Type the query, the keys and (optionally) the values here: one key or value per line, or "
        "separated by ;. Commas, spaces, brackets and full-width characters all work; a mistake is "
        "named right under its field. F5 shows the textbook example and keeps what you typed: F5 "
        "again brings it back.",
    ),
    "calc.help.steps": (
        "注意力的四步，一次揭示一步：点积、缩放、softmax、加权求和。每个数字都写出了算式。"
        "一步在面板里放不下时，PgDn 先翻到它的下文（面板底边写着“PgDn 看下文”），再到下一步。",
        "The four steps of attention, revealed one at a time: dot products, scaling, softmax, "
        "weighted sum. Every number comes with its arithmetic. When a step runs below the panel, "
        "PgDn shows the rest of it first (the panel's edge says “PgDn: more”), then the next step.",
    ),
    "calc.help.switches": (
        "开关：缩放、硬注意力（argmax）、温度。改动后立即重算，可以对比效果。",
        "Switches: scaling, hard max, temperature. Everything is recomputed at once, so you can compare.",
    ),
    "calc.help.experiment": (
        "维度实验：随机的 q 和 K，比较缩放与不缩放时权重有多极端（最大权重与熵）。PgUp/PgDn 上下翻，"
        "结论在最后。",
        "The dimension experiment: random q and K, comparing how extreme the weights get with and "
        "without scaling (max weight and entropy). PgUp/PgDn scroll it; the conclusion is at the end.",
    ),
    # headless
    "calc.cli.help": ("逐步计算一个注意力例子", "compute one attention example, step by step"),
    "calc.cli.step": ("第 {n} 步", "Step {n}"),
}
