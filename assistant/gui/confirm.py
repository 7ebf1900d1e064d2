"""A question asked before something is removed from this computer (Cancel is the default)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


def confirm_remove(parent: QWidget, title: str, question: str, detail: str) -> bool:
    """Ask ``question`` (with ``detail`` below it) with Remove and Cancel buttons; True when Remove is chosen."""
    box = QMessageBox(QMessageBox.Icon.Question, title, question, parent=parent)
    box.setInformativeText(detail)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Yes).setText("Remove")
    return box.exec() == QMessageBox.StandardButton.Yes
