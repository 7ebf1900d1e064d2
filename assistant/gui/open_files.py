"""Open files of the Ask panel: each file with what became of it (read, or the reason it was not), a read one with
a checkbox that takes it into the questions or leaves it out; add, remove."""

from __future__ import annotations

import re
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from assistant.documents import PasswordPrompt
from assistant.documents.email_files import is_mail_file, read_mail_file
from assistant.errors import InputError, PasswordRequired
from assistant.gui.sources_list import FittedList
from assistant.gui.tasks import Emit
from assistant.records import Document, Message, Progress
from assistant.service import ModelStore, Session, read_files

PATH_ROLE = Qt.ItemDataRole.UserRole
TICK_TIP = "Ticked: the questions are about this file. Untick it to leave it out without closing it."
_WRAPPED = re.compile(r"^(?P<head>[^(]*?)\s*\((?P<inner>.*)\)\s*\.?$", re.DOTALL)


def plain_reason(reason: str) -> str:
    """A reader's reason as one clause with at most one parenthesis: a nested library message
    ``corrupt or not a Word document (File is not a zip file (bad magic number).)`` becomes
    ``corrupt or not a Word document (bad magic number)``; its innermost part is the detail that names
    the cause, the wrappers around it only repeat that loading failed."""
    reason = reason.strip().rstrip(".")
    match = _WRAPPED.match(reason)
    if match is None:
        return reason
    head, inner = match["head"].strip(), match["inner"].strip().rstrip(".")
    while (deeper := _WRAPPED.match(inner)) is not None:
        inner = deeper["inner"].strip().rstrip(".")
    if not head or head.lower() in ("could not be read", "failed", "error"):
        return inner
    return f"{head} ({inner})" if inner else head


def problem_reason(path: str, problem: str) -> str:
    """The reason a part of the file at ``path`` was not read, from a document's problem (``source/part:
    reason``): ``encrypted (PGP): cannot be read`` of ``.../mail.eml/encrypted.asc: encrypted (PGP): cannot be
    read``."""
    rest = problem[len(path):] if problem.startswith(path) else problem
    return plain_reason(rest.split(": ", 1)[1] if ": " in rest else rest)


def failure_sentence(path: str, reason: str) -> str:
    """``Could not read NAME: REASON.`` as one sentence."""
    return f"Could not read {Path(path).name}: {plain_reason(reason)}."


@dataclass
class OpenedFiles:
    """What one background open produced: the new files read (path -> document), those that failed
    (path -> reason), those of them that are password-protected (path -> whether the password given was
    wrong), the saved messages among the new files (path -> the message, to draft a reply to) and the
    session over every open file (None when none could be read)."""

    read: dict[str, Document] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    locked: dict[str, bool] = field(default_factory=dict)
    messages: dict[str, Message] = field(default_factory=dict)
    session: Session | None = None


def _given(password: str | None) -> PasswordPrompt | None:
    """The password typed in the dialog, tried once (a wrong one goes back to the dialog)."""
    return None if password is None else (lambda _name, wrong: None if wrong else password)


def open_more(store: ModelStore, new: Sequence[str], kept: Sequence[Document], emit: Emit,
              cancel: threading.Event, passwords: dict[str, str] | None = None) -> OpenedFiles:
    """Read only the ``new`` paths, then build one session over ``kept`` and them. Runs off the GUI thread.
    ``passwords`` (path -> password typed in :func:`ask_password`) opens protected files; held in memory only."""
    out = OpenedFiles()
    for i, path in enumerate(new):
        emit(Progress("read", i, len(new), "files"))
        result = read_files([path], cancel=cancel, passwords=_given((passwords or {}).get(path)))
        if result.documents:
            out.read[path] = result.documents[0]
            if is_mail_file(path):
                try:
                    out.messages[path] = read_mail_file(path)
                except InputError:  # read as a document all the same; no reply is offered
                    pass
        for failure in result.failures:
            out.failed[path] = failure.reason
            if isinstance(failure, PasswordRequired) and failure.source == path:
                out.locked[path] = failure.wrong
    emit(Progress("read", len(new), len(new), "files"))
    documents = [*kept, *out.read.values()]
    out.session = Session(store, documents, emit=emit) if documents else None
    return out


def ask_password(parent: QWidget | None, path: str, wrong: bool) -> str | None:
    """The password dialog for a password-protected file (typing hidden); None when cancelled or empty."""
    name = Path(path).name
    label = (f"Wrong password for {name}. Type it again:" if wrong
             else f"{name} is password-protected. Type its password to read it:")
    text, ok = QInputDialog.getText(parent, "Password-protected file", label, QLineEdit.EchoMode.Password)
    return text if ok and text else None


class OpenFilesList(QWidget):
    """The list of open files; the window owns what they hold and asks to add or remove through signals, and
    hears through :attr:`ticked` when a file's checkbox takes it into the questions or leaves it out."""

    add_requested = Signal()
    remove_requested = Signal(list)  # the paths to close
    ticked = Signal(str, bool)  # a read file's path, whether it is asked about now
    draft_requested = Signal()  # "Draft a reply" to the saved message open
    MAX_ROWS = 4  # files listed before the list scrolls

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = FittedList(self.MAX_ROWS)  # a long reason wraps instead of running off behind a scroll bar
        self.list.setAccessibleName("Open files")
        self.list.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        self.list.itemChanged.connect(self._item_changed)
        self.add_button = QPushButton("Add files\u2026")
        self.add_button.setToolTip("Open more files; the questions are then about all of them (Ctrl+O)")
        self.add_button.clicked.connect(self.add_requested)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Close the selected files; the questions are then about the others and the "
                                      "conversation goes on")
        self.remove_button.clicked.connect(self._remove_selected)
        self.draft_button = QPushButton("Draft a reply")
        self.draft_button.setToolTip("Draft a reply to the saved message, grounded in its attachments (Ctrl+D)")
        self.draft_button.setAccessibleName("Draft a reply to the saved message")
        self.draft_button.clicked.connect(self.draft_requested)
        self.draft_button.setVisible(False)
        head = QHBoxLayout()  # the buttons beside the title: the list itself is only as tall as its files
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(QLabel("Open files"))
        head.addStretch(1)
        head.addWidget(self.draft_button)
        head.addWidget(self.add_button)
        head.addWidget(self.remove_button)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(head)
        column.addWidget(self.list)
        self.setVisible(False)

    def show_files(self, read: dict[str, Document], failed: dict[str, str], reading: Sequence[str] = (),
                   left_out: Collection[str] = ()) -> None:
        """One line per file: read (with its size in passages' words and a checkbox, ticked unless the file is
        in ``left_out``), being read, or the reason it failed."""
        self.list.blockSignals(True)  # filling the list is not the person ticking
        self.list.clear()
        for path, document in read.items():
            words = len(document.text.split())
            line, detail = f"{Path(path).name} ({words:,} words)", TICK_TIP
            if document.problems:  # a part left unread says so where the file is listed (an encrypted message)
                reasons = [problem_reason(path, problem) for problem in document.problems]
                more = f" and {len(reasons) - 1} more" if len(reasons) > 1 else ""
                line += f" \u26a0 {reasons[0]}{more}"
                detail = "Not read: " + "; ".join(document.problems) + "\n" + TICK_TIP
            item = self._add(path, line, detail)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked if path in left_out else Qt.CheckState.Checked)
        for path in reading:
            self._add(path, f"\u2026 {Path(path).name} (reading)")
        for path, reason in failed.items():
            self._add(path, f"\u2716 {Path(path).name} \u2014 not read: {plain_reason(reason)}", reason)
        self.list.blockSignals(False)
        self.list.fit()
        self.setVisible(self.list.count() > 0)
        self.remove_button.setEnabled(bool(read or failed))

    def paths(self) -> list[str]:
        return [str(self.list.item(i).data(PATH_ROLE)) for i in range(self.list.count())]

    def ticked_paths(self, *, ticked: bool = True) -> list[str]:
        """The read files whose checkbox is ticked (or, ``ticked=False``, every read file)."""
        items = (self.list.item(i) for i in range(self.list.count()))
        return [str(item.data(PATH_ROLE)) for item in items if item.flags() & Qt.ItemFlag.ItemIsUserCheckable
                and (not ticked or item.checkState() == Qt.CheckState.Checked)]

    def _add(self, path: str, text: str, detail: str = "") -> QListWidgetItem:
        item = QListWidgetItem(text)
        item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsUserCheckable)  # only a file read has a checkbox
        item.setToolTip(f"{path}\n{detail}" if detail else path)
        item.setData(PATH_ROLE, path)
        self.list.addItem(item)
        return item

    def _item_changed(self, item: QListWidgetItem) -> None:
        if item.flags() & Qt.ItemFlag.ItemIsUserCheckable:
            self.ticked.emit(str(item.data(PATH_ROLE)), item.checkState() == Qt.CheckState.Checked)

    def _remove_selected(self) -> None:
        paths = [str(item.data(PATH_ROLE)) for item in self.list.selectedItems()]
        if not paths and self.list.currentItem() is not None:
            paths = [str(self.list.currentItem().data(PATH_ROLE))]
        if paths:
            self.remove_requested.emit(paths)
