"""Messages for faults in what the learner typed. Placeholders come from InputError.params."""

TEXT = {
    "err.empty": (
        "{field}是空的：请输入数字，例如 1 0 1。",
        "{field} is empty: type numbers, e.g. 1 0 1.",
    ),
    "err.empty_entry": (
        "{field}的第 {entry} 个位置是空的（两个逗号之间没有数字？）。",
        "{field}: entry {entry} is empty (two commas with nothing between?).",
    ),
    "err.not_a_number": (
        "{field}的第 {entry} 个位置“{token}”不是数字。",
        "{field}: entry {entry}, “{token}”, is not a number.",
    ),
    "err.not_finite": (
        "{field}的第 {entry} 个位置是 {token}：只接受有限的数。",
        "{field}: entry {entry} is {token}; only finite numbers are accepted.",
    ),
    "err.too_large": (
        "{field}的第 {entry} 个位置 {token} 太大：绝对值不能超过 {limit}。",
        "{field}: entry {entry}, {token}, is too large; the limit is ±{limit}.",
    ),
    "err.too_many_dims": (
        "{field}有 {count} 维，最多 {limit} 维。",
        "{field} has {count} dimensions; the limit is {limit}.",
    ),
    "err.too_many_rows": (
        "{field}有 {count} 行，最多 {limit} 行。",
        "{field} has {count} rows; the limit is {limit}.",
    ),
    "err.ragged": (
        "{field}的第 {row} 行有 {length} 个数，但第 1 行有 {expected} 个：每行长度要一样。",
        "{field}: row {row} has length {length} but row 1 has length {expected}; all rows "
        "must be the same length.",
    ),
    "err.dim_mismatch": (
        "查询是 {query} 维，键是 {keys} 维：两者维数必须相同才能做点积。",
        "the query has {query} dimensions but the keys have {keys}: a dot product needs equal lengths.",
    ),
    "err.values_count": (
        "有 {values} 个值却有 {keys} 个键：每个键要配一个值。",
        "there are {values} values but {keys} keys: each key needs exactly one value.",
    ),
    "err.temperature": (
        "温度 {value} 不可用：请取 {lo} 到 {hi} 之间的数。",
        "temperature {value} is not usable: choose a number from {lo} to {hi}.",
    ),
    "err.experiment_dim": (
        "维度 {value} 不可用：请取 1 到 {limit} 之间的整数。",
        "dimension {value} is not usable: choose a whole number from 1 to {limit}.",
    ),
}
