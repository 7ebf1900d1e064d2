"""Message list: a table model over the local mail cache (new, attachment, sender, subject, date), a filter, and
grouping by conversation (References / In-Reply-To, :mod:`assistant.mail.threads`). A message whose attachments
have a gist (:mod:`assistant.mail.gists`) shows it on a second line under its subject, across the whole Subject
column (after the subject on the same line it was cut away with the subject's end), its sources in the tooltip."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from assistant.mail.cache import CachedRef, MailCache
from assistant.mail.gists import Gist, load_gist
from assistant.mail.threads import group_threads, headers_of
from assistant.mail.todo import cached_messages
from assistant.records import Message

COLUMNS = ("\u25CF", "+", "From", "Subject", "Date")  # new, attachments: narrow marks, named in tooltips
FROM_SHARE = 0.4  # of the width left beside the marks and the date; Subject gets the rest
REPLY_MARK = "\u21B3 "  # before the subject of a conversation's later messages, when grouped
GIST_ROLE = Qt.ItemDataRole.UserRole + 1  # the Subject column's second line: the attachments' gist
GIST_SCALE = 0.9  # the gist line's type, against the subject's
_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class MessageRow:
    """One cached message: where it is, the parsed message, whether the last sync brought it, and its
    attachments' gist when one was kept."""

    ref: CachedRef
    message: Message
    new: bool
    gist: Gist | None = None


def load_rows(cache: MailCache, account: str | None = None, folder: str | None = None) -> list[MessageRow]:
    """Parse every cached message (of one account/folder), newest first. Runs off the GUI thread."""
    rows = [MessageRow(m.ref, m.message, m.new, load_gist(cache, m.ref) if m.message.attachments else None)
            for m in cached_messages(cache, account, folder)]
    rows.sort(key=lambda r: (r.message.date.timestamp() if r.message.date else 0.0, r.ref.uid), reverse=True)
    return rows


def conversation_order(rows: list[MessageRow]) -> list[tuple[MessageRow, int, int]]:
    """``rows`` conversation by conversation (the one with the newest message first), each oldest first:
    ``(row, position in its conversation (0 = first), conversation size)``."""
    by_key = {r.ref.id: r for r in rows}
    ordered = []
    for thread in group_threads([headers_of(r.message, r.ref.id) for r in rows]):
        for i, key in enumerate(thread.keys):
            ordered.append((by_key[key], i, len(thread.keys)))
    return ordered


class MessageTableModel(QAbstractTableModel):
    """Rows of :class:`MessageRow`: newest first, or grouped by conversation (:attr:`grouped`), where a
    conversation's first message shows the number of messages and the later ones are indented under it."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[MessageRow] = []
        self.loaded: list[MessageRow] = []
        self.grouped = False
        self.places: list[tuple[int, int]] = []  # per row: (position in its conversation, its size)

    def set_rows(self, rows: list[MessageRow]) -> None:
        self.loaded = rows
        self._arrange()

    def set_gist(self, message_id: str, gist: Gist) -> bool:
        """Show ``gist`` on the message ``ACCOUNT:FOLDER:UID``; whether it is listed."""
        self.loaded = [replace(r, gist=gist) if r.ref.id == message_id else r for r in self.loaded]
        for i, r in enumerate(self.rows):
            if r.ref.id == message_id:
                self.rows[i] = replace(r, gist=gist)
                self.dataChanged.emit(self.index(i, 0), self.index(i, len(COLUMNS) - 1))
                return True
        return False

    def set_grouped(self, grouped: bool) -> None:
        """Group the rows by conversation (or show them newest first again)."""
        self.grouped = grouped
        self._arrange()

    def _arrange(self) -> None:
        self.beginResetModel()
        if self.grouped:
            ordered = conversation_order(self.loaded)
            self.rows = [r for r, _, _ in ordered]
            self.places = [(i, n) for _, i, n in ordered]
        else:
            self.rows = list(self.loaded)
            self.places = [(0, 1)] * len(self.rows)
        self.endResetModel()

    def subject_text(self, row: int) -> str:
        """The Subject column: grouped, the first message of a conversation of N shows ``(N)`` after it and the
        later ones start with an arrow."""
        subject = self.rows[row].message.subject or "(no subject)"
        position, size = self.places[row]
        if not self.grouped or size == 1:
            return subject
        return f"{subject} ({size})" if position == 0 else f"    {REPLY_MARK}{subject}"

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008  (Qt's signature)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return ("New since the last sync", "Number of attachments", "", "", "")[section] or None
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.AccessibleTextRole:
            return ("New", "Attachments", "From", "Subject", "Date")[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        m, col = row.message, index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return "\u25CF" if row.new else ""
            if col == 1:
                return f"+{len(m.attachments)}" if m.attachments else ""
            if col == 2:
                return m.sender
            if col == 3:
                return self.subject_text(index.row())
            return m.date.strftime("%Y-%m-%d %H:%M") if m.date else ""
        if role == Qt.ItemDataRole.AccessibleTextRole:
            flags = ("new, " if row.new else "") + ("with attachments, " if m.attachments else "")
            position, size = self.places[index.row()]
            where = f", message {position + 1} of {size} in the conversation" if self.grouped and size > 1 else ""
            gist = f". Attachments: {row.gist.text}" if row.gist is not None and row.gist.text else ""
            return f"{flags}from {m.sender}, {m.subject}{where}{gist}"
        if role == Qt.ItemDataRole.ToolTipRole and col in (0, 1):
            return ("New" if row.new else None) if col == 0 else (
                ", ".join(a.filename for a in m.attachments) or None)
        if role == Qt.ItemDataRole.ToolTipRole and col == 3 and row.gist is not None and row.gist.text:
            return row.gist.cited()
        if role == Qt.ItemDataRole.UserRole:
            return row
        if role == GIST_ROLE and col == 3:
            return row.gist.text if row.gist is not None and row.gist.text else None
        return None


class SubjectDelegate(QStyledItemDelegate):
    """The Subject column: a row whose message has a gist is two lines high, the subject on the first and the
    gist under it in smaller, muted type, each shortened at its end to the column's width (the whole gist and
    its sources are in the tooltip); other rows are drawn as usual."""

    @staticmethod
    def gist_font(font: QFont) -> QFont:
        small = QFont(font)
        if font.pointSizeF() > 0:
            small.setPointSizeF(font.pointSizeF() * GIST_SCALE)
        else:
            small.setPixelSize(max(1, round(font.pixelSize() * GIST_SCALE)))
        return small

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        size = super().sizeHint(option, index)
        if index.data(GIST_ROLE):
            size.setHeight(size.height() + QFontMetrics(self.gist_font(option.font)).lineSpacing())
        return size

    def lines(self, option: QStyleOptionViewItem, index: _Index) -> tuple[QRect, str, QRect, str]:
        """Where the subject and the gist go in the cell and the words shown there (shortened to fit)."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        area = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        small = QFontMetrics(self.gist_font(opt.font))
        top = QRect(area.left(), area.top(), area.width(), area.height() - small.lineSpacing())
        bottom = QRect(area.left(), top.bottom() + 1, area.width(), small.lineSpacing())
        width = max(0, area.width() - 2)
        subject = QFontMetrics(opt.font).elidedText(opt.text, Qt.TextElideMode.ElideRight, width)
        gist = small.elidedText(str(index.data(GIST_ROLE) or ""), Qt.TextElideMode.ElideRight, width)
        return top, subject, bottom, gist

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        if not index.data(GIST_ROLE):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        top, subject, bottom, gist = self.lines(option, index)
        opt.text = ""  # the background, selection and focus only
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = opt.palette
        text = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        muted = text if selected else palette.color(QPalette.ColorRole.PlaceholderText)
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(text)
        painter.drawText(top, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), subject)
        painter.setFont(self.gist_font(opt.font))
        painter.setPen(muted)
        painter.drawText(bottom, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), gist)
        painter.restore()


class MessageFilter(QSortFilterProxyModel):
    """Keeps rows whose sender, subject or body contains every word typed."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.words: list[str] = []

    def set_text(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9; invalidateFilter() is deprecated there
            self.beginFilterChange()
            self.words = text.lower().split()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.words = text.lower().split()
            self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        if not self.words or not isinstance(model, MessageTableModel):
            return True
        m = model.rows[source_row].message
        row = model.rows[source_row]
        gist = row.gist.text if row.gist is not None else ""
        hay = f"{m.sender}\n{m.subject}\n{m.body}\n{gist}".lower()
        return all(w in hay for w in self.words)


class MessageListPanel(QWidget):
    """Filter box above the message table; emits ``selected(MessageRow)``."""

    selected = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = MessageTableModel(self)
        self.proxy = MessageFilter(self)
        self.proxy.setSourceModel(self.model)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter messages (Ctrl+F)")
        self.filter.setClearButtonEnabled(True)
        self.filter.setAccessibleName("Filter messages")
        self.filter.textChanged.connect(self.proxy.set_text)
        self.group = QCheckBox("Group by conversation")
        self.group.setToolTip("Show each conversation's messages together, its first message with the number of "
                              "messages and the replies below it (found from the References and In-Reply-To "
                              "headers)")
        self.group.setAccessibleName("Group messages by conversation")
        self.group.toggled.connect(self.set_grouped)
        self._quiet = False  # True while the selection is moved without announcing it
        self.table = QTableView()
        self.table.setAccessibleName("Messages")
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.subjects = SubjectDelegate(self.table)
        self.table.setItemDelegateForColumn(3, self.subjects)
        # a row with a gist is two lines high: set where rows come (ResizeToContents measured every row of the
        # list at each change: 7 s for 3,000 messages); the heights follow their rows through the filter
        self.proxy.modelReset.connect(lambda: self._fit_rows())
        self.proxy.layoutChanged.connect(lambda *_: self._fit_rows())
        self.proxy.rowsInserted.connect(lambda _parent, first, last: self._fit_rows(first, last))
        self.proxy.dataChanged.connect(lambda top, bottom, *_: self._fit_rows(top.row(), bottom.row()))
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setTabKeyNavigation(False)  # Tab leaves the list (arrows move in it): no keyboard trap
        header = self.table.horizontalHeader()
        for col in (0, 1, 4):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(2, 180)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(24)
        # From takes a share of the width, so a narrow window (1024x640) still shows Subject and the whole Date
        self.table.viewport().installEventFilter(self)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.group)
        layout.addLayout(top)
        layout.addWidget(self.table)

    def set_rows(self, rows: list[MessageRow]) -> None:
        self.model.set_rows(rows)
        self._fit_columns()

    def set_gist(self, message_id: str, gist: Gist) -> bool:
        """Show ``gist`` on the listed message ``ACCOUNT:FOLDER:UID``; whether it is listed."""
        return self.model.set_gist(message_id, gist)

    def set_grouped(self, grouped: bool) -> None:
        """Group by conversation (or not), keeping the selected message selected."""
        current = self.current()
        if self.group.isChecked() != grouped:
            self.group.setChecked(grouped)  # comes back here through toggled
            return
        self.model.set_grouped(grouped)
        if current is not None:
            self.select_ref(current.ref.id, notify=False)

    def select_ref(self, message_id: str, *, notify: bool = True) -> bool:
        """Select the message ``ACCOUNT:FOLDER:UID`` if it is listed (shown by the filter); whether it was.
        ``notify=False`` moves the selection without emitting :attr:`selected` again."""
        for i in range(self.proxy.rowCount()):
            row = self.proxy.index(i, 0).data(Qt.ItemDataRole.UserRole)
            if isinstance(row, MessageRow) and row.ref.id == message_id:
                self._quiet = not notify
                try:
                    self.table.setCurrentIndex(self.proxy.index(i, 3))
                finally:
                    self._quiet = False
                return True
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._fit_columns()
        return False

    def _fit_rows(self, first: int = 0, last: int | None = None) -> None:
        """Give rows ``first``..``last`` (of the filtered list) their height: two lines with a gist, else one."""
        header = self.table.verticalHeader()
        one = header.defaultSectionSize()
        two = one + QFontMetrics(SubjectDelegate.gist_font(self.table.font())).lineSpacing()
        last = self.proxy.rowCount() - 1 if last is None else min(last, self.proxy.rowCount() - 1)
        for i in range(first, last + 1):
            height = two if self.proxy.index(i, 3).data(GIST_ROLE) else one
            if header.sectionSize(i) != height:
                header.resizeSection(i, height)

    def _fit_columns(self) -> None:
        header = self.table.horizontalHeader()
        fixed = sum(header.sectionSize(c) for c in (0, 1, 4))
        header.resizeSection(2, max(80, min(240, int((self.table.viewport().width() - fixed) * FROM_SHARE))))

    def current(self) -> MessageRow | None:
        index = self.table.currentIndex()
        row = index.data(Qt.ItemDataRole.UserRole) if index.isValid() else None
        return row if isinstance(row, MessageRow) else None

    def select_row(self, row: int) -> None:
        if 0 <= row < self.proxy.rowCount():
            self.table.setCurrentIndex(self.proxy.index(row, 3))

    def step(self, delta: int) -> None:
        """Previous (-1) or next (+1) message."""
        current = self.table.currentIndex().row()
        self.select_row(max(0, current + delta) if current >= 0 else 0)

    def _current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        if self._quiet:
            return
        row = current.data(Qt.ItemDataRole.UserRole) if current.isValid() else None
        if isinstance(row, MessageRow):
            self.selected.emit(row)
