"""Driving modal dialogs from pytest-qt tests: a blocking exec() or a static dialog never returns until a
button is pressed, so the action is queued before the call that opens the dialog."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget


def on_next_modal(kind: type[QWidget], act: Callable[[QWidget], None]) -> None:
    """Apply ``act`` to the next modal widget of type ``kind`` (a blocking exec() or a static dialog)."""
    def poll() -> None:
        modal = QApplication.activeModalWidget()
        if isinstance(modal, kind):
            try:
                act(modal)
            finally:
                if modal.isVisible() and isinstance(modal, QDialog):  # never leave the test blocked on it
                    modal.reject()
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(20, poll)


def press(text: str) -> Callable[[QWidget], None]:
    """An ``act`` for :func:`on_next_modal` that clicks the message box's button labelled ``text``."""
    def act(box: QWidget) -> None:
        assert isinstance(box, QMessageBox)
        next(b for b in box.buttons() if b.text() == text).click()
    return act
