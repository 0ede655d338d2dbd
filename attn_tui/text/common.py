"""Strings shared by every area: names of fields, keys, areas, generic words."""

TEXT = {
    "common.app_title": ("注意力机制终端教程", "attn-tui · attention, step by step"),
    "common.field.query": ("查询", "query"),
    "common.field.keys": ("键", "keys"),
    "common.field.values": ("值", "values"),
    "common.field.answer": ("答案", "answer"),
    "common.field.value": ("输入", "input"),
    "common.field_row": ("{field}第 {row} 行", "{field} row {row}"),
    "common.interrupted": ("已中断。", "interrupted."),
    "common.yes": ("是", "yes"),
    "common.no": ("否", "no"),
    "common.on": ("开", "on"),
    "common.off": ("关", "off"),
    "common.back": ("返回", "Back"),
    "common.quit": ("退出", "Quit"),
    "common.help": ("帮助", "Help"),
    "common.language": ("中/EN", "中/EN"),
    "common.home": ("主页", "Home"),
}
