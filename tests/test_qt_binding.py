"""The Qt binding keeps Python's reference counts: the app emits a signal per streamed piece and progress
event from worker threads, thousands in a session, so a binding that loses a reference per emit aborts the
process ("Fatal Python error: bool_dealloc" / "none_dealloc") after a while."""

from __future__ import annotations

import sys
import threading

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QCoreApplication, QObject, Signal  # noqa: E402

EMITS = 500


class _Bridge(QObject):
    sent = Signal(int, object)


def _counts() -> tuple[int, int, int]:
    return sys.getrefcount(True), sys.getrefcount(False), sys.getrefcount(None)


@pytest.mark.parametrize("where", ["worker thread", "GUI thread"])
def test_emitting_a_signal_keeps_the_reference_counts(qapp: QCoreApplication, where: str) -> None:
    """PySide6 6.12.0's ``emit`` returned True without a new reference: True's count fell by one per emit."""
    bridge = _Bridge()
    got: list[object] = []
    bridge.sent.connect(lambda i, value: got.append(value))

    def work() -> None:
        for i in range(EMITS):
            bridge.sent.emit(i, None if i % 2 else "piece")

    before = _counts()
    if where == "worker thread":
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
    else:
        work()
    qapp.processEvents()
    qapp.processEvents()
    got.clear()
    change = [after - b for after, b in zip(_counts(), before, strict=True)]
    assert all(abs(c) < EMITS // 10 for c in change), f"True/False/None reference counts changed by {change}"
