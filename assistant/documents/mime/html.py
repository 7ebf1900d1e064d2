"""HTML (mail bodies and pages) -> readable text, parsed by the HTML5 algorithm (``html5lib``).

The tree is what a browser builds: optional end tags (``</head>``, ``</p>``, ``</td>``) are implied,
so a page that never closes its head keeps its body. Scripts, styles and the head are dropped; block
elements become line breaks; every table row is one line with its cells (``td`` and ``th`` alike)
separated by a TAB; ``dt``/``dd`` and list items are lines of their own; ``pre`` keeps its layout.
"""

from __future__ import annotations

import re
from typing import Any

import html5lib

from assistant.text.plural import noun_for

# Elements rendered as blocks (the HTML standard's display:block/list-item/table defaults, roughly).
_BLOCK = {"address", "article", "aside", "blockquote", "caption", "center", "dd", "details", "dialog", "dir", "div",
          "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
          "header", "hgroup", "hr", "legend", "li", "listing", "main", "menu", "nav", "ol", "p", "plaintext",
          "pre", "section", "summary", "table", "tbody", "thead", "tfoot", "title", "ul", "xmp",
          "body", "html", "frameset", "frame", "noframes", "search"}
_SKIP = {"script", "style", "head", "template", "noscript", "iframe", "object", "svg", "math", "select"}
_LINE = {"li", "dt", "dd", "caption", "figcaption", "legend", "summary"}  # one line each, not spaced
_PRE = {"pre", "listing", "xmp", "plaintext", "textarea"}
_CELLS = {"td", "th"}
_SPACE = re.compile(r"[ \t\r\n\f]+")
_MAX_NESTING = 400  # deeper trees are read flat (no Python recursion limit on hostile markup)


def _tag(element: Any) -> str:
    tag = element.tag
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


class _Renderer:
    def __init__(self) -> None:
        self.out: list[str] = []

    def newline(self) -> None:
        """Start a new line unless the output is already at one (rows and list items are not spaced)."""
        last = next((part for part in reversed(self.out) if part.strip(" ")), "\n")
        if not last.rstrip(" ").endswith("\n"):
            self.out.append("\n")

    def text(self, value: str | None, pre: bool) -> None:
        if value:
            self.out.append(value.replace("\t", " ") if pre else _SPACE.sub(" ", value))

    def element(self, element: Any, pre: bool = False, level: int = 0) -> None:
        tag = _tag(element)
        if not isinstance(element.tag, str) or tag in _SKIP:  # comments, processing instructions
            return
        if level > _MAX_NESTING:
            self.text(" ".join(element.itertext()), False)
            return
        if tag == "br":
            self.out.append("\n")
            return
        if tag == "tr":
            cells = [_cell_text(cell, level + 1) for cell in element if _tag(cell) in _CELLS]
            if any(cells):
                self.newline()
                self.out.append("\t".join(cells) + "\n")
            return
        if tag in _CELLS:  # a cell outside a row (broken tables are repaired by the parser; this is a guard)
            self.out.append("\t")
        line = tag in _LINE
        block = tag in _BLOCK and not line
        pre = pre or tag in _PRE
        if line:
            self.newline()
        elif block:
            self.out.append("\n")
        if tag == "img" and element.get("alt"):
            self.text(f" {element.get('alt')} ", False)
        self.text(element.text, pre)
        for child in element:
            self.element(child, pre, level + 1)
            self.text(child.tail, pre)
        if block or line:
            self.out.append("\n")


def _cell_text(cell: Any, level: int) -> str:
    """One table cell on one line: its blocks (paragraphs, nested tables) are joined by spaces."""
    renderer = _Renderer()
    renderer.text(cell.text, False)
    for child in cell:
        renderer.element(child, False, level + 1)
        renderer.text(child.tail, False)
    return _SPACE.sub(" ", "".join(renderer.out)).strip()


def parse_html(html: str) -> Any:
    """The HTML5 tree of ``html`` (an ElementTree element for ``<html>``, no namespaces)."""
    return html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)


def _tidy(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        # Spaces are trimmed; TABs are cell separators and stay (an empty first cell keeps its place).
        lines.append(line.strip(" \r\f\v") if line.strip() else "")
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


# Text a person does not see: display:none, visibility:hidden, opacity 0, a zero (or 1px) font, the
# ``hidden`` attribute, and white (or transparent) text where no element around it paints a background.
# Such text is a known way to hide instructions to an assistant inside an email (prompt injection).
_STYLE_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|(?<![\w-])opacity\s*:\s*0(?:\.0*)?"
                           r"\s*(?:;|$|!)|font-size\s*:\s*(?:0|1px)(?:\.0*)?\s*(?:[a-z%]*)\s*(?:;|$|!)|"
                           r"max-height\s*:\s*0(?:px)?\s*(?:;|$|!)", re.I)
_STYLE_WHITE = re.compile(r"(?<![\w-])color\s*:\s*(?:#fff(?:fff)?\b|white\b|transparent\b|"
                          r"rgba?\(\s*255\s*,\s*255\s*,\s*255\s*(?:,\s*[\d.]+\s*)?\))", re.I)
_STYLE_BACKGROUND = re.compile(r"background", re.I)


def _paints_background(element: Any) -> bool:
    return bool(element.get("bgcolor") or element.get("background")
                or _STYLE_BACKGROUND.search(element.get("style") or ""))


def _hidden(element: Any, on_background: bool) -> bool:
    style = element.get("style") or ""
    if element.get("hidden") is not None or _STYLE_HIDDEN.search(style):
        return True
    white = _STYLE_WHITE.search(style) or (_tag(element) == "font"
                                           and (element.get("color") or "").lower() in ("#fff", "#ffffff", "white"))
    return bool(white) and not on_background and not _paints_background(element)


def drop_hidden(root: Any) -> int:
    """Remove from the tree, in place, the elements a person does not see (see ``_STYLE_HIDDEN``); their
    tail text stays. Returns how many were removed."""
    removed = 0
    stack = [(root, False)]
    while stack:
        parent, on_background = stack.pop()
        if not isinstance(parent.tag, str):
            continue
        kept: list[Any] = []
        dropped = False
        for child in list(parent):
            if isinstance(child.tag, str) and _hidden(child, on_background):
                tail = child.tail or ""
                if kept:
                    kept[-1].tail = (kept[-1].tail or "") + tail
                else:
                    parent.text = (parent.text or "") + tail
                removed += 1
                dropped = True
                continue
            kept.append(child)
            if isinstance(child.tag, str):
                stack.append((child, on_background or _paints_background(child)))
        if dropped:
            parent[:] = kept
    return removed


def tree_text(root: Any) -> tuple[str, int]:
    """``(text, hidden)``: the visible text of a parsed tree (its body; the head is not shown) and how many
    hidden elements were left out of it (see :func:`drop_hidden`), so the caller can say so."""
    hidden = drop_hidden(root)
    renderer = _Renderer()
    renderer.element(root)
    return _tidy("".join(renderer.out)), hidden


def hidden_reason(count: int, where: str) -> str:
    """How ``count`` hidden elements left out of ``where`` ("the HTML body", "the page") are named."""
    return (f"{count} hidden {noun_for(count, 'part')} of {where} (white, invisible or zero-size text a person does "
            "not see; a common place for instructions aimed at the assistant)")


def visible_text(html: str) -> tuple[str, int]:
    """``(text, hidden)``: the visible text of ``html`` as :func:`html_to_text` gives it, and how many
    elements were left out as hidden (so the caller can say so); never raises."""
    try:
        return tree_text(parse_html(html))
    except Exception:  # noqa: BLE001  (the HTML5 parser accepts anything; this is the last guard)
        return re.sub(r"<[^>]*>", " ", html), 0


def tree_title(root: Any) -> str:
    """The document's ``<title>``, whitespace collapsed ("" when none)."""
    title = root.find("head/title")
    return " ".join("".join(title.itertext()).split()) if title is not None else ""


def html_to_text(html: str) -> str:
    """The visible text of ``html``: block elements become line breaks, table cells TABs; never raises."""
    return visible_text(html)[0]

