"""The grader's own words: negation, the markers of roles and steps, and function words.

These are not concepts a rubric names (those live in ``exercises/glossary.toml``); they are the
small grammar the grader reads around the concepts. Each entry is ``(zh forms, en forms)``;
English forms are stemmed like the answer, Chinese forms match character by character.
"""

from __future__ import annotations

# A negator whose scope runs to the end of its clause: "does not come from the decoder",
# "方差不会随 d 变大", "it is false that the query comes from the decoder".
NEG = (
    "不 没 没有 并非 不是 并不 未 别 无需 不用 不必 不会 不能 毫无 绝非 从不 决不 不再 无法 "
    "没法 并没有 并未 非 无 并无 谈不上 算不上 称不上 不可能 从来不 并不是 也不是 都不是 "
    "看不出 看不出来 看不到 说明不了 解释不了 说不清 判断不了 告诉不了 反映不了 证明不了",
    "not|never|neither|nor|no longer|it is false that|false that|it is not true that|"
    "not true that|it is not the case that|not the case that|by no means|in no way|"
    "untrue that|wrong that|rather than|instead of|far from",
)
# A negator whose scope is the next few words: "no bottleneck", "without scaling".
# "too small to hold five letters" is "cannot hold" them.
NEG_SHORT = (
    "",
    "no|without|none|nothing|lack|lacks|lacking|zero chance|too small to|too little to|"
    "too few to|too short to|too weak to|too narrow to|too tiny to|too limited to|too low to",
)
NEG_SHORT_REACH = 4  # units
# A negator that denies what came before it in its clause: "和加权求和无关", "it is wrong".
NEG_POST = (
    "无关 不对 是错的 错了 不成立 不是这样 用不上 用不到 不相干 是不对的 没关系 是错误的 不正确 是假的 "
    "站不住",
    "is wrong|is false|is untrue|is irrelevant|are irrelevant|is not needed|are not needed|"
    "is unnecessary|are unnecessary|plays no role|play no role|has nothing to do with it|"
    "is not true|are not true|is not correct|is incorrect|are incorrect|is a myth|are wrong|"
    "are false|is optional|are optional|is merely optional|is just optional",
)
# A negator that denies its whole clause, before or after: "不需要点积" and "点积不需要",
# "不存在瓶颈" and "瓶颈不存在", "没用 softmax" and "softmax 也没用".
NEG_BOTH = ("不存在 不需要 没必要 不重要 没用 没有用 无用 没有必要 可有可无 非必需 非必要", "")
# Words that look like a negator and are not one.
NOT_NEG = (
    "不同 不断 不仅 不少 不错 不管 不论 不过 不久 非常 无论 不但 不然 无数 不得不 非得 并且 不光 "
    "不止 无非 莫非 非零 非负 不为零 无穷 无限 不仅仅 不只 不只是 差不多 不一样 不相同 免不了 "
    "大不了 了不起 无所谓 分别 区别 差别 特别 类别 级别 识别 辨别 鉴别 个别 告别 别的 未来",
    "not only|not just|no matter|no doubt|not merely|nothing but|non zero|nonzero|"
    "non negative|nonnegative|no less than|no more than|not to mention",
)
# Words that end a negation's scope and start a new clause for roles. ("同时" is not one: after
# a comma the comma has ended the clause already, and inside one it means "at once": "做不到同时
# 看两个位置" denies the looking.)
END = (
    "但 但是 而 而是 所以 因此 因为 然后 却 于是 从而 只是 反而 由于 导致 使得 以致 因而 可是 "
    "不过 其中 之后 接着 最后 再 并且 而且 进而 时 的时候 的话 以后 如果",
    "but|while|whereas|so|because|since|although|though|however|therefore|thus|hence|"
    "which|then|yet|instead|so that|after that|afterwards|finally|next|and then|when|if|"
    "that way|as a result|which means",
)
# A retraction: a clause that names no concept of its own, points back at what was said and
# calls it false ("but that is all wrong", "以上说法都是错的", "just kidding"). It denies what
# it points at: everything before it for the words of ANAPHOR_ALL (and RETRACT), else the
# sentence before it (or, mid-sentence, the clauses before it in its sentence).
ANAPHOR = ("这 这个 这些 那 那个 那些 这样 这种说法 这个说法", "that|this|it|these|those|that's")
ANAPHOR_ALL = (
    "以上 上面 上述 前面 前文 以上说法 上面说的 前面说的 我说的 全部 统统 都 全",
    "all|everything|all of this|all of that|all this|all that|the above|all of the above|"
    "everything above|everything i said|what i said|all of it|it all|the whole thing",
)
FALSE = (
    "错的 错了 是错的 都错 全错 错误的 不对 不成立 胡说 瞎说 瞎编 假的 开玩笑 不正确 不是真的",
    "wrong|false|untrue|incorrect|nonsense|rubbish|a joke|kidding|joking|not true|not correct|"
    "made up|bogus|can't be right|cannot be right|can not be right|isn't right|is not right|"
    "not right|can't be true|cannot be true|isn't true|doesn't hold|does not hold",
)
RETRACT = (
    "开玩笑的 开个玩笑 开玩笑啦 以上纯属胡说 都是瞎说的",
    "just kidding|only kidding|none of this is true|none of it is true|none of that is true|"
    "none of the above is true|none of this is right|none of that is right|ignore all that|"
    "ignore the above|ignore everything above|scratch that",
)
# A hedge keeps a clause from being a retraction ("这个可能不对" is doubt, not a denial).
HEDGE = (
    "可能 也许 或许 不确定 不知道 不太确定 大概",
    "maybe|might|perhaps|probably|not sure|unsure|i think|i guess|possibly",
)
# A clause that is only a negator ("why it decides: no", "能说明原因吗？不能") denies the clause
# before it in its sentence.

# A label that denies, then a colon ("不能说明：决策的原因", "doesn't tell you: the cause"):
# the verb of telling that makes a clause a label rather than a claim of its own.
TELL = (
    "说明 表明 显示 告诉 证明 看出 解释 反映 体现 代表 回答 展示 揭示 看不出",
    "tell|tells|show|shows|say|says|prove|proves|explain|explains|reveal|reveals|indicate|"
    "indicates|mean|means|answer|answers|display|displays",
)

# An echo: a clause that is only a subject and a helping verb ("…can't attend to two places;
# several heads can", "一个头做不到，多个头可以") says the clause before it, undenied, of its subject.
ECHO = (
    "可以 能 行 会 就可以 就能 就行 能做到 可以做到 做得到 办得到 就做得到 能行",
    "can|could|do|does|will|would|can do that|could do that|can do it|can do so|do that|"
    "does that|is able to|are able to|manage|manages",
)

# A question asserts nothing: a sentence that ends in "?" and asks (an interrogative word, or
# an auxiliary that opens it) credits no idea, unless a bare yes or no answers it next
# ("Does the heatmap show the cause? No."). A copied prompt earns nothing.
QUESTION = (
    "为什么 什么 怎么 怎样 如何 哪 哪里 哪些 哪个 吗 呢 是否 能否 是不是 会不会 有没有 能不能 为何",
    "why|what|how|which|where|who|whom|whose|when",
)
AUXILIARY = (
    "",
    "do|does|did|is|are|was|were|can|could|will|would|should|has|have|had|may|might|must|shall",
)
YES = (
    "是 是的 对 对的 能 可以 会 有 当然 没错 嗯",
    "yes|yeah|yep|yup|indeed|sure|right|correct|true",
)

# A reason given as the only or the real one ("the real purpose is only to speed it up",
# "多头主要只是为了并行"): a sentence with one that credits no idea of the rubric puts another
# reason in place of the reference's, and takes back what the answer said before.
ONLY_REASON = (
    "只是为了 主要是为了 主要只是为了 其实只是为了 真正的原因是 真正的目的是 真正的作用是 实际上只是为了 "
    "只不过是为了 纯粹是为了 仅仅是为了 主要目的是 主要作用是",
    "the real purpose|the real reason|the actual reason|the actual purpose|the true reason|"
    "only there to|just there to|there only to|there just to|really just|really only|is only to|is just to|are only to|are just to|only exists to|just exists to|"
    "is only for|is just for|are only for|are just for|mainly just|mostly just|purely to|"
    "solely to|simply to make|only used to|just used to|the main purpose is|"
    "the only purpose|the only reason",
)

# What would happen otherwise: a sentence with one of these says what follows from another
# setting ("with a hard max the others get no gradient", "否则梯度就没了"), so what it denies
# does not take back what the answer said before it.
OTHERWISE = (
    "如果 要是 假如 假设 否则 不然 若 一旦 换成 换作 倘若 要不然 相比之下 反过来",
    "if|otherwise|else|unless|without|suppose|imagine|would|instead of|in contrast|unlike|"
    "whereas|compared with|compared to",
)

# A turn: what comes after it may take back what came before ("不过其实…", "that said, …",
# "所以总的来说…"). A pass with a turn after its first idea is said to be uncertain.
TURN = (
    "不过 其实 实际上 但其实 不过其实 总的来说 总之 归根结底 说到底 然而 但是 可是",
    "that said|in fact|actually|in reality|really|however|but|overall|all in all|in the end|"
    "after all|to be fair|then again|on the other hand",
)
# A self-correction: the answer takes a second run at what it said ("on second thought",
# "wait, actually", "不过再想想", "话说回来"). An idea said before one and spoken of again after
# it without being said again is taken back: the answer has changed its mind about it.
SELF_CORRECT = (
    "再想想 仔细想想 转念一想 又想了想 回头想想 话说回来 记错了 我记错了 更正一下 纠正一下 翻了下笔记 "
    "又翻了下笔记 不对不对 想错了 所以结论是 所以总的来说 所以总结一下 结论很清楚",
    "on second thought|on second thoughts|wait|come to think of it|now that i think about it|"
    "i remember now|thinking about it more|thinking again|on reflection|i was wrong|"
    "i take that back|let me correct|correction|in practice though|having said that",
)
# A late turn: a sentence that opens with one ("不过其实…", "Well, actually…", "In practice, …")
# after the answer has said its ideas, and credits none of them itself, makes a claim of its
# own against them; an idea said only before it whose concepts it speaks of again is taken back
# (a right answer, then "but in practice the scaling makes no difference", is not a right one).
LATE_TURN = (
    "其实 不过其实 但其实 可其实 实际上 事实上 说实话 老实说 严格讲 严格来说 严格地说 严格说来 一般来说 "
    "总的来说 总体来说",
    "actually|in practice|in fact|in reality|that said|having said that|to be honest|honestly|"
    "strictly speaking|then again|in truth|realistically|admittedly|mind you|well actually|"
    "that being said",
)
# A reversal ("反而", "on the contrary"): a plain "but" sentence that says one is a claim against
# what came before even when it names an idea again ("不过缩放以后 softmax 反而更尖锐").
REVERSAL = ("反而 反倒 恰恰相反 正好相反", "on the contrary|quite the opposite|the very opposite")
# A plain "but" opening a sentence often brings the answer's second half ("…; but a high
# weight is no cause"): it is a late turn only in a sentence that credits no idea itself.
PLAIN_TURN = ("不过 但 但是 可是 可 然而 只不过", "but|however|though|still|yet")
# An answer that leans on a comparison ("it's like…", "就像…"): a fail with one is uncertain,
# since the grader reads words, and a comparison carries its idea in other words.
ANALOGY = (
    "像 就像 好像 好比 比如 譬如 如同 类似 相当于 想象 打个比方 比方说",
    "like|as if|as though|imagine|think of|picture|similar to|just as|analogy|akin to|"
    "compare it to|it's as|kind of like|sort of like",
)
# "I don't know": an answer that says only this is no answer the grader could be unsure of.
DONT_KNOW = (
    "不知道 不清楚 不会 不懂 忘了 没学过 不记得 不太懂 不太清楚 不确定 没有想法 没概念 想不出来 不晓得 跳过",
    "i don't know|dont know|don't know|no idea|not sure|no clue|i forgot|forgot|"
    "i have no idea|haven't learned|not learned|skip|pass|dunno|idk|can't remember|"
    "cannot remember|don't remember|no answer|nothing",
)

# Words that mark steps in a sequence (order is checked only when an answer uses them).
STEP = (
    "首先 第一 第二 第三 第一步 第二步 第三步 然后 接着 再 最后 之后 随后 其次 接下来 先 后",
    "first|firstly|then|next|finally|lastly|second|secondly|third|thirdly|after that|"
    "afterwards|step|steps|at last|to begin|to start|last|→",
)
# "X from Y": the thing named first comes from the thing named after.
FROM = (
    "来自 来源于 源于 取自 出自 由 从 来自于 都来自 源自 取于 来源是",
    "from|comes from|come from|coming from|taken from|derived from|computed from|"
    "produced by|provided by|supplied by|given by|generated by|obtained from|made from|"
    "projected from|drawn from|read from|pulled from|originate from|originates from|←",
)
# "Y gives X": the thing named first is the source of the thing named after.
GIVE = (
    "提供 给出 产生 生成 作为 当作 当 充当 用作 输出 出 拿来当 提供了 贡献 带来 拿着 提出",
    "provide|provides|provided|supply|supplies|supplied|give|gives|gave|produce|produces|"
    "generate|generates|serve as|serves as|act as|acts as|as|used as|→|feeds|feed|"
    "contributes|contribute|turns into|brings|bring|brought|asks|ask|asking|holds",
)
# Function words: a fragment with none of them (and no operator) is a bare keyword.
FUNCTION = (
    "的 了 是 把 让 使 会 就 所以 因为 用 再 然后 被 在 都 要 可以 能 对 给 从 而 也 才 成 为 到 来 去 "
    "做 算 求 取 拿 按 将 得 地 着 过 这 那 它 它们 其 每 个 如果 就是 即 并 又 还 更 很 太 越 能够 "
    "需要 通过 得到 变成 变 出 先 后 最后 首先 接着 当 时 之 让 使得 导致 所以 因此 由于 只 只是 "
    "已经 本来 反而 一个 一些 几乎 大约 比 没有 不 没 非 无 会 可能 应该 必须 里 中 上 下 之后 之间",
    "the|a|an|of|to|into|in|on|with|by|for|from|is|are|was|were|be|been|being|it|its|they|them|"
    "their|this|that|these|those|there|we|you|i|he|she|so|because|then|than|or|but|if|when|which|"
    "who|what|where|why|how|each|every|can|could|will|would|should|may|might|must|do|does|"
    "did|has|have|had|get|gets|got|make|makes|made|take|takes|turn|turns|give|gives|become|"
    "becomes|compute|computes|use|uses|used|apply|applies|as|at|up|out|only|just|also|too|very|"
    "over|after|before|through|per|let|lets|keep|keeps|stay|stays|come|comes|put|puts|"
    "bring|brings|go|goes|while|whereas|since|not|never|almost|nearly|about",
)
# Words that never count as unknown (numbers, symbols and these).
COMMON = (
    "和 与 及 或 等 以及 我们 你 他们 模型 这里 那里 一下 一点 东西 地方 问题 时候 情况 方法 方式",
    "and|or|also|like|such|way|thing|things|model|models|here|number|numbers|because|step|steps|"
    "all|some|any|much|many|more|most|less|few|one|two|three|four|five|six|other|same|own|new|"
    "well|good|bad|still|even|again|both|either|here|now|there|thing|result|results|"
    "though|although|thought|thoughts|through|really|rather",
)


def split_forms(entry: tuple[str, str]) -> tuple[list[str], list[str]]:
    """``(zh, en)`` as two lists of forms: Chinese split on spaces, English on ``|``."""
    zh, en = entry
    return [f for f in zh.split() if f], [f.strip() for f in en.split("|") if f.strip()]
