"""Strings of the tiny Transformer: its settings, its model files, its headless output."""

TEXT = {
    # settings that cannot run (InputError codes raised by TransformerConfig.validate)
    "transformer.bad_task": (
        "任务 {value} 不可用：可选 {choices}。",
        "task {value} is not usable: choose one of {choices}.",
    ),
    "transformer.bad_positions": (
        "位置编码 {value} 不可用：可选 {choices}。",
        "positional encoding {value} is not usable: choose one of {choices}.",
    ),
    "transformer.bad_layers": (
        "层数 {value} 不可用：请取 {lo} 到 {hi} 之间的整数。",
        "{value} layers is not usable: choose a whole number from {lo} to {hi}.",
    ),
    "transformer.bad_heads": (
        "头数 {value} 不可用：请取 {lo} 到 {hi} 之间的整数。",
        "{value} heads is not usable: choose a whole number from {lo} to {hi}.",
    ),
    "transformer.bad_d_model": (
        "d_model = {value} 不可用：请取 {lo} 到 {hi} 之间的整数。",
        "d_model = {value} is not usable: choose a whole number from {lo} to {hi}.",
    ),
    "transformer.heads_divide": (
        "{heads} 个头分不开 d_model = {d_model}：每个头分到 d_model ÷ 头数 维，必须除得尽。",
        "{heads} heads cannot split d_model = {d_model}: each head gets d_model ÷ heads "
        "dimensions, which must come out whole.",
    ),
    "transformer.bad_induction_length": (
        "归纳任务的长度 {value} 不可用：请取 {lo} 到 {hi} 之间的整数（要给 8 个词元的片段和它的副本留出位置）。",
        "length {value} is not usable for the induction task: choose a whole number from {lo} to "
        "{hi} (room for a segment of 8 tokens and its copy).",
    ),
    "transformer.induction_causal": (
        "归纳任务要预测下一个词元，必须加因果掩码：不加的话，模型直接看得到答案。",
        "the induction task predicts the next token, so it needs the causal mask: without it "
        "the model would simply read the answer.",
    ),
    "transformer.bad_switch": (
        "开关 {name} 的值 {value} 不可用：只能是开或关。",
        "switch {name} = {value} is not usable: it is either on or off.",
    ),
    # model files (--save / lab --model)
    "transformer.file.unreadable": (
        "读不了模型文件 {path}：{reason}",
        "cannot read the model file {path}: {reason}",
    ),
    "transformer.file.not_model": (
        "{path} 不是 attn-tui 保存的 Transformer 模型（{reason}）。",
        "{path} is not a Transformer model saved by attn-tui ({reason}).",
    ),
    "transformer.file.version": (
        "{path} 的格式版本是 {found}，这个 attn-tui 只认 {expected}。",
        "{path} has format version {found}; this attn-tui reads version {expected}.",
    ),
    "transformer.file.bad_array": (
        "{path} 里的 {name} 不对：{reason}。",
        "{path}: {name} is wrong: {reason}.",
    ),
    "transformer.file.bad_config": (
        "{path} 里的设置不可用：{reason}",
        "{path} holds settings that cannot be used: {reason}",
    ),
    "transformer.file.unwritable": (
        "写不了模型文件 {path}：{reason}",
        "cannot write the model file {path}: {reason}",
    ),
    "transformer.file.saved": ("模型已保存到 {path}。", "Model saved to {path}."),
    # the headless command
    "transformer.task.reverse": ("反转", "reverse"),
    "transformer.task.sort": ("排序", "sort"),
    "transformer.task.previous": ("上一个字母", "previous letter"),
    "transformer.task.local": ("邻里最大", "local max"),
    "transformer.task.first": ("第一个字母", "first letter"),
    "transformer.task.block": ("块内最大", "block max"),
    "transformer.task.induction": ("归纳复制", "induction copy"),
    "transformer.positions.learned": ("可学习的位置向量", "learned position vectors"),
    "transformer.positions.sinusoidal": ("正弦位置编码", "sinusoidal encoding"),
    "transformer.positions.none": ("不加位置信息", "no positions"),
    "transformer.variant": (
        "Transformer · {task} · {layers} 层 × {heads} 头 · d_model {d_model} · {positions}",
        "Transformer · {task} · {layers} {layers:layer|layers} × {heads} {heads:head|heads} · "
        "d_model {d_model} · {positions}",
    ),
    "transformer.held_out_note": (
        "准确率在 {n} 条留出序列上测得：这些序列从不参与训练。所有输出位置一次算出，"
        "不需要逐个解码。",
        "Accuracy is measured on {n} held-out sequences that are never trained on; every "
        "output position is computed at once, with no decoding loop.",
    ),
    "transformer.head_title": (
        "第 {layer} 层第 {head} 个头（留出集平均；行 = 输出位置，列 = 输入位置）",
        "Layer {layer}, head {head} (held-out average; rows = output positions, columns = "
        "input positions)",
    ),
    "transformer.head_figures": (
        "  落在输入 L+1−i 上的平均权重 {mirror}；权重的方差中，被所看字母解释 {by_symbol}，"
        "被所看位置解释 {by_position}",
        "  mean weight on input L+1−i {mirror}; share of the weights' variance explained by "
        "the attended symbol {by_symbol}, by the attended position {by_position}",
    ),
    "transformer.why_blind": (
        "没有位置信息时，模型分不清各个位置：每个输出只看得到自己的字母和序列里每种字母各有几个，"
        "同一个字母不管在哪儿都得到同一个答案。它最好的办法是押“最可能的那个字母”，"
        "在这些留出序列上平均能押中 {ceiling:.3f}——所以逐位准确率高于瞎猜的 1/{letters}（{guess:.3f}），"
        "但整串几乎从不全对。这次得到 {pos_acc:.3f}。",
        "Without positions the model cannot tell the places apart: each output sees only its "
        "own letter and how many of each letter the sequence holds, so every copy of a letter "
        "gets the same answer wherever it stands. Its best move is to bet on the likeliest "
        "letter, which on these held-out sequences is right {ceiling:.3f} of the time on "
        "average — above blind guessing (1/{letters}, {guess:.3f}) per position, yet almost never a whole "
        "sequence. This run: {pos_acc:.3f}.",
    ),
    "transformer.seeds_title": (
        "{n} 个种子：整串 {seq}，逐位 {pos}，训练用时 {seconds}（均值 ± 标准差）",
        "{n} seeds: whole sequence {seq}, per position {pos}, training time {seconds} (mean ± sd)",
    ),
    "transformer.seeds_position_head": (
        "每个种子里最看位置的头（落在 L+1−i 上的权重最大者）：权重 {mirror}；"
        "被所看位置解释的方差 {by_position}",
        "each seed's position head (most weight on L+1−i): weight {mirror}; variance "
        "explained by the attended position {by_position}",
    ),
    "transformer.seeds_content_head": (
        "每个种子里最看内容的头（被所看字母解释的方差最大者）：被字母解释 {by_symbol}，"
        "被位置解释 {by_position}",
        "each seed's content head (most variance explained by the attended symbol): by "
        "symbol {by_symbol}, by position {by_position}",
    ),
    "transformer.bad_sequence": (
        "序列“{value}”不可用：这个模型要 {length} 个字母，每个取自 {letters}。",
        "sequence “{value}” is not usable: this model needs {length} letters, each one of "
        "{letters}.",
    ),
    "transformer.rnn_only": (
        "{option} 只用于 RNN（--model rnn）。",
        "{option} applies to the RNN only (--model rnn).",
    ),
    "transformer.transformer_only": (
        "{option} 只用于 Transformer（--model transformer）。",
        "{option} applies to the Transformer only (--model transformer).",
    ),
    "transformer.needs_model": (
        "{option} 要和 --model FILE 一起用。",
        "{option} goes with --model FILE.",
    ),
    "transformer.not_with_model": (
        "{option} 不能和 --model 一起用：训练好的模型的形状由它的文件决定。",
        "{option} does not go with --model: a trained model's file decides its shapes.",
    ),
    "transformer.lab_head_title": (
        "第 {layer} 层第 {head} 个头的权重（训练所得；行 = 查询，列 = 键）",
        "Layer {layer}, head {head}: trained weights (rows = queries, columns = keys)",
    ),
    # why a model file was refused (the {reason} of the sentences above)
    "transformer.file.why.not_regular": ("它不是普通文件", "it is not a regular file"),
    "transformer.file.why.too_big": ("{size} 字节，太大了", "{size} bytes is too large for one"),
    "transformer.file.why.not_zip": ("不是 numpy 数组打包的 zip", "not a zip of numpy arrays"),
    "transformer.file.why.members": ("有 {n} 个数组，太多了", "{n} arrays is too many"),
    "transformer.file.why.member": ("多了不认识的成员 {name}", "unexpected member {name}"),
    "transformer.file.why.no_member": ("缺少 {name}", "no {name}"),
    "transformer.file.why.format": ("格式不是 {format}", "its format is not {format}"),
    "transformer.file.why.dtype": ("类型 {dtype} 不是数值类型", "its type {dtype} is not a number"),
    "transformer.file.why.shape_too_large": ("形状 {shape} 太大", "shape {shape} is too large"),
    "transformer.file.why.text_too_long": (
        "文字超过 {n} 个字符",
        "its text is longer than {n} characters",
    ),
    "transformer.file.why.json": ("JSON 读不通（{detail}）", "unreadable JSON ({detail})"),
    "transformer.file.why.not_table": ("设置不是一张表", "the settings are not a table"),
    "transformer.file.why.setting": ("不认识的设置 {name}", "unknown setting {name}"),
    "transformer.file.why.probe": (
        "它应是 {length} 个 0 到 {hi} 之间的符号",
        "it must be {length} symbols from 0 to {hi}",
    ),
    "transformer.file.why.missing": ("缺少这个数组", "it is missing"),
    "transformer.file.why.shape": (
        "是 {dtype} {shape}，应为浮点数 {expected}",
        "{dtype} {shape}, expected float {expected}",
    ),
    "transformer.file.why.values": (
        "有不是有限数或绝对值超过 {limit} 的值",
        "it holds values that are not finite or larger than {limit}",
    ),
    "transformer.seeds_header": (
        "{variant} · {params} 个参数 · {iters} 次迭代",
        "{variant} · {params} parameters · {iters} iterations",
    ),
    "transformer.lab_header": (
        "{variant} · {params} 个参数 · 训练好的模型 {path}",
        "{variant} · {params} parameters · trained model {path}",
    ),
    # the training screen with the Transformer chosen
    "transformer.ui.model": ("模型", "model"),
    "transformer.ui.model.rnn": ("RNN", "RNN"),
    "transformer.ui.model.transformer": ("Transformer", "Transformer"),
    "transformer.ui.task": ("任务", "task"),
    "transformer.ui.positions": ("位置编码", "positions"),
    "transformer.ui.pos.learned": ("可学习", "learned"),
    "transformer.ui.pos.sinusoidal": ("正弦", "sinusoidal"),
    "transformer.ui.pos.none": ("关", "off"),
    "transformer.ui.layers": ("层数", "layers"),
    "transformer.ui.heads": ("每层头数", "heads"),
    "transformer.ui.d_model": ("d_model", "d_model"),
    "transformer.ui.run_label": (
        "Transformer · {task} L{length} · {positions} · 种子 {seed}",
        "Transformer · {task} L{length} · {positions} · seed {seed}",
    ),
    "transformer.ui.pos_tag.learned": ("可学习位置", "learned"),
    "transformer.ui.pos_tag.sinusoidal": ("正弦位置", "sine"),
    "transformer.ui.pos_tag.none": ("无位置", "no pos."),
    "transformer.ui.goal.reverse": (
        "把 {length} 个字母（A–F）的序列倒过来写：输出 i 要找到输入 L+1−i，只能靠位置认出它",
        "write a sequence of {length} letters (A–F) backwards: output i must find input "
        "L+1−i, which only its position tells apart",
    ),
    "transformer.ui.goal.previous": (
        "把 {length} 个字母（A–F）的序列右移一格：输出 i 写输入 i−1（输出 1 写输入 1），"
        "训练出的头就是“上一个词元”头：权重落在对角线下面那一条",
        "shift a sequence of {length} letters (A–F) one place right: output i writes input "
        "i−1 (output 1 writes input 1); the trained head is a previous-token head, its weight "
        "on the line just below the diagonal",
    ),
    "transformer.ui.goal.local": (
        "对 {length} 个字母（A–F）的每个位置，写它和左右邻居里最大的字母：训练出的头"
        "看自己和邻居，是沿对角线的一条带",
        "for each of {length} letters (A–F), write the largest of it and its two neighbours: "
        "the trained head looks at itself and its neighbours, a band along the diagonal",
    ),
    "transformer.ui.goal.first": (
        "每个输出都写 {length} 个字母（A–F）里的第一个：训练出的头让每一行都看第 1 列，是一条竖条",
        "every output writes the first of {length} letters (A–F): the trained head sends "
        "every row to column 1, a vertical stripe",
    ),
    "transformer.ui.goal.block": (
        "把 {length} 个字母（A–F）每 4 个分成一块，每个输出写自己那块里最大的字母："
        "训练出的头只看自己的块，是沿对角线的一个个方块",
        "cut {length} letters (A–F) into blocks of 4; each output writes the largest letter "
        "of its own block: the trained head looks only within its block, squares along the "
        "diagonal",
    ),
    "transformer.ui.goal.induction": (
        "在 {length} 个随机词元（64 种）里，有一段 8 个词元在后面某处重现：到了重现的那段，要说出下一个"
        "词元。办法是归纳：找到当前词元前一次出现的地方，说出当时跟在它后面的那个。两层各一个头，"
        "带因果掩码；损失先停在平台上，然后骤降",
        "predict the next token in {length} random tokens (of 64) in which a segment of 8 "
        "reappears later on: within the repeat, by induction — find where the current token "
        "stood before and say what followed it there. Two layers of one head, causally "
        "masked; the loss sits on a plateau, then drops",
    ),
    "transformer.ui.goal.sort": (
        "把 {length} 个字母（A–F）排好序：输出 i 要找第 i 小的字母，不管它在哪儿，靠的是内容",
        "sort a sequence of {length} letters (A–F): output i looks for the i-th smallest "
        "letter wherever it stands, by content",
    ),
    "transformer.ui.intro": (
        "Transformer 要学会{goal}。这次：{layers} 层 × {heads} 头，d_model {d_model}，"
        "位置编码：{positions}，{params} 个参数；所有输出位置一次算出。F5 开始；F9 用同一个种子"
        "依次训练它和“F9 对照”里的位置编码；F10 对两者做多种子对比；F4 看对比表；"
        "训练完按 ctrl+o 在实验室里打开它。",
        "The Transformer learns to {goal}. This run: {layers} {layers:layer|layers} × {heads} "
        "{heads:head|heads}, d_model {d_model}, positions: {positions}, {params} parameters; "
        "every output position "
        "is computed at once. F5 trains; F9 trains it and the “F9 versus” positions with the "
        "same seed; F10 compares both over many seeds; F4 shows the tables; once trained, "
        "ctrl+o opens it in the lab.",
    ),
    "transformer.ui.heat_title": (
        "第 {layer} 层头 {head}：探针 {x} 的注意力（%，行 = 输出 i，列 = 输入；F3 看平均）",
        "Layer {layer}, head {head}: probe {x}, attention in % (rows = output i, columns = "
        "input; F3: average)",
    ),
    "transformer.ui.heat_mean_title": (
        "第 {layer} 层头 {head}：{n} 条留出序列的平均注意力（%；F3 看探针）",
        "Layer {layer}, head {head}: attention in %, mean of {n} held-out sequences (F3: the "
        "probe)",
    ),
    "transformer.ui.legend.reverse": (
        "下划线 = 反转要看的镜像输入 L+1−i；峰：✓ 在它上面。均匀 = 1/L = {uniform}。"
        "色标：{scale}（ctrl+r 切换）。",
        "Underlined = the mirrored input L+1−i that reversal needs; peak: ✓ on it. Uniform = "
        "1/L = {uniform}. Colours: {scale} (ctrl+r switches).",
    ),
    "transformer.ui.legend.sort": (
        "排序不按位置看：输出 i 去找第 i 小的字母，它在哪一列要看这条序列。均匀 = 1/L = {uniform}。"
        "色标：{scale}（ctrl+r 切换）。",
        "Sorting does not look by position: output i seeks the i-th smallest letter, whose "
        "column depends on the sequence. Uniform = 1/L = {uniform}. Colours: {scale} (ctrl+r "
        "switches).",
    ),
    "transformer.ui.legend.previous": (
        "上一个词元头：每一行 i 的权重该落在第 i−1 列（对角线下面一条）。均匀 = 1/L = {uniform}。"
        "色标：{scale}（ctrl+r 切换）。",
        "A previous-token head: row i's weight belongs on column i−1 (the line below the "
        "diagonal). Uniform = 1/L = {uniform}. Colours: {scale} (ctrl+r switches).",
    ),
    "transformer.ui.legend.local": (
        "邻近带：每一行的权重该落在自己和左右邻居上（沿对角线的一条带）。均匀 = 1/L = {uniform}。"
        "色标：{scale}（ctrl+r 切换）。",
        "A local band: each row's weight belongs on itself and its two neighbours (a band "
        "along the diagonal). Uniform = 1/L = {uniform}. Colours: {scale} (ctrl+r switches).",
    ),
    "transformer.ui.legend.first": (
        "竖条：每一行都看第 1 列。均匀 = 1/L = {uniform}。色标：{scale}（ctrl+r 切换）。",
        "A vertical stripe: every row looks at column 1. Uniform = 1/L = {uniform}. Colours: "
        "{scale} (ctrl+r switches).",
    ),
    "transformer.ui.legend.block": (
        "块：每一行只看自己那块的 4 列（沿对角线的方块）。均匀 = 1/L = {uniform}。"
        "色标：{scale}（ctrl+r 切换）。",
        "Blocks: each row looks only at the 4 columns of its own block (squares along the "
        "diagonal). Uniform = 1/L = {uniform}. Colours: {scale} (ctrl+r switches).",
    ),
    "transformer.ui.model_probe": (
        "每层每个头一张图：探针 {x} 的注意力（行 = 输出，列 = 输入，越亮越大，0–1；F3 看平均）",
        "Every head of every layer: attention on the probe {x} (rows = outputs, columns = "
        "inputs, brighter = more, 0–1; F3: average)",
    ),
    "transformer.ui.model_mean": (
        "每层每个头一张图：{n} 条留出序列的平均注意力（越亮越大，0–1；F3 看探针）",
        "Every head of every layer: attention, mean of {n} held-out sequences (brighter = "
        "more, 0–1; F3: the probe)",
    ),
    "transformer.ui.col.which": ("头", "head"),
    "transformer.ui.which": ("第{layer}层 头{head}", "L{layer} H{head}"),
    "transformer.ui.col.mirror": ("看 L+1−i", "on L+1−i"),
    "transformer.ui.col.by_symbol": ("字母解释", "by letter"),
    "transformer.ui.col.by_position": ("位置解释", "by pos."),
    "transformer.ui.pattern_legend": (
        "留出集上每个头：{score}分数（这种图样该放权重的地方实际得到的权重份额，1 = 全部）；"
        "它的权重方差（同一输出位置内）被所看的字母、被所看的位置各解释多少。",
        "Each head on the held-out set: its {score} score (the share of its weight that lands "
        "where that pattern puts it; 1 = all of it), and the share of its weights' variance "
        "(within one output position) that the attended letter, or position, explains.",
    ),
    "transformer.ui.head_legend": (
        "留出集上每个头：落在镜像输入 L+1−i 上的平均权重；它的权重方差（同一输出位置内）"
        "被所看的字母、被所看的位置各解释多少。反转要位置头，排序要内容头。",
        "Each head on the held-out set: its mean weight on the mirrored input L+1−i, and the "
        "share of its weights' variance (within one output position) that the attended "
        "letter, or the attended position, explains. Reversal needs a position head, sorting "
        "a content head.",
    ),
    "transformer.ui.open_lab": (
        "这个模型已存为最近训练的 Transformer：ctrl+o 在实验室里打开它，看它的 Q、K、V 和每个头。",
        "This model is kept as the last trained Transformer: ctrl+o opens it in the lab, with "
        "its Q, K, V and every head.",
    ),
    "transformer.ui.not_saved": (
        "这个模型没能存下来给实验室用：{reason}",
        "This model could not be kept for the lab: {reason}",
    ),
    "transformer.ui.no_model": (
        "还没有训练好的 Transformer：把“模型”选成 Transformer，按 F5，训练完再按 ctrl+o。",
        "No Transformer trained yet: set model to Transformer, press F5, then ctrl+o once it "
        "has finished.",
    ),
    "transformer.ui.key.lab": ("在实验室打开", "Open in lab"),
    "transformer.ui.pair_whole": (
        "位置{positions} 整串 {whole}",
        "positions {positions} whole {whole}",
    ),
    "transformer.ui.session_title": (
        "本次完成的 Transformer 运行",
        "Transformer runs this session",
    ),
    "transformer.ui.col.task": ("任务", "task"),
    "transformer.ui.col.positions": ("位置", "positions"),
    "transformer.ui.col.head": ("头", "head"),
    "transformer.ui.session_legend": (
        "头 = 最有代表性的那个头：反转看它落在 L+1−i 上的权重，排序看它的权重方差被所看字母解释的比例。",
        "head = the most telling head: for reversal its weight on L+1−i, for sorting the share "
        "of its weights' variance the attended letter explains.",
    ),
    "transformer.ui.multi_empty": (
        "F10 对位置编码 {variants} 各训练 {n} 个种子（从种子 {seed} 起），并排比较。",
        "F10 trains positions {variants} over {n} seeds each (from seed {seed}), side by side.",
    ),
    "transformer.ui.multi_title": (
        "Transformer · {task} · 长度 {length} · {iters} 次迭代 · {n} 个种子",
        "Transformer · {task} · length {length} · {iters} iterations · {n} seeds",
    ),
    "transformer.ui.strip_legend": (
        "整串准确率，每个种子一个点（几个种子落在同一处就写几）；横轴 {lo}–{hi}",
        "whole-sequence accuracy, one dot per seed (a number where that many share a spot); "
        "axis {lo}–{hi}",
    ),
    "transformer.ui.ceiling_row": ("  无位置的上限", "  blind ceiling"),
    "transformer.ui.help.model": (
        "“模型”在 RNN（带注意力的编码器-解码器）和一个小 Transformer 之间切换，两者学同一个反转任务，"
        "用同样的留出集。Transformer 还可以学排序（靠内容而不是位置）；可设层数、每层头数、d_model "
        "和位置编码。热力图每层每个头一张，随训练更新；只有一个头时写出百分比。位置编码选“关”再训练反转："
        "整串几乎全错，屏幕会说明为什么逐位准确率仍高于 1/6。训练完按 ctrl+o，在实验室里打开这个模型。",
        "“model” switches between the RNN (an encoder–decoder with attention) and a small "
        "Transformer; both learn the same reversal on the same held-out set. The Transformer "
        "can also learn sorting (by content, not position); set its layers, heads per layer, "
        "d_model and positional encoding. There is one heatmap per head of every layer, "
        "updating as training goes; with a single head its percents are written out. Turn "
        "positions off and train reversal: hardly a sequence comes out right, and the screen "
        "says why per-position accuracy still stays above 1/6. Once trained, ctrl+o opens the "
        "model in the lab.",
    ),
    # the lab opened on the trained Transformer
    "transformer.lab.source": ("训练好的 Transformer", "the trained Transformer"),
    # the lab's "queries from" choice: one line of its 21-cell drop-down
    "transformer.lab.source_choice": ("训练好的 Transformer", "trained Transformer"),
    "transformer.lab.view.model": ("全部的头", "All heads"),
    "transformer.lab.view.lines": ("词到词", "Token to token"),
    "transformer.lab.sequence": ("输入序列", "sequence"),
    "transformer.lab.layer": ("第几层", "layer"),
    "transformer.lab.bad_layer": (
        "层号要在 1 到 {layers} 之间。",
        "the layer must be a whole number from 1 to {layers}.",
    ),
    "transformer.lab.training": (
        "还没有训练好的 Transformer，正在训练默认的那个（反转，长度 10，大约一秒）……",
        "No trained Transformer yet: training the default one (reversal, length 10, about "
        "a second)…",
    ),
    "transformer.lab.no_model": (
        "没能得到训练好的 Transformer。请在训练器里训练一个，再回来选这一项。",
        "No trained Transformer could be made. Train one on the trainer screen, then choose "
        "this again.",
    ),
    "transformer.lab.damaged": (
        "保存的 Transformer 打不开（{reason}）。它已改名为 {aside} 留着，现在重新训练一个。",
        "The saved Transformer could not be opened ({reason}). It was set aside as {aside}, "
        "and a fresh one is being trained.",
    ),
    "transformer.lab.info": (
        "{task}，长度 {length}；{layers} 层 × {heads} 头，d_model {d_model}，{positions}；"
        "{params} 个参数，训练了 {iters} 次迭代；留出集整串准确率 {seq}。",
        "{task}, length {length}; {layers} layer(s) × {heads} head(s), d_model {d_model}, "
        "{positions}; {params} parameters, {iters} iterations; held-out whole-sequence "
        "accuracy {seq}.",
    ),
    "transformer.lab.info_induction": (
        "{task}，长度 {length}；{layers} 层 × {heads} 头，d_model {d_model}，{positions}；"
        "{params} 个参数，训练了 {iters} 次迭代；留出集上副本第 2–8 个词元的准确率 {copy}。",
        "{task}, length {length}; {layers} {layers:layer|layers} × {heads} {heads:head|heads}, "
        "d_model {d_model}, {positions}; {params} parameters, {iters} iterations; held-out "
        "copy accuracy (the copy's tokens 2–8) {copy}.",
    ),
    "transformer.lab.note_trained": (
        "训练所得的权重（任务：{task}），第 {layer}/{layers} 层：这里的数就是模型实际算出的数。",
        "Trained weights ({task}), layer {layer} of {layers}: these are the numbers the model "
        "computes.",
    ),
    "transformer.lab.note_random": (
        "权重是随机的（种子 {seed}）：演示怎么算，不代表训练好的模型会看哪里。",
        "Random weights (seed {seed}): how attention is computed, not where a trained model "
        "would look.",
    ),
    "transformer.lab.model_intro": (
        "每层每个头一张小图：行 = 查询，列 = 键，越亮权重越大，所有小图用同一把 0–1 的尺子。",
        "One small map per head of every layer: rows = queries, columns = keys, brighter = "
        "more weight, on the same 0–1 scale in every map.",
    ),
    "transformer.lab.layer_title": ("第 {layer} 层", "layer {layer}"),
    "transformer.lab.head_short": ("头 {head}", "head {head}"),
    "transformer.lab.held_title": (
        "在 {n} 条留出序列上：整串 {seq}，逐位 {pos}。每个头平均来看：",
        "On {n} held-out sequences: whole sequence {seq}, per position {pos}. Each head on "
        "average:",
    ),
    "transformer.lab.head_line": (
        "第 {layer} 层头 {head}：落在 L+1−i 上的权重 {mirror} · 方差被字母解释 {by_symbol}，"
        "被位置解释 {by_position}",
        "layer {layer} head {head}: weight on L+1−i {mirror} · variance explained by the "
        "symbol {by_symbol}, by the position {by_position}",
    ),
    "transformer.lab.measures": (
        "落在 L+1−i 上的权重，是反转需要的那一列（镜像位置）。后两个数说明是什么决定了一个头看哪里："
        "是被看的字母（内容头，排序要靠它），还是被看的位置（位置头，反转要靠它）——"
        "在同一个输出位置内，这个头的权重的方差有多大比例能由它解释。",
        "The weight on L+1−i is the column reversal needs (the mirrored input). The two "
        "shares say what decides where a head looks: the symbol it looks at (a content head, "
        "as sorting needs) or the position (a position head, as reversal needs) — the share "
        "of the variance of the head's weights, within one output position, that each explains.",
    ),
    "transformer.lab.lines_title": (
        "头 {head}/{heads}：每个查询（左）连到每个键（右）",
        "head {head}/{heads}: each query (left) joined to each key (right)",
    ),
    "transformer.lab.lines_hint": (
        "↑ ↓ 选查询（现在是 {query}）：它的连线是彩色的，键旁边写着它的权重；"
        "其他查询的连线是灰的，只画较强的。F6 换头。",
        "↑ ↓ choose the query (now {query}): its lines are in colour, with its weights beside "
        "the keys; other queries' lines are grey, strong ones only. F6 changes the head.",
    ),
    "transformer.lab.help": (
        "“查询来自”选“训练好的 Transformer”：打开应用里最近训练的 Transformer（没有就先花一秒训练"
        "默认的那个），在一条留出序列上显示每层注意力真正读到的 X 和训练出的 W_Q、W_K、W_V、W_O，"
        "所有视图都是模型实际算出的数。输入序列可以自己改（字母 A–F），“第几层”换层。F4 之后还有两个视图："
        "“全部的头”把每层每个头并排画成小图，并给出每个头在留出集上的表现；“词到词”把一个头画成"
        "查询与键之间的连线，↑ ↓ 选查询，F6 换头。",
        "“queries from” → “the trained Transformer” opens the Transformer last trained in the "
        "app (training the default one first, in about a second, if there is none) on a held-out "
        "sequence: each layer's X is what its attention really reads and W_Q, W_K, W_V, W_O are "
        "the trained weights, so every view shows the numbers the model computes. Type another "
        "sequence (letters A–F) or choose a layer. Two more views follow under F4: “All heads” "
        "draws every head of every layer side by side, small, with each head's held-out "
        "figures; “Token to token” draws one head as lines between queries and keys (↑ ↓ choose "
        "the query, F6 the head).",
    ),
    # -- the Transformer's guided experiments (1–5), core/models/transformer_guide.py
    "transformer.guide.1": ("1 反转：按位置读", "1 Reversal: reading by position"),
    "transformer.guide.2": ("2 关掉位置：上限", "2 Positions off: the ceiling"),
    "transformer.guide.3": ("3 排序：按内容读", "3 Sorting: reading by content"),
    "transformer.guide.4": ("4 两个头", "4 Two heads"),
    "transformer.guide.5": ("5 因果掩码", "5 A causal mask"),
    "transformer.guide.1.look": (
        "看头的热力图：输出第 i 位几乎只看输入第 L+1−i 位，是一条反对角线——位置编码告诉它谁在第几位。",
        "Look at the head's map: output i reads almost only input L+1−i, an anti-diagonal — the positional encodings tell it which place is which.",
    ),
    "transformer.guide.2.look": (
        "没有位置，它分不清第几个：逐位准确率停在不知道位置的模型的上限附近（这些留出序列上约 {ceiling}），整串全对是 0。",
        "Without positions it cannot tell the places apart: accuracy per position stops near what a position-blind model can reach (about {ceiling} on these held-out sequences), whole sequences 0.",
    ),
    "transformer.guide.3.look": (
        "排序看的是字母，不是位置：每一行的深色格子落在输出要的那个字母所在的地方，不管它在第几位。",
        "Sorting looks at letters, not places: each row's dark cells fall wherever the letter that output needs stands, whatever its position.",
    ),
    "transformer.guide.4.look": (
        "两个头并排画着：一个按位置读、画出反对角线，另一个常常看不出形状——多一个头不等于多一种用处。",
        "The two heads are drawn side by side: one reads by position and draws the anti-diagonal, the other often shows no shape — another head is not another use.",
    ),
    "transformer.guide.5.look": (
        "因果掩码让输出第 i 位只看输入 1…i：前一半输出要的字母在它后面，看不见，所以反转做不到——生成文本时这正是要的。",
        "The causal mask lets output i see inputs 1…i only: the first half of the outputs need letters after them, out of sight, so reversal fails — exactly what text generation wants.",
    ),
}
