"""Word's automatic list numbering as the prefix a reader sees ("1.2", "(a)", "iv.", "•").

ECMA-376 Part 1 §17.9: a paragraph names a list instance (``w:numId``) and a level (``w:ilvl``) in its
own properties or through its paragraph style (and the styles it is based on). The instance points at
an abstract definition whose levels give the start value, the number format and the text template
(``%1.%2``: the current values of levels 1 and 2). Counting follows Word: instances of one abstract
definition share its counters (numbering continues) unless an instance overrides a start value (a
restarted list); a level starts again when a higher level advances (``w:lvlRestart`` changes which),
and ``w:isLgl`` shows every level's number as a decimal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from assistant.documents.wordml import attr, child, children, val

_PLACEHOLDER = re.compile(r"%([1-9])")
_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))
_SUFFIX = {"tab": " ", "space": " ", "nothing": ""}
BULLET = "\u2022"


@dataclass(frozen=True)
class _Level:
    """One level of a list definition (``w:lvl``)."""

    start: int = 1
    fmt: str = "decimal"
    text: str = ""
    restart: int | None = None  # w:lvlRestart: restarts when a level above this 1-based one advances
    legal: bool = False
    suffix: str = " "
    style: str | None = None  # the paragraph style bound to this level (w:pStyle)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _level(lvl: Any, base: _Level | None = None) -> _Level:
    level = base or _Level()
    legal = child(lvl, "isLgl")
    text = val(lvl, "lvlText")
    return _Level(
        start=_int(val(lvl, "start"), level.start),
        fmt=val(lvl, "numFmt") or level.fmt,
        text=level.text if text is None else text,
        restart=_int(val(lvl, "lvlRestart"), 0) if val(lvl, "lvlRestart") is not None else level.restart,
        legal=legal is not None and attr(legal, "val") not in ("0", "false", "off") or level.legal,
        suffix=_SUFFIX.get(val(lvl, "suff") or "", level.suffix),
        style=val(lvl, "pStyle") or level.style,
    )


def _levels(parent: Any) -> dict[int, _Level]:
    return {_int(attr(lvl, "ilvl"), 0): _level(lvl) for lvl in children(parent, "lvl")}


def format_number(value: int, fmt: str) -> str:
    """``value`` in a ``w:numFmt`` (decimal, letters, roman, ordinal...); unknown formats as decimals."""
    if fmt == "none":
        return ""
    if fmt == "decimalZero":
        return f"{value:02d}"
    if fmt == "ordinal":
        ending = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
        return f"{value}{ending}"
    if value <= 0:
        return str(value)
    if fmt in ("lowerLetter", "upperLetter"):  # a..z, then aa..zz, aaa..: Word repeats the letter
        letters = chr(ord("a") + (value - 1) % 26) * ((value - 1) // 26 + 1)
        return letters.upper() if fmt == "upperLetter" else letters
    if fmt in ("lowerRoman", "upperRoman"):
        out, rest = [], value
        for number, digits in _ROMAN:
            while rest >= number:
                out.append(digits)
                rest -= number
        return "".join(out).upper() if fmt == "upperRoman" else "".join(out)
    return str(value)


def _bullet(text: str) -> str:
    """A bullet's text; symbol-font glyphs (private use code points, picture bullets) read as "•"."""
    shown = "".join(ch for ch in text if not 0xE000 <= ord(ch) <= 0xF8FF)
    return shown.strip() or BULLET


def _advance(counters: dict[int, int], levels: dict[int, _Level], level: int) -> None:
    """Count one paragraph at ``level``; the levels below it start again unless ``w:lvlRestart`` says
    otherwise (0: never; N: only when a level N or above advances)."""
    counters[level] = counters[level] + 1 if level in counters else levels[level].start
    for deeper in [k for k in counters if k > level]:
        restart = levels[deeper].restart if deeper in levels else None
        if restart != 0 and level < (deeper if restart is None else restart):
            del counters[deeper]


class ListNumbering:
    """The numbering part and the paragraph styles of one document, and the counters of its lists.

    :meth:`label` is called once per paragraph in reading order: it advances the counters."""

    def __init__(self, numbering: Any, styles: Any = None) -> None:
        self._abstract: dict[str, dict[int, _Level]] = {}
        self._links: dict[str, str] = {}  # abstract id -> numbering style it takes its levels from
        self._nums: dict[str, tuple[str, dict[int, _Level], bool]] = {}  # id -> abstract, levels, restarted
        self._styles: dict[str, tuple[str | None, str | None, str | None]] = {}  # id -> numId, ilvl, basedOn
        self._num_abstract: dict[str, str] = {}
        self._counters: dict[tuple[str, str], dict[int, int]] = {}
        for style in children(styles, "style") if styles is not None else []:
            ppr = child(style, "pPr")
            numpr = child(ppr, "numPr") if ppr is not None else None
            self._styles[attr(style, "styleId") or ""] = (val(numpr, "numId"), val(numpr, "ilvl"),
                                                          val(style, "basedOn"))
        if numbering is None:
            return
        for abstract in children(numbering, "abstractNum"):
            key = attr(abstract, "abstractNumId") or ""
            self._abstract[key] = _levels(abstract)
            link = val(abstract, "numStyleLink")
            if link:
                self._links[key] = link
        nums = children(numbering, "num")
        self._num_abstract = {attr(num, "numId") or "": val(num, "abstractNumId") or "" for num in nums}
        for num in nums:
            abstract_id = val(num, "abstractNumId") or ""
            levels = dict(self._resolved(abstract_id))
            restarted = False
            for override in children(num, "lvlOverride"):
                ilvl = _int(attr(override, "ilvl"), 0)
                lvl = child(override, "lvl")
                if lvl is not None:
                    levels[ilvl] = _level(lvl, levels.get(ilvl))
                start = val(override, "startOverride")
                if start is not None:
                    levels[ilvl] = replace(levels.get(ilvl, _Level()), start=_int(start, 1))
                    restarted = True
            self._nums[attr(num, "numId") or ""] = (abstract_id, levels, restarted)

    def _resolved(self, abstract_id: str, hops: int = 0) -> dict[int, _Level]:
        """An abstract definition's levels, following ``w:numStyleLink`` to the numbering style's list."""
        levels = self._abstract.get(abstract_id, {})
        link = self._links.get(abstract_id)
        if levels or link is None or hops > 4:
            return levels
        return self._resolved(self._num_abstract.get(self._style_numbering(link)[0] or "", ""), hops + 1)

    def _style_numbering(self, style_id: str | None) -> tuple[str | None, str | None]:
        """(numId, ilvl) a paragraph style gives, itself or through the styles it is based on."""
        num_id = ilvl = None
        seen: set[str] = set()
        while style_id and style_id not in seen and style_id in self._styles:
            seen.add(style_id)
            own_num, own_lvl, based_on = self._styles[style_id]
            num_id = num_id if num_id is not None else own_num
            ilvl = ilvl if ilvl is not None else own_lvl
            style_id = based_on
        return num_id, ilvl

    def label(self, paragraph: Any) -> str:
        """The number (with the space after it) that Word shows before ``paragraph``, or ''."""
        ppr = child(paragraph, "pPr")
        numpr = child(ppr, "numPr") if ppr is not None else None
        style = val(ppr, "pStyle")
        num_id, ilvl = val(numpr, "numId"), val(numpr, "ilvl")
        if num_id is None or ilvl is None:
            style_num, style_lvl = self._style_numbering(style)
            num_id, ilvl = num_id or style_num, ilvl or style_lvl
        found = self._nums.get(num_id or "")
        if found is None:  # numId 0 (numbering removed) or an instance that does not exist
            return ""
        abstract_id, levels, restarted = found
        if ilvl is None:  # a style's list without a level: the level bound to that style, else the first
            ilvl = next((str(k) for k, lvl in levels.items() if style and lvl.style == style), "0")
        level = _int(ilvl, 0)
        if level not in levels:
            return ""
        counters = self._counters.setdefault(("num", num_id or "") if restarted else ("abstract", abstract_id), {})
        _advance(counters, levels, level)
        this = levels[level]
        if this.fmt == "bullet":
            return _bullet(this.text) + this.suffix
        text = _PLACEHOLDER.sub(lambda m: self._shown(levels, counters, int(m.group(1)) - 1, this.legal), this.text)
        return text + this.suffix if text.strip() else ""

    @staticmethod
    def _shown(levels: dict[int, _Level], counters: dict[int, int], k: int, legal: bool) -> str:
        lvl = levels.get(k, _Level())
        value = counters.get(k, lvl.start)  # a level above never used shows its start value
        return format_number(value, "decimal" if legal and lvl.fmt != "none" else lvl.fmt)
