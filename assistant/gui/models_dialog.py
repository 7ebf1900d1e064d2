"""Models dialog: the catalogue in a person's words (what each model does, its size, memory and speed here),
downloads in the background with progress and Cancel, a model chosen for the next question, removal asked first.

Opened from Settings ("More models…"). Downloads go through :func:`assistant.models.download.pull` (the hub,
``HF_ENDPOINT`` for a mirror): the only network use of the app besides mail. A cancelled or failed download
installs nothing (``pull`` stages in ``<data>/models/.incoming`` and renames only a verified folder).
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from tqdm import tqdm

from assistant.config import Settings
from assistant.errors import AssistantError, Cancelled
from assistant.gui.confirm import confirm_remove
from assistant.gui.tasks import Emit, TaskRunner
from assistant.models import catalog, choice, download
from assistant.models.catalog import CatalogEntry
from assistant.records import Progress
from assistant.text.tokens import WORDS_PER_TOKEN, about_words

CONTEXT_TOKENS = 4096  # the reader's context with which the catalogue's memory figures were measured
#: What each role does, in a person's words, and the engineers' terms for the tooltip.
ROLE_WORDS = {
    "reader": ("Reads and answers",
               "The language model (LLM): it decides how to handle a question, rewords the search when nothing "
               "is found and writes the answer from the passages. A model file in GGUF format, run by llama.cpp."),
    "embedder": ("Finds passages",
                 "The embedding model of the pre-filter: it finds passages close in meaning to the question, "
                 "together with keyword search (BM25)."),
    "encoder": ("Ranks passages",
                "The conditional encoder: it reads the question together with each candidate passage to put the "
                "best ones first (conditional embeddings, Test-Time RAG)."),
}
STATE_WORDS = {"bundled": "Comes with the app", "installed": "Installed", "available": "Not downloaded"}
COLUMNS = ("Model", "Used for", "Download size", "Memory needed", "Speed on this computer", "Licence", "State")
COLUMN_TIPS = (
    "The model's name; its notes are in the tooltip of each name.",
    "What the model does when a question is answered.",
    "How much is downloaded and kept on disk (~: about).",
    f"Memory the model needs while it answers, holding {about_words(CONTEXT_TOKENS)} of passages and "
    "question at a time.",
    "How fast the model reads the passages and writes the answer, where it was measured; 'not measured here' "
    "otherwise.",
    "The model's licence: what its makers allow.",
    "Whether the model is on this computer; 'in use' marks the one chosen in Settings.",
)
_TOKEN_SPEED = re.compile(r"prefill (\d+) tok/s, generation (\d+) tok/s on an? [\d,]+-token prompt")
_CHUNK_SPEED = re.compile(r"([\d-]+) chunks/s")


def speed_words(speed: str) -> str:
    """The catalogue's speed in a person's words: ``prefill 90 tok/s, generation 30 tok/s on a 643-token
    prompt (measured here)`` reads ``reads about 70 words a second, writes about 20 (measured here)``; the
    catalogue's own words go in the cell's tooltip."""
    def per_second(tokens: str) -> int:
        words = int(tokens) * WORDS_PER_TOKEN
        return int(round(words, -1)) if words >= 20 else max(1, round(words))

    speed = _TOKEN_SPEED.sub(lambda m: f"reads about {per_second(m[1])} words a second, writes about "
                                       f"{per_second(m[2])}", speed)
    return _CHUNK_SPEED.sub(lambda m: f"{m[1]} passages a second", speed)


UNREACHABLE = ("Could not reach the model site ({endpoint}): this computer seems to be offline, or the site is "
               "down. Nothing was downloaded; the models you already have keep working.")


def memory_bytes() -> int:
    """This computer's memory in bytes (0 when the system does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):
        return 0


def _progress_bar_class(emit: Emit, cancel: threading.Event) -> type[tqdm]:
    """A tqdm class for ``hf_hub_download`` that sends :class:`Progress` events and stops on ``cancel``."""

    class Bar(tqdm):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = True  # nothing on the terminal; update() below does the reporting
            super().__init__(*args, **kwargs)
            self.got = int(kwargs.get("initial") or 0)
            self.size = int(kwargs.get("total") or 0)
            emit(Progress("download", self.got, self.size, "B"))

        def update(self, n: float | None = 1) -> bool | None:
            if cancel.is_set():  # raised inside huggingface_hub's read loop: the staging folder is removed
                raise Cancelled()
            self.got += int(n or 0)
            emit(Progress("download", self.got, self.size, "B"))
            return None

    return Bar


def pull_in_background(entry: CatalogEntry, emit: Emit, cancel: threading.Event) -> str:
    """Pull ``entry`` (runs off the GUI thread); emits ``str`` step lines and byte :class:`Progress`.

    A cancel that arrives after the last byte still leaves nothing installed (the fresh install is removed).

    Raises:
        Cancelled: ``cancel`` was set.
        HubUnreachable, ModelError: from :func:`~assistant.models.download.pull`.
    """
    def step(line: str) -> None:
        if cancel.is_set():
            raise Cancelled()
        emit(line)

    had = download.is_installed(entry)
    path = download.pull(entry, tqdm_class=_progress_bar_class(emit, cancel), progress=step)
    if cancel.is_set():
        if not had:
            shutil.rmtree(download.installed_dir(entry.name), ignore_errors=True)
        raise Cancelled()
    return str(path)


class ModelsDialog(QDialog):
    """The catalogue as a table; after it closes, :attr:`chosen` is the entry picked with "Use this model"."""

    def __init__(self, parent: QWidget | None = None, *, settings: Settings | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Models")
        self.settings = settings or Settings()
        self.chosen: CatalogEntry | None = None
        self.runner = TaskRunner(self, max_threads=1)  # one download at a time; a cancelled one ends first
        self.downloading: CatalogEntry | None = None
        self.fraction = 0.0
        self.memory = memory_bytes()
        try:
            self.entries = list(catalog.load_catalog().values())
            problem = ""
        except AssistantError as exc:
            self.entries, problem = catalog.packaged_catalog(), f"Your own model list was not read: {exc}"
        self.table = QTableWidget(len(self.entries), len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        for i, tip in enumerate(COLUMN_TIPS):
            header_item = self.table.horizontalHeaderItem(i)
            if header_item is not None:
                header_item.setToolTip(tip)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setAccessibleName("Models")
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.download_button = self._button("Download", self.download,
                                             "Download the chosen model from Hugging Face, where most open models "
                                             "are shared. Needs the internet once; the file is checked after it "
                                             "arrives and only then installed.")
        self.cancel_button = self._button("Cancel download", self.cancel_download,
                                          "Stop the download; nothing of it is kept.")
        self.use_button = self._button("Use this model", self.use,
                                       "Choose this model in Settings; press Save there and the next question "
                                       "uses it (no restart).")
        self.remove_button = self._button("Remove\u2026", self.remove,
                                          "Delete the downloaded model from this computer (it asks first). You "
                                          "can download it again later.")
        self.close_button = self._button("Close", self.reject, "Close this window; a running download stops.")
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setAccessibleName("Download progress")
        self.progress.setVisible(False)
        self.message = QLabel(problem or "Choose a model to download it, use it or remove it.")
        self.message.setWordWrap(True)
        self.message.setAccessibleName("Models message")
        buttons = QHBoxLayout()
        for b in (self.download_button, self.cancel_button, self.use_button, self.remove_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.progress)
        layout.addWidget(self.message)
        layout.addLayout(buttons)
        self.resize(1000, 460)
        self.refresh()

    def _button(self, text: str, slot: Any, tip: str) -> QPushButton:
        button = QPushButton(text)
        button.setToolTip(tip)
        button.setAccessibleDescription(tip)
        button.setAutoDefault(False)
        button.clicked.connect(slot)
        return button

    # -- the table --------------------------------------------------------------------------------------
    def row_of(self, name: str) -> int:
        """The table row of the entry called ``name`` (-1 when there is none)."""
        return next((i for i, e in enumerate(self.entries) if e.name == name), -1)

    def state_text(self, name: str) -> str:
        """What the State column shows for ``name``."""
        item = self.table.item(self.row_of(name), len(COLUMNS) - 1)
        return item.text() if item is not None else ""

    def selected(self) -> CatalogEntry | None:
        rows = self.table.selectionModel().selectedRows()
        return self.entries[rows[0].row()] if rows else None

    def select(self, name: str) -> None:
        """Select the row of ``name``."""
        self.table.selectRow(self.row_of(name))

    def refresh(self) -> None:
        """Fill every row from the catalogue, the data folder and the settings."""
        for row, e in enumerate(self.entries):
            role, role_tip = ROLE_WORDS[e.role]
            speed = speed_words(e.speed)
            cells = (e.title, role, e.size_text(), self._memory_text(e), speed, e.licence, self._state(e))
            tips = (f"{e.name}: {e.notes}" if e.notes else e.name, role_tip, COLUMN_TIPS[2], COLUMN_TIPS[3],
                    COLUMN_TIPS[4] + (f"\n{e.speed}" if speed != e.speed else ""), COLUMN_TIPS[5], COLUMN_TIPS[6])
            for col, (text, tip) in enumerate(zip(cells, tips, strict=True)):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                self.table.setItem(row, col, item)
        self._update_buttons()

    def _memory_text(self, e: CatalogEntry) -> str:
        text = f"{e.ram_gb:.1f} GB"
        if self.memory and e.ram_gb * 1e9 > self.memory * 0.8:
            text += f" (more than this computer can spare: it has {self.memory / 1e9:.0f} GB)"
        return text

    def _state(self, e: CatalogEntry) -> str:
        if self.downloading is not None and self.downloading.name == e.name:
            return f"Downloading\u2026 {self.fraction:.0%}"
        text = STATE_WORDS[choice.state(e)]
        return text + ", in use" if choice.in_use(e, self.settings) else text

    def _update_buttons(self) -> None:
        e = self.selected()
        busy = self.downloading is not None
        state = choice.state(e) if e is not None else None
        used = e is not None and choice.in_use(e, self.settings)
        self.download_button.setEnabled(e is not None and state == "available" and not busy)
        self.cancel_button.setEnabled(busy)
        self.use_button.setEnabled(e is not None and state in ("bundled", "installed") and not used)
        self.remove_button.setEnabled(e is not None and state == "installed" and not used)
        self.remove_button.setToolTip(
            "This model is in use: choose another one first, then remove it." if used and state == "installed"
            else self.remove_button.accessibleDescription())

    # -- download -----------------------------------------------------------------------------------------
    def download(self) -> None:
        """Download the selected model in the background (progress below the table; Cancel stops it)."""
        e = self.selected()
        if e is None or self.downloading is not None:
            return
        root = download.models_root()
        existing = next((p for p in (root, *root.parents) if p.exists()), root.anchor)
        free = shutil.disk_usage(existing).free
        if e.size and free < e.size * 1.05:
            self.message.setText(f"\u2716 Not enough free disk space for {e.title}: it needs about "
                                 f"{e.size / 1e9:.1f} GB and {free / 1e9:.1f} GB are free. Nothing was downloaded.")
            return
        self.downloading, self.fraction = e, 0.0
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.message.setText(f"Connecting to download {e.title} ({e.size_text()})\u2026")
        self.runner.start("download", f"Downloading {e.title}",
                          lambda emit, cancel: pull_in_background(e, emit, cancel),
                          lambda _path: self._downloaded(e), on_event=lambda ev: self._progressed(e, ev),
                          on_error=lambda exc: self._failed(e, exc))
        self.refresh()

    def _progressed(self, e: CatalogEntry, event: object) -> None:
        if isinstance(event, Progress) and event.total:
            self.fraction = min(1.0, event.done / event.total)
            self.progress.setValue(int(self.fraction * 1000))
            self.message.setText(f"Downloading {e.title}: {event.done / 1e6:,.1f} of {event.total / 1e6:,.1f} MB")
            item = self.table.item(self.row_of(e.name), len(COLUMNS) - 1)
            if item is not None:
                item.setText(self._state(e))
        elif isinstance(event, str) and event.startswith("verifying"):
            self.message.setText(f"Checking {e.title} (its fingerprint, SHA-256, must match the published one)\u2026")

    def _end(self) -> None:
        self.downloading = None
        self.progress.setVisible(False)
        self.refresh()

    def _downloaded(self, e: CatalogEntry) -> None:
        self._end()
        self.message.setText(f"\u2714 {e.title} is installed and checked. Press \u201cUse this model\u201d to "
                             "choose it.")

    def _failed(self, e: CatalogEntry, exc: BaseException) -> None:
        self._end()
        if isinstance(exc, download.HubUnreachable):
            text = "\u2716 " + UNREACHABLE.format(endpoint=download.hub_endpoint())
        else:
            text = f"\u2716 {e.title} was not downloaded: {exc}. Nothing was installed."
        self.message.setText(text)
        self.message.setToolTip(str(exc))

    def cancel_download(self) -> None:
        """Stop the running download; the worker removes what it fetched before it ends."""
        e = self.downloading
        if e is None:
            return
        self.runner.cancel_all()
        self._end()
        self.message.setText(f"Download of {e.title} cancelled; nothing was installed.")

    # -- use and remove -----------------------------------------------------------------------------------
    def use(self) -> None:
        """Pick the selected model (Settings saves it) and close."""
        e = self.selected()
        if e is None or choice.state(e) == "available":
            return
        self.chosen = e
        self.accept()

    def remove(self) -> None:
        """Ask, then delete the selected downloaded model."""
        e = self.selected()
        if e is None or choice.state(e) != "installed" or choice.in_use(e, self.settings):
            return
        if not confirm_remove(self, "Remove model", f"Remove {e.title} ({e.size_text()}) from this computer?",
                              "You can download it again later."):
            return
        try:
            folder = download.remove(e)
        except (AssistantError, OSError) as exc:
            self.message.setText(f"\u2716 {e.title} could not be removed: {exc}")
            return
        self.message.setText(f"{e.title} removed from this computer.")
        self.message.setToolTip(str(folder))
        self.refresh()

    def done(self, result: int) -> None:
        """Closing stops a running download (nothing of it is kept)."""
        if self.downloading is not None:
            self.cancel_download()
        super().done(result)

