"""Message list: a table model over the local mail cache (new, attachment, sender, subject, date) and a filter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLineEdit, QTableView, QVBoxLayout, QWidget

from assistant.documents.mime.parse import parse_message
from assistant.mail.cache import CachedRef, FolderState, MailCache
from assistant.records import Message

COLUMNS = ("\u25CF", "+", "From", "Subject", "Date")  # new, attachments: narrow marks, named in tooltips
FROM_SHARE = 0.4  # of the width left beside the marks and the date; Subject gets the rest
_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class MessageRow:
    """One cached message: where it is, the parsed message, and whether the last sync brought it."""

    ref: CachedRef
    message: Message
    new: bool


def load_rows(cache: MailCache, account: str | None = None, folder: str | None = None) -> list[MessageRow]:
    """Parse every cached message (of one account/folder), newest first. Runs off the GUI thread."""
    states: dict[tuple[str, str], FolderState | None] = {}
    rows = []
    for ref in cache.refs(account):
        if folder is not None and ref.folder != folder:
            continue
        raw = cache.get(ref)
        if raw is None:
            continue
        state = states.setdefault((ref.account, ref.folder), cache.state(ref.account, ref.folder))
        rows.append(MessageRow(ref, parse_message(raw), bool(state and ref.uid > state.previous_uid)))
    rows.sort(key=lambda r: (r.message.date.timestamp() if r.message.date else 0.0, r.ref.uid), reverse=True)
    return rows


class MessageTableModel(QAbstractTableModel):
    """Rows of :class:`MessageRow`."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[MessageRow] = []

    def set_rows(self, rows: list[MessageRow]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

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
                return m.subject or "(no subject)"
            return m.date.strftime("%Y-%m-%d %H:%M") if m.date else ""
        if role == Qt.ItemDataRole.AccessibleTextRole:
            flags = ("new, " if row.new else "") + ("with attachments, " if m.attachments else "")
            return f"{flags}from {m.sender}, {m.subject}"
        if role == Qt.ItemDataRole.ToolTipRole and col in (0, 1):
            return ("New" if row.new else None) if col == 0 else (
                ", ".join(a.filename for a in m.attachments) or None)
        if role == Qt.ItemDataRole.UserRole:
            return row
        return None


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
        hay = f"{m.sender}\n{m.subject}\n{m.body}".lower()
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
        self.table = QTableView()
        self.table.setAccessibleName("Messages")
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
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
        layout.addWidget(self.filter)
        layout.addWidget(self.table)

    def set_rows(self, rows: list[MessageRow]) -> None:
        self.model.set_rows(rows)
        self._fit_columns()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._fit_columns()
        return False

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
        row = current.data(Qt.ItemDataRole.UserRole) if current.isValid() else None
        if isinstance(row, MessageRow):
            self.selected.emit(row)
