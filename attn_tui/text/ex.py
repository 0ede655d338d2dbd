"""Exercise sets, the quiz's grading and the progress store: feedback the screens show,
faults the file checker reports (``file:line: message``), and the headless commands' words."""

TEXT = {
    # -- small words the core asks for
    "ex.lang": ("zh", "en"),  # lets the core ask t() which language is current
    "ex.list_sep": ("、", ", "),
    "ex.true": ("对", "true"),
    "ex.false": ("错", "false"),
    # -- feedback on an answer (Grade.lines)
    "ex.fb.correct": ("正确！", "Correct!"),
    "ex.fb.partial": ("部分正确（得分 {percent}%）。", "Partly right ({percent}%)."),
    "ex.fb.incorrect": ("不对。", "Not right."),
    "ex.fb.empty": ("还没有作答：请输入答案。", "No answer yet: type one."),
    "ex.fb.unreadable": ("读不懂这个答案：", "That answer could not be read:"),
    "ex.fb.readable.number": (
        "能读懂的写法：0.25、−3、1/4、√3、1/√3、2√3 这样的一个数。",
        "Readable: one number such as 0.25, −3, 1/4, √3, 1/√3 or 2√3.",
    ),
    "ex.fb.readable.vector": (
        "能读懂的写法：用空格或逗号分开的几个数，例如 1 0 −2 或 [0.5, 1.5]。",
        "Readable: numbers separated by spaces or commas, e.g. 1 0 −2 or [0.5, 1.5].",
    ),
    "ex.fb.readable.matrix": (
        "能读懂的写法：每行的数用空格或逗号分开，行与行用 ; 或换行分开，例如 1 0; 0 1。",
        "Readable: numbers separated by spaces or commas, rows by ; or new lines, e.g. 1 0; 0 1.",
    ),
    "ex.not_counted": (
        "这不算一次作答：改一改再按回车。",
        "Not counted as an attempt: fix it and press Enter.",
    ),
    "ex.fb.revealed": ("已显示答案（本题记为看过答案）。", "Answer shown (recorded as revealed)."),
    "ex.one_number": (
        "这里要一个数，你输入了 {count} 个。",
        "one number is wanted here; you typed {count}.",
    ),
    "ex.fb.wrong_length": (
        "你写了 {got} 个数，答案应有 {expected} 个。",
        "You gave {got} numbers; the answer has {expected}.",
    ),
    "ex.fb.wrong_shape": (
        "你的矩阵是 {got}，答案是 {expected}。",
        "Your matrix is {got}; the answer is {expected}.",
    ),
    "ex.fb.entries_off": ("有偏差的位置：{entries}。", "Entries off: {entries}."),
    "ex.fb.entries_right": ("{total} 个数里对了 {right} 个。", "{right} of {total} entries right."),
    "ex.fb.unknown_choice": (
        "“{answer}”不是选项；可选：{known}。",
        "“{answer}” is not one of the choices ({known}).",
    ),
    "ex.fb.not_right": ("不该选：{ids}。", "Should not be chosen: {ids}."),
    "ex.fb.missing_choices": ("还有正确的选项没选上。", "Not every right choice is picked yet."),
    "ex.fb.unknown_truefalse": (
        "请回答对或错（也可写 t/f、是/否、√/×）。",
        "Answer true or false (t/f, yes/no, √/× also work).",
    ),
    "ex.fb.ideas_found": ("答到的要点：{ideas}", "Key ideas found: {ideas}"),
    # one line per rubric idea (Grade.ideas); {words} are the learner's own words, quoted
    "ex.fb.idea.found": ("✓ {idea}（你写的：{words}）", "✓ {idea} (you wrote {words})"),
    "ex.fb.idea.missing": ("· 没有找到：{idea}", "· Not found: {idea}"),
    "ex.fb.idea.negated": (
        "✗ {idea}：你写的是它的反面（{words}）",
        "✗ {idea}: you wrote the opposite ({words})",
    ),
    "ex.fb.idea.swapped": (
        "✗ {idea}：角色弄反了，你写的是 {against}（{words}）",
        "✗ {idea}: roles swapped — you wrote {against} ({words})",
    ),
    "ex.fb.idea.out_of_order": (
        "✗ {idea}：写到了，但步骤顺序不对（{words}）",
        "✗ {idea}: there, but out of order ({words})",
    ),
    "ex.fb.idea.contradicted": (
        "✗ {idea}：被你另一句话推翻了：{against}",
        "✗ {idea}: cancelled by another claim you made: {against}",
    ),
    "ex.fb.idea.self_marked": (
        "☑ {idea}（你标记为「我写了」，自评，不计入自动得分）",
        "☑ {idea} (you marked “I said this”: self-assessed, kept apart from the grade)",
    ),
    "ex.fb.keyword_list": (
        "这像是一串关键词，不是句子：最多只给部分分。请用句子说明它们之间的关系。",
        "This reads as a list of keywords, not sentences: it earns partial credit at most. Say how they connect.",
    ),
    "ex.fb.cut": (
        "答案太长，只读了前 {chars} 个字符。",
        "The answer is long: only its first {chars} characters were read.",
    ),
    "ex.fb.uncertain": (
        "评分器对这个答案没有把握：如果你确实写到了某个「没有找到」的要点，可以自己标记。",
        "The grader is not sure about this answer: if you did say an idea it did not find, you can mark it yourself.",
    ),
    "ex.fb.uncertain_pass": (
        "评分器对这个评分没有十足把握：请对照参考答案，看看你的说法有没有和它矛盾的地方。",
        "The grader is not fully sure of this grade: compare your answer with the reference, "
        "and check that nothing in it contradicts it.",
    ),
    "ex.fb.ideas_missing": ("缺少的要点：{ideas}", "Key ideas missing: {ideas}"),
    "ex.fb.reference": ("参考答案：{answer}", "Reference answer: {answer}"),
    "ex.fb.answer_was": ("答案：{answer}", "The answer: {answer}"),
    # -- the exercise screen's words
    "ex.title": ("练习", "Exercises"),
    "ex.sets": ("练习集", "Exercise sets"),
    "ex.progress_count": ("做对 {solved}/{total}", "{solved}/{total} solved"),
    "ex.progress_seen": ("看过答案 {seen}", "{seen} answer seen"),
    "ex.last_visited": ("上次：{when}", "last visited {when}"),
    "ex.never_visited": ("尚未开始", "not started"),
    "ex.exercise_of": ("第 {n} 题，共 {total} 题", "Exercise {n} of {total}"),
    "ex.answer_placeholder": ("在此输入答案", "type your answer here"),
    "ex.submit": ("提交", "Submit"),
    "ex.hint": ("提示", "Hint"),
    "ex.hint_n": ("提示 {n}/{total}：{text}", "Hint {n}/{total}: {text}"),
    "ex.no_hints": ("本题没有提示。", "This exercise has no hints."),
    "ex.no_more_hints": ("提示已经全部显示。", "All hints are shown."),
    "ex.reveal": ("显示答案", "Show answer"),
    "ex.explanation": ("讲解", "Explanation"),
    "ex.try_again": ("再试一次，或看下一条提示。", "Try again, or take the next hint."),
    "ex.next": ("下一题", "Next"),
    "ex.previous": ("上一题", "Previous"),
    "ex.skip": ("跳过", "Skip"),
    "ex.another_one": ("再来一题", "Another one"),
    "ex.seed": ("随机种子 {seed}", "seed {seed}"),
    "ex.try_in_calculator": ("在计算器里试试", "Try it in the calculator"),
    "ex.set_done": ("这一组全部做对了！", "Every exercise in this set is solved!"),
    "ex.set_end": (
        "到了最后一题：做对 {solved}/{total}。下面列出了每道题；按 w 重做没做对的。",
        "That was the last one: {solved}/{total} solved. Every exercise is listed below; "
        "press w to redo the ones not solved.",
    ),
    "ex.items_title": ("{title} · 全部题目", "{title} · every exercise"),
    "ex.items_intro": (
        "✓ 做对  ○ 看过答案  ✗ 试过但没对  · 还没做。回车跳到那道题。",
        "✓ solved  ○ answer seen  ✗ tried, not right  · not tried. Enter jumps there.",
    ),
    "ex.item_tries": ("（{count} 次）", "({count} {count:try|tries})"),
    "ex.redo_mode": ("重做没做对的", "redoing what is not solved"),
    "ex.redo_none": (
        "这一组没有要重做的：全部做对了。",
        "Nothing to redo: every exercise is solved.",
    ),
    "ex.redo_start": (
        "重做：只走一遍还没做对的 {count} 道题。",
        "Redo: going through the {count} {count:exercise|exercises} not solved yet.",
    ),
    "ex.redo_done": ("重做完了：这一组没有没做对的题了。", "Redo finished: nothing left unsolved."),
    "ex.confirm.reset_one": (
        "清除第 {n} 题的全部作答记录？（{count} 次作答会被删除，其他题不受影响。）",
        "Forget every attempt on exercise {n}? ({count} {count:attempt|attempts} will be deleted; "
        "the other exercises keep theirs.)",
    ),
    "ex.confirm.reset_set": (
        "清除“{title}”这一组的全部作答记录，从头开始？其他组和自测成绩不受影响。",
        "Forget every attempt in “{title}” and start it afresh? Other sets and quiz scores "
        "are kept.",
    ),
    "ex.confirm.reset": ("清除", "Forget them"),
    "ex.confirm.keep": ("保留", "Keep"),
    "ex.reset_done": ("已清除 {count} 次作答。", "{count} {count:attempt|attempts} forgotten."),
    "ex.same_answer": (
        "和上次交的一样，不再算一次作答；改一改再交。",
        "That is the answer you just sent; it is not counted again. Change it and press Enter.",
    ),
    "ex.calc_is_reveal": (
        "计算器会算出答案，所以打开它就算看过答案。再按一次 F7 打开。",
        "The calculator works the answer out, so opening it counts as seeing the answer. "
        "Press F7 again to open it.",
    ),
    "ex.calc_back": (
        "已把本题的数填进计算器。按 Esc 回到这道题。",
        "The calculator holds this exercise's numbers. Esc takes you back to the exercise.",
    ),
    "ex.broken_file": ("无法载入：{path}", "Could not load: {path}"),
    "ex.moved_aside": (
        "进度文件已损坏，已移到 {path}，并新建了一个。",
        "The progress file was damaged; it was moved to {path} and a new one started.",
    ),
    # -- the exercise screen: keys, states, placeholders, help
    "ex.key.hint": ("提示", "Hint"),
    "ex.key.reveal": ("看答案", "Answer"),
    "ex.key.another": ("换数", "New"),
    "ex.key.calc": ("计算器", "Calc"),
    "ex.key.next": ("下一题", "Next"),
    "ex.key.skip": ("跳过", "Skip"),
    "ex.key.previous": ("上一题", "Previous"),
    "ex.key.sets": ("练习集", "Sets"),
    "ex.key.list": ("题目", "List"),
    "ex.key.jump": ("跳到", "Go"),
    "ex.key.redo": ("重做错题", "Redo wrong"),
    "ex.key.reset_one": ("清除本题", "Reset one"),
    "ex.key.reset_set": ("清除全组", "Reset set"),
    "ex.answer": ("答案", "Answer"),
    "ex.choose_set": (
        "选一组练习，按回车开始；会从第一道还没完成的题接着做。",
        "Choose a set and press Enter; it opens at the first exercise not yet done.",
    ),
    "ex.no_sets": ("没有找到练习集。", "No exercise sets were found."),
    "ex.broken_fix": (
        "这个文件没能载入。改好后用 attn-tui exercises validate {path} 检查。",
        "This file did not load. Fix it, then check it with: attn-tui exercises validate {path}",
    ),
    "ex.broken_count": ("（{count} 个问题）", "({count} {count:problem|problems})"),
    "ex.status.solved": ("✓ 已做对", "✓ solved"),
    "ex.status.revealed": ("看过答案", "answer seen"),
    "ex.status.tried": ("已试 {count} 次", "attempts: {count}"),
    "ex.next_prompt": ("按回车或 PgDn 进入下一题。", "Press Enter or PgDn for the next exercise."),
    "ex.calc_filled": (
        "已把本题的数填进计算器。",
        "The calculator now holds this exercise's numbers.",
    ),
    "ex.store_unusable": (
        "进度没有保存：{error}。练习照常可做。",
        "Progress is not being saved: {error}. The exercises still work.",
    ),
    "ex.ph.number": ("一个数，如 0.2303 或 3/4", "one number, e.g. 0.2303 or 3/4"),
    "ex.ph.vector": (
        "用空格或逗号分开，如 0.5 0.5",
        "numbers split by spaces or commas, e.g. 0.5 0.5",
    ),
    "ex.ph.matrix": ("行之间用 ; 分开，如 1 0; 1 1", "rows split by ;  e.g. 1 0; 1 1"),
    "ex.ph.choice": ("选项字母，如 b", "the letter of your choice, e.g. b"),
    "ex.ph.multi": ("所有正确的字母，如 a c", "every right letter, e.g. a c"),
    "ex.ph.truefalse": ("对 / 错（或 t / f）", "true / false (or t / f)"),
    "ex.ph.text": ("用一两句话回答", "a sentence or two"),
    "ex.help.list": (
        "每组练习一行：做对了几道、看过答案的有几道、上次什么时候做的。"
        "无法载入的教师文件也列在这里，附上“文件:行: 问题”，其他练习集照常可用。",
        "One line per set: how many exercises are solved, how many answers were seen, and when "
        "you were last there. A teacher's file that could not load is listed too, with its "
        "file:line: problems; every other set still works.",
    ),
    "ex.help.items": (
        "F8 列出这一组的每道题和它的状态。回车跳到那道题；w 只重做还没做对的（答错的和看过答案的）；"
        "r 清除选中那道题的作答记录，x 清除整组（都会先问一次）。",
        "F8 lists every exercise of the set with its state. Enter jumps to one; w redoes only "
        "the ones not solved (wrong, or answer seen); r forgets the attempts on the highlighted "
        "exercise, x on the whole set (both ask first).",
    ),
    "ex.help.exercise": (
        "一次一道题。输入答案按回车提交，马上评分；答错了可以改了再交，或按 F3 看下一条提示，"
        "F4 直接看答案（会记为看过答案）。做对或看过答案后会显示讲解。每次提交都立即保存。",
        "One exercise at a time. Type an answer and press Enter: it is graded at once. After a "
        "wrong answer, edit and press Enter again, take the next hint (F3), or see the answer "
        "(F4; recorded as seen). The explanation follows a right answer or a reveal. Every "
        "attempt is saved as it happens.",
    ),
    "ex.help.keys": (
        "PgDn 下一题（没做完时是跳过），PgUp 上一题，F5 随机题换一组数，"
        "F7 把本题的数填进计算器（算作看过答案；Esc 回来），F8 本组题目列表，F6 回到练习集列表。",
        "PgDn next (skip when not done), PgUp previous, F5 new numbers for a generated "
        "exercise, F7 opens the calculator with this exercise's numbers (that counts as seeing "
        "the answer; Esc comes back), F8 lists the set's exercises, F6 back to the sets.",
    ),
    # -- faults in exercise files (content.py): {key} names the TOML key as written
    "ex.in_exercise": ("练习 {id}：{message}", "exercise {id}: {message}"),
    "ex.toml_syntax": ("TOML 语法错误：{detail}", "TOML syntax error: {detail}"),
    "ex.unreadable": ("读不了这个文件：{error}", "cannot read the file: {error}"),
    "ex.not_utf8": ("文件不是 UTF-8 编码。", "the file is not UTF-8 text."),
    "ex.missing_set": ("缺少 [set] 表。", "there is no [set] table."),
    "ex.missing_key": ("缺少“{key}”。", "“{key}” is missing."),
    "ex.unknown_key": (
        "不认识的键“{key}”（可用：{known}）。",
        "unknown key “{key}” (known: {known}).",
    ),
    "ex.want_bilingual": (
        '“{key}”应写成 {{ zh = "…", en = "…" }}。',
        '“{key}” should be {{ zh = "…", en = "…" }}.',
    ),
    "ex.unknown_lang": (
        "“{key}”里的语言“{language}”不认识：只用 zh 和 en。",
        "“{key}” has language “{language}”: only zh and en are used.",
    ),
    "ex.missing_lang": ("“{key}”缺少 {language}。", "“{key}” has no {language} text."),
    "ex.empty_text": ("“{key}”的 {language} 是空的。", "“{key}”: the {language} text is empty."),
    "ex.want_text": ("“{key}”应是文字（加引号）。", "“{key}” should be text (in quotes)."),
    "ex.want_text_list": (
        "“{key}”应是非空文字的列表。",
        "“{key}” should be a list of non-empty texts.",
    ),
    "ex.want_list": ("“{key}”应是列表。", "“{key}” should be a list."),
    "ex.want_table": ("“{key}”应是一个表 {{ … }}。", "“{key}” should be a table {{ … }}."),
    "ex.want_number": ("“{key}”应是数字。", "“{key}” should be a number."),
    "ex.want_int": ("“{key}”应是整数。", "“{key}” should be a whole number."),
    "ex.whole_kind": (
        "“whole” 只用于 vector 和 matrix 题（这一题是 {kind}）。",
        "“whole” is for vector and matrix exercises only (this one is {kind}).",
    ),
    "ex.want_bool": ("“{key}”应是 true 或 false。", "“{key}” should be true or false."),
    "ex.want_vector": (
        "vector 题的答案应是数字列表，如 [0.5, 0.5]。",
        "a vector answer should be a list of numbers, e.g. [0.5, 0.5].",
    ),
    "ex.want_matrix": (
        "matrix 题的答案应是等长的数字列表的列表，如 [[1, 0], [1, 1]]。",
        "a matrix answer should be equal-length lists of numbers, e.g. [[1, 0], [1, 1]].",
    ),
    "ex.want_multi": (
        'multi 题的答案应是选项 id 的列表，如 ["a", "c"]。',
        'a multi answer should be a list of choice ids, e.g. ["a", "c"].',
    ),
    "ex.want_exercises": (
        "练习要写成 [[exercise]] 表。",
        "exercises should be [[exercise]] tables.",
    ),
    "ex.want_choices": (
        "选项要写成 [[exercise.choices]] 表。",
        "choices should be [[exercise.choices]] tables.",
    ),
    "ex.want_rubric": (
        "评分要点要写成 [[exercise.rubric]] 表。",
        "rubric ideas should be [[exercise.rubric]] tables.",
    ),
    "ex.no_topics": ("“topics”不能为空。", "“topics” must not be empty."),
    "ex.unknown_topic": (
        "不认识的主题“{topic}”（可用：{known}）。",
        "unknown topic “{topic}” (known: {known}).",
    ),
    "ex.bad_id": (
        "“{key}”的值“{value}”不可用：只用字母、数字、- 和 _。",
        "“{key}” = “{value}” is not usable: use letters, digits, - and _.",
    ),
    "ex.no_exercises": (
        "这个文件里没有练习（[[exercise]]）。",
        "the file has no exercises ([[exercise]]).",
    ),
    "ex.duplicate_exercise": (
        "练习 id“{id}”重复（第一次在第 {first} 行）。",
        "exercise id “{id}” is used twice (first on line {first}).",
    ),
    "ex.duplicate_set": (
        "练习集 id“{id}”已被 {other} 使用。",
        "set id “{id}” is already used by {other}.",
    ),
    "ex.unknown_kind": (
        "不认识的题型“{kind}”（可用：{known}）。",
        "unknown kind “{kind}” (known: {known}).",
    ),
    "ex.missing_answer": (
        "缺少“answer”（或用“generate”生成）。",
        "“answer” is missing (or use “generate”).",
    ),
    "ex.answer_and_generate": (
        "“answer”和“generate”只能写一个：生成的题目答案由程序计算。",
        "write “answer” or “generate”, not both: a generated answer is computed.",
    ),
    "ex.check_and_generate": (
        "生成的题目不需要“check”。",
        "a generated exercise needs no “check”.",
    ),
    "ex.check_kind": (
        "“check”只用于数值题，不能用于 {kind}。",
        "“check” is for numeric kinds, not {kind}.",
    ),
    "ex.hint_counts": (
        "提示数量不一致：zh 有 {zh} 条，en 有 {en} 条。",
        "hint counts differ: zh has {zh}, en has {en}.",
    ),
    "ex.tolerance_kind": (
        "“tolerance”只用于数值题，不能用于 {kind}。",
        "“tolerance” is for numeric kinds, not {kind}.",
    ),
    "ex.negative_tolerance": (
        "容差 {key} = {value} 是负数。",
        "tolerance {key} = {value} is negative.",
    ),
    "ex.choices_kind": ("{kind} 题不用选项。", "a {kind} exercise has no choices."),
    "ex.too_few_choices": ("至少要两个选项。", "at least two choices are needed."),
    "ex.duplicate_choice": ("选项 id“{id}”重复。", "choice id “{id}” is repeated."),
    "ex.why_on_right": (
        "选项“{id}”是正确答案，却写了 why（why 说明一个错误选项错在哪里）。",
        "choice “{id}” is a right answer but has a why (a why says what is wrong with a wrong option).",
    ),
    "ex.answer_not_choice": (
        "答案“{answer}”不在选项里（选项：{known}）。",
        "the answer “{answer}” is not among the choices ({known}).",
    ),
    "ex.rubric_kind": (
        "“{key}”只用于 text 题，不能用于 {kind}。",
        "“{key}” is for text exercises, not {kind}.",
    ),
    "ex.bad_pass": (
        "及格线 pass = {value} 不可用：应在 0 和 1 之间。",
        "pass = {value} is not usable: use a number above 0, at most 1.",
    ),
    "ex.bad_weight": (
        "权重 weight = {value} 不可用：应为正数。",
        "weight = {value} is not usable: use a positive number.",
    ),
    "ex.empty_phrase": ("“{key}”里有空短语。", "“{key}” has an empty phrase."),
    "ex.duplicate_idea": ("要点 id“{id}”重复。", "idea id “{id}” is repeated."),
    "ex.unknown_term": (
        "“{key}”里的“{term}”不是术语表（exercises/glossary.toml）里的术语。",
        "“{term}” in “{key}” is not a term of the glossary (exercises/glossary.toml).",
    ),
    "ex.bad_match": (
        "“{key}”里的“{value}”写法不对：应是术语 id（如 VARIANCE）、带 ! 的否定（!BOTTLENECK）或引号里的短语（'back to 1'），用空格分开。",
        "“{value}” in “{key}” is not of the form: glossary ids (VARIANCE), denied ones (!BOTTLENECK) or quoted phrases ('back to 1'), split by spaces.",
    ),
    "ex.unknown_idea": (
        "没有 id 为“{id}”的要点（已有：{known}）。",
        "no idea has the id “{id}” (known: {known}).",
    ),
    "ex.bad_expect": (
        'example 的 expect 应是 "pass"、"fail" 或 0 到 1 之间的分数，而不是 {value}。',
        'an example\'s expect must be "pass", "fail" or a score from 0 to 1, not {value}.',
    ),
    "ex.bad_example_kind": (
        "example 的 kind 应是以下之一：{known}，而不是 {value}。",
        "an example's kind must be one of {known}, not {value}.",
    ),
    "ex.example_kind_side": (
        "kind = {value} 的 example 不能 expect = {expect}：{value} 是另一边的答案。",
        "an example of kind {value} cannot expect {expect}: {value} is an answer of the other side.",
    ),
    "ex.want_tables": (
        "“{key}”应写成 [[exercise.{key}]] 表。",
        "“{key}” must be [[exercise.{key}]] tables.",
    ),
    "ex.example_disagrees": (
        "评分器和这个例子的预期不一致：预期 {expected}，评分器给 {got}（{score}%）：{answer}",
        "the grader disagrees with this example: expected {expected}, graded {got} ({score}%): {answer}",
    ),
    "ex.example.pass": ("通过", "pass"),
    "ex.self.intro": (
        "自查：勾选你其实写到了的要点（空格勾选），再按「记下」。这会记为自评，和自动评分分开保存，不改变得分。",
        "Self-check: tick each idea you did say (space), then press Record. It is kept as self-assessed, apart from the grade, which does not change.",
    ),
    "ex.self.record": ("记下自评", "Record"),
    "ex.self.recorded": (
        "已记为自评：{ideas}（自动评分仍是 {percent}%）。",
        "Recorded as self-assessed: {ideas} (the grade stays {percent}%).",
    ),
    "ex.cmd.answer_too_long": (
        "答案太长（超过 {limit} 个字符）；简答题的答案写几句话就够了。",
        "the answer is too long (over {limit} characters); a written answer needs a few sentences.",
    ),
    "ex.cmd.no_item": (
        "找不到题目“{item}”：请写“练习集/题号”，或测验题的题号。",
        "no item “{item}”: write SET/ID, or a quiz question id.",
    ),
    "ex.cmd.seed_not_generated": (
        "“{item}”不是生成的题目，--seed 对它没有作用。",
        "“{item}” is not a generated item: --seed does nothing for it.",
    ),
    "ex.cmd.try_drawn": ("（第 {seed} 次抽取）{prompt}", "(draw {seed}) {prompt}"),
    "ex.cmd.try_head_kind": ("{set}/{id}：{headline}", "{set}/{id}: {headline}"),
    "ex.cmd.try_head": (
        "{set}/{id}：得分 {score} / 1（{percent}%），及格线 {pass_mark}：{passed}",
        "{set}/{id}: score {score} / 1 ({percent}%), pass mark {pass_mark}: {passed}",
    ),
    "ex.example.fail": ("不通过", "fail"),
    "ex.calculator_needs": (
        "“calculator”至少要有 “query” 和 “keys” 两项。",
        "“calculator” needs at least query and keys.",
    ),
    "ex.kind_mismatch": (
        "{fn} 给出的是 {expected}，但题型是 {kind}。",
        "{fn} gives a {expected}, but the kind is {kind}.",
    ),
    "ex.check_shape": (
        "{fn} 算出的形状是 {computed}，存的答案是 {stored}。",
        "{fn} computes shape {computed}, the stored answer has {stored}.",
    ),
    "ex.check_mismatch": (
        "存的答案 {stored} 与核心重新算出的 {computed}（{fn}）不符。",
        "the stored answer {stored} differs from what the core computes, {computed} ({fn}).",
    ),
    # checked claims {= …} in exercise texts (attn_tui/core/exercises/claims.py)
    "ex.claim.does_not_hold": (
        "核对式不成立：{{= {claim}}}：两边算出来分别是 {left} 和 {right}。",
        "a checked claim does not hold: {{= {claim}}}: the two sides come to {left} and {right}.",
    ),
    "ex.claim.shown_value": (
        "核对式不成立：{{= {claim}}} 写的是 {shown}，算出来是 {value}。",
        "a checked claim does not hold: {{= {claim}}} shows {shown}, but the value is {value}.",
    ),
    "ex.claim.count": (
        "核对式不成立：{{= {claim}}} 写了 {shown} 个数，算出来有 {computed} 个（{value}）。",
        "a checked claim does not hold: {{= {claim}}} shows {shown} {shown:number|numbers} for {computed} computed ({value}).",
    ),
    "ex.claim.shapes_differ": (
        "核对式不成立：{{= {claim}}} 两边形状不同（{left} 与 {right}）。",
        "a checked claim does not hold: {{= {claim}}} compares values of different shapes ({left} and {right}).",
    ),
    "ex.claim.unclosed": (
        "核对式 “{claim}…” 没有用 }} 收尾。",
        "the checked claim “{claim}…” has no closing }}.",
    ),
    "ex.claim.too_long": (
        "核对式 {{= {claim}}} 太长：最多 {limit} 个字符。",
        "the checked claim {{= {claim}}} is too long: at most {limit} characters.",
    ),
    "ex.claim.superscript": (
        "核对式 {{= {claim}}} 里的上标 “{found}” 不是一个整数次幂。",
        "in the checked claim {{= {claim}}}, the superscript “{found}” is not a whole power.",
    ),
    "ex.loading_sets": (
        "正在载入练习集：已读 {done} / {total} 个文件，正在读 {name}……可以先按 Esc 去别处。",
        "Loading the exercise sets: {done} of {total} files read, now {name}… Esc goes elsewhere meanwhile.",
    ),
    "ex.too_many_claims": (
        "一个文件里最多核对 {limit} 个核对式：从这里起的不再核对，这个文件没有载入。请把这些题分到几个文件里。",
        "one file may hold at most {limit} checked claims: from here on none is checked and the file is not loaded. Split its exercises over several files.",
    ),
    "ex.claim.power_too_long": (
        "核对式 {{= {claim}}} 里的上标幂 “{found}” 太长：最多 {limit} 位数字。",
        "in the checked claim {{= {claim}}}, the superscript power “{found}” is too long: at most {limit} digits.",
    ),
    "ex.claim.cannot_read": (
        "核对式 {{= {claim}}} 里的 “{found}” 读不懂：只能写数、+ − × · / ÷、² ⁻⁴ ^、√、%、括号、函数名和 = ≈ < > ≤ ≥。",
        "the checked claim {{= {claim}}} contains “{found}”, which it cannot read: use numbers, + − × · / ÷, ² ⁻⁴ ^, √, %, brackets, function names and = ≈ < > ≤ ≥.",
    ),
    "ex.claim.expected": (
        "核对式 {{= {claim}}} 这里应有 “{want}”，却是 “{found}”。",
        "the checked claim {{= {claim}}} wants “{want}” where it has “{found}”.",
    ),
    "ex.claim.unexpected": (
        "核对式 {{= {claim}}} 里多出了 “{found}”。",
        "the checked claim {{= {claim}}} has an unexpected “{found}”.",
    ),
    "ex.claim.too_deep": (
        "核对式 {{= {claim}}} 括号套得太深（最多 {limit} 层）。",
        "the checked claim {{= {claim}}} nests brackets too deeply (at most {limit}).",
    ),
    "ex.claim.too_many": (
        "核对式 {{= {claim}}} 里的数太多（最多 {limit} 个）。",
        "the checked claim {{= {claim}}} holds too many numbers (at most {limit}).",
    ),
    "ex.claim.bad_index": (
        "核对式 {{= {claim}}} 的 [ ] 里应是从 1 数起的整数。",
        "in the checked claim {{= {claim}}}, [ ] takes a whole number counted from 1.",
    ),
    "ex.claim.unknown_name": (
        "核对式 {{= {claim}}} 里的 “{found}” 不认识（可用：{known}）。",
        "the checked claim {{= {claim}}} names “{found}”, which it does not know (known: {known}).",
    ),
    "ex.claim.no_relation": (
        "核对式 {{= {claim}}} 缺少 =、≈、<、>、≤ 或 ≥；只想显示一个数时写 {{= 数 | 算式}}。",
        "the checked claim {{= {claim}}} has no =, ≈, <, >, ≤ or ≥; to show only a figure, write {{= figure | expression}}.",
    ),
    "ex.claim.not_expression": (
        "核对式 | 后面应是一个算式，不能再带 = 或 ≈：{{= {claim}}}。",
        "after | a checked claim wants an expression, without = or ≈: {{= {claim}}}.",
    ),
    "ex.claim.want_vector": (
        "核对式 {{= {claim}}} 里 {name} 应是一个向量。",
        "in the checked claim {{= {claim}}}, {name} must be a vector.",
    ),
    "ex.claim.want_matrix": (
        "核对式 {{= {claim}}} 里 {name} 应是一个矩阵（元组的元组）。",
        "in the checked claim {{= {claim}}}, {name} must be a matrix (a tuple of tuples).",
    ),
    "ex.claim.rnn_sizes": (
        "核对式 {{= {claim}}} 里 rnn_params 的三个尺寸应是 1 到 10000 的整数。",
        "in the checked claim {{= {claim}}}, rnn_params wants three whole sizes from 1 to 10000.",
    ),
    "ex.claim.shapes": (
        "核对式 {{= {claim}}} 里有形状对不上的向量或矩阵。",
        "the checked claim {{= {claim}}} combines vectors or matrices whose shapes do not fit.",
    ),
    "ex.claim.negative_root": (
        "核对式 {{= {claim}}} 对负数开了平方根。",
        "the checked claim {{= {claim}}} takes the square root of a negative number.",
    ),
    "ex.claim.power": (
        "核对式 {{= {claim}}} 的指数应是一个不超过 {limit} 的数。",
        "in the checked claim {{= {claim}}}, a power must be one number no larger than {limit}.",
    ),
    "ex.claim.no_entry": (
        "核对式 {{= {claim}}} 取不到第 {index} 项。",
        "the checked claim {{= {claim}}} asks for entry {index}, which does not exist.",
    ),
    "ex.claim.division_by_zero": (
        "核对式 {{= {claim}}} 除以了 0。",
        "the checked claim {{= {claim}}} divides by 0.",
    ),
    "ex.claim.not_finite": (
        "核对式 {{= {claim}}} 算出的不是有限数（太大或无定义）。",
        "the checked claim {{= {claim}}} does not compute to a finite number (too large or undefined).",
    ),
    "ex.claim.trainer_args": (
        "核对式 {{= {claim}}} 里 trainer 的参数应写成带单引号的名字，如 trainer('L10-qk', 'seq_acc')。",
        "in the checked claim {{= {claim}}}, trainer takes quoted names, e.g. trainer('L10-qk', 'seq_acc').",
    ),
    "ex.claim.trainer_row": (
        "核对式 {{= {claim}}} 里的实验 “{row}” 不在训练器的结果表里（有：{known}）。",
        "the checked claim {{= {claim}}} names the experiment “{row}”, which the trainer's table does not hold (it has: {known}).",
    ),
    "ex.claim.trainer_metric": (
        "核对式 {{= {claim}}} 里实验 {row} 没有 “{metric}” 这一项（有：{known}；统计量可选 mean、sd、min、max、n）。",
        "in the checked claim {{= {claim}}}, experiment {row} has no “{metric}” (it has: {known}; the statistic is mean, sd, min, max or n).",
    ),
    "ex.claim.transformer_args": (
        "核对式 {{= {claim}}} 里 transformer 的参数应写成带单引号的名字，如 transformer('sort', 'pos_acc')。",
        "in the checked claim {{= {claim}}}, transformer takes quoted names, e.g. transformer('sort', 'pos_acc').",
    ),
    "ex.claim.transformer_row": (
        "核对式 {{= {claim}}} 里的实验 “{row}” 不在 Transformer 的结果表里（有：{known}）。",
        "the checked claim {{= {claim}}} names the experiment “{row}”, which the Transformer's table does not hold (it has: {known}).",
    ),
    "ex.claim.transformer_metric": (
        "核对式 {{= {claim}}} 里 Transformer 的实验 {row} 没有 “{metric}” 这一项（有：{known}；统计量可选 mean、sd、min、max、n）。",
        "in the checked claim {{= {claim}}}, the Transformer's experiment {row} has no “{metric}” (it has: {known}; the statistic is mean, sd, min, max or n).",
    ),
    "ex.claim.blind_args": (
        "核对式 {{= {claim}}} 里 blind_ceiling 要一个任务（'reverse' 或 'sort'）和 2 到 20 之间的长度，如 blind_ceiling('reverse', 10)。",
        "in the checked claim {{= {claim}}}, blind_ceiling takes a task ('reverse' or 'sort') and a length from 2 to 20, e.g. blind_ceiling('reverse', 10).",
    ),
    "ex.claim.aligned_args": (
        "核对式 {{= {claim}}} 里 aligned 要一个方阵和一个度量名（'weight'、'peaks'、'left'、'right' 或 'row_max'），如 aligned(book_attention(), 'peaks')。",
        "in the checked claim {{= {claim}}}, aligned takes a square matrix and a measure ('weight', 'peaks', 'left', 'right' or 'row_max'), e.g. aligned(book_attention(), 'peaks').",
    ),
    "ex.claim.book_figure": (
        "核对式 {{= {claim}}} 要的课本数字 “{figure}” 课本里没有。",
        "the checked claim {{= {claim}}} asks for the book's figure “{figure}”, which the book does not give.",
    ),
    "ex.claim.arguments": (
        "核对式 {{= {claim}}} 里有函数拿到了不合适的参数。",
        "in the checked claim {{= {claim}}}, a function is given arguments it cannot use.",
    ),
    "ex.unknown_placeholder": (
        "生成题里的 {{{name}}} 不认识（可用：{known}）。",
        "{{{name}}} is not drawn by this generator (known: {known}).",
    ),
    "ex.unknown_check": (
        "不认识的 check 函数“{fn}”（可用：{known}）。",
        "unknown check function “{fn}” (known: {known}).",
    ),
    "ex.unknown_generator": (
        "不认识的生成器“{fn}”（可用：{known}）。",
        "unknown generator “{fn}” (known: {known}).",
    ),
    "ex.param_missing": ("{fn} 缺少参数“{param}”。", "{fn} needs the parameter “{param}”."),
    "ex.param_unknown": (
        "{fn} 没有参数“{param}”（可用：{known}）。",
        "{fn} has no parameter “{param}” (known: {known}).",
    ),
    "ex.param_invalid": (
        "{fn} 的参数 {param} = {value} 不可用：应为{rule}。",
        "{fn}: {param} = {value} is not usable; it should be {rule}.",
    ),
    "ex.param_range": (
        "{fn} 的参数 {param} = {value} 不可用：应为 {lo} 到 {hi} 的整数。",
        "{fn}: {param} = {value} is not usable; use a whole number from {lo} to {hi}.",
    ),
    "ex.param_choice": (
        "{fn}：{param} 是“{value}”，只能是 {choices} 之一。",
        "{fn}: {param} is “{value}”; it must be one of {choices}.",
    ),
    "ex.param_order": ("{fn}：{low} 不能大于 {high}。", "{fn}: {low} must not exceed {high}."),
    "ex.length_mismatch": (
        "{fn}：a 有 {a} 维，b 有 {b} 维，长度要相同。",
        "{fn}: a has {a} entries and b has {b}; they must match.",
    ),
    "ex.rule.vector": ('向量（如 "1 0 1"）', 'a vector (e.g. "1 0 1")'),
    "ex.rule.matrix": ('矩阵（如 "1 0; 0 1"）', 'a matrix (e.g. "1 0; 0 1")'),
    "ex.rule.number": ("数字", "a number"),
    "ex.rule.nonneg": ("非负数", "a number ≥ 0"),
    "ex.rule.bool": ("true 或 false", "true or false"),
    "ex.rule.temperature": ("0.01 到 100 之间的数", "a number from 0.01 to 100"),
    "ex.rule.int_list": ("正整数的列表", "a list of whole numbers ≥ 1"),
    "ex.rule.num_list": ("非负数的列表", "a list of numbers ≥ 0"),
    "ex.rule.pair_list": (
        "正整数对的列表，如 [[10, 100]]",
        "a list of pairs of whole numbers, e.g. [[10, 100]]",
    ),
    # -- attn-tui exercises validate / list
    "ex.cmd.help": ("检查或列出练习文件", "check or list exercise files"),
    "ex.cmd.valid": (
        "{files} 个文件、{sets} 组、{exercises} 题：全部通过。",
        "{files} {files:file|files}, {sets} {sets:set|sets}, {exercises} {exercises:exercise|exercises}: all valid.",
    ),
    "ex.cmd.warning": ("用词提醒", "wording"),
    "ex.cmd.warnings": (
        "另有 {count} 条用词提醒：文件照样能用，但与词表（exercises/glossary.toml）的写法不一致。",
        "{count} wording {count:warning|warnings}: the files still load, but differ from the glossary (exercises/glossary.toml).",
    ),
    "ex.warn.avoided": (
        "{key} 的 {language} 文本写了 “{form}”，词表里的写法是 “{chosen}”。",
        "the {language} text of {key} says “{form}”; the glossary's form is “{chosen}”.",
    ),
    "ex.glossary": ("词表读不懂：{detail}", "the glossary cannot be read: {detail}"),
    "ex.cmd.invalid": (
        "{files} 个文件中有 {problems} 个问题。",
        "{problems} {problems:problem|problems} in {files} {files:file|files}.",
    ),
    "ex.cmd.no_files": (
        "没有找到练习文件（*.toml）：{path}",
        "no exercise files (*.toml) found: {path}",
    ),
    "ex.cmd.col_order": ("序", "order"),
    "ex.cmd.col_id": ("id", "id"),
    "ex.cmd.col_title": ("标题", "title"),
    "ex.cmd.col_count": ("题数", "exercises"),
    "ex.cmd.col_topics": ("主题", "topics"),
    "ex.cmd.col_source": ("来源", "source"),
    "ex.cmd.quiz_banks": ("自测题库", "Quiz banks"),
    "ex.cmd.list_items_how": (
        "看一个练习集里的题和题号：\n  attn-tui exercises list 练习集id（例如 {example}）",
        "A set's items and their ids:\n  attn-tui exercises list SET (for example {example})",
    ),
    "ex.cmd.no_set": (
        "没有 id 为“{set}”的练习集或题库；有这些：{known}",
        "no set or quiz bank with the id “{set}”; there are: {known}",
    ),
    "ex.cmd.items_title": (
        "{set} · {title}（{count} 题）",
        "{set} · {title} ({count} {count:item|items})",
    ),
    "ex.cmd.col_item": ("题号", "id"),
    "ex.cmd.col_kind": ("题型", "kind"),
    "ex.cmd.col_prompt": ("题目", "prompt"),
    "ex.cmd.kind.number": ("数", "number"),
    "ex.cmd.kind.vector": ("向量", "vector"),
    "ex.cmd.kind.matrix": ("矩阵", "matrix"),
    "ex.cmd.kind.choice": ("单选", "choice"),
    "ex.cmd.kind.multi": ("多选", "choices"),
    "ex.cmd.kind.truefalse": ("判断", "true/false"),
    "ex.cmd.kind.text": ("简答", "written"),
    "ex.cmd.kind_generated": ("，随机出数", ", drawn"),
    "ex.cmd.try_how": (
        "交一个答案看评分：\n  attn-tui exercises try {item} --answer 答案",
        "To grade an answer:\n  attn-tui exercises try {item} --answer TEXT",
    ),
    "ex.cmd.broken": ("无法载入的文件", "Files that did not load"),
    "ex.source.shipped": ("内置", "shipped"),
    "ex.source.extra": ("--exercises", "--exercises"),
    "ex.source.data": ("数据目录", "data dir"),
    # -- attn-tui progress
    "ex.prog.help": ("显示或清除学习进度", "show or reset learning progress"),
    "ex.prog.file": ("进度文件：{path}", "progress file: {path}"),
    "ex.prog.col_set": ("练习集", "set"),
    "ex.prog.col_done": ("完成", "done"),
    "ex.prog.col_solved": ("独立做对", "solved"),
    "ex.prog.col_next": ("下一题", "next"),
    "ex.prog.col_last": ("上次", "last visited"),
    "ex.prog.all_done": ("全部完成", "all done"),
    "ex.prog.quiz_none": ("还没做过自测。", "No quiz taken yet."),
    "ex.prog.quiz_line": (
        "自测（{mode}）：{count} 次，最好 {best}%，最近 {last}%",
        "Quiz ({mode}): {count} {count:attempt|attempts}, best {best}%, last {last}%",
    ),
    "ex.prog.reset_ask": (
        "要删除 {path} 里的全部进度吗？[y/N] ",
        "Delete all progress in {path}? [y/N] ",
    ),
    "ex.prog.reset_done": ("进度已清除。", "Progress deleted."),
    "ex.prog.reset_kept": (
        "没有确认，进度保留未动。（用 --yes 跳过确认）",
        "Not confirmed; progress kept. (Use --yes to skip the question.)",
    ),
    "ex.quiz.quick": ("快速", "quick"),
    "ex.quiz.full": ("完整", "full"),
    "ex.param_overflow": (
        "{fn} 用这些数算出来会溢出（太大、无穷大或除以零），请换小一些的数。",
        "{fn} overflows with these numbers (too large, infinite or a division by zero); use smaller ones.",
    ),
}
