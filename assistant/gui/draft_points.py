"""A draft's points as the Draft tab lists them: each request with its answer and cited sources, marked ✔ only
when the documents state the answer in whole sentences (⚠: a fragment to check, ✖: not stated); the list wraps
each row at its width, so a point stays readable beside the page view (a one-line row was cut to "…")."""

from __future__ import annotations

import math

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QResizeEvent, QTextLayout, QTextOption
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QTreeWidget, QTreeWidgetItem, QWidget

from assistant.gui.passage_view import short_source
from assistant.ttrag.compute.draft import Point

NOT_STATED = "not stated in the documents"
NOT_WHOLE = "part of a sentence that is not in its source as written: check it against the source"
SOURCE_ROLE = Qt.ItemDataRole.UserRole
_WARN = "#a05a00"
_PAD = 8  # pixels around a row's text (the style's margins)


class PointsTree(QTreeWidget):
    """The points and their sources, each row wrapped at the list's width (no header, no horizontal scroll)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderHidden(True)  # the heading is a label above, wrapped: a header was cut to "…documents sa"
        self.setColumnCount(1)
        self.setWordWrap(True)
        self.setUniformRowHeights(False)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.header().setStretchLastSection(True)
        self.header().setMinimumSectionSize(0)
        self.setItemDelegate(_Wrapped(self))

    def text_width(self, index: QModelIndex | QPersistentModelIndex) -> int:
        """The width a row's text wraps at: the list's, less the indentation of its depth and a vertical scroll
        bar's width whether one shows or not (one that appears as the rows grow would narrow them again)."""
        depth = 0
        parent = index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        room = self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width()
        return max(40, room - self.indentation() * (depth + 1) - _PAD)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():  # the rows wrap anew
            self.scheduleDelayedItemsLayout()


class _Wrapped(QStyledItemDelegate):
    """Rows as tall as their text wrapped at the list's width (Qt's tree gives each row one line)."""

    def __init__(self, tree: PointsTree) -> None:
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem,  # noqa: N802  (the Qt method it overrides)
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        width = self.tree.text_width(index)
        return QSize(width, wrapped_height(str(index.data(Qt.ItemDataRole.DisplayRole) or ""), option.font,
                                           width) + _PAD)


def wrapped_height(text: str, font: QFont, width: int) -> int:
    """The height of ``text`` wrapped at ``width`` pixels as an item view wraps it (at words, or anywhere in a
    word longer than the line)."""
    layout = QTextLayout(text, font)
    wrap = QTextOption()
    wrap.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(wrap)
    layout.beginLayout()
    height = 0.0
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        height += line.height()
    layout.endLayout()
    return math.ceil(height)


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
