"""The Settings dialog's "New mail" part: which folders are watched and how, whether mail with attachments
is told and its attachments' gist shown, in a person's words (the engineers' terms, IMAP IDLE and polling,
only in the tooltips)."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from assistant.config import DEFAULT_POLL_S, MailSettings, WatchedFolder

#: (config value, label, tooltip) of each way of watching a folder.
HOW_CHOICES = (
    ("idle", "As it arrives",
     "The server tells the app the moment mail arrives (IMAP IDLE, RFC 2177); servers without it are asked "
     "regularly instead. One connection stays open per folder."),
    ("poll", "Check regularly",
     "The app asks the server for new mail every so many seconds (polling). Use it for servers that drop idle "
     "connections; a long interval spares battery and the server."),
)
TIPS = {
    "notify": "Show a notification when a watched folder gets a message with attachments, with \u201cAsk about "
              "it\u201d to open the message and its attachments for a question. It costs nothing extra: the "
              "folders are watched either way.",
    "gist": "Read the attachments of each new message in the background, when no question is being answered, "
            "and show what they are in one line, with the page each fact comes from, in the notification and the "
            "message list. It is kept only beside the message in this computer's copy of your mail. It costs "
            "processor time (tens of seconds a message with the bundled model) and the model's memory, at the "
            "lowest priority, while nothing else needs them.",
    "table": "The folders checked for new mail while the app is open, each on its own connection. With none "
             "listed, every account's folders (as set when the account was added) are watched as mail arrives.",
    "every": "How often to check when checking regularly, in seconds.",
    "account": "Which account the folder belongs to; \u201cEvery account\u201d watches the folder in each account "
               "that has it (each costs one more open connection).",
    "folder": "The folder's name on the server, as your mail program shows it; each watched folder keeps one "
              "connection open, which costs little.",
}
ALL_ACCOUNTS = "Every account"
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
COLUMNS = ("Folder", "Account", "New mail is fetched", "Check every")


class WatchSettings(QGroupBox):
    """Edits ``MailSettings.watch``, ``notify`` and ``gist``; :meth:`values` gives them for config.toml."""

    def __init__(self, mail: MailSettings, accounts: list[str], parent: QWidget | None = None) -> None:
        super().__init__("New mail", parent)
        self.accounts = accounts
        self.notify = QCheckBox("Tell me when mail with attachments arrives")
        self.notify.setChecked(mail.notify)
        self.notify.setToolTip(TIPS["notify"])
        self.notify.setAccessibleName("Tell me when mail with attachments arrives")
        self.gist = QCheckBox("Say what the attachments are (read in the background)")
        self.gist.setChecked(mail.gist)
        self.gist.setToolTip(TIPS["gist"])
        self.gist.setAccessibleName("Say what the attachments of new mail are")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setToolTip(TIPS["table"])
        self.table.setAccessibleName("Watched folders")
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(COLUMNS)):  # fitted to header and cells in _fit_columns
            self.table.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        self.table.setMinimumHeight(110)
        # with no account there is nothing to watch yet: the line says how to start, not "every account's folders"
        self.empty = QLabel("No folders listed: every account's folders are watched as mail arrives." if accounts else
                            "No mail account yet: add one (File \u25b8 Add account\u2026), then list here the folders "
                            "to watch, or leave the list empty to watch every folder.")
        self.empty.setWordWrap(True)
        self.add_button = QPushButton("Add folder")
        self.add_button.setToolTip("Watch one more folder")
        self.add_button.clicked.connect(lambda: self.add_row(WatchedFolder("INBOX")))
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Stop watching the selected folder")
        self.remove_button.clicked.connect(self.remove_row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.notify)
        layout.addWidget(self.gist)
        layout.addWidget(self.table)
        layout.addWidget(self.empty)
        layout.addLayout(buttons)
        for entry in mail.watch:
            self.add_row(entry)
        self._update()

    def add_row(self, entry: WatchedFolder) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        name = QLineEdit(entry.folder)
        name.setAccessibleName(f"Folder {row + 1}")
        name.setPlaceholderText("e.g. INBOX or Projects/Roof")
        name.setToolTip(TIPS["folder"])
        account = QComboBox()
        account.addItem(ALL_ACCOUNTS, "")
        for a in sorted({*self.accounts, *([entry.account] if entry.account else [])}):
            account.addItem(a, a)
        account.setCurrentIndex(max(0, account.findData(entry.account)))
        account.setToolTip(TIPS["account"])
        how = QComboBox()
        for i, (key, label, tip) in enumerate(HOW_CHOICES):
            how.addItem(label, key)
            how.setItemData(i, tip, _TOOLTIP)
        how.setCurrentIndex(max(0, how.findData(entry.mode)))
        how.setToolTip("\n\n".join(f"{label}: {tip}" for _, label, tip in HOW_CHOICES))
        every = QSpinBox()
        every.setRange(1, 24 * 3600)
        every.setSuffix(" s")
        every.setValue(int(round(entry.poll_s)))
        every.setToolTip(TIPS["every"])
        how.currentIndexChanged.connect(lambda _=0, h=how, e=every: e.setEnabled(h.currentData() == "poll"))
        every.setEnabled(entry.mode == "poll")
        for col, widget in enumerate((name, account, how, every)):
            self.table.setCellWidget(row, col, widget)
        self._update()

    def remove_row(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            row = self.table.rowCount() - 1
        if row >= 0:
            self.table.removeRow(row)
        self._update()

    def _update(self) -> None:
        self.empty.setVisible(self.table.rowCount() == 0)
        self.remove_button.setEnabled(self.table.rowCount() > 0)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """Each column but the folder's as wide as its header and its cells' widgets: a header is read whole ("New
        mail is fetched", not "ew mail is fetche") and so is a choice ("Every account", not "Every")."""
        header = self.table.horizontalHeader()
        for column in range(1, len(COLUMNS)):
            widths = [header.sectionSizeHint(column)]
            for row in range(self.table.rowCount()):
                widget = self.table.cellWidget(row, column)
                if widget is not None:
                    widths.append(widget.sizeHint().width())
            header.resizeSection(column, max(widths))

    def folders(self) -> tuple[WatchedFolder, ...]:
        """The listed folders (rows without a name are left out; a folder listed twice counts once)."""
        found: dict[tuple[str, str], WatchedFolder] = {}
        for row in range(self.table.rowCount()):
            name, account, how, every = (self.table.cellWidget(row, c) for c in range(len(COLUMNS)))
            assert isinstance(name, QLineEdit) and isinstance(account, QComboBox)
            assert isinstance(how, QComboBox) and isinstance(every, QSpinBox)
            folder = name.text().strip()
            if folder:
                entry = WatchedFolder(folder, how.currentData(), float(every.value()), account.currentData())
                found.setdefault((entry.account, folder), entry)
        return tuple(found.values())

    def values(self) -> dict[str, object]:
        """``notify``, ``gist`` and ``watch`` as config.toml's ``[mail]`` table holds them."""
        return {"notify": self.notify.isChecked(), "gist": self.gist.isChecked(),
                "watch": [{k: v for k, v in dataclasses.asdict(w).items()
                           if not (k == "account" and not v) and not (k == "poll_s" and v == DEFAULT_POLL_S)}
                          for w in self.folders()]}
