"""Starts the desktop app: QApplication, settings, models (loaded lazily), the main window."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from assistant import netguard
from assistant.config import APP_ID, load_settings
from assistant.gui.window import MainWindow
from assistant.service import ModelStore


def run_gui(argv: Sequence[str] = (), files: Sequence[str] = ()) -> int:
    """Show the main window (opening ``files`` if given) and run the event loop; returns the exit status."""
    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    assert isinstance(app, QApplication)
    app.setOrganizationDomain(".".join(reversed(APP_ID.split(".")[:-1])))  # ttrag.org
    app.setApplicationName("Assistant")
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(QIcon.fromTheme(APP_ID))
    settings = load_settings()
    netguard.apply(settings.privacy, offline=netguard.is_offline())  # `assistant --offline gui` stays offline
    window = MainWindow(ModelStore(settings))
    window.show()
    window.start_watching()  # new mail in the watched folders is fetched as it arrives, and told
    if files:
        window.open_files(list(files))
    else:
        window.first_run()
    return int(app.exec())
