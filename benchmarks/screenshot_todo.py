"""Screenshot of the "Needs reply" tab, built offscreen with the real bundled 1.5B model:
``python benchmarks/screenshot_todo.py`` (``--canned`` for the layout only). Writes
``resources/screenshots/needs-reply.png``.

The mailbox is the demo account of :mod:`screenshots` (three messages) and two messages written for the
"what needs my reply" evaluation (benchmarks/data/mail_todo/written/), all as brought by the latest sync.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from PySide6.QtWidgets import QApplication  # noqa: E402
from screenshots import bundled_generator, demo_mail, shoot, wait_until  # noqa: E402  (sets the temporary folders)

from assistant.config import Settings  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.mail.cache import CachedRef, FolderState, MailCache  # noqa: E402
from assistant.models.base import GenerationRequest, Generator  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

WRITTEN = HERE / "data" / "mail_todo" / "written"


class Canned(Generator):
    """Says every message asks to meet (layout only)."""

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        yield json.dumps({"quote": "", "asks_me": True, "what": "Meet on Friday", "due": None})


def main(argv: list[str]) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    demo_mail()
    cache = MailCache()
    for uid, name in enumerate(("w03.eml", "n11.eml"), start=4):
        cache.put(CachedRef("work", "INBOX", 1, uid), (WRITTEN / name).read_bytes())
    cache.set_state("work", "INBOX", FolderState(1, 5, previous_uid=0))
    store = ModelStore(Settings())
    store._generator = Canned() if "--canned" in argv else bundled_generator()
    window = MainWindow(store)
    window.resize(1400, 860)
    window.show()
    wait_until(app, lambda: window.messages.model.rowCount() == 5)
    window.tabs.setCurrentWidget(window.todo_panel)
    window.todo_panel.look_through()
    wait_until(app, lambda: not window.todo_panel.busy and window.todo_panel.status.text().endswith("."), 1800)
    print(window.todo_panel.status.text())
    for i in range(window.todo_panel.items.count()):
        print("-", window.todo_panel.items.item(i).text().replace("\n", " | "))
    shoot(window, "needs-reply")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
