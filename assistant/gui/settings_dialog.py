"""Settings dialog in a person's words: which model, processor cores, how answers are searched for, the mail cache.

Every setting carries a tooltip saying what it changes and what it costs; the engineers' term (GGUF,
top-k, query rewrite, conditional re-rank) is named there, not in the label. A model file is checked
before it is saved: its GGUF magic at once, then a load test in the background.
"""

from __future__ import annotations

import threading
import tomllib
from pathlib import Path
from typing import Any

import tomli_w
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from assistant.config import Settings, config_dir, load_settings, update_settings_file
from assistant.errors import AssistantError
from assistant.gui.confirm import confirm_remove
from assistant.gui.tasks import Emit, TaskRunner
from assistant.gui.watch_settings import WatchSettings
from assistant.mail.cache import MailCache

_TOOLTIP_ROLE = Qt.ItemDataRole.ToolTipRole

#: (config value, label, tooltip) of each model choice.
MODEL_CHOICES = (
    ("bundled", "Bundled model (best answers)",
     "Qwen2.5 1.5B, shipped with the app: the best answers; about 10-30 s per question on a laptop "
     "processor and about 1.1 GB of memory."),
    ("fast", "Fast model (quick, weaker answers)",
     "SmolLM2 135M: answers in a few seconds with little memory, but often misses or misreads the answer."),
    ("file", "A model file on this computer\u2026",
     "Any model in llama.cpp's GGUF format (a .gguf file). Larger files answer better and take longer "
     "and more memory; the file is checked before it is used."),
)
#: (config value, label, tooltip) of each passage-ranking choice (``PipelineOptions.ce_mode``).
RANKING_CHOICES = (
    ("fused", "Careful (recommended)",
     "A second model reads the question together with each candidate passage, and its judgement is "
     "combined with the keyword and meaning search. About 1-2 s per question."),
    ("alone", "Careful, re-check only",
     "Only the second model's judgement orders the passages (as in the research paper the app follows). "
     "Same cost as Careful; usually slightly worse here."),
    ("off", "Quick",
     "No second reading: passages are ordered by keyword and meaning search only. Saves about 1 s per "
     "question; the right passage is missed more often."),
)
TIPS = {
    "model": "Which language model reads the passages and writes the answer. A larger model answers better "
             "and takes longer and more memory.",
    "file": "The model file to use (GGUF format, as used by llama.cpp). A larger file answers better but "
            "takes longer and more memory; it is checked (loaded once) before it is saved.",
    "threads": "How many processor cores the models use (threads for llama.cpp and torch). More cores answer "
               "faster but leave less for other programs; 'all cores' uses every core.",
    "top_k": "How many of the best passages the model reads for each attempt (top-k after re-ranking). More "
             "passages find more answers but each adds about 5-10 s of reading with the bundled model.",
    "rewrites": "When nothing read answers the question, how many times the model rewords the search and "
                "tries again (query rewrites). Each attempt costs one more model call, about 10-30 s; "
                "0 gives up after the first attempt.",
    "ranking": "How the passages found are put in order before the model reads the best ones: Careful has a "
               "second model read the question with each passage. Careful costs about 1-2 s per question; "
               "Quick saves it but misses the right passage more often.",
    "router": "Let the model first decide whether a question asks to count something, to find an exact "
              "text, for a summary or for an answer. Counting and exact look-ups are then done exactly; costs "
              "one short model call (about 1 s, often none: clear wording skips it).",
    "cache": "The most disk space downloaded mail may take on this computer; the oldest messages are "
             "removed first when it is full (they stay on the server).",
    "clear": "Remove every downloaded message from this computer; the next sync downloads them again (it "
             "asks first). Mail on the server is not touched.",
    "group": "How the app searches the open files and mail for an answer (Test-Time RAG settings).",
    "more": "See the models you can download (from Hugging Face, where most open models are shared): what each "
            "does, its size, the memory it needs and how fast it answers here. Download, choose or remove one.",
}


def save_settings(tables: dict[str, dict[str, Any]]) -> None:
    """Merge the given keys (by table: ``models``, ``pipeline``, ``mail``) into ``config_dir()/config.toml``;
    other keys are kept."""
    path = config_dir() / "config.toml"
    raw: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for table, values in tables.items():
        section = raw.setdefault(table, {})
        section.update({k: v for k, v in values.items() if v is not None})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tomli_w.dumps(raw), encoding="utf-8")


def _watch_settings(current: Settings) -> WatchSettings:
    """The "New mail" group: watched folders and how, and whether mail with attachments is told."""
    from assistant.accounts import load_accounts

    try:
        accounts = list(load_accounts())
    except AssistantError:
        accounts = []
    return WatchSettings(current.mail, accounts)


def check_model_header(path: Path) -> str | None:
    """Why ``path`` cannot be a model, from its first bytes (GGUF magic), or None when it may be one."""
    from assistant.models.llama import check_gguf

    if not path.is_file():
        return "there is no such file"
    try:
        check_gguf(path)
    except AssistantError:
        return "it is not a model file in GGUF format (its first bytes are not \u201cGGUF\u201d)"
    return None


def load_model(path: Path, emit: Emit, cancel: threading.Event) -> None:
    """Load ``path`` with llama.cpp (a small context) and drop it: proves the file is a usable model.
    Runs off the GUI thread. Raises :class:`~assistant.errors.ModelError` when llama.cpp cannot load it."""
    from assistant.models.llama import LlamaGenerator

    LlamaGenerator(path, n_ctx=256, cache_bytes=0)


def _why(exc: BaseException) -> str:
    text = str(exc)
    return "llama.cpp could not load it (the file is damaged, truncated or not a supported model)" \
        if "could not load" in text else text


class SettingsDialog(QDialog):
    """Edits config.toml; on Save :attr:`saved` holds the new settings for the window to apply."""

    def __init__(self, parent: QWidget | None = None, *, cache: MailCache | None = None,
                 gui: QSettings | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        try:
            current = load_settings()
        except AssistantError:
            current = Settings()
        self.saved: Settings | None = None
        self.cache = cache or MailCache()
        self.gui = gui
        self.cleared = False
        self.runner = TaskRunner(self, max_threads=1)
        self.checked: str | None = None  # a model file that loaded: not loaded twice
        m, p = current.models, current.pipeline
        self.current_llm = m.llm
        self.current = current
        self.model_changes: dict[str, object] = {}  # encoder/embedder picked in the Models dialog, saved on Save
        self.model = QComboBox()
        downloaded = self._fill_models()
        self.gguf = QLineEdit("" if m.llm in ("bundled", "fast", *downloaded) else m.llm)
        self.gguf.setPlaceholderText("choose the model file (.gguf)")
        self.browse = QPushButton("Choose\u2026")
        self.browse.setToolTip("Pick the model file from a folder")
        self.browse.clicked.connect(self.choose_file)
        known = self.model.findData(m.llm)
        self.model.setCurrentIndex(known if known >= 0 else self.model.findData("file"))
        self.more_models = QPushButton("More models\u2026")
        self.more_models.setToolTip(TIPS["more"])
        self.more_models.clicked.connect(self.open_models)
        self.model.currentIndexChanged.connect(self._model_changed)
        self.threads = QSpinBox()
        self.threads.setRange(0, 256)
        self.threads.setSpecialValueText("all cores")
        self.threads.setValue(m.threads)
        self.top_k = QSpinBox()
        self.top_k.setRange(1, 20)
        self.top_k.setValue(p.ce_top_k)
        self.rewrites = QSpinBox()
        self.rewrites.setRange(0, 10)
        self.rewrites.setValue(p.max_rewrites)
        self.ce_mode = QComboBox()
        for i, (key, label, tip) in enumerate(RANKING_CHOICES):
            self.ce_mode.addItem(label, key)
            self.ce_mode.setItemData(i, tip, _TOOLTIP_ROLE)
        self.ce_mode.setCurrentIndex(max(0, self.ce_mode.findData(p.ce_mode)))
        self.router = QCheckBox("Count, look up and summarize exactly when asked to")
        self.router.setChecked(p.router)
        self.cache_mb = QSpinBox()
        self.cache_mb.setRange(16, 1024 * 1024)
        self.cache_mb.setSuffix(" MiB")
        self.cache_mb.setValue(current.mail.cache_mb)
        self.cache_used = QLabel()
        self.clear_button = QPushButton("Clear mail cache\u2026")
        self.clear_button.clicked.connect(self.clear_cache)
        file_row = QHBoxLayout()
        file_row.addWidget(self.gguf, 1)
        file_row.addWidget(self.browse)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(self.more_models)
        form = QFormLayout()
        self._row(form, "Model", self.model, TIPS["model"], layout=model_row)
        self._row(form, "Model file", self.gguf, TIPS["file"], layout=file_row)
        self._row(form, "Processor cores", self.threads, TIPS["threads"])
        search = QGroupBox("Searching for answers")
        search.setToolTip(TIPS["group"])
        adv = QFormLayout(search)
        self._row(adv, "Passages read per attempt", self.top_k, TIPS["top_k"])
        self._row(adv, "Tries with other words", self.rewrites, TIPS["rewrites"])
        self._row(adv, "Passage ranking", self.ce_mode, TIPS["ranking"])
        self.router.setToolTip(TIPS["router"])
        self.router.setAccessibleName("Count, look up and summarize exactly")
        adv.addRow(self.router)
        mail = QGroupBox("Downloaded mail")
        mail_form = QFormLayout(mail)
        self._row(mail_form, "Space for downloaded mail", self.cache_mb, TIPS["cache"])
        self.clear_button.setToolTip(TIPS["clear"])
        mail_form.addRow(self.cache_used, self.clear_button)
        self._show_usage()
        self.watch = _watch_settings(current)
        self.error = QLabel("Changes apply to the next question; one being answered finishes as it started.")
        self.error.setWordWrap(True)
        self.error.setAccessibleName("Settings message")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(search)
        layout.addWidget(mail)
        layout.addWidget(self.watch)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self._model_changed()

    @staticmethod
    def _row(form: QFormLayout, text: str, widget: QWidget, tip: str, layout: QHBoxLayout | None = None) -> None:
        label = QLabel(text)
        label.setBuddy(widget)
        label.setToolTip(tip)
        widget.setToolTip(tip)
        widget.setAccessibleName(text)
        widget.setAccessibleDescription(tip)
        if layout is not None:
            form.addRow(label, layout)
        else:
            form.addRow(label, widget)

    def _show_usage(self) -> None:
        self.cache_used.setText(f"In use: {self.cache.size() / 1024**2:,.1f} MiB")

    def clear_cache(self) -> None:
        """Ask, then remove the cached messages (the window reloads its message list when the dialog closes)."""
        n = self.cache.size() / 1024**2
        if not confirm_remove(self, "Clear mail cache",
                              f"Remove all downloaded mail ({n:,.1f} MiB) from this computer?",
                              "The messages stay on the server; the next sync downloads them again."):
            return
        self.cache.clear()
        self.cleared = True
        self._show_usage()

    def _fill_models(self) -> list[str]:
        """(Re)fill the model choices: bundled, fast, each downloaded catalogue reader, a file; returns the
        downloaded readers' names."""
        from assistant.models import catalog, choice

        try:
            readers = [e for e in catalog.load_catalog().values()
                       if e.role == "reader" and choice.state(e) == "installed"]
        except AssistantError:
            readers = []
        items = [*MODEL_CHOICES[:2],
                 *((e.name, f"{e.title} (downloaded)", f"{e.notes} About {e.ram_gb:.1f} GB of memory; "
                    f"{e.speed}.".strip()) for e in readers), MODEL_CHOICES[2]]
        blocked = self.model.blockSignals(True)
        self.model.clear()
        for i, (key, label, tip) in enumerate(items):
            self.model.addItem(label, key)
            self.model.setItemData(i, tip, _TOOLTIP_ROLE)
        self.model.blockSignals(blocked)
        return [e.name for e in readers]

    def open_models(self) -> None:
        """The Models dialog: download, remove or pick a model; a picked reader becomes the Model choice."""
        import dataclasses

        from assistant.gui.models_dialog import ModelsDialog

        choice_now = self.model.currentData()
        llm = self.gguf.text().strip() if choice_now == "file" else str(choice_now)
        models = dataclasses.replace(self.current.models, llm=llm, **self.model_changes)  # type: ignore[arg-type]
        dialog = ModelsDialog(self, settings=dataclasses.replace(self.current, models=models))
        dialog.exec()
        self._fill_models()
        picked = dialog.chosen
        if picked is not None and picked.role != "reader":
            from assistant.models.choice import settings_changes

            self.model_changes.update(settings_changes(picked))
            self.error.setText(f"{picked.title} will be used once you press Save (from the next question on).")
        elif picked is not None:
            llm = picked.name
            self.error.setText(f"{picked.title} will answer once you press Save (from the next question on).")
        known = self.model.findData(llm)
        if known < 0:  # a file stays the file; a downloaded reader that was removed falls back to the bundled one
            known = self.model.findData("file" if choice_now == "file" else "bundled")
        self.model.setCurrentIndex(known)
        dialog.deleteLater()

    def _model_changed(self) -> None:
        is_file = self.model.currentData() == "file"
        self.gguf.setEnabled(is_file)
        self.browse.setEnabled(is_file)
        if is_file and not self.gguf.text() and self.isVisible():
            self.choose_file()

    def choose_file(self) -> None:
        """Pick a model file, starting in the folder of the last one picked."""
        start = str(self.gui.value("files/model_dir", "")) if self.gui is not None else ""
        path, _ = QFileDialog.getOpenFileName(self, "Model file", start or str(Path(self.gguf.text()).parent),
                                              "Models (*.gguf);;All files (*)")
        if path:
            self.gguf.setText(path)
            if self.gui is not None:
                self.gui.setValue("files/model_dir", str(Path(path).parent))

    @property
    def checking(self) -> bool:
        return bool(self.runner.running("check"))

    def accept(self) -> None:
        """Save, after checking a newly chosen model file (its magic now, a load in the background)."""
        if self.checking:
            return
        choice = self.model.currentData()
        llm = self.gguf.text().strip() if choice == "file" else str(choice)
        if not llm:
            self.error.setText("\u2716 Choose the model file, or another model.")
            return
        if choice == "file" and llm not in (self.current_llm, self.checked):
            path = Path(llm).expanduser()
            reason = check_model_header(path)
            if reason is not None:
                self.error.setText(f"\u2716 {path.name} cannot be used as the model: {reason}. Not saved.")
                self.error.setToolTip(str(path))
                return
            self.error.setText(f"Checking that {path.name} loads as a model\u2026")
            self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(False)
            self.runner.start("check", "Checking the model file",
                              lambda emit, cancel: load_model(path, emit, cancel),
                              lambda _: self._checked(llm), on_error=lambda exc: self._check_failed(path, exc))
            return
        self._save(llm)

    def _checked(self, llm: str) -> None:
        self.checked = llm
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(True)
        self._save(llm)

    def _check_failed(self, path: Path, exc: BaseException) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(True)
        self.error.setText(f"\u2716 {path.name} cannot be used as the model: {_why(exc)}. Not saved.")
        self.error.setToolTip(f"{path}\n{exc}")

    def _save(self, llm: str) -> None:
        try:
            save_settings({"models": {"llm": llm, "threads": self.threads.value()},
                           "pipeline": {"ce_top_k": self.top_k.value(), "max_rewrites": self.rewrites.value(),
                                        "ce_mode": self.ce_mode.currentData(), "router": self.router.isChecked()},
                           "mail": {"cache_mb": self.cache_mb.value(), **self.watch.values()}})
            if self.model_changes:  # None values remove a key (back to the bundled encoder), unlike save_settings
                update_settings_file({"models": self.model_changes})
            self.saved = load_settings()
        except (AssistantError, OSError) as exc:
            self.error.setText(f"Could not save the settings: {exc}")
            return
        super().accept()

    def reject(self) -> None:
        self.runner.cancel_all()  # a load test still running: its answer is no longer wanted
        super().reject()
