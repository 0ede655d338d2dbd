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
}
