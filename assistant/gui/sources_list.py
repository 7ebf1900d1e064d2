"""Lists under the answer sized to what they hold, and the collapsed "Other passages read" section: the
passages the model read that the answer does not cite."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from assistant.gui.passage_view import short_source
from assistant.records import Source

SOURCE_ROLE = Qt.ItemDataRole.UserRole


class FittedList(QListWidget):
    """A list as tall as its rows, up to ``max_rows`` of them and :attr:`MAX_SHARE` of its window's height (it
    scrolls beyond: six long passages of a per-contract answer, opened beside the page view, grew an 800-pixel window
    past the screen), wrapped rows included: one
    file or one source takes one line, and the rest of the height goes to what is read (the answer, the
    conversation). Call :meth:`fit` after changing the rows; a new width refits by itself.

    The height is the size hint of a fixed vertical policy, not ``setFixedHeight``: a fixed height set while the
    list handles the resize of a new width resized it there and then, inside that resize, where Qt does not lay
    out the viewport again, so the viewport kept the old height and the second line of a row (a source's
    quote, once the page view took half the width) was cut off."""

    MAX_SHARE = 0.25

    def __init__(self, max_rows: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.max_rows = max_rows
        self._height = 0
        self.setWordWrap(True)
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.fit()

    def fit(self) -> None:
        self.doItemsLayout()  # the rows as wrapped at the present width (sizeHintForRow gives one line)
        rows = [self.visualRect(self.model().index(i, 0)).height() or self.sizeHintForRow(i)
                for i in range(min(self.count(), self.max_rows))]
        height = (sum(rows) if rows else self.fontMetrics().height()) + 2 * self.frameWidth() + 4
        top = self.window()
        if top is not self and top.height() > 0:  # at least one row shows
            height = min(height, max(int(top.height() * self.MAX_SHARE), (rows[0] if rows else 0) + 8))
        if height != self._height:
            self._height = height
            self.updateGeometry()  # the layout resizes the list in its own pass (see the class docstring)

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self._height)

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self._height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():  # rows wrap anew
            self.fit()


def source_item(source: Source) -> QListWidgetItem:
    """``[n] FILE, p. PAGE, SECTION: “snippet”``, the full path in the tooltip, the :class:`Source` in the item."""
    page = f", p. {source.page}" if source.page else ""
    item = QListWidgetItem(f"[{source.n}] {short_source(source.source)}{page}{source.section_note()}: "
                           f"\u201c{source.snippet}\u201d")
    item.setToolTip(source.source)
    item.setData(SOURCE_ROLE, source)
    return item


class OtherPassages(QWidget):
    """A toggle ("▸ Other passages read (2)") over a list of the passages read but not cited, closed at first."""

    MAX_ROWS = 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolTip("Passages the model read that the answer does not cite")
        self.toggle.toggled.connect(self._opened)
        self.list = FittedList(self.MAX_ROWS)
        self.list.setAccessibleName("Other passages read")
        self.list.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.list)
        self.show_sources(())

    def show_sources(self, sources: Sequence[Source]) -> None:
        """List ``sources`` (hidden when there are none), the section closed again."""
        self.list.clear()
        for source in sources:
            self.list.addItem(source_item(source))
        self.toggle.setText(f"Other passages read ({len(sources)})")
        self.toggle.setChecked(False)
        self.setVisible(bool(sources))

    def _opened(self, opened: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if opened else Qt.ArrowType.RightArrow)
        self.list.setVisible(opened)
        if opened:
            self.list.fit()
