"""Strings of the self-attention lab (core faults, the ``lab`` command, shape steps)."""

TEXT = {
    # --- faults raised by attn_tui.core.attention.lab --------------------------------------------
    "lab.empty": (
        "序列里没有词：至少要有 1 个词（一行 X）。",
        "the sequence has no tokens: give at least one (one row of X).",
    ),
    "lab.too_many_tokens": (
        "序列有 {count} 个词，实验室最多显示 {limit} 个（更大的规模请用形状追踪 --shapes）。",
        "the sequence has {count} tokens; the lab shows at most {limit} "
        "(for larger sizes use the shapes trace, --shapes).",
    ),
    "lab.d_model": (
        "d_model = {value} 不可用：请取 1 到 {limit} 之间的整数。",
        "d_model = {value} is not usable: choose a whole number from 1 to {limit}.",
    ),
    "lab.heads": (
        "头数 h = {heads} 不能整除 d_model = {d_model}，每个头分不到整数个维度 d_k。"
        "可选的头数：{divisors}。",
        "h = {heads} heads do not divide d_model = {d_model}, so d_k would not be whole. "
        "Possible head counts: {divisors}.",
    ),
    "lab.heads_width": (
        "头数 h = {heads} 不能整除 {matrix} 的列数 {width}。可选的头数：{divisors}。",
        "h = {heads} heads do not divide the {width} columns of {matrix}. "
        "Possible head counts: {divisors}.",
    ),
    "lab.shape": (
        "{matrix} 是 {rows}×{cols}，这里需要 {want_rows}×{want_cols}。",
        "{matrix} is {rows}×{cols}, but {want_rows}×{want_cols} is needed here.",
    ),
    "lab.labels": (
        "X 有 {rows} 行，却给了 {labels} 个词标签：每行配一个标签。",
        "X has {rows} rows but {labels} token labels were given: one label per row.",
    ),
    "lab.window": (
        "窗口 w = {value} 不可用：请取 0 或更大的整数（w = 0 时每个词只看自己）。",
        "window w = {value} is not usable: choose a whole number, 0 or more "
        "(w = 0 lets each token see only itself).",
    ),
    "lab.cross_dim": (
        "查询序列的向量是 {queries} 维，另一序列是 {memory} 维：交叉注意力要求两边 d_model 相同。",
        "the query sequence has {queries}-dimensional vectors and the other sequence {memory}: "
        "cross-attention needs the same d_model on both sides.",
    ),
    "lab.cross_mask": (
        "因果掩码和局部窗口只用于自注意力：交叉注意力的两个序列没有共同的位置编号。",
        "the causal mask and the local window apply to self-attention only: "
        "the two sequences of cross-attention share no positions.",
    ),
    "lab.preset": (
        "没有名为“{name}”的预设句子。可选：{names}。",
        "there is no preset sentence called “{name}”. Choose one of: {names}.",
    ),
    "lab.shapes_size": (
        "{name} = {value} 不可用：请取 1 到 {limit} 之间的整数。",
        "{name} = {value} is not usable: choose a whole number from 1 to {limit}.",
    ),
    "lab.bad_matrix": (
        "{matrix} 读不出来：请输入一个由有限数字组成的矩阵。",
        "{matrix} could not be read: type a matrix of finite numbers.",
    ),
    # --- the lab command -------------------------------------------------------------
    "lab.help": (
        "自注意力实验室：从 X 算出 Q、K、V、分数、权重和输出（可加掩码、多头、交叉注意力）",
        "the self-attention lab: from X to Q, K, V, scores, weights and output "
        "(with masks, heads, cross-attention)",
    ),
    "lab.title_self": (
        "自注意力 · {n} 个词 · d_model = {d_model} · {heads} 个头 · d_k = {d_k}",
        "self-attention · {n} {n:token|tokens} · d_model = {d_model} · {heads} {heads:head|heads} · d_k = {d_k}",
    ),
    "lab.title_cross": (
        "交叉注意力 · {n_q} 个查询词 × {n_k} 个键/值词 · "
        "d_model = {d_model} · {heads} 个头 · d_k = {d_k}",
        "cross-attention · {n_q} query {n_q:token|tokens} × {n_k} key/value {n_k:token|tokens} · "
        "d_model = {d_model} · {heads} {heads:head|heads} · d_k = {d_k}",
    ),
    "lab.masks": ("掩码：{masks}", "mask: {masks}"),
    "lab.mask_none": ("无（每个词看全部词）", "none (every token sees every token)"),
    "lab.mask_causal": (
        "因果（只看自己和前面的词）",
        "causal (a token sees itself and earlier ones)",
    ),
    "lab.mask_window": (
        "局部窗口 w = {w}（只看距离 ≤ {w} 的词）",
        "local window w = {w} (keys at most {w} away)",
    ),
    "lab.shapes_title": ("形状", "Shapes"),
    "lab.col_name": ("名称", "name"),
    "lab.col_shape": ("形状", "shape"),
    "lab.col_formula": ("算法", "formula"),
    "lab.col_step": ("步骤", "step"),
    "lab.col_sum": ("行和", "row sum"),
    "lab.weights_title": (
        "第 {head} 个头的注意力权重（行 = 查询，列 = 键）",
        "head {head}: attention weights (rows = queries, columns = keys)",
    ),
    "lab.output_title": (
        "输出 = Concat(各头) · W_O，形状 ({n}, {d_model})",
        "output = Concat(heads) · W_O, shape ({n}, {d_model})",
    ),
    "lab.masked_note": (
        "被掩码的位置分数为 −∞，softmax 之后权重恰好为 0，其余权重重新归一化、每行和为 1。",
        "masked cells score −∞, so their weight after softmax is exactly 0; "
        "the remaining weights renormalise and each row still sums to 1.",
    ),
    "lab.cost_title": ("计算量", "Cost"),
    "lab.cost_scores": (
        "{n} 个词 → 每个头 {n}² = {scores} 个分数",
        "{n} {n:token|tokens} → {n}² = {scores} {n:score|scores} per head",
    ),
    "lab.cost_scores_cross": (
        "{n_q} 个查询 × {n_k} 个键 → 每个头 {scores} 个分数",
        "{n_q} queries × {n_k} keys → {scores} scores per head",
    ),
    "lab.cost_ratio": (
        "100 个位置要 {short_scores} 个分数，1000 个位置要 {long_scores} 个："
        "长度 ×10，分数 ×{ratio}",
        "100 positions need {short_scores} scores, 1000 need {long_scores}: "
        "10× the length, {ratio}× the scores",
    ),
    "lab.cost_steps": (
        "RNN 要按顺序走 {rnn} 步（每步等上一步的隐状态）；注意力一次矩阵乘法算出全部分数：{att} 步",
        "an RNN needs {rnn} steps in order (each waits for the previous hidden state); "
        "attention gets every score from one matrix product: {att} step",
    ),
    "lab.shapes_trace_title": (
        "多头注意力的形状：n = {n}，d_model = {d_model}，h = {heads}，d_k = {d_k}",
        "multi-head shapes: n = {n}, d_model = {d_model}, h = {heads}, d_k = {d_k}",
    ),
    "lab.shapes_figures": (
        "√d_k = {sqrt_d_k:.4g}；每个头 {per_head} 个分数，共 {total} 个；"
        "W_Q、W_K、W_V、W_O 共 {params} 个参数",
        "√d_k = {sqrt_d_k:.4g}; {per_head} scores per head, {total} in all; "
        "{params} parameters in W_Q, W_K, W_V, W_O",
    ),
    # --- the shapes trace's steps (ShapeStep.key) ----------------------------------------
    "lab.step.x": ("输入词向量", "input vectors"),
    "lab.step.w_qkv": ("投影矩阵（各一个）", "projections, each"),
    "lab.step.qkv": ("Q、K、V（各一个）", "Q, K, V, each"),
    "lab.step.split": ("按列切成 h 个头", "split into h heads"),
    "lab.step.heads": ("头的维度放最前", "head axis first"),
    "lab.step.scores": ("每个头的分数", "scores per head"),
    "lab.step.weights": ("逐行 softmax（行和 1）", "softmax rows (sum 1)"),
    "lab.step.head_out": ("每个头的输出", "output per head"),
    "lab.step.concat": ("各头拼接", "concatenate heads"),
    "lab.step.w_o": ("输出投影", "output projection"),
    "lab.step.output": ("输出", "output"),
    # --- the lab screen ----------------------------------------------------------------
    "lab.settings_panel": ("设置", "Settings"),
    "lab.sentence": ("查询来自", "queries from"),
    "lab.preset.cat": ("猫 坐 在 垫子 上", "猫 坐 在 垫子 上"),
    "lab.preset.love": ("I love China", "I love China"),
    "lab.preset.love_zh": ("我 爱 中国", "我 爱 中国"),
    "lab.preset.count": ("x1 … xn（n 个词）", "x1 … xn (n tokens)"),
    "lab.preset.typed": ("自己输入 X", "typed rows of X"),
    "lab.x_label": ("X：每行一个词的向量", "X: one row per token"),
    "lab.labels_label": ("词标签", "labels"),
    "lab.labels_placeholder": ("x1 x2 …", "x1 x2 …"),
    "lab.w_placeholder": ("留空 = 用种子随机", "empty = seeded"),
    "lab.x_width": (
        "X 有 {cols} 列，即 d_model = {cols}；实验室最多 {limit} 列。",
        "X has {cols} columns, so d_model = {cols}; the lab takes at most {limit}.",
    ),
    "lab.w_rows": ("（{d_model} 行 = d_model）", "({d_model} rows = d_model)"),
    "lab.w_o_rows": ("（行数 = W_V 的列数）", "(rows = W_V's columns)"),
    "lab.tokens": ("词数 n", "tokens n"),
    "lab.d_model_label": ("d_model", "d_model"),
    "lab.heads_label": ("头数 h", "heads h"),
    "lab.seed": ("随机种子", "seed"),
    "lab.causal": ("因果掩码", "causal mask"),
    "lab.window_label": ("局部窗口 w", "local window w"),
    "lab.window_placeholder": ("不限", "all"),
    "lab.cross_label": ("键和值来自", "keys & values from"),
    "lab.cross.off": ("同一句（自注意力）", "same (self-attention)"),
    "lab.bad_int": (
        "{name} 要填一个整数（“{value}”不是）。",
        "{name} needs a whole number (“{value}” is not one).",
    ),
    "lab.empty_int": ("{name} 是空的：要填一个整数。", "{name} is empty: it needs a whole number."),
    "lab.stale": ("（仍显示上一次有效设置的结果）", "(still showing the last valid settings)"),
    "lab.stale_because": (
        "仍显示上一次有效设置的结果，因为：{fault}",
        "Still showing the last valid settings, because: {fault}",
    ),
    "lab.head_of": ("头 {head}/{heads}", "Head {head}/{heads}"),
    "lab.rounded": (
        "为了放得下，权重只保留 {places} 位小数，所以一行看起来的和可能不是 1；行和一列是精确的和，"
        "选中格子的权重在下面有 4 位小数。",
        "Rounded to {places} {places:decimal|decimals} to fit, so a row as shown need not add up to 1; the sum "
        "column is the exact sum, and the selected cell's weight is below to 4 decimals.",
    ),
    "lab.bad_window": (
        "w 要填 0 或更大的整数（“{value}”不是）；留空或填“不限”表示不限。",
        "w must be a whole number, 0 or more (“{value}” is not); leave it empty or type “all” "
        "for no window.",
    ),
    # views (F4 cycles through them)
    "lab.view.attn": ("注意力", "Attention"),
    "lab.view.qkv": ("Q、K、V", "Q, K, V"),
    "lab.view.heads": ("多头与输出", "Heads and output"),
    "lab.view.shapes": ("形状追踪", "Shapes"),
    "lab.view.cost": ("计算量", "Cost"),
    "lab.view_of": ("{view} · {i}/{n}", "{view} · {i}/{n}"),
    # the attention view
    "lab.heat.scores": (
        "头 {head}/{heads} · 分数 QKᵀ/√d_k",
        "head {head}/{heads} · scores QKᵀ/√d_k",
    ),
    "lab.heat.weights": (
        "头 {head}/{heads} · 权重 softmax",
        "head {head}/{heads} · weights softmax",
    ),
    "lab.heat.axes": ("行 = 查询，列 = 键", "rows = queries, columns = keys"),
    "lab.sum": ("行和", "sum"),
    "lab.cell.title": (
        "选中：查询“{query}”（第 {i} 行）看键“{key}”（第 {j} 列）",
        "selected: query “{query}” (row {i}) looks at key “{key}” (column {j})",
    ),
    "lab.cell.q": (
        "q = Q 第 {i} 行的第 {a}–{b} 列（头 {head}）",
        "q = row {i} of Q, columns {a}–{b} (head {head})",
    ),
    "lab.cell.k": (
        "k = K 第 {j} 行的同样几列",
        "k = row {j} of K, the same columns",
    ),
    "lab.cell.weight": (
        "softmax 第 {i} 行之后，这一格的权重 = {w}",
        "after the softmax of row {i}, this cell's weight = {w}",
    ),
    "lab.cell.masked": (
        "这个键被掩码挡住了（{why}）：分数记为 −∞，softmax 之后权重恰好是 0。",
        "this key is masked ({why}): its score is set to −∞, so its weight after the "
        "softmax is exactly 0.",
    ),
    "lab.cell.why_causal": ("它在查询之后", "it comes after the query"),
    "lab.cell.why_window": ("它离查询超过 w = {w}", "it is more than w = {w} away"),
    "lab.hint": (
        "方向键选格子 · F5 分数/权重 · F6 换头 · F4 换视图",
        "arrows pick a cell · F5 scores/weights · F6 next head · F4 next view",
    ),
    "lab.hint_both": (  # scores and weights side by side: F5 has nothing to switch
        "方向键选格子 · F6 换头 · F4 换视图",
        "arrows pick a cell · F6 next head · F4 next view",
    ),
    "lab.cross_note": (
        "交叉注意力：查询来自“{q}”，键和值来自“{k}”，所以矩阵有 {n_q} 行（每个查询一行）、"
        "{n_k} 列（每个键一列），两句词数不同时就不是方的。自注意力里两者是同一句，矩阵总是方的。",
        "cross-attention: the queries come from “{q}”, the keys and values from “{k}”, so the "
        "matrix has {n_q} rows (one per query) and {n_k} columns (one per key): it is square "
        "only when the two have as many tokens. In self-attention both are the same sentence, "
        "so it is always square.",
    ),
    # the Q, K, V view
    "lab.qkv.intro": (
        "每个词是 X 的一行。同一个 X 乘以三个不同的矩阵，得到三种角色："
        "Q 问“我在找什么”，K 答“我有什么”，V 是真正被取走的内容。",
        "Each token is one row of X. The same X times three different matrices gives three "
        "roles: Q asks “what am I looking for”, K answers “what do I have”, V is what gets taken.",
    ),
    "lab.qkv.split": (
        "分头：{heads} 个头各取 d_k = {d_k} 列（头 1 是第 1–{d_k} 列，依此类推）。",
        "Split: each of the {heads} heads takes d_k = {d_k} columns (head 1 has columns "
        "1–{d_k}, and so on).",
    ),
    # the heads view
    "lab.heads.intro": (
        "{heads} 个头，每个头 d_k = {d_k} 维，各自算一张权重表，互不影响。",
        "{heads} {heads:head|heads} of d_k = {d_k} dimensions each; every head computes its own "
        "weights, independently of the others.",
    ),
    "lab.heads.weights": ("头 {head} 的权重", "head {head}: weights"),
    "lab.heads.percent": (
        "权重按百分比显示（12 即 0.12）：两位小数在这里放不下。",
        "Weights in percent (12 means 0.12): two decimals do not fit here.",
    ),
    "lab.heads.z": (
        "头 {head} 的输出 Z = A·V，形状 ({n}, {d_v})",
        "head {head}: output Z = A·V, shape ({n}, {d_v})",
    ),
    "lab.heads.concat": (
        "Concat：{heads} 个 ({n}, {d_v}) 横着拼成 ({n}, {width})；再乘 W_O ({width}, {d_model})：",
        "Concat: {heads} blocks of ({n}, {d_v}) side by side make ({n}, {width}); "
        "then times W_O ({width}, {d_model}):",
    ),
    # the shapes view
    "lab.shapes.seed_col": ("课本例子", "textbook"),
    "lab.shapes.yours_col": ("你的", "yours"),
    "lab.shapes.note": (
        "每个头只在 d_k 维里比较查询和键；分数表的大小 n×n 与 d_model 无关。"
        "拼接之后形状回到 (n, d_model)，所以层可以一层层叠下去。",
        "Each head compares queries and keys in only d_k dimensions; the n×n score table does "
        "not depend on d_model. After the concat the shape is back to (n, d_model), which is "
        "why layers can be stacked.",
    ),
    # the cost view
    "lab.cost.intro": (
        "每个查询都要和每个键算一个分数，所以分数的个数随长度的平方增长。",
        "Every query scores every key, so the number of scores grows with the square of the "
        "length.",
    ),
    "lab.cost.rnn": ("RNN：一步接一步", "RNN: one step after another"),
    "lab.cost.attn": ("注意力：一步全算完", "attention: all in one step"),
    "lab.cost.tradeoff": (
        "代价是内存和计算随 n² 增长；好处是训练时可以并行，任意两个词之间只隔一步。"
        "局部窗口 w 把每行最多限制在 2w+1 个分数。",
        "The price is memory and work growing with n²; the gain is parallel training and a "
        "path of one step between any two tokens. A local window w caps each row at 2w+1 scores.",
    ),
    # keys and help
    "lab.key.mask": ("掩码", "Mask"),
    "lab.key.view": ("视图", "View"),
    "lab.key.scores": ("分数/权重", "Score/weight"),
    "lab.key.head": ("换头", "Head"),
    "lab.key.prev_view": ("上一视图", "Prev view"),
    "lab.key.move": ("移动光标", "Move cursor"),
    "lab.help.settings_title": ("设置", "Settings"),
    "lab.help.settings": (
        "选一句预设的话或 n 个词（x1 … xn），d_model ≤ 16，头数 h 必须整除 d_model，"
        "随机种子决定词向量和 W 矩阵。因果掩码让每个词只看自己和前面的词；"
        "窗口 w 只留距离 ≤ w 的键；“键和值来自”另一句就是交叉注意力。"
        "“自己输入 X”：每行一个词的向量（d_model 随列数而定），可加词标签；"
        "展开 W_Q、W_K、W_V、W_O 可以输入自己的矩阵，留空就用随机的。在矩阵框里 F7 全选。"
        "↓/↑ 在设置之间移动（下拉框按 Enter 或空格打开），在输入框里按 Enter 回到热力图。",
        "Pick a preset sentence or n tokens (x1 … xn); d_model ≤ 16; h must divide d_model; "
        "the seed draws the word vectors and the W matrices. The causal mask lets each token see "
        "itself and earlier ones; a window w keeps keys at most w away; taking keys and values "
        "from another sentence is cross-attention. “typed rows of X”: one row per token "
        "(d_model follows the width), optional labels; unfold W_Q, W_K, W_V, W_O to type "
        "your own, or leave them empty for seeded ones. F7 selects a whole matrix field. "
        "↓/↑ move between the settings (Enter or Space opens a drop-down); Enter in a field "
        "goes back to the map.",
    ),
    "lab.help.attn": (
        "一个头的分数或权重热力图。行是查询，列是键；颜色越亮数越大；被掩码的格子分数是 −∞、"
        "权重是 0。方向键移动光标，下面写出这一格的算法。",
        "One head's scores or weights as a heatmap. Rows are queries, columns are keys; the "
        "brighter, the larger; masked cells score −∞ and weigh 0. Arrow keys move the cursor; "
        "the arithmetic of that cell is written out below.",
    ),
    "lab.help.views": (
        "F4 依次切换：注意力、Q/K/V、多头与输出、"
        "形状追踪（n = 10，d_model = 512，h = 8）、计算量。",
        "F4 cycles through: attention, Q/K/V, heads and output, the shapes trace "
        "(n = 10, d_model = 512, h = 8), and cost.",
    ),
    "lab.bad_seed": (
        "随机种子 {value} 不可用：请取 0 到 {hi} 之间的整数。",
        "seed {value} is not usable: choose a whole number from 0 to {hi}.",
    ),
}
