"""Code exercises ("build it yourself"): the cases, the mistakes a check can name, the report,
the faults a teacher's file can have, and the command line's and the screen's words."""

TEXT = {
    # -- what each case is for (code.case.<name>)
    "code.case.own": ("老师给的第 {number} 个例子", "the teacher's case {number}"),
    "code.case.random": ("随机的例子", "a random case"),
    "code.case.hand": ("课本的手算例子", "the textbook's hand example"),
    "code.case.hand_scaled": ("课本例子缩放后的分数", "the textbook example's scaled scores"),
    "code.case.hand_weights": ("课本例子的权重", "the textbook example's weights"),
    "code.case.cross": (
        "查询和键个数不同（交叉注意力）",
        "fewer queries than keys (cross-attention)",
    ),
    "code.case.one_key": ("只有一个键", "a single key"),
    "code.case.one_query": ("只有一个查询", "a single query"),
    "code.case.d_one": ("d = 1", "d = 1"),
    "code.case.rows": ("两行", "two rows"),
    "code.case.square": ("方阵", "a square matrix"),
    "code.case.large": ("很大的分数（≥ 710：exp 会溢出）", "large scores (≥ 710: exp overflows)"),
    "code.case.very_negative": (
        "很负的分数（−1000：exp 下溢成 0）",
        "very negative scores (−1000: exp underflows to 0)",
    ),
    "code.case.ties": ("分数全部相同", "tied scores"),
    "code.case.batch": ("一批矩阵", "a batch of matrices"),
    "code.case.one_hot": ("只有一个权重是 1", "one weight of 1, the rest 0"),
    "code.case.values": ("值和键不同", "values that differ from the keys"),
    "code.case.d_v": ("值的长度和键不同（d_v ≠ d）", "values of another width (d_v ≠ d)"),
    "code.case.four": ("T = 4", "T = 4"),
    "code.case.one_token": ("只有一个词（T = 1）", "a single token (T = 1)"),
    "code.case.seven": ("T = 7", "T = 7"),
    "code.case.two": ("两个序列，长度 3 和 1", "two sequences, of lengths 3 and 1"),
    "code.case.full": ("没有填充的序列", "a sequence with no padding"),
    "code.case.batch_one": ("只有一个序列（B = 1）", "a batch of one (B = 1)"),
    "code.case.small": ("小例子", "a small case"),
    "code.case.causal": ("因果掩码", "a causal mask"),
    "code.case.padding": ("填充掩码", "a padding mask"),
    "code.case.single_key": ("掩码后一行只剩一个键", "a mask that leaves a single key in a row"),
    "code.case.numbered": ("编了号的 X（0, 1, 2, …）", "X numbered 0, 1, 2, …"),
    "code.case.one_head": ("只有一个头", "a single head"),
    "code.case.many": ("四个头", "four heads"),
    "code.case.two_heads": ("两个头的自注意力", "self-attention with two heads"),
    "code.case.four_heads": (
        "四个头的交叉注意力（d_k ≠ d_model）",
        "cross-attention with four heads (d_k ≠ d_model)",
    ),
    "code.case.one_position": ("只有一个位置", "a single position"),
    "code.case.wide": ("d_model = 16", "d_model = 16"),
    "code.case.odd": ("d_model 为奇数", "an odd d_model"),
    "code.case.row": ("一行，dy 只在第一个位置", "one row, dy on the first entry only"),
    "code.case.uniform_dy": ("dy 全是 1", "dy all ones"),
    "code.case.book": (
        "书中模型算出的状态（H = 16，L = 5）",
        "states of the book's own model (H = 16, L = 5)",
    ),
    "code.case.one_input": ("只有一个输入位置（L = 1）", "a single input position (L = 1)"),
    # -- the mistakes (code.mistake.<code>): said only when the result equals what it computes
    "code.mistake.not_written": (
        "这个函数还是起始代码：把 raise NotImplementedError 换成你的实现。",
        "This function is still the starter: replace the raise NotImplementedError with your code.",
    ),
    "code.mistake.returned_none": (
        "函数返回了 None：是不是忘了写 return？",
        "Your function returned None: a missing return?",
    ),
    "code.mistake.not_an_array": (
        "返回的是 {kind}，这里要一个 numpy 数组。",
        "It returned a {kind}; a numpy array is wanted here.",
    ),
    "code.mistake.transposed": (
        "结果的形状是 {got}，应为 {expected}：数是对的，但行列对调了（转置）。",
        "Your result is shaped {got}, expected {expected}: the numbers are right but transposed.",
    ),
    "code.mistake.in_place": (
        "结果是对的，但你改动了传进来的数组 {names}（原地修改）：调用者的数据被改了。写 x = x - m，不要写 x -= m。",
        "Your result is right but you changed the input array {names} in place: the caller's data changed. Write x = x - m, not x -= m.",
    ),
    "code.mistake.wrong_count": (
        "要返回 {expected} 个数组（{names}），你返回了 {got} 个。",
        "{expected} arrays are wanted ({names}); you returned {got}.",
    ),
    "code.mistake.memory": (
        "你的代码要的内存超过了上限：是不是建了一个巨大的数组？",
        "Your code asked for more memory than the limit allows: a huge array?",
    ),
    "code.mistake.scaled_too_soon": (
        "你已经除以了 √d：这一题只要原始的点积，缩放是下一题。",
        "You already divided by √d: this exercise wants the raw dot products; scaling is the next one.",
    ),
    "code.mistake.softmaxed_too_soon": (
        "你已经做了 softmax：这一题只要点积本身。",
        "You already applied a softmax: this exercise wants the dot products themselves.",
    ),
    "code.mistake.not_scaled": (
        "你没有除以 √d：这里 d = {d}，应除以 {sqrt_d}。",
        "You did not divide by √d: here d = {d}, so divide by {sqrt_d}.",
    ),
    "code.mistake.divided_by_d": (
        "你除以的是 d = {d}，应除以 √d = {sqrt_d}。",
        "You divided by d = {d}; divide by √d = {sqrt_d}.",
    ),
    "code.mistake.divided_by_sqrt_n": (
        "你除以的是键的个数的平方根（√{n}），应除以 √d = {sqrt_d}（d 是每个向量的长度）。",
        "You divided by the square root of the number of keys (√{n}); divide by √d = {sqrt_d} (d is each vector's length).",
    ),
    "code.mistake.multiplied_by_sqrt_d": (
        "你乘了 √d = {sqrt_d}，应该除以它。",
        "You multiplied by √d = {sqrt_d}; divide by it.",
    ),
    "code.mistake.overflow": (
        "你的 softmax 在分数 ≥ 710 时溢出：exp(710) 在 float64 里是 inf，inf/inf 是 nan。先减去每行的最大值（结果不变）。",
        "Your softmax overflows for scores ≥ 710: exp(710) is inf in float64 and inf/inf is nan. Subtract each row's maximum first (the result does not change).",
    ),
    "code.mistake.underflow": (
        "分数都很负时每个 exp 都下溢成 0，于是 0/0 = nan。减去每行的最大值后，最大的 exp 是 exp(0)，即 1。",
        "With very negative scores every exp underflows to 0, giving 0/0 = nan. After subtracting the row's maximum, the largest exp is exp(0), which is 1.",
    ),
    "code.mistake.not_normalised": (
        "你忘了除以 exp 的和：每行的和应为 1。",
        "You forgot to divide by the sum of the exps: each row must sum to 1.",
    ),
    "code.mistake.whole_array": (
        "你除以的是整个数组的和：每一行要除以它自己的和（axis=-1, keepdims=True）。",
        "You divided by the sum of the whole array: each row must be divided by its own sum (axis=-1, keepdims=True).",
    ),
    "code.mistake.wrong_axis": (
        "你的结果每一列和为 1，行却不是：softmax 沿最后一个轴（axis=-1）。",
        "Your columns sum to 1 but your rows do not: the softmax runs along the last axis (axis=-1).",
    ),
    "code.mistake.no_keepdims": (
        "没有 keepdims=True 时，x.max(axis=-1) 的形状是 (n,)，它和列对齐而不是和行对齐：方阵不会报错，只会算错。加上 keepdims=True。",
        "Without keepdims=True, x.max(axis=-1) has shape (n,) and lines up with the columns, not the rows: a square matrix raises nothing and just comes out wrong. Add keepdims=True.",
    ),
    "code.mistake.plain_average": (
        "你把值直接平均了：每个值要乘上它的权重 α 再相加。",
        "You averaged the values: each must be weighted by its α before adding.",
    ),
    "code.mistake.weights_transposed": (
        "你用了 Aᵀ：A 的第 i 行是第 i 个查询的权重，输出是 A @ V。",
        "You used Aᵀ: row i of A holds query i's weights, and the output is A @ V.",
    ),
    "code.mistake.summed_keys": (
        "你对键加权求和了：加权的应是值 V（只是在课本例子里值等于键）。",
        "You added up the keys: the weighted sum is over the values V (they equal the keys only in the textbook example).",
    ),
    "code.mistake.hard_max": (
        "你只取了分数最大的那个值（hard max）：softmax 给每个键一个权重。",
        "You took only the value with the largest score (a hard max): the softmax gives every key a weight.",
    ),
    "code.mistake.returned_weights": (
        "你返回的是权重 α（每个键一个）；要的是输出 Σ α_i v_i。",
        "You returned the weights α (one per key); the output Σ α_i v_i is wanted.",
    ),
    "code.mistake.mask_inverted": (
        "True 和 False 反了：True 表示可以看（j ≤ i）。",
        "True and False are swapped: True means the query may look (j ≤ i).",
    ),
    "code.mistake.mask_future": (
        "你的掩码让每个位置看未来（j ≥ i）：要的是下三角，j ≤ i。",
        "Your mask lets each position see the future (j ≥ i): the lower triangle, j ≤ i, is wanted.",
    ),
    "code.mistake.mask_strict": (
        "对角线是 False：每个位置也要能看自己（j ≤ i，不是 j < i）。",
        "The diagonal is False: each position must also see itself (j ≤ i, not j < i).",
    ),
    "code.mistake.padding_off_by_one": (
        "多了一个位置：位置从 0 数，长度为 n 的序列真实位置是 0 … n−1，即 j < n。",
        "One position too many: positions count from 0, so a sequence of length n is real at 0 … n−1, j < n.",
    ),
    "code.mistake.padding_inverted": (
        "True 和 False 反了：True 表示真实的位置（可以看）。",
        "True and False are swapped: True marks the real positions (the ones to look at).",
    ),
    "code.mistake.padding_no_query_axis": (
        "你返回了 (B, T)：加上查询那一维，mask[:, None, :] 得到 (B, 1, T)。",
        "You returned (B, T): add the query axis, mask[:, None, :] gives (B, 1, T).",
    ),
    "code.mistake.mask_after_softmax": (
        "你在 softmax 之后才用掩码：行和不再是 1。要在 softmax 之前把被掩住的分数设为 −∞。",
        "The mask was applied after the softmax: rows no longer sum to 1. Set masked scores to −∞ before the softmax.",
    ),
    "code.mistake.mask_zero": (
        "你把被掩住的分数设成了 0：exp(0) 是 1，它们还有权重。要设成 −∞。",
        "You set masked scores to 0: exp(0) is 1, so they still get weight. Set them to −∞.",
    ),
    "code.mistake.mask_inverted_use": (
        "掩码用反了：True 表示可以看，np.where(mask, S, -np.inf) 保留 True 处的分数。",
        "The mask is used the wrong way round: True means may look, and np.where(mask, S, -np.inf) keeps the scores where it is True.",
    ),
    "code.mistake.divided_by_sqrt_d_v": (
        "你除以的是 √d_v（值的长度 {d_v}）：缩放用键的长度，√d = {sqrt_d}。",
        "You divided by √d_v (the values' width, {d_v}): scaling uses the keys' width, √d = {sqrt_d}.",
    ),
    "code.mistake.t_on_3d": (
        "对三维数组 (B, T, d) 用 .T 会把三个轴全倒过来，变成 (d, T, B)。只交换最后两个轴：K.swapaxes(-1, -2)。",
        "On a 3-D array (B, T, d), .T reverses all three axes into (d, T, B). Swap the last two only: K.swapaxes(-1, -2).",
    ),
    "code.mistake.reshape_only": (
        "你直接 reshape 成了 (B, h, T, d_k)：这会把不同词的数混进同一个头。先 reshape 成 (B, T, h, d_k)，再交换第 1、2 轴。",
        "You reshaped straight to (B, h, T, d_k), which mixes different tokens' numbers into one head. Reshape to (B, T, h, d_k), then swap axes 1 and 2.",
    ),
    "code.mistake.heads_interleaved": (
        "你的每个头拿的是每隔 h 列取一列：头 i 要拿一整块连续的 d_k 列。reshape 成 (B, T, h, d_k)，不是 (B, T, d_k, h)。",
        "Each of your heads took every h-th column: head i must take one block of d_k consecutive columns. Reshape to (B, T, h, d_k), not (B, T, d_k, h).",
    ),
    "code.mistake.merge_reshape_only": (
        "你没有把头那一维移回去就 reshape 了：先 transpose(0, 2, 1, 3) 得到 (B, T, h, d_k)。",
        "You reshaped without moving the head axis back: transpose(0, 2, 1, 3) to (B, T, h, d_k) first.",
    ),
    "code.mistake.divided_by_sqrt_d_model": (
        "你除以的是 √d_model = {sqrt_d_model}；每个头的宽度是 d_k = {d_k}（{h} 个头），应除以 √d_k = {sqrt_d_k}。",
        "You divided by √d_model = {sqrt_d_model}; each head uses d_k = {d_k} ({h} heads), so divide by √d_k = {sqrt_d_k}.",
    ),
    "code.mistake.forgot_w_o": (
        "你漏了最后乘 W_O：拼起来的各头输出还要乘 W_O 才混合在一起。",
        "You left out W_O: the joined heads are multiplied by W_O, which mixes them.",
    ),
    "code.mistake.keys_from_queries": (
        "你的键和值来自 X_q：交叉注意力里它们来自 X_kv。",
        "Your keys and values came from X_q: in cross-attention they come from X_kv.",
    ),
    "code.mistake.pe_halves": (
        "你把所有 sin 放在前一半、cos 放在后一半：要交替，偶数列 sin，奇数列 cos。",
        "You put all the sines first and all the cosines after: they alternate, even columns sin, odd columns cos.",
    ),
    "code.mistake.pe_swapped": (
        "sin 和 cos 放反了：偶数列（0, 2, …）是 sin，奇数列是 cos。",
        "sin and cos are swapped: even columns (0, 2, …) take sin, odd ones cos.",
    ),
    "code.mistake.pe_from_one": (
        "位置要从 0 数：第一行是 sin 0 和 cos 0，也就是 0 和 1。",
        "Positions count from 0: the first row holds sin 0 and cos 0, that is 0 and 1.",
    ),
    "code.mistake.pe_column_index": (
        "每一对 sin/cos 共用一个频率：第 2i+1 列用的也是 10000^(−2i/d_model)，不是 10000^(−(2i+1)/d_model)。",
        "Each sin/cos pair shares one frequency: column 2i+1 uses 10000^(−2i/d_model) too, not 10000^(−(2i+1)/d_model).",
    ),
    "code.mistake.diagonal_only": (
        "你只用了雅可比矩阵的对角线（y·dy）：每个权重还依赖其他分数，要减去 Σ y·dy。",
        "You used only the Jacobian's diagonal (y·dy): each weight also depends on the other scores; subtract Σ y·dy.",
    ),
    "code.mistake.subtracted_sum_dy": (
        "你减去的是 Σ dy；应减去加权的 Σ y·dy。",
        "You subtracted Σ dy; subtract the weighted Σ y·dy.",
    ),
    "code.mistake.sum_wrong_axis": (
        "Σ y·dy 要沿最后一个轴（每行自己求和），不是沿 axis=0。",
        "Σ y·dy runs along the last axis (each row its own sum), not along axis=0.",
    ),
    "code.mistake.dv_not_transposed": (
        "dV 应是 Aᵀ·dO：每个值被所有查询读过，梯度从每个查询传回来。",
        "dV is Aᵀ·dO: every query read each value, so the gradient comes back from every query.",
    ),
    "code.mistake.dk_not_transposed": (
        "dK 应是 dSᵀ·Q（S = Q Kᵀ 对 K 求导要转置）。",
        "dK is dSᵀ·Q (differentiating S = Q Kᵀ with respect to K needs the transpose).",
    ),
    "code.mistake.forgot_scale_backward": (
        "前向时分数除以了 √d，所以它们的梯度也要乘 1/√d。",
        "The scores were divided by √d in the forward pass, so their gradient is too.",
    ),
    "code.mistake.wrong_axis_batch": (
        "你的 softmax 沿着批量那一轴：每个序列的权重要沿它自己的 L 个位置归一。",
        "Your softmax ran along the batch: each sequence's weights are normalised over its own L positions.",
    ),
    # -- the report
    "code.passed": ("全部 {total} 个例子通过 ✓", "All {total} cases pass ✓"),
    "code.passed_note": ("用时 {seconds} 秒", "{seconds} s"),
    "code.case_of": ("第 {n}/{total} 个例子：{name}", "Case {n} of {total}: {name}"),
    "code.ran_before": ("前 {ran} 个例子通过。", "The first {ran} passed."),
    "code.inputs": ("输入", "Inputs"),
    "code.expected": ("应得", "Expected"),
    "code.received": ("你的结果", "Yours"),
    "code.expected_fd": ("应得（有限差分）", "Expected (finite differences)"),
    "code.output_named": ("输出 {name}", "output {name}"),
    "code.differ": (
        "{count}/{size} 项不同（标出的那些）",
        "{count} of {size} entries differ (marked)",
    ),
    "code.shape": (
        "形状不对：应为 {expected}，你的是 {got}",
        "Wrong shape: expected {expected}, yours is {got}",
    ),
    "code.slice": (
        "只显示第一处不同所在的 {where}",
        "showing the slice {where} holding the first difference",
    ),
    "code.diagnosis": ("可能的错误", "Likely mistake"),
    "code.raised": ("你的代码抛出了 {type}：{message}", "Your code raised {type}: {message}"),
    "code.at_line": (
        "{file} 第 {line} 行，在 {function} 里：{source}",
        "{file} line {line}, in {function}: {source}",
    ),
    "code.load_failed": ("{file} 没能加载", "{file} did not load"),
    "code.syntax": (
        "{file} 第 {line} 行有语法错误（第 {column} 列）：{message}",
        "Syntax error in {file} at line {line}, column {column}: {message}",
    ),
    "code.missing": (
        "{file} 里没有叫 {function} 的函数。",
        "{file} has no function named {function}.",
    ),
    "code.defined": ("它定义了：{names}", "It defines: {names}"),
    "code.too_large": (
        "文件太大（超过 {size}）：检查只读得了这么多。",
        "The file is too large (over {size}): the check reads no more.",
    ),
    "code.stopped.time": ("运行超过 {seconds} 秒，已停止：", "Stopped after {seconds} s:"),
    "code.stopped.time_at": (
        "你的代码还在 {file} 第 {line} 行（{function}）运行，是死循环吗？",
        "your code was still running at {file} line {line} (in {function}): an endless loop?",
    ),
    "code.stopped.time_nowhere": (
        "你的代码还在运行（不在你的文件里，可能在 numpy 里算一个很大的数组）。",
        "your code was still running (outside your file, perhaps in numpy on a huge array).",
    ),
    "code.stopped.memory": (
        "超出内存上限（{limit}）：已停止，不会占用交换区。",
        "Past the memory limit ({limit}): stopped, nothing was swapped.",
    ),
    "code.stopped.output": (
        "打印的内容超过 {limit}：已停止。",
        "It printed more than {limit}: stopped.",
    ),
    "code.stopped.crashed": (
        "运行你的代码的进程崩溃了（信号 {signal}）。",
        "The process running your code crashed (signal {signal}).",
    ),
    "code.stopped.exited": (
        "运行你的代码的进程提前结束了（sys.exit 或 os._exit？）。",
        "The process running your code ended early (sys.exit or os._exit?).",
    ),
    "code.stopped.file_size": (
        "你的代码写的文件太大：已停止。",
        "Your code wrote too large a file: stopped.",
    ),
    "code.stopped.protocol": (
        "你的代码的进程送回了读不懂的数据（它写了文件描述符 3 吗？）。",
        "The process running your code sent back unreadable data (did it write to file descriptor 3?).",
    ),
    "code.stopped.unavailable": (
        "没能启动运行你代码的进程（机器太忙？）：请再试一次。",
        "The process to run your code could not be started (a busy machine?): try again.",
    ),
    "code.during": ("当时在跑：{case}", "It was running: {case}"),
    "code.printed": ("你的代码打印了：", "Your code printed:"),
    "code.more_printed": ("……（只显示最后 {lines} 行）", "… (the last {lines} lines only)"),
    "code.not_protected": (
        "注意：这台机器没有 Landlock，你的代码可以写文件。",
        "Note: this machine has no Landlock, so your code could write files.",
    ),
    # -- hints and the solution
    "code.hint": ("提示 {n}/{total}：{text}", "Hint {n} of {total}: {text}"),
    "code.no_hints": ("这一题没有提示。", "This exercise has no hints."),
    "code.hints_done": ("提示已经全部显示。", "Every hint is showing."),
    "code.solution_locked": (
        "先用你自己的代码试一次（保存并检查），答案才会打开。",
        "The solution opens after an attempt of your own: save your try and check it first.",
    ),
    "code.solution_title": ("参考答案（{file}）", "A solution ({file})"),
    "code.explanation": ("为什么", "Why"),
    "code.colon": ("：", ": "),
    # -- faults in a teacher's file
    "code.duplicate_file": (
        "文件名 {file} 已经被练习 {other} 用了",
        "the file name {file} is already used by exercise {other}",
    ),
    "code.bad_function": (
        "function 必须是 Python 的名字，不是 {value}",
        "function must be a Python name, not {value}",
    ),
    "code.bad_file": (
        "file 必须是一个 .py 文件名（字母、数字、_、-），不是 {value}",
        "file must be a .py file name (letters, digits, _ and -), not {value}",
    ),
    "code.unknown_check": (
        "没有叫 {check} 的检查；可用的有：{known}",
        "there is no check named {check}; known: {known}",
    ),
    "code.bad_count": (
        "{key} 必须是 0 到 {most} 的整数，不是 {value}",
        "{key} must be a whole number from 0 to {most}, not {value}",
    ),
    "code.outside": (
        "{key} = {value} 指到了这个文件所在文件夹之外",
        "{key} = {value} points outside this file's folder",
    ),
    "code.source_unreadable": (
        "{key} 文件 {file} 读不了（不存在、不是普通文件，或超过 256 KB）",
        "the {key} file {file} cannot be read (missing, not a regular file, or over 256 KB)",
    ),
    "code.source_syntax": ("语法错误：{detail}", "syntax error: {detail}"),
    "code.source_no_function": (
        "{key} 文件里没有定义函数 {function}",
        "the {key} file defines no function {function}",
    ),
    "code.unknown_case": (
        "检查 {check} 没有叫 {case} 的例子；可用的有：{known}",
        "the check {check} has no case named {case}; known: {known}",
    ),
    "code.too_many_cases": ("自己的例子最多 {most} 个", "at most {most} cases of your own"),
    "code.case_args": (
        "args 要有这些参数：{expected}；写的是：{got}",
        "args must name these arguments: {expected}; found: {got}",
    ),
    "code.case_int": (
        "{name} 必须是 1 到 64 的整数，不是 {value}",
        "{name} must be a whole number from 1 to 64, not {value}",
    ),
    "code.case_array": (
        "{name} 必须是整齐的数组（最多 4 维、4096 个有限的数）",
        "{name} must be a rectangular array (at most 4 axes and 4,096 finite numbers)",
    ),
    "code.case_reference": (
        "参考实现算不了这组参数（形状对不上？）：{error}",
        "the reference cannot run on these arguments (shapes that do not fit?): {error}",
    ),
    "code.duplicate_id": (
        "{id} 已经在 {other} 里用过了：练习的 id 在所有代码练习里都要唯一",
        "{id} is already used in {other}: code exercise ids are unique across all code sets",
    ),
    "code.solution_fails": (
        "参考答案没有通过自己的检查：{reason}，例子 {case}，错误 {mistakes}",
        "the solution fails its own check: {reason}, case {case}, mistakes {mistakes}",
    ),
    "code.starter_passes": (
        "起始代码已经能通过检查：学生什么也不用写",
        "the starter already passes its check: there is nothing left to write",
    ),
    "code.not_a_folder": ("{path} 不是文件夹", "{path} is not a folder"),
    "code.cannot_make": ("建不了 {path}：{error}", "cannot make {path}: {error}"),
    "code.unknown_exercise": (
        "没有 id 为 {id} 的代码练习；有这些：{known}",
        "no code exercise has the id {id}; known: {known}",
    ),
    "code.broken": (
        "{count} 个代码练习文件有错，没有加载：",
        "{count} code exercise {count:file|files} had faults and did not load:",
    ),
    # -- the command line
    "code.cli.status.passed": ("通过", "passed"),
    "code.cli.status.passed_seen": ("通过（看过答案）", "passed (solution seen)"),
    "code.cli.status.tried": ("试过 {count} 次", "tried {count}×"),
    "code.cli.status.new": ("未开始", "not started"),
    "code.cli.col.id": ("id", "id"),
    "code.cli.col.title": ("题目", "exercise"),
    "code.cli.col.file": ("文件", "file"),
    "code.cli.col.status": ("状态", "status"),
    "code.cli.folder": ("工作文件夹：{folder}", "Workspace: {folder}"),
    "code.cli.no_folder": (
        "还没有工作文件夹：attn-tui code init 会建一个。",
        "No workspace yet: attn-tui code init makes one.",
    ),
    "code.cli.init": (
        "已在 {folder} 建了 {made} 个文件；原有的 {kept} 个没动。",
        "Made {made} {made:file|files} in {folder}; the {kept} already there were left as they were.",
    ),
    "code.cli.next": (
        "下一步：打开 {file}，写完后运行 {check}，或者让 {watch} 一直开着。",
        "Next: open {file}, then run {check} — or keep {watch} running.",
    ),
    "code.cli.no_file": (
        "{file} 不存在：先运行 attn-tui code init；如果 init 建在了别的文件夹，用 --dir 指向它"
        "（或用 --file 指定一个文件）。",
        "{file} does not exist: run attn-tui code init first; if init made the files in another "
        "folder, point at it with --dir FOLDER (or at one file with --file FILE).",
    ),
    "code.cli.valid": (
        "{path}：没有问题（{count} 个练习，参考答案都通过，起始代码都不通过）。",
        "{path}: no faults ({count} {count:exercise|exercises}; every solution passes, no starter does).",
    ),
    "code.cli.valid_static": (
        "{path}：文件本身没有问题（{count} 个练习；没有运行代码）。",
        "{path}: the file itself has no faults ({count} {count:exercise|exercises}; no code was run).",
    ),
    "code.cli.hint_more": (
        "还有提示：attn-tui code hint {id} {n}",
        "More: attn-tui code hint {id} {n}",
    ),
    "code.cli.all_passed": (
        "全部 {total} 个代码练习都通过了。",
        "All {total} code exercises pass.",
    ),
    "code.cli.watch_start": (
        "正在看着 {folder}。每次保存都会检查当前的练习。",
        "Watching {folder}. Every save checks the current exercise.",
    ),
    "code.cli.watch_keys": (
        "输入 h 回车看提示，s 看答案，n 跳到下一题，q 退出（或 Ctrl+C）。",
        "Type h Enter for a hint, s for the solution, n to skip to the next one, q to quit (or Ctrl+C).",
    ),
    "code.cli.now": (
        "现在：练习 {n}/{total}，{title}——编辑 {file}",
        "Now: exercise {n} of {total}, {title} — edit {file}",
    ),
    "code.cli.checked": (
        "{time} 检查了 {file}（{seconds} 秒）",
        "{time} checked {file} ({seconds} s)",
    ),
    "code.cli.moving_on": ("通过！接下来是下一题。", "Passed! On to the next one."),
    "code.cli.bye": ("停止监视。", "Stopped watching."),
    "code.cli.no_watch": (
        "watchfiles 不可用：{error}（pip install watchfiles）",
        "watchfiles is not available: {error} (pip install watchfiles)",
    ),
    "code.cli.serve_off": (
        "代码练习在 serve 里默认关闭：老师用 --code 启动时才打开。",
        "Code exercises are off under serve unless the teacher starts it with --code.",
    ),
    # -- the screen
    "code.title": ("亲手实现", "Build it yourself"),
    "code.list": ("练习", "Exercises"),
    "code.task": ("要写什么", "What to write"),
    "code.result": ("检查结果", "Check"),
    "code.file_line": ("文件：{file}", "File: {file}"),
    "code.not_checked": (
        "还没有检查。保存文件（监视开着时）或按 F5 检查。",
        "Not checked yet. Save the file (with watch on) or press F5.",
    ),
    "code.checking": ("正在检查……", "Checking…"),
    "code.watch_on": ("监视：开（保存即检查）", "Watch: on (every save checks)"),
    "code.watch_off": ("监视：关", "Watch: off"),
    "code.watch_unavailable": ("监视不可用：{error}", "Watch is unavailable: {error}"),
    "code.editor_saved": ("已保存 {file}", "Saved {file}"),
    "code.editor_unsaved": (
        "编辑器里有没保存的修改：Ctrl+S 保存，Esc 放弃。",
        "The editor has unsaved changes: Ctrl+S saves, Esc discards.",
    ),
    "code.editor_failed": (
        "打不开编辑器 {editor}：{error}",
        "The editor {editor} could not be started: {error}",
    ),
    "code.key.check": ("检查", "Check"),
    "code.key.hint": ("提示", "Hint"),
    "code.key.solution": ("答案", "Solution"),
    "code.key.edit": ("编辑", "Edit"),
    "code.key.editor": ("$EDITOR", "$EDITOR"),
    "code.key.watch": ("监视", "Watch"),
    "code.key.save": ("保存", "Save"),
    "code.key.close": ("关闭", "Close"),
    "code.key.numpy": ("numpy 代码", "numpy"),
    "code.help.list": (
        "所有代码练习，按顺序；✓ 是已通过的。回车打开一题。",
        "Every code exercise, in order; ✓ marks those passed. Enter opens one.",
    ),
    "code.help.task": (
        "这一题要写什么、写在哪个文件、形状如何、怎样检查。",
        "What to write, in which file, with which shapes, and how it is checked.",
    ),
    "code.help.result": (
        "最近一次检查：第一个出错的例子，它的输入、应得和你的结果（不同的项标出来），以及可能的错误。",
        "The last check: the first case that failed, its inputs, the expected and your result side by side (differing entries marked), and the likely mistake.",
    ),
    "code.numpy_title": ("屏幕背后的 numpy", "The numpy behind the screen"),
    "code.numpy_note": (
        "这段代码算出的就是屏幕上的数（测试保证二者相等）。",
        "This code computes exactly what is on screen (a test keeps the two equal).",
    ),
}
