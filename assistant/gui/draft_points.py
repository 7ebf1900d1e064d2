"""A draft's points as the Draft tab lists them: each request with its answer and cited sources, marked ✔ only
when the documents state the answer in whole sentences (⚠: a fragment to check, ✖: not stated)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QTreeWidgetItem

from assistant.gui.passage_view import short_source
from assistant.ttrag.compute.draft import Point

NOT_STATED = "not stated in the documents"
NOT_WHOLE = "part of a sentence that is not in its source as written: check it against the source"
SOURCE_ROLE = Qt.ItemDataRole.UserRole
_WARN = "#a05a00"


def point_item(n: int, point: Point) -> QTreeWidgetItem:
    """One answered point: the request, its answer (or "not stated"), and its cited sources as children; ✔ only
    for an answer the documents state in whole sentences (⚠: a fragment to check, ✖: not stated)."""
    answer = point.answer
    mark = "\u2714" if point.confirmed else "\u26a0" if answer.found else "\u2716"
    item = QTreeWidgetItem([f"{mark} {n}. {point.request}"])
    item.setToolTip(0, point.request)
    if not answer.found:
        _warn(item, NOT_STATED + " (the reply says so; nothing is made up)")
        return item
    item.addChild(QTreeWidgetItem([answer.text]))
    if not point.whole:
        _warn(item, NOT_WHOLE)
    for source in answer.sources:
        if source.n not in answer.supported_by:
            continue
        page = f", p. {source.page}" if source.page else ""
        child = QTreeWidgetItem([f"[{source.n}] {short_source(source.source)}{page}: \u201c{source.snippet}\u201d"])
        child.setToolTip(0, f"{source.source} \u2014 click to read the passage")
        child.setData(0, SOURCE_ROLE, source)
        item.addChild(child)
    return item


def _warn(item: QTreeWidgetItem, note: str) -> None:
    """``item`` and a ``note`` under it in the warning colour."""
    child = QTreeWidgetItem([note])
    for shown in (child, item):
        shown.setForeground(0, QBrush(QColor(_WARN)))
    item.addChild(child)
