"""Labels that never cut their text: one that wraps and is given the height it needs, one that shortens its
line to the width it is given (a long file name in the middle) and keeps it whole in the tooltip; and the
status bar's message, which gives way to what runs."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


def elide_longest_word(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` within ``width`` pixels: its longest word (a file name, as a rule) shortened in the middle
    ("WaterNow…EX-10.1_11.pdf"), so that both the start of the line and the name's end stay; the line's
    end is cut only when that is not enough."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    words = text.split(" ")
    i = max(range(len(words)), key=lambda k: len(words[k]))
    room = width - metrics.horizontalAdvance(" ".join(words[:i] + [""] + words[i + 1:]))
    if room >= metrics.horizontalAdvance("\u2026") * 8:  # a few characters either side of the ellipsis
        words[i] = metrics.elidedText(words[i], Qt.TextElideMode.ElideMiddle, room)
        text = " ".join(words)
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)


class WrappedLabel(QLabel):
    """A label whose text wraps and is never cut: its minimum height is the height of its wrapped text.

    A plain word-wrapped ``QLabel`` in a dialog's layout gets the height of the lines it was laid out with; Qt's
    top-level layouts ignore height-for-width, so a longer message later (an error of four lines where the
    layout had room for two) was cut at its top and bottom. Here the minimum size hint follows the text and
    the width, so the dialog grows to show all of it.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        if self.text() and self.width() > 0:
            return QSize(hint.width(), max(hint.height(), self.heightForWidth(self.width())))
        return hint

    def setText(self, text: str) -> None:
        super().setText(text)
        self.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():  # the text wraps anew
            self.updateGeometry()


class ElidedLabel(QLabel):
    """One line of plain text shortened (:func:`elide_longest_word`) to the width the layout gives it: it asks
    for the whole line's width and makes do with ``min_chars`` average characters; the whole line, when
    shortened, and ``tip`` in the tooltip. Set the line with :meth:`set_line` (``text()`` is what is shown).

    A plain ``QLabel`` asks for its whole text as its minimum, and where the status bar had less room the line
    was cut at its end ("Reading passages 1-3 of WaterNowInc_20191120_10-Q_E")."""

    def __init__(self, parent: QWidget | None = None, *, min_chars: int = 12) -> None:
        super().__init__(parent)
        self.min_chars = min_chars
        self._line = ""
        self._tip = ""

    @property
    def line(self) -> str:
        """The whole line, as set."""
        return self._line

    def set_line(self, line: str, tip: str = "") -> None:
        self._line, self._tip = line, tip
        self.updateGeometry()
        self._fit()

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        margins = self.contentsMargins().left() + self.contentsMargins().right()
        return QSize(metrics.horizontalAdvance(self._line) + margins, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self.min_chars * self.fontMetrics().averageCharWidth(), super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        shown = elide_longest_word(self._line, self.fontMetrics(), self.contentsRect().width())
        self.setText(shown)
        self.setToolTip("\n\n".join(t for t in (self._line if shown != self._line else "", self._tip) if t))


class StatusNotice(QLabel):
    """The status bar's message (the open files, a sync's outcome, a link to add an account): it takes the room
    the status bar's permanent widgets leave, cut at its end, and is whole in the tooltip.

    As a plain ``QLabel`` it asked for its whole line as its minimum: with two long file names open, the
    progress line of a summary beside it was squeezed to "Point 4 of\u2026" (a newcomer's report)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # takes what is left

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def clear(self) -> None:
        super().clear()
        self.setToolTip("")
