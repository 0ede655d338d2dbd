"""Why progress cannot be kept (attn_tui/core/progress.py StoreError codes), and what that means.

Each ``store.<reason>`` is a clause; ``store.not_saved`` (screens) and ``store.cli`` (headless
commands) put it in a sentence.
"""

TEXT = {
    "store.not_saved": ("进度没有保存：{reason}", "Progress is not being saved: {reason}"),
    "store.result_not_saved": (
        "这次的结果没有保存：{reason}",
        "This result was not saved: {reason}",
    ),
    "store.cli": ("无法读写进度：{reason}", "cannot keep progress: {reason}"),
    "store.no_dir": (
        "数据目录 {path} 无法使用（{error}）",
        "the data directory {path} cannot be used ({error})",
    ),
    "store.cannot_open": (
        "打不开 {path}（{error}）",
        "{path} cannot be opened ({error})",
    ),
    "store.read_only": (
        "{path} 是只读的，写不进去",
        "{path} is read-only",
    ),
    "store.viewing": (
        "{path} 是只读的：这里照原样显示，新的进度不能记在这里",
        "{path} is read-only: shown as it is; nothing new can be kept there",
    ),
    "store.budget": (
        "这个学生的进度已达到本服务器给每人的上限（{limit}），之后的不再保存；请告诉老师",
        "this student's progress has reached the size this server allows each one ({limit}); "
        "nothing more is kept (tell your teacher)",
    ),
    "store.too_fast": (
        "同一道题一分钟内最多保存 {limit} 次作答；这次照样批改，但没有保存",
        "at most {limit} attempts at one exercise are kept per minute; this one was graded, "
        "not kept",
    ),
    "store.full": ("磁盘已满，{path} 写不进去", "the disk is full, so {path} cannot grow"),
    "store.failed": ("读写 {path} 时出错（{error}）", "{path} failed ({error})"),
    "store.not_ours": (
        "{path} 是别的程序的 SQLite 文件，不是 attn-tui 的进度文件；它原样保留。"
        "请把它移走，或用 --data-dir 换一个目录",
        "{path} is another program's SQLite file, not attn-tui's progress; it is left as it is. "
        "Move it away, or choose another directory with --data-dir",
    ),
    "store.newer": (
        "{path} 来自更新版本的 attn-tui（格式 {found}，这个版本只认到 {supported}）；"
        "它原样保留。请升级 attn-tui",
        "{path} was written by a newer attn-tui (format {found}; this one knows up to "
        "{supported}); it is left as it is. Upgrade attn-tui",
    ),
    "store.busy": (
        "{path} 被另一个程序锁住超过 {seconds} 秒",
        "another program has held {path} locked for more than {seconds} s",
    ),
    "store.damaged": ("{path} 已损坏", "{path} is damaged"),
    "store.damaged_in_use": (
        "{path} 已损坏，但另一个 attn-tui 还开着它；关掉那个窗口后再试",
        "{path} is damaged but another attn-tui still has it open; close that one and try again",
    ),
    "store.closed": ("进度文件已经关闭", "the progress file is closed"),
    "store.not_regular": (
        "{path} 不是普通文件（是目录、管道或设备）；它原样保留",
        "{path} is not a regular file (a directory, a pipe or a device); it is left as it is",
    ),
}
