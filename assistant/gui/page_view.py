"""Page view: a cited PDF page as the person saw it, the cited sentence highlighted, fitted to the view's width
until the person zooms; zoom, the pages before and after for context, and the file opened in the system's PDF
viewer at that page.

Pages are rendered on a background thread (:class:`~assistant.gui.tasks.TaskRunner`, one key: a page asked
for while another renders replaces it, and the one replaced is never shown); the image comes back as a
``QImage`` made on that thread (not a widget), the pixmap is made here.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QImage, QKeySequence, QPixmap, QResizeEvent, QShortcut
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from assistant.documents.pdfpage import DEFAULT_SCALE, MAX_SCALE, RenderedPage, render_page
from assistant.gui.tasks import Emit, TaskRunner

#: Zoom steps, in pixels per PDF point (1.0 is 72 dpi).
ZOOMS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0)
MIN_FIT_WIDTH = 120  # pixels: a narrower view is not laid out yet, and a page is not fitted to it
REFIT_MS = 200  # a resized view's page is fitted again this long after the last resize (a splitter dragged)
REFIT_CHANGE = 0.05  # ... where it could be this much wider


def viewer_url(path: str, page: int) -> QUrl:
    """``file:///path#page=N``: the fragment most PDF viewers (and browsers) open at (RFC 8118, 3)."""
    url = QUrl.fromLocalFile(str(Path(path).resolve()))
    url.setFragment(f"page={page}")
    return url


def _work(path: str, page: int, quote: str, scale: float, fit_width: int | None) -> tuple[RenderedPage, QImage]:
    """The page and its image as a ``QImage`` (background thread: no widget is touched)."""
    rendered = render_page(path, page, quote, scale=scale, fit_width=fit_width)
    image = rendered.image
    data = image.tobytes("raw", "RGB")
    qimage = QImage(data, image.width, image.height, 3 * image.width, QImage.Format.Format_RGB888).copy()
    return rendered, qimage


class PageView(QWidget):
    """Shows one page of a PDF; :meth:`show_page` opens it at the cited page with the quote highlighted.

    Signals: ``rendered(RenderedPage)`` when a page is on screen; ``failed(str)`` when it could not be
    rendered (missing file, password, corrupt): the message says why.
    """

    rendered = Signal(object)
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = TaskRunner(self, max_threads=1)
        self.path = ""
        self.page = 0  # on screen (or being rendered); 0 before the first
        self.pages = 0  # 0 until the first page is rendered
        self.cited_page = 0
        self.quote = ""
        self.scale = DEFAULT_SCALE
        self.zoomed = False  # until the person zooms, a page is fitted to the view's width (never enlarged)
        self._rendered_fit: int | None = None  # the width the page being rendered was fitted to
        self.current: RenderedPage | None = None
        self._refit = QTimer(self)  # a page fitted to a view that was resized is fitted again once it settles
        self._refit.setSingleShot(True)
        self._refit.setInterval(REFIT_MS)
        self._refit.timeout.connect(self._fit_again)
        self.previous_button = self._button("\u25b2 Page", "Show the page before (Ctrl+PgUp)", self.previous_page)
        self.next_button = self._button("Page \u25bc", "Show the page after (Ctrl+PgDown)", self.next_page)
        self.page_label = QLabel()
        self.page_label.setAccessibleName("Page number")
        self.zoom_out_button = self._button("\u2212", "Zoom out (Ctrl+-)", self.zoom_out)
        self.zoom_label = QLabel()
        self.zoom_label.setAccessibleName("Zoom")
        self.zoom_in_button = self._button("+", "Zoom in (Ctrl++)", self.zoom_in)
        for small in (self.zoom_out_button, self.zoom_in_button):
            small.setMaximumWidth(small.fontMetrics().horizontalAdvance("+") * 4 + 16)
        self.open_button = self._button("Open in viewer", "Open the file in the system's PDF viewer at this page",
                                        self.open_in_viewer)
        self.open_button.setAccessibleName("Open in the system viewer at this page")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #8a5a00; font-size: small")
        self.note.setAccessibleName("Page note")
        self.image = QLabel()
        self.image.setAccessibleName("Page image")
        self.area = QScrollArea()
        self.area.setWidget(self.image)
        self.area.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.area.setStyleSheet("QScrollArea { background: #888 }")
        for keys, slot in (("Ctrl+PgUp", self.previous_page), ("Ctrl+PgDown", self.next_page),
                           ("Ctrl+-", self.zoom_out), ("Ctrl++", self.zoom_in), ("Ctrl+=", self.zoom_in)):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        # the page buttons, then zoom and open: in one row where the width allows, else in two (one row made the
        # view at least 512 px wide, which beside the draft's points cut them to "[1] …")
        self._pages, self._zooms = QWidget(), QWidget()
        for half, widgets in ((self._pages, (self.previous_button, self.next_button, self.page_label)),
                              (self._zooms, (self.zoom_out_button, self.zoom_label, self.zoom_in_button,
                                             self.open_button))):
            row = QHBoxLayout(half)
            row.setContentsMargins(0, 0, 0, 0)
            for w in widgets:
                row.addWidget(w)
        self._bar = QGridLayout()
        self._bar.setContentsMargins(0, 0, 0, 0)
        self._bar.addWidget(self._pages, 0, 0)
        self._bar.setColumnStretch(1, 1)
        self._bar.addWidget(self._zooms, 0, 2)
        self._two_rows = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._bar)
        layout.addWidget(self.note)
        layout.addWidget(self.area, 1)
        self._update_controls()

    def _button(self, text: str, tip: str, slot: object) -> QPushButton:
        button = QPushButton(text)
        button.setToolTip(tip)
        button.setAccessibleName(tip.split(" (")[0])
        button.clicked.connect(slot)
        return button

    # ---- what the person does ----

    def show_page(self, path: str, page: int, quote: str = "") -> None:
        """Show page ``page`` (1-based) of the PDF ``path`` with ``quote`` highlighted on it."""
        if path != self.path:
            self.pages = 0
        self.path, self.cited_page, self.quote = path, page, quote
        self._go(page)

    def previous_page(self) -> None:
        if self.page > 1:
            self._go(self.page - 1)

    def next_page(self) -> None:
        if self.path and (not self.pages or self.page < self.pages):
            self._go(self.page + 1)

    def zoom_in(self) -> None:
        self._zoom(next((z for z in ZOOMS if z > self.scale + 1e-6), self.scale))

    def zoom_out(self) -> None:
        self._zoom(next((z for z in reversed(ZOOMS) if z < self.scale - 1e-6), self.scale))

    def open_in_viewer(self) -> bool:
        """Open the file in the system's PDF viewer at the page shown; False when none could be started."""
        if not self.path:
            return False
        opened = QDesktopServices.openUrl(viewer_url(self.path, self.page or 1))
        if not opened:
            self.note.setText("No PDF viewer could be started for this file.")
            self.note.setVisible(True)  # hidden while the page had no note
        return bool(opened)

    def clear(self) -> None:
        for task in self.runner.running("page"):
            self.runner.cancel(task.id)
        self.path, self.page, self.pages, self.cited_page, self.quote = "", 0, 0, 0, ""
        self.current = None
        self.image.clear()
        self.image.resize(0, 0)
        self.note.clear()
        self._update_controls()

    # ---- rendering ----

    def _zoom(self, scale: float) -> None:
        if scale != self.scale:
            self.scale, self.zoomed = scale, True
            if self.path:
                self._go(self.page)
            self._update_controls()

    def _go(self, page: int) -> None:
        self.page = page
        path, quote = self.path, self.quote if page == self.cited_page else ""
        ratio = self.devicePixelRatioF()  # crisp on high-density screens: render the screen's pixels
        scale = min((self.scale if self.zoomed else DEFAULT_SCALE) * ratio, MAX_SCALE)
        fit = None if self.zoomed else self._fit_width()
        fit_width = round(fit * ratio) if fit else None
        self._rendered_fit = fit_width
        def work(emit: Emit, cancel: threading.Event) -> tuple[RenderedPage, QImage]:
            return _work(path, page, quote, scale, fit_width)

        self._update_controls()
        self.page_label.setText(f"{self.page_label.text()} \u2026")  # rendering (the note below would jump)
        self.runner.start("page", f"Rendering page {page}", work, self._show, on_error=self._failed)

    def _show(self, result: tuple[RenderedPage, QImage]) -> None:
        rendered, qimage = result
        ratio = self.devicePixelRatioF()
        qimage.setDevicePixelRatio(ratio)
        room = None if self.zoomed else self._fit_width()
        if room is not None and qimage.width() / ratio > room and (
                self._rendered_fit is None or room * ratio < self._rendered_fit):
            self._go(self.page)  # the view got narrower (or was laid out) while the page rendered: fit again
            return
        if not self.zoomed:
            self.scale = rendered.scale / ratio
        self.current = rendered
        self.pages = rendered.pages
        self.image.setPixmap(QPixmap.fromImage(qimage))
        self.image.resize(round(qimage.width() / ratio), round(qimage.height() / ratio))
        self.note.setText(rendered.note)
        self.note.setVisible(bool(rendered.note))
        if rendered.highlights:  # the cited sentence in view, with some lines above it
            left, top, right, bottom = rendered.highlights[0].pixels
            x, y = (left + right) / 2 / ratio, (top + bottom) / 2 / ratio
            self.area.ensureVisible(round(x), round(y), self.area.viewport().width() // 2,
                                      self.area.viewport().height() // 3)
        elif rendered.page != self.cited_page:
            self.area.verticalScrollBar().setValue(0)
        self._update_controls()
        if not self.zoomed:  # the view may have been laid out while the page rendered: fitted again once it settles
            self._refit.start()
        self.rendered.emit(rendered)

    def _fit_width(self) -> int | None:
        """The width a page may take without a horizontal scroll bar (None before the view is laid out)."""
        width = self.area.viewport().width() - self.area.verticalScrollBar().sizeHint().width()
        return width if self.area.isVisible() and width >= MIN_FIT_WIDTH else None

    def _failed(self, exc: BaseException) -> None:
        self.current = None
        self.image.clear()
        self.note.setText(f"The page cannot be shown: {exc}")
        self.note.setVisible(True)
        self._update_controls()
        self.failed.emit(str(exc))

    def _update_controls(self) -> None:
        have = bool(self.path)
        self.previous_button.setEnabled(have and self.page > 1)
        self.next_button.setEnabled(have and (not self.pages or self.page < self.pages))
        self.page_label.setText(f"Page {self.page} of {self.pages}" if self.pages else
                                f"Page {self.page}" if self.page else "")
        self.zoom_label.setText(f"{self.scale * 100:.0f}%")  # 100%: 72 dpi, a point a pixel
        self.zoom_out_button.setEnabled(self.scale > ZOOMS[0])
        self.zoom_in_button.setEnabled(self.scale < ZOOMS[-1])
        self.open_button.setEnabled(have)
        self.note.setVisible(bool(self.note.text()))
        self._arrange()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()
        if self.current is not None and not self.zoomed:
            self._refit.start()

    def _fit_again(self) -> None:
        """Render the page again for the view's width where it has changed: a page first fitted while the pane
        was being laid out stayed at 41% in a pane with room for twice that (a newcomer's report), and one wider
        than a narrowed view scrolled sideways; a page rendered while its pane was being laid out stayed 246 px
        wide in a 573 px view (the resize came before the page, nothing after it: each page is checked once shown).
        Pages are never enlarged past the default scale."""
        room = self._fit_width()
        if room is None or self.zoomed or self.current is None or not self.path:
            return
        shown = self.image.width()
        can_grow = self.scale < DEFAULT_SCALE - 1e-6 and room > shown * (1 + REFIT_CHANGE)
        if can_grow or shown > room:
            self._go(self.page)

    def _arrange(self) -> None:
        """The controls in one row where the view is wide enough, else zoom and open under the page buttons; the
        view is never wider than the wider half needs (the window must not grow when a page opens)."""
        halves = (self._pages, self._zooms)
        self.setMinimumWidth(max(h.minimumSizeHint().width() for h in halves))
        two = self.width() < sum(h.sizeHint().width() for h in halves) + 2 * self._pages.fontMetrics().height()
        if two != self._two_rows:
            self._two_rows = two
            self._bar.removeWidget(self._zooms)
            self._bar.addWidget(self._zooms, *((1, 0, 1, 3) if two else (0, 2)))
