"""``attn-tui serve``: the server's messages, the refusal page, and a served session's first
screen (the student's name)."""

TEXT = {
    # -- the first screen of a served session
    "serve.name.title": ("你好！请先写下你的名字", "Hello! First, your name"),
    "serve.name.intro": (
        "你的练习进度会记在这个名字下面。下次用同一个名字进来，就能接着做。"
        "名字不是密码：请只用你自己的名字。",
        "Your progress is kept under this name; come back with the same name to carry on. "
        "A name is not a password: use your own.",
    ),
    "serve.name.placeholder": ("名字，然后按回车", "your name, then Enter"),
    "serve.name.help": (
        "每个学生的进度分开保存，按名字区分（不分大小写，多余的空格和全角/半角不算）。写好后按回车。",
        "Each student's progress is kept apart, by name (case, extra spaces and full-width "
        "letters do not matter). Type it and press Enter.",
    ),
    "serve.name.empty": ("名字不能是空的。", "The name cannot be empty."),
    "serve.name.long": (
        "名字太长了：最多 40 个字。",
        "That name is too long: 40 characters at most.",
    ),
    "serve.name.control": (
        "名字里有看不见的控制字符，请重新输入。",
        "The name holds invisible control characters; type it again.",
    ),
    "serve.name.mixed": (
        "这个名字混用了两种字母（{scripts}），其中有的字母看起来一样却不同：请只用一种字母写名字。",
        "This name mixes letters of two alphabets ({scripts}) that have look-alikes of each other: "
        "write it in one.",
    ),
    "serve.script.latin": ("拉丁字母", "Latin"),
    "serve.script.greek": ("希腊字母", "Greek"),
    "serve.script.cyrillic": ("西里尔字母", "Cyrillic"),
    "serve.script.armenian": ("亚美尼亚字母", "Armenian"),
    "serve.script.cherokee": ("切罗基字母", "Cherokee"),
    "serve.script.coptic": ("科普特字母", "Coptic"),
    "serve.name.no_folder": (
        "无法为这个名字建立进度文件夹：{error}",
        "Could not make a progress folder for this name: {error}",
    ),
    "serve.name.welcome": (
        "{name}，欢迎！进度会记在你的名下。",
        "Welcome, {name}! Your progress is kept under your name.",
    ),
    # -- the server, in the teacher's terminal
    "serve.cli.help": ("在浏览器里给全班用", "serve the tutor to a class in their browsers"),
    "serve.started": ("attn-tui 正在提供服务：", "attn-tui is serving the tutor at:"),
    "serve.url_name": (
        "（在地址后加 &name=名字，可以跳过输入名字这一步）",
        "(add &name=NAME to the address to skip the name screen)",
    ),
    "serve.url_name_first": (
        "（在地址后加 ?name=名字，可以跳过输入名字这一步）",
        "(add ?name=NAME to the address to skip the name screen)",
    ),
    "serve.beyond": (
        "注意：服务绑定在 {host}，不只是本机：同一网络里知道地址和口令的人都能打开。",
        "Note: bound to {host}, not just this machine: anyone on the network with the address "
        "and the token can open it.",
    ),
    "serve.token_made": (
        "访问口令是自动生成的（下次用 --token 指定固定的口令）。",
        "The access token was made up for this run (--token sets one of your own).",
    ),
    "serve.progress": ("学生进度保存在 {path}", "Students' progress is kept in {path}"),
    "serve.stop": (
        "按 Ctrl+C 停止服务，所有学生的会话会一起结束。",
        "Ctrl+C stops the server and every student's session with it.",
    ),
    "serve.stopped": ("已停止；{count} 个会话已结束。", "Stopped; {count} session(s) ended."),
    "serve.bad_port": ("端口应在 1 到 65535 之间：{port}", "the port must be 1 to 65535: {port}"),
    "serve.bad_token": (
        "口令至少 8 个字符，只能用字母、数字、- 和 _",
        "a token needs 8 or more characters: letters, digits, - and _",
    ),
    "serve.bad_max": (
        "--max-sessions 至少为 1：{value}",
        "--max-sessions must be 1 or more: {value}",
    ),
    "serve.bad_host": (
        "--host 需要一个地址，例如 127.0.0.1 或 0.0.0.0（空地址会在所有网卡上提供服务）",
        "--host needs an address, e.g. 127.0.0.1 or 0.0.0.0 (an empty one would serve on "
        "every network interface)",
    ),
    "serve.bad_warm": (
        "--warm 应在 0 到 --max-sessions（{limit}）之间：{value}",
        "--warm must be 0 to --max-sessions ({limit}): {value}",
    ),
    "serve.bad_workers": (
        "--workers 应在 0 到 {limit} 之间：{value}",
        "--workers must be 0 to {limit}: {value}",
    ),
    "serve.cannot_bind": (
        "无法在 {host}:{port} 上提供服务：{error}",
        "cannot serve on {host}:{port}: {error}",
    ),
    "serve.no_textual_serve": (
        "需要 textual-serve 包：pip install textual-serve",
        "this needs the textual-serve package: pip install textual-serve",
    ),
    # -- pages a browser may get instead of the tutor
    "serve.refused.title": ("需要访问口令", "Access token needed"),
    "serve.refused.body": (
        "这个地址需要老师给的完整链接（带 ?token=…）。请向老师要链接后再打开。",
        "This classroom opens only from the full link your teacher gave (with ?token=…). "
        "Ask your teacher for it.",
    ),
    "serve.full.title": ("人数已满", "The class is full"),
    "serve.full.body": (
        "同时打开的会话已达到上限（{limit} 个）。请关掉不用的标签页，或稍后再试。",
        "The most sessions open at once ({limit}) are running. Close a tab you do not need, "
        "or try again in a moment.",
    ),
    "serve.host.title": ("这个地址不属于本课堂", "Not this classroom's address"),
    "serve.host.body": (
        "这个页面是通过老师没有允许的名字或另一个网站打开的。请直接打开老师给的链接。",
        "This page was reached by a name the teacher did not allow, or from another web site. "
        "Open the link your teacher gave you directly.",
    ),
    # -- what the server tells the teacher about what it turned away (one line per kind)
    "serve.bad_allow_host": (
        "--allow-host 需要一个主机名或 IP 地址：{name}",
        "--allow-host needs a host name or an IP address: {name}",
    ),
    "serve.gate.bad_host": (
        "attn-tui serve：拒绝了一个以“{host}”为主机名的请求（403；需要的话用 --allow-host 允许它）",
        "attn-tui serve: refused a request for the host “{host}” (403; --allow-host allows a name)",
    ),
    "serve.gate.bad_origin": (
        "attn-tui serve：拒绝了来自 {origin} 的会话连接（403：它不是从本服务器的页面打开的）",
        "attn-tui serve: refused a session from the origin {origin} (403: not opened by a page "
        "of this server)",
    ),
    "serve.gate.timeout": (
        "attn-tui serve：关闭了 {seconds:g} 秒内没发完请求的连接",
        "attn-tui serve: closed a connection that sent no complete request within {seconds:g} s",
    ),
    "serve.gate.per_address": (
        "attn-tui serve：关闭了一个等待中的连接：同一地址最多同时等待 {limit} 个",
        "attn-tui serve: closed a waiting connection: one address may hold {limit} at once",
    ),
    "serve.gate.evicted": (
        "attn-tui serve：连接数已到上限（{count}），关闭了最早一个等待中的连接",
        "attn-tui serve: at the most connections at once ({count}), closed the oldest waiting one",
    ),
    "serve.gate.full": (
        "attn-tui serve：连接数已到上限（{limit}），新连接得到 503（稍后再试）",
        "attn-tui serve: at the most connections at once ({limit}), a new one was answered "
        "503 (try again)",
    ),
    "serve.gate.no_start": (
        "attn-tui serve：一个会话 {seconds:g} 秒内没有画出任何东西，已结束它",
        "attn-tui serve: a session drew nothing within {seconds:g} s and was ended",
    ),
    "serve.gate.session_failed": (
        "attn-tui serve：一个会话异常结束（状态 {status}）；详情见 {log}",
        "attn-tui serve: a session ended with status {status}; its messages are in {log}",
    ),
    "serve.expired.title": ("会话链接已失效", "Session link expired"),
    "serve.expired.body": (
        "这个会话链接已经用过或过期了。请刷新页面。",
        "This session link was already used or has expired. Reload the page.",
    ),
}
