"""Open and save dialogs at a size that shows every column of the file list (name, size, type, date)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QFileDialog, QWidget

DIALOG_SIZE = QSize(900, 600)  # Qt's own dialog opens at 632x412, cutting off the Size and Type columns
SCREEN_SHARE = 0.9


def _dialog(parent: QWidget | None, title: str, start: str, filters: str) -> QFileDialog:
    dialog = QFileDialog(parent, title, start, filters)
    dialog.setViewMode(QFileDialog.ViewMode.Detail)
    size = DIALOG_SIZE
    screen = parent.screen() if parent is not None else dialog.screen()
    if screen is not None:  # a small screen gets most of its area instead
        area = screen.availableGeometry().size()
        size = size.boundedTo(QSize(int(area.width() * SCREEN_SHARE), int(area.height() * SCREEN_SHARE)))
    dialog.resize(size)  # a native dialog (where the desktop has one) keeps its own size
    return dialog


def open_file_names(parent: QWidget | None, title: str, start: str, filters: str) -> list[str]:
    """The files chosen in an Open dialog that starts in ``start`` (``[]`` when cancelled)."""
    dialog = _dialog(parent, title, start, filters)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
    chosen = dialog.selectedFiles() if dialog.exec() else []
    dialog.deleteLater()
    return chosen


def save_file_name(parent: QWidget | None, title: str, start: str, filters: str, suffix: str = "") -> str:
    """The file chosen in a Save dialog proposing ``start`` (a path or a name), ``suffix`` added to a name
    typed without one ('' when cancelled); the dialog asks before replacing a file."""
    dialog = _dialog(parent, title, start, filters)
    dialog.setFileMode(QFileDialog.FileMode.AnyFile)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    if suffix:
        dialog.setDefaultSuffix(suffix.lstrip("."))
    chosen = dialog.selectedFiles() if dialog.exec() else []
    dialog.deleteLater()
    return chosen[0] if chosen else ""
