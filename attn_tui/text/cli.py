"""The front door's own messages (attn_tui/cli.py): each is one line on stderr."""

TEXT = {
    "cli.usage_hint": ("（用法见 {prog} --help）", "(see {prog} --help)"),
    "cli.needs_terminal": (
        "全屏界面需要一个终端，但标准输入不是终端。脚本里请用无界面的命令（见 attn-tui --help）。",
        "the full-screen app needs a terminal, and standard input is not one. "
        "In scripts, use a headless command (see attn-tui --help).",
    ),
    "cli.not_utf8": (
        "{option} 的值不是有效的 UTF-8 文字。",
        "the value of {option} is not valid UTF-8 text.",
    ),
    "cli.home_unknown": (
        "无法展开 {path} 里的 ~（没有这个用户，或找不到主目录）。",
        "cannot expand the ~ in {path} (no such user, or no home directory).",
    ),
    "cli.no_exercises": (
        "--exercises 指定的 {path} 不存在。",
        "--exercises {path} does not exist.",
    ),
    "cli.needs": ("{option} 只能和 {needed} 一起用。", "{option} only works with {needed}."),
    "cli.excludes": ("{option} 不能和 {other} 一起用。", "{option} cannot be used with {other}."),
    "cli.bad_env_theme": (
        "环境变量 ATTN_TUI_THEME 是“{value}”，应是以下之一：{known}",
        "ATTN_TUI_THEME is “{value}”; it should be one of: {known}",
    ),
    "cli.theme_for_app": (
        "--theme 只用于全屏界面（不带子命令运行 attn-tui）；{command} 的输出不上色。",
        "--theme is for the full-screen app (attn-tui without a command); {command} prints "
        "no theme.",
    ),
    "cli.internal": (
        "出了意外的错误（{error}）。设 ATTN_TUI_DEBUG=1 再运行一次可以看到详细信息；请报告这个问题。",
        "an unexpected error ({error}). Run again with ATTN_TUI_DEBUG=1 for the details, "
        "and please report it.",
    ),
}
