"""Protection against a Qt binding that loses references to Python's singletons (PySide6 6.12.0).

PySide6 6.12.0's ``SignalInstance.emit()`` returns ``True`` without a new reference, so every emit takes one
reference from ``True`` (some paths take one from ``None``). The app emits a signal for each streamed piece of
an answer and each progress event, from worker threads, thousands in a session; on Python 3.11, where these
singletons are ordinary reference-counted objects, the count reaches zero and the interpreter aborts
("Fatal Python error: bool_dealloc" or "none_dealloc"). Older PySide6 releases do not lose the reference but
crash elsewhere (a segmentation fault in ``BindingManager::runDeletionInMainThread`` with 6.10.3 and 6.11.3,
seen in ``tests/test_gui_window.py``), so the project stays on 6.12.0 and guards against the loss instead.

:func:`guard_singletons` probes the binding once (a few emits of a private signal) and, only when references
are lost, gives ``True``, ``False`` and ``None`` a reference headroom so large that no session exhausts it:
what Python 3.12 does for every process by making these objects immortal (PEP 683).
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal

HEADROOM = 1 << 40  # references added to each singleton: ~10^12 lost emits before any risk
PROBE_EMITS = 16

_guarded = False


class _Probe(QObject):
    ping = Signal(object)


def references_lost_per_emit() -> float:
    """References to ``True`` that one ``emit()`` of this binding loses (0 for a correct binding)."""
    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(PROBE_EMITS):
        probe.ping.emit(None)
    return (before - sys.getrefcount(True)) / PROBE_EMITS


def guard_singletons() -> bool:
    """Give ``True``, ``False`` and ``None`` the headroom of :data:`HEADROOM` references when the binding
    loses references on emit (once per process). Returns whether the guard is in place."""
    global _guarded
    if _guarded:
        return True
    if sys.version_info >= (3, 12) or references_lost_per_emit() < 0.5:
        return False  # immortal singletons (PEP 683), or a binding that keeps its references
    for singleton in (True, False, None):
        # ob_refcnt is the first field of every CPython object, at the address id() gives
        ctypes.c_ssize_t.from_address(id(singleton)).value += HEADROOM
    _guarded = True
    return True
