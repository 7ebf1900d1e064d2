"""Settings dialog: model choice (bundled, fast, a GGUF file), threads, the method's hyperparameters, mail cache."""

from __future__ import annotations

import tomllib
from typing import Any

import tomli_w
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from assistant.config import Settings, config_dir, load_settings
from assistant.errors import AssistantError
from assistant.mail.cache import MailCache

MODEL_CHOICES = (("bundled", "Bundled 1.5B (best answers)"), ("fast", "Fast 135M (quick, weaker)"),
                 ("file", "A GGUF file\u2026"))


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


class SettingsDialog(QDialog):
    """Edits config.toml; on Save :attr:`saved` holds the new settings for the window to apply."""

    def __init__(self, parent: QWidget | None = None, *, cache: MailCache | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        try:
            current = load_settings()
        except AssistantError:
            current = Settings()
        self.saved: Settings | None = None
        self.cache = cache or MailCache()
        self.cleared = False
        m, p = current.models, current.pipeline
        self.model = QComboBox()
        for key, label in MODEL_CHOICES:
            self.model.addItem(label, key)
        self.gguf = QLineEdit("" if m.llm in ("bundled", "fast") else m.llm)
        self.gguf.setPlaceholderText("path to a .gguf file")
        self.model.setCurrentIndex({"bundled": 0, "fast": 1}.get(m.llm, 2))
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
        self.ce_mode.addItems(["fused", "alone", "off"])
        self.ce_mode.setCurrentText(p.ce_mode)
        self.router = QCheckBox("Route questions (counting, lookup, summary)")
        self.router.setChecked(p.router)
        self.cache_mb = QSpinBox()
        self.cache_mb.setRange(16, 1024 * 1024)
        self.cache_mb.setSuffix(" MiB")
        self.cache_mb.setValue(current.mail.cache_mb)
        self.cache_used = QLabel()
        self.clear_button = QPushButton("Clear mail cache")
        self.clear_button.setToolTip("Remove every downloaded message from this computer; the next sync fetches "
                                     "them again")
        self.clear_button.clicked.connect(self.clear_cache)
        form = QFormLayout()
        for label, w in (("Model", self.model), ("GGUF file", self.gguf), ("CPU threads", self.threads)):
            w.setAccessibleName(label)
            form.addRow(label, w)
        advanced = QGroupBox("Advanced (Test-Time RAG)")
        adv = QFormLayout(advanced)
        for label, w in (("Passages read", self.top_k), ("Query rewrites", self.rewrites),
                         ("Conditional ranking", self.ce_mode)):
            w.setAccessibleName(label)
            adv.addRow(label, w)
        adv.addRow(self.router)
        mail = QGroupBox("Mail cache")
        mail_form = QFormLayout(mail)
        self.cache_mb.setAccessibleName("Cache size")
        mail_form.addRow("Cache size", self.cache_mb)
        mail_form.addRow(self.cache_used, self.clear_button)
        self._show_usage()
        self.error = QLabel("Changes apply to the next question; one being answered finishes as it started.")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(advanced)
        layout.addWidget(mail)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self._model_changed()

    def _show_usage(self) -> None:
        self.cache_used.setText(f"In use: {self.cache.size() / 1024**2:,.1f} MiB")

    def clear_cache(self) -> None:
        """Remove the cached messages now (the window reloads its message list when the dialog closes)."""
        self.cache.clear()
        self.cleared = True
        self._show_usage()

    def _model_changed(self) -> None:
        is_file = self.model.currentData() == "file"
        self.gguf.setEnabled(is_file)
        if is_file and not self.gguf.text() and self.isVisible():
            path, _ = QFileDialog.getOpenFileName(self, "GGUF model", "", "GGUF (*.gguf)")
            self.gguf.setText(path)

    def accept(self) -> None:
        choice = self.model.currentData()
        llm = self.gguf.text().strip() if choice == "file" else choice
        if not llm:
            self.error.setText("Choose a GGUF file or another model.")
            return
        try:
            save_settings({"models": {"llm": llm, "threads": self.threads.value()},
                           "pipeline": {"ce_top_k": self.top_k.value(), "max_rewrites": self.rewrites.value(),
                                        "ce_mode": self.ce_mode.currentText(), "router": self.router.isChecked()},
                           "mail": {"cache_mb": self.cache_mb.value()}})
            self.saved = load_settings()
        except (AssistantError, OSError) as exc:
            self.error.setText(f"Could not save the settings: {exc}")
            return
        super().accept()
