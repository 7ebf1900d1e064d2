"""The open files: choosing, adding, removing, ticking and unticking the local files the Ask panel asks about.
Each file is read once, in the background; a password-protected one is asked for its password and read again.
What is asked about (these files beside a message) is :mod:`assistant.gui.ask_context`'s."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from assistant.documents import supported_suffixes
from assistant.gui.ask_context import AskContext
from assistant.gui.draft_panel import MailFile
from assistant.gui.file_dialogs import open_file_names
from assistant.gui.open_files import OpenedFiles, ask_password, open_more
from assistant.gui.window_layout import WindowLayout
from assistant.records import Document
from assistant.text.plural import count_of


class FilesController(QObject):
    """The files open in ``ui``'s Ask panel: :attr:`open_docs` (read, by path; never read twice),
    :attr:`open_failures` (could not be read: the reason) and :attr:`left_out` (read, but unticked: not asked
    about). :attr:`changed` is emitted when they change; ``asking`` is told which files are asked about."""

    changed = Signal()

    def __init__(self, ui: WindowLayout, asking: AskContext) -> None:
        super().__init__(ui)
        self.ui = ui
        self.asking = asking
        self.open_docs: dict[str, Document] = {}
        self.open_failures: dict[str, str] = {}
        self.left_out: set[str] = set()
        self.mail_files: dict[str, MailFile] = {}  # the saved messages open (.eml, .msg): a reply is offered
        ui.ask_panel.files.ticked.connect(self.tick)

    def ticked_documents(self) -> list[Document]:
        """The open files asked about (ticked), in the order they were opened."""
        return [d for path, d in self.open_docs.items() if path not in self.left_out]

    def choose_files(self) -> None:
        """The file dialog, opening in the folder files were last opened from."""
        patterns = " ".join(f"*{s}" for s in supported_suffixes())
        start = str(self.ui.settings.value("files/last_dir", ""))
        paths = open_file_names(self.ui, "Open files", start if Path(start).is_dir() else "",
                                f"Documents ({patterns});;All files (*)")
        if paths:
            self.ui.settings.setValue("files/last_dir", str(Path(paths[0]).parent))
            self.open_files(paths)

    def open_files(self, paths: Sequence[str | Path]) -> None:
        """Add ``paths`` to the open files and read, in the background, only those not read yet; the Ask panel
        then asks about every open file."""
        new = list(dict.fromkeys(str(p) for p in paths if str(p) not in self.open_docs))
        for path in new:
            self.open_failures.pop(path, None)
        self.ui.tabs.setCurrentWidget(self.ui.ask_panel)
        if not new:
            self.ui.flash_notice("Those files are already open.")
            return
        self._reopen(new, f"Reading {count_of(len(new), 'more file')}\u2026" if self.open_docs else
                     f"Reading {count_of(len(new), 'file')}\u2026")

    def close_files(self, paths: Sequence[str]) -> None:
        """Remove ``paths`` from the open files; the others are not read again, and the conversation goes on
        about them (the passages of a closed file are no longer searched; the answers that cited them stay)."""
        for path in paths:
            self.open_docs.pop(path, None)
            self.open_failures.pop(path, None)
            self.mail_files.pop(path, None)
            self.left_out.discard(path)
        self._offer_reply(None)
        if self.ui.ask_panel.passage.shown_source in paths:  # a closed file's page stayed beside the answer
            self.ui.ask_panel.passage.clear()
        self.ui.ask_panel.files.show_files(self.open_docs, self.open_failures, left_out=self.left_out)
        self.asking.set_files(self.ticked_documents())
        self.changed.emit()

    def tick(self, path: str, on: bool) -> None:
        """Take the open file ``path`` into the questions (``on``) or leave it out; the conversation goes on."""
        if path not in self.open_docs or (path not in self.left_out) == on:
            return
        if on:
            self.left_out.discard(path)
        else:
            self.left_out.add(path)
        self.asking.set_files(self.ticked_documents())
        self.changed.emit()

    def _reopen(self, new: list[str], description: str, passwords: dict[str, str] | None = None) -> None:
        store, kept = self.ui.store, self.ticked_documents()
        self.ui.ask_panel.files.show_files(self.open_docs, self.open_failures, new, self.left_out)
        self.ui.ask_panel.set_session(None, description)
        self.ui.runner.start("context", "Opening files",
                             lambda emit, cancel: open_more(store, new, kept, emit, cancel, passwords),
                             self._files_opened, on_error=self.ui.context_error)

    def _unlock(self, locked: dict[str, bool]) -> None:
        """Ask for the password of each password-protected file just opened (again after a wrong one) and
        read those given once more; Cancel leaves the file listed as not read. Passwords stay in memory."""
        passwords: dict[str, str] = {}
        for path, wrong in locked.items():
            password = ask_password(self.ui, path, wrong)
            if password is not None:
                passwords[path] = password
                self.open_failures.pop(path, None)
        if passwords:
            self._reopen(list(passwords), f"Reading {count_of(len(passwords), 'password-protected file')}\u2026",
                         passwords)

    def _offer_reply(self, newest: MailFile | None) -> None:
        """"Draft a reply" while a saved message is open; the Draft tab replies to ``newest`` (the message just
        opened), else keeps its own unless that file was closed."""
        self.ui.ask_panel.files.draft_button.setVisible(bool(self.mail_files))
        panel = self.ui.draft_panel
        if newest is not None:
            panel.set_mail_file(newest)
        elif panel.mail_file is not None and panel.mail_file.path not in self.mail_files:
            panel.set_mail_file(next(reversed(self.mail_files.values()), None))

    def _files_opened(self, opened: OpenedFiles) -> None:
        self.open_docs.update(opened.read)
        self.open_failures.update(opened.failed)
        new = [MailFile(path, message) for path, message in opened.messages.items()]
        self.mail_files.update((m.path, m) for m in new)
        self._offer_reply(new[-1] if new else None)
        panel = self.ui.ask_panel
        panel.files.show_files(self.open_docs, self.open_failures, left_out=self.left_out)
        self.asking.opened(opened.session, self.ticked_documents(), opened.failed)
        self.changed.emit()
        if opened.session is not None:
            panel.question.setFocus()  # the next thing a person does is type the question
        if opened.locked:
            self._unlock(opened.locked)
