"""The app shell: home screen, help overlay, key descriptions, command palette entries."""

TEXT = {
    "app.home.title": ("注意力，一步一步来", "Attention, one step at a time"),
    "app.home.intro": (
        "按 C 沿着学习路线继续，或者选一个练习区按回车进入。F1 或 ? 看帮助，F2 切换中文 / English，Esc 回到这里。",
        "Press C to continue the course, or pick an area and press Enter. F1 or ? for help, "
        "F2 switches 中文 / English, Esc comes back here.",
    ),
    "app.area.calc": ("计算器", "Calculator"),
    "app.area.calc.desc": (
        "输入查询和键，看点积、缩放、softmax、加权求和一步步出来。",
        "Type a query and keys; watch dot products, scaling, softmax and the weighted sum appear.",
    ),
    "app.area.train": ("训练", "Trainer"),
    "app.area.train.desc": (
        "现场训练反转序列的 RNN（加/不加注意力）或小 Transformer，看对齐长出来。",
        "Train a reversal RNN (with or without attention) or a tiny Transformer live; watch the "
        "alignment grow.",
    ),
    "app.area.exercises": ("练习", "Exercises"),
    "app.area.exercises.desc": (
        "按主题做练习：即时评分、逐条提示、记住进度。",
        "Exercise sets by topic: graded at once, hints one at a time, progress remembered.",
    ),
    "app.area.quiz": ("自测", "Self-check quiz"),
    "app.area.quiz.desc": (
        "自测题：判分、讲解、按主题统计，记住最好成绩。",
        "The self-check quiz: graded, explained, scored by topic, best score remembered.",
    ),
    "app.area.lab": ("自注意力实验室", "Self-attention lab"),
    "app.area.lab.desc": (
        "从 X 到 Q、K、V：掩码、多头、交叉注意力，每个形状都看得见。",
        "From X to Q, K, V: masks, heads and cross-attention, with every shape in view.",
    ),
    "app.area.code": ("亲手实现", "Build it yourself"),
    "app.area.code.desc": (
        "用自己的 numpy 写出注意力，每次保存都检查，并指出错在哪里。",
        "Write attention in your own numpy; every save is checked and the mistake named.",
    ),
    "app.help.title": ("帮助", "Help"),
    "app.help.keys": ("按键", "Keys"),
    "app.help.panels": ("各个面板", "The panels"),
    "app.help.close": ("按 Esc 或 F1 关闭", "Esc or F1 closes this"),
    "app.help.global": (
        "Tab / Shift+Tab 在控件间移动；鼠标也可以点击。Ctrl+P 打开命令面板。"
        "Ctrl+L 清空当前的多行输入框（Ctrl+Z 撤销）。"
        "Ctrl+G 把正在显示的图或矩阵作为文本复制到剪贴板，并写进数据文件夹里的 copied.txt"
        "（经 SSH 时剪贴板可能收不到）；要用鼠标选字，拖动时按住 Shift（macOS 上按住 Option）。",
        "Tab / Shift+Tab move between controls; the mouse works too. Ctrl+P opens the command "
        "palette. Ctrl+L clears the multi-line field you are in (Ctrl+Z undoes it). "
        "Ctrl+G copies the figure or matrix on show to the clipboard as text, and writes it to "
        "copied.txt in your data folder (over SSH the clipboard may not arrive); to select "
        "text with the mouse, hold Shift while you drag (Option on macOS).",
    ),
    "app.help.home": (
        "主页列出可以用的练习区。方向键选择，回车进入。",
        "The home screen lists the areas you can use. Arrow keys choose, Enter opens.",
    ),
    # key descriptions (Footer, help overlay, palette)
    "app.key.help": ("帮助", "Help"),
    "app.key.lang": ("中/EN", "中/EN"),
    "app.key.home": ("主页", "Home"),
    "app.key.quit": ("退出", "Quit"),
    "app.key.open": ("进入", "Open"),
    "app.key.next": ("下一步", "Next"),
    "app.key.prev": ("上一步", "Back"),
    "app.key.page_down": ("下翻", "Down"),
    "app.key.page_up": ("上翻", "Up"),
    "app.key.all": ("全部", "All"),
    "app.key.experiment": ("√d 实验", "√d test"),
    "app.key.reset": ("例子", "Example"),
    "app.key.palette": ("命令面板", "palette"),
    "app.key.copy": ("复制为文本", "Copy as text"),
    "app.key.clear": ("清空输入框", "Clear the field"),
    "app.copy.the_screen": ("这一屏", "the screen"),
    "app.copy.done": (
        "已把{what}作为文本复制到剪贴板（{lines} 行），也写进了 {path}：剪贴板没收到就打开它"
        "（OSC 52；tmux 里要 set -g set-clipboard on）。",
        "Copied {what} as text ({lines} {lines:line|lines}), also to {path}: open it if the "
        "clipboard got nothing (OSC 52; in tmux: set -g set-clipboard on).",
    ),
    "app.copy.col.scaled": ("÷√d 后", "scaled"),
    "app.copy.col.unscaled": ("未缩放", "not scaled"),
    "app.copy.col.weight": ("权重 α", "weight α"),
    "app.copy.output": ("输出", "output"),
    "app.copy.d": ("d = {d}", "d = {d}"),
    "app.copy.scaled_on": ("除以 √d", "divided by √d"),
    "app.copy.scaled_off": ("不除以 √d", "not divided by √d"),
    "app.copy.hard": ("硬注意力", "hard max"),
    "app.copy.steps": ("这一组的分数、权重和输出", "the scores, weights and output"),
    "app.copy.lab_weights": ("第 {head} 个头的注意力权重", "the attention weights of head {head}"),
    "app.copy.lab_scores": ("第 {head} 个头的分数", "the scores of head {head}"),
    "app.copy.train_weights": ("注意力热力图的权重", "the attention map's weights"),
    "app.copy.sent": (
        "已把{what}作为文本复制到剪贴板（{lines} 行）。",
        "Copied {what} as text ({lines} {lines:line|lines}).",
    ),
    "app.copy.not_written": (
        "已把{what}作为文本复制到剪贴板（{lines} 行）；没能写进 {path}：{why}。",
        "Copied {what} as text ({lines} {lines:line|lines}); it could not be written to "
        "{path}: {why}.",
    ),
    "app.tick_typing": (
        "现在选中的是开关“{label}”：空格或回车切换它，Tab 移到下一个输入框。",
        "The focus is on the switch “{label}”: Space or Enter flips it, Tab moves to a field.",
    ),
    "app.confirm.yes": ("是", "Yes"),
    "app.confirm.no": ("否", "No"),
    # Textual's own key descriptions, as the footer and help show them
    "app.textual.Dismiss menu": ("收起", "Close"),
    "app.textual.Dismiss": ("关闭", "Close"),
    "app.cmd.lang": ("切换语言（中文 / English）", "Switch language (中文 / English)"),
    "app.cmd.lang.help": (
        "在中文和英文之间切换整个界面",
        "Redraw every screen in the other language",
    ),
    "app.cmd.open": ("打开：{area}", "Open: {area}"),
    "app.cmd.help": ("显示帮助", "Show help"),
    "app.lang_switched": ("界面语言：中文", "Interface language: English"),
}
