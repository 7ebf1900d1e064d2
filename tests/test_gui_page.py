"""The passage view shows a PDF source's page with the cited sentence highlighted (page up and down, zoom,
open in the system viewer) and a Markdown source's text, offscreen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from PySide6.QtCore import Qt, QUrl  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from test_page_image import SENTENCE, clause_pdf  # noqa: E402

from assistant.documents import extract  # noqa: E402
from assistant.gui import page_view  # noqa: E402
from assistant.gui.passage_view import PassageView  # noqa: E402
from assistant.records import Document, Source  # noqa: E402


@pytest.fixture(scope="module")
def clause(tmp_path_factory: pytest.TempPathFactory) -> Document:
    return extract(clause_pdf(tmp_path_factory.mktemp("page") / "clause.pdf"))


def cited(doc: Document) -> Source:
    """A passage that starts on page 1 and whose cited sentence is on page 2."""
    start = doc.text.index("Supply agreement")
    return Source(n=1, source=doc.source, page=1, start=start, end=doc.text.index("in total.") + 9,
                  snippet=SENTENCE, chunk_id=0)


@pytest.fixture
def view(qtbot: QtBot) -> PassageView:
    v = PassageView()
    qtbot.addWidget(v)
    v.resize(640, 800)
    v.show()
    return v


def click(qtbot: QtBot, view: PassageView, button: object) -> object:
    """Click ``button`` and return the page rendered after it."""
    with qtbot.waitSignal(view.page.rendered, timeout=20000) as shown:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    return shown.args[0]


def test_a_pdf_source_shows_its_page_and_pages_up_and_down(qtbot: QtBot, view: PassageView,
                                                           clause: Document) -> None:
    with qtbot.waitSignal(view.page.rendered, timeout=20000) as shown:
        view.show_source(cited(clause), clause)
    rendered = shown.args[0]
    assert view.tabs.currentWidget() is view.page and view.tabs.tabBar().isVisible()
    assert (rendered.page, rendered.match, len(rendered.highlights)) == (2, "whole", 3)
    assert view.page.page_label.text() == "Page 2 of 3"
    cited_image = view.page.image.pixmap().toImage()
    assert not cited_image.isNull() and cited_image.width() == rendered.image.width
    assert "Late delivery entitles" in view.text.toPlainText()  # the text is a tab away

    after = click(qtbot, view, view.page.next_button)
    assert (after.page, after.highlights) == (3, ())  # context: no highlight away from the cited page
    assert view.page.page_label.text() == "Page 3 of 3" and not view.page.next_button.isEnabled()
    assert view.page.image.pixmap().toImage() != cited_image
    assert click(qtbot, view, view.page.previous_button).highlights  # back on the cited page
    before = click(qtbot, view, view.page.previous_button)
    assert before.page == 1 and not view.page.previous_button.isEnabled()
    assert view.page.page_label.text() == "Page 1 of 3"


def test_zoom_and_open_in_the_system_viewer(qtbot: QtBot, view: PassageView, clause: Document,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    with qtbot.waitSignal(view.page.rendered, timeout=20000) as shown:
        view.show_source(cited(clause), clause)
    width = shown.args[0].image.width
    bigger = click(qtbot, view, view.page.zoom_in_button)
    assert bigger.scale > shown.args[0].scale and bigger.image.width > width and bigger.highlights
    step = next(z for z in page_view.ZOOMS if z > shown.args[0].scale)  # the next step above the fitted scale
    assert view.page.zoom_label.text() == f"{step * 100:.0f}%"
    smaller = click(qtbot, view, view.page.zoom_out_button)
    assert smaller.image.width < bigger.image.width and smaller.highlights
    assert view.page.zoom_label.text() == f"{next(z for z in reversed(page_view.ZOOMS) if z < step) * 100:.0f}%"

    opened: list[QUrl] = []

    class Desktop:
        @staticmethod
        def openUrl(url: QUrl) -> bool:  # noqa: N802  (the Qt name it stands for)
            opened.append(url)
            return True

    monkeypatch.setattr(page_view, "QDesktopServices", Desktop)
    qtbot.mouseClick(view.page.open_button, Qt.MouseButton.LeftButton)
    assert [u.toString() for u in opened] == [f"file://{Path(clause.source).resolve()}#page=2"]


def test_open_in_viewer_says_so_when_no_viewer_starts(qtbot: QtBot, view: PassageView, clause: Document,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    with qtbot.waitSignal(view.page.rendered, timeout=20000):
        view.show_source(cited(clause), clause)
    assert not view.page.note.isVisible()  # the whole sentence was found: nothing to note

    class NoLauncher:
        @staticmethod
        def openUrl(url: QUrl) -> bool:  # noqa: N802  (the Qt name it stands for)
            return False  # as Qt on a desktop without xdg-open: "Unable to detect a launcher"

    monkeypatch.setattr(page_view, "QDesktopServices", NoLauncher)
    qtbot.mouseClick(view.page.open_button, Qt.MouseButton.LeftButton)
    assert view.page.note.isVisible() and view.page.note.text() == "No PDF viewer could be started for this file."


def test_a_page_wider_than_the_view_is_fitted_to_its_width_until_the_person_zooms(
        qtbot: QtBot, view: PassageView, clause: Document) -> None:
    with qtbot.waitSignal(view.page.rendered, timeout=20000) as shown:
        view.show_source(cited(clause), clause)
    fitted = shown.args[0]
    room = view.page.area.viewport().width()
    assert fitted.image.width <= room and fitted.scale < page_view.DEFAULT_SCALE  # 150% would be wider
    assert view.page.area.horizontalScrollBar().maximum() == 0 and fitted.highlights
    assert view.page.zoom_label.text() == f"{fitted.scale * 100:.0f}%"
    click(qtbot, view, view.page.zoom_in_button)
    chosen = view.page.scale
    after = click(qtbot, view, view.page.next_button)  # the person's zoom is kept on the next page
    assert after.scale == chosen > fitted.scale and after.image.width > fitted.image.width


def test_a_page_asked_for_before_the_view_is_laid_out_is_fitted_too(qtbot: QtBot, clause: Document) -> None:
    """As in the Ask panel: the passage view is hidden beside the answer until a source is clicked, so the page is
    asked for before the splitter gives the view its width."""
    from PySide6.QtWidgets import QSplitter, QTextBrowser

    window = QSplitter()  # the answer beside the passage, as in the Ask panel
    qtbot.addWidget(window)
    window.addWidget(QTextBrowser())
    view = PassageView()
    window.addWidget(view)
    window.resize(900, 800)
    window.show()
    assert view.isHidden()
    with qtbot.waitSignal(view.page.rendered, timeout=20000) as shown:
        view.show_source(cited(clause), clause)
    assert shown.args[0].image.width <= view.page.area.viewport().width()
    assert view.page.area.horizontalScrollBar().maximum() == 0
    # and not left at the width of a pane still being laid out (a newcomer's page stayed 246 px wide in 573)
    page = view.page
    qtbot.waitUntil(lambda: page.image.width() >= 0.85 * page._fit_width() or page.scale >= page_view.DEFAULT_SCALE,
                    timeout=5000)


def test_a_markdown_source_shows_its_text(qtbot: QtBot, view: PassageView, clause: Document,
                                          tmp_path: Path) -> None:
    notes = tmp_path / "terms.md"
    text = "# Delivery\n\n" + SENTENCE + "\n"
    notes.write_text(text)
    doc = Document(source=str(notes), text=text, segments=(), offsets=())
    start = text.index("Late")
    md = Source(n=2, source=str(notes), page=None, start=start, end=len(text), snippet=SENTENCE, chunk_id=1)
    view.show_source(cited(clause), clause)  # replaced at once: its page must never show
    view.show_source(md, doc)
    assert view.tabs.currentWidget() is view.text and not view.tabs.tabBar().isVisible()
    assert not view.tabs.isTabVisible(0)
    assert SENTENCE in view.text.toPlainText()
    qtbot.wait(500)
    assert view.page.current is None and view.page.image.pixmap().isNull()


def test_an_unreadable_pdf_falls_back_to_the_text(qtbot: QtBot, view: PassageView, tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not really a pdf")
    source = Source(n=1, source=str(broken), page=1, start=0, end=10, snippet="not really", chunk_id=0)
    with qtbot.waitSignal(view.page.failed, timeout=20000) as failed:
        view.show_source(source, None)
    assert "broken.pdf: a damaged or incomplete PDF file" in failed.args[0]
    assert view.tabs.currentWidget() is view.text and "not really" in view.text.toPlainText()
    assert "cannot be shown" in view.page.note.text()
