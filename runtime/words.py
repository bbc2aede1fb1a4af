"""Counted words for messages and game logs: "1 begging card", "2 begging cards", never a bracketed "s"."""
from __future__ import annotations


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and ``noun``, the noun in the plural unless ``n`` is 1 (``many`` for irregular plurals).

    ``plural(1, "begging card")`` is "1 begging card", ``plural(3, "person", "people")`` "3 people".
    """
    if n == 1:
        return f"{n} {noun}"
    return f"{n} {many if many is not None else plural_of(noun)}"


def plural_of(noun: str) -> str:
    """The regular plural of an English noun: "field" -> "fields", "family" -> "families", "day" -> "days",
    "box" -> "boxes". Irregular words are the caller's to know (compiler/english.py has its table)."""
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    return noun + "s"


def goods_words(items, words: dict | None = None) -> str:
    """Goods as ``[(good, n), …]`` in words: "1 wood, 2 vegetables". ``words`` maps a good to its
    (one, many) forms (the compiled pack's ``good_words``); a good not in it keeps its id."""
    words = words or {}
    out = []
    for good, n in items:
        one, many = words.get(good, (good, good))
        out.append(f"{n} {one if n == 1 else many}")
    return ", ".join(out)
