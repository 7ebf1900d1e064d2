"""Screenshots of the desktop app's main states, built offscreen: ``python benchmarks/screenshots.py``.

Uses temporary config and data folders (a demo account, three cached messages) and the bundled MiniLM for
retrieval. The answers and the draft come from the real bundled 1.5B model (assembled into the user's data
folder once, as the app does; about a minute on an idle machine); ``--canned`` uses canned replies instead,
for quick pictures of the layout only; ``--real-file-only`` uses the real model for the file ask alone (the
mail ask and the draft canned), for a busy machine. PNGs go to ``resources/screenshots/``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "screenshots"
USER_DATA_DIR = os.environ.get("ASSISTANT_DATA_DIR")  # where the assembled bundled model lives
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["ASSISTANT_CONFIG_DIR"] = tempfile.mkdtemp(prefix="assistant-shots-config-")
os.environ["ASSISTANT_DATA_DIR"] = tempfile.mkdtemp(prefix="assistant-shots-data-")
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

import assistant.models  # noqa: E402,F401  (offline hub clients)
from assistant.accounts import Account, add_account  # noqa: E402
from assistant.config import Settings  # noqa: E402
from assistant.gui.settings_dialog import SettingsDialog  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.mail.cache import CachedRef, FolderState, MailCache  # noqa: E402
from assistant.models.base import GenerationRequest, Generator  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

ANSWER = json.dumps({
    "found": True, "passage": 1, "short_answer": "0.5% of the value of the late goods for each full week",
    "answer": "Late deliveries cost the Supplier liquidated damages of 0.5% of the value of the late goods for "
              "each full week of delay, capped at 10% of that value."})
REPLIES = {
    "route": '{"route": "question_answering", "target": ""}',
    "draft_requests": json.dumps({"requests": ["What does the late-delivery clause say?",
                                               "Who will attend the meeting on Friday?"]}),
    "draft": "Friday at 10:00 works for me; let us go through the clause then.",
}
DOCUMENT = "\n\n".join([
    "Article 8 - Delivery and Logistics. The Supplier delivers FCA Supplier's plant (Incoterms 2020).",
    "Article 9 - Late Delivery and Liquidated Damages. 9.1 If the Supplier fails to deliver on the agreed "
    "date, the Supplier shall pay liquidated damages of 0.5% of the value of the late goods for each full "
    "week of delay, capped at 10% of that value.",
    "9.2 If a delivery is more than 30 days late, the Buyer may terminate the affected purchase order "
    "without liability.",
    "Article 10 - Acceptance and Inspection. The Buyer inspects goods within 10 working days of delivery.",
    "Article 7 - Payment Terms. Invoices are payable within 45 days of the invoice date.",
    *[f"Schedule {i}. Lot {i} of housings ships in week {20 + i}; lot {i} of screws ships in week {21 + i}."
      for i in range(1, 15)],
])


class CannedGenerator(Generator):
    """Replies from :data:`REPLIES` (the answer otherwise), streamed in small pieces with a delay."""

    def __init__(self, delay_s: float = 0.0) -> None:
        super().__init__()
        self.delay_s = delay_s

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        reply = REPLIES.get(request.purpose, ANSWER)
        for i in range(0, len(reply), 4):
            if self.delay_s:
                time.sleep(self.delay_s)
            yield reply[i:i + 4]
        self._record(request.purpose, len(request.user) // 4, len(reply) // 4, 0.0, None)


def bundled_generator() -> Generator:
    """The real bundled 1.5B model, from the user's data folder (not the screenshots' temporary one)."""
    from assistant.models.llama import LlamaGenerator
    from assistant.models.locate import assemble_llm

    shots_data = os.environ["ASSISTANT_DATA_DIR"]
    if USER_DATA_DIR is None:
        del os.environ["ASSISTANT_DATA_DIR"]
    else:
        os.environ["ASSISTANT_DATA_DIR"] = USER_DATA_DIR
    try:
        path = assemble_llm()  # joined and verified once; afterwards only checked
    finally:
        os.environ["ASSISTANT_DATA_DIR"] = shots_data
    return LlamaGenerator(path, n_ctx=4096)


def wait_until(app: QApplication, done: Callable[[], bool], timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not reach the expected state")
        app.processEvents()
        time.sleep(0.01)
    for _ in range(5):
        app.processEvents()


def shoot(widget: QWidget, name: str) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.png"
    widget.grab().save(str(path))
    print(path.relative_to(ROOT))
    return path


def demo_mail() -> None:
    add_account(Account("work", "imap.example.org", "alice@example.org", folders=("INBOX",)))
    cache = MailCache()
    messages = [
        ("Maria Keller <maria.keller@calder.example>", "Delivery schedule for Q3", "Tue, 03 Jun 2025 09:12:00 +0200",
         "Hi Alice,\n\nplease find the revised delivery schedule attached. Can we meet on Friday at 10:00 "
         "to go through the late-delivery clause?\n\nBest,\nMaria", True),
        ("Jonas Weber <jonas@norhaven.example>", "Invoice 2025-117", "Mon, 02 Jun 2025 16:40:00 +0200",
         "Hello,\n\nthe invoice for May is attached. Payment terms as per Article 7.\n\nJonas", False),
        ("IT Service Desk <it@norhaven.example>", "Planned maintenance on Saturday", "Fri, 30 May 2025 11:05:00 +0200",
         "The mail server will be unavailable on Saturday from 06:00 to 08:00.", False),
    ]
    for uid, (sender, subject, date, body, attach) in enumerate(reversed(messages), start=1):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"], msg["Date"] = sender, "alice@example.org", subject, date
        msg["Message-ID"] = f"<demo{uid}@example.org>"
        msg.set_content(body)
        if attach:
            msg.add_attachment(DOCUMENT.encode(), maintype="text", subtype="plain", filename="schedule.txt")
            msg.add_attachment(b"\x89PNG....", maintype="image", subtype="png", filename="logo.png")
        cache.put(CachedRef("work", "INBOX", 1, uid), msg.as_bytes())
    cache.set_state("work", "INBOX", FolderState(1, 3, previous_uid=2))


def main(argv: list[str]) -> int:
    canned = "--canned" in argv
    file_only = "--real-file-only" in argv
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    demo_mail()
    store = ModelStore(Settings())
    real = None if canned else bundled_generator()
    store._generator = CannedGenerator() if file_only else real or CannedGenerator()
    limit = 60.0 if canned else 1800.0
    window = MainWindow(store)
    window.resize(1400, 860)
    window.show()
    wait_until(app, lambda: window.messages.model.rowCount() == 3)
    window.messages.select_row(0)
    wait_until(app, lambda: window.ask_panel.session is not None, 120)
    window.ask_panel.question.setText("What happens if the delivery is late?")
    window.ask_panel.ask()
    wait_until(app, lambda: window.ask_panel.answer is not None, limit)
    print("mail ask:", window.ask_panel.answer.text if window.ask_panel.answer else None)
    window.ask_panel.sources.setCurrentRow(0)
    window.ask_panel._open_source(window.ask_panel.sources.item(0))
    wait_until(app, lambda: window.ask_panel.passage.text.width() > 100)  # laid out beside the answer
    shoot(window, "mail-ask")

    window.draft_panel.instructions.setText("accept Friday 10:00")
    window.draft_reply()
    wait_until(app, lambda: bool(window.draft_panel.text.toPlainText()) and not window.draft_panel.busy, limit)
    window.offline.setVisible(True)  # as after a sync with the server unreachable
    window.notice.setText("Server imap.example.org unreachable; working from the cache.")
    shoot(window, "draft-offline")
    window.offline.setVisible(False)
    window.notice.clear()

    doc = Path(os.environ["ASSISTANT_DATA_DIR"]) / "supply-agreement-excerpt.md"
    doc.write_text(DOCUMENT)
    missing = doc.with_name("scan.pdf")
    missing.write_bytes(b"%PDF-1.4 broken")
    window.open_files([doc, missing])
    wait_until(app, lambda: window.ask_panel.session is not None)
    store._generator = real or CannedGenerator(delay_s=0.05)
    window.ask_panel.question.setText("What is the penalty for late delivery?")
    window.ask_panel.ask()
    wait_until(app, lambda: len(window.ask_panel.answer_text.toPlainText()) > 60, limit)
    shoot(window, "file-ask-streaming")
    wait_until(app, lambda: window.ask_panel.answer is not None, limit)
    print("file ask:", window.ask_panel.answer.text if window.ask_panel.answer else None)
    window.ask_panel._open_source(window.ask_panel.sources.item(0))
    wait_until(app, lambda: window.ask_panel.passage.text.width() > 100)
    shoot(window, "file-ask-sources")

    dialog = SettingsDialog(window)
    dialog.show()
    wait_until(app, lambda: dialog.isVisible())
    shoot(dialog, "settings")
    dialog.close()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
