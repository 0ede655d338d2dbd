"""Why a teacher's or learner's file could not be read (attn_tui/core/files.py).

The older faults keep their keys: ex.unreadable, ex.not_utf8, ex.toml_syntax, quiz.json_syntax."""

TEXT = {
    "files.outside": (
        "这是指向班级文件夹之外的链接，没有读取",
        "a link to a file outside the class folder; it was not read",
    ),
    "files.not_regular": (
        "这不是普通文件（是{kind}），不读取。",
        "this is not a regular file (it is a {kind}); it is not read.",
    ),
    "files.kind.directory": ("目录", "directory"),
    "files.kind.fifo": ("命名管道", "named pipe"),
    "files.kind.device": ("设备", "device"),
    "files.kind.socket": ("套接字", "socket"),
    "files.kind.special": ("特殊文件", "special file"),
    "files.too_large": (
        "文件太大（{size}），上限是 {limit}。",
        "the file is too large ({size}); the limit is {limit}.",
    ),
    "files.too_deep": (
        "括号嵌套得太深，读不下去。",
        "brackets are nested too deeply to read.",
    ),
    "files.long_key": (
        "这一行的键用点分成了太多段（上限 {limit} 段）。",
        "a key on this line has too many dotted parts (the limit is {limit}).",
    ),
    "files.long_number": (
        "这一行有一个超过 {limit} 位的整数。",
        "a whole number on this line has more than {limit} digits.",
    ),
    "files.check_failed": (
        "检查这个文件时出了意外（{error}），所以没有载入它。请把这个文件报告给 attn-tui 的开发者。",
        "checking this file failed unexpectedly ({error}), so it was not loaded. Please report this file to attn-tui's developers.",
    ),
    "files.too_many_problems": (
        "找到 {count} 个问题后停止检查这个文件；先改好这些再检查一遍。",
        "stopped checking this file after {count} problems; fix these and check again.",
    ),
    "files.more_problems": (
        "……还有 {count} 个同样的问题。",
        "… and {count} more like this.",
    ),
}
