"""Screenshots of the cited PDF page and of the gist of new mail, built offscreen with the real bundled 1.5B
model: ``python benchmarks/screenshot_page_gist.py`` (``--canned`` for the layout only). Writes
``resources/screenshots/mail-gist.png`` and ``resources/screenshots/file-ask-page.png``.

The PDF is made here, in the temporary data folder, from the title page and the pages on late delivery (39-41)
of the project's sample contract (``resources/samples/supply-agreement.md``) with Qt's PDF writer: a real PDF
with a text layer, and no third-party text in the picture. The mail is the demo account of :mod:`screenshots`
and a fourth message carrying that PDF, announced as just arrived (as the watch does); its gist is computed by
the app's own background queue. Then the PDF is opened and asked about, and its first source clicked.
"""

from __future__ import annotations

import os
import re
import sys
from email.message import EmailMessage
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from PySide6.QtCore import QMarginsF  # noqa: E402
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from screenshots import CannedGenerator, bundled_generator, demo_mail, shoot, wait_until  # noqa: E402

from assistant.config import Settings  # noqa: E402
from assistant.documents.mime.parse import parse_message  # noqa: E402
from assistant.gui.mail_list import GIST_ROLE  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.mail.cache import CachedRef, FolderState, MailCache  # noqa: E402
from assistant.mail.watch import NewMessage  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

SAMPLE = HERE.parent / "resources" / "samples" / "supply-agreement.md"
PAGES = (1, 39, 40, 41)  # the sample's title page and its pages on late delivery and the cap on damages
QUESTION = "What is the cap on liquidated damages for late delivery?"


def sample_pages(numbers: tuple[int, ...]) -> str:
    """The pages ``numbers`` of the sample contract, as Markdown (its ``<!-- page N -->`` marks dropped)."""
    parts = re.split(r"<!-- page (\d+) -->", SAMPLE.read_text(encoding="utf-8"))
    pages = {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}
    return "\n\n".join(pages[n].strip() for n in numbers if n in pages)


def write_pdf(path: Path, markdown: str) -> Path:
    """``markdown`` typeset on A4 pages into the PDF ``path`` (text as text, so it can be read and cited)."""
    writer = QPdfWriter(str(path))
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter))  # the text adds 2 cm
    writer.setTitle("Master Supply and Services Agreement (excerpt)")
    document = QTextDocument()
    document.setDefaultStyleSheet("body { font-size: 11pt }")
    document.setMarkdown(markdown)
    document.print_(writer)
    return path


def mail_with(pdf: Path) -> CachedRef:
    """A fourth demo message, from the supplier, with ``pdf`` attached, cached as the last sync's only new one."""
    msg = EmailMessage()
    msg["From"], msg["To"] = "Maria Keller <maria.keller@calder.example>", "alice@example.org"
    msg["Subject"], msg["Date"] = "Agreement pages on late delivery", "Wed, 04 Jun 2025 08:30:00 +0200"
    msg["Message-ID"] = "<demo4@example.org>"
    msg.set_content("Hi Alice,\n\nas promised, the agreement's pages on late delivery.\n\nBest,\nMaria")
    msg.add_attachment(pdf.read_bytes(), maintype="application", subtype="pdf", filename=pdf.name)
    ref = CachedRef("work", "INBOX", 1, 4)
    cache = MailCache()
    cache.put(ref, msg.as_bytes())
    cache.set_state("work", "INBOX", FolderState(1, 4, previous_uid=3))
    return ref


def announce(window: MainWindow, ref: CachedRef) -> NewMessage:
    """Tell the window that the message ``ref`` just arrived, as the watch does after a sync."""
    raw = MailCache().get(ref)
    assert raw is not None
    message = parse_message(raw)
    new = NewMessage(ref, message.sender, message.subject, message.date,
                     tuple((a.filename, a.size) for a in message.attachments))
    window.mail._mail_arrived([new])
    return new


def main(argv: list[str]) -> int:
    canned = "--canned" in argv
    limit = 60.0 if canned else 1800.0
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    demo_mail()
    pdf = write_pdf(Path(os.environ["ASSISTANT_DATA_DIR"]) / "supply-agreement-excerpt.pdf", sample_pages(PAGES))
    ref = mail_with(pdf)
    store = ModelStore(Settings())
    store._generator = CannedGenerator() if canned else bundled_generator()
    window = MainWindow(store)
    window.resize(1400, 860)
    window.show()
    wait_until(app, lambda: window.messages.model.rowCount() == 4)

    new = announce(window, ref)
    wait_until(app, lambda: window.banner.isVisible())
    wait_until(app, lambda: window.messages.model.rows[0].gist is not None, limit)
    print("gist:", window.messages.model.rows[0].gist.text if window.messages.model.rows[0].gist else None)
    wait_until(app, lambda: bool(window.messages.model.index(0, 3).data(GIST_ROLE)))
    assert window.banner.message is not None and window.banner.message.id == new.id
    window.splitter.setSizes([120, 900, 380])  # the list dragged wider: the gist after the subject shows
    wait_until(app, lambda: window.messages.table.columnWidth(3) > 400)
    shoot(window, "mail-gist")
    window.banner.hide()

    window.splitter.setSizes([0, 0, 1400])  # the mail panes dragged closed: the answer and the page get the width
    window.open_files([pdf])
    wait_until(app, lambda: window.ask_panel.session is not None, 120)
    window.ask_panel.question.setText(QUESTION)
    window.ask_panel.ask()
    wait_until(app, lambda: window.ask_panel.answer is not None, limit)
    print("page ask:", window.ask_panel.answer.text if window.ask_panel.answer else None)
    window.ask_panel._open_source(window.ask_panel.sources.item(0))
    page = window.ask_panel.passage.page
    wait_until(app, lambda: page.current is not None)
    print("page:", page.current.page if page.current else None, "highlights:",
          len(page.current.highlights) if page.current else 0)
    shoot(window, "file-ask-page")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
