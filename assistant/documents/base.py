"""The extractor interface and registry: one :class:`Extractor` per format family, chosen by suffix."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path

from assistant.errors import InputError
from assistant.records import Document, Segment

SEGMENT_GAP = "\n\n"


class Extractor(ABC):
    """Reads one format family. Subclasses implement :meth:`segments` and list their ``suffixes``."""

    suffixes: tuple[str, ...] = ()

    @abstractmethod
    def segments(self, path: Path) -> Iterator[Segment]:
        """Yield the file's text in reading order, a page or section at a time.

        Raises:
            InputError: the file is corrupt, encrypted or otherwise unreadable (names the reason).
        """


_REGISTRY: dict[str, Extractor] = {}


def register(extractor: Extractor) -> Extractor:
    """Make ``extractor`` handle its suffixes (later registrations win)."""
    for suffix in extractor.suffixes:
        _REGISTRY[suffix.lower()] = extractor
    return extractor


def supported_suffixes() -> list[str]:
    """File suffixes with an extractor, sorted."""
    _load_builtin()
    return sorted(_REGISTRY)


def _load_builtin() -> None:
    if not _REGISTRY:
        from assistant.documents import docx, pdf, text  # noqa: F401  (they register themselves)


def extract(path: str | Path) -> Document:
    """Read ``path`` into a :class:`Document` (segments joined by a blank line, offsets recorded).

    Raises:
        InputError: missing, unreadable, unsupported, corrupt or empty file; the message names it.
    """
    _load_builtin()
    path = Path(path)
    name = str(path)
    if not path.exists():
        raise InputError(name, "file not found")
    if path.is_dir():
        raise InputError(name, "is a folder, not a file")
    extractor = _REGISTRY.get(path.suffix.lower())
    if extractor is None:
        kind = path.suffix.lower() or "no suffix"
        raise InputError(name, f"unsupported: {kind} (supported: {', '.join(supported_suffixes())})")
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        raise InputError(name, f"cannot be read ({exc.strerror})") from exc
    parts: list[str] = []
    segments: list[Segment] = []
    offsets: list[int] = []
    pos = 0
    for seg in extractor.segments(path):
        if not seg.text.strip():
            continue
        if parts:
            parts.append(SEGMENT_GAP)
            pos += len(SEGMENT_GAP)
        offsets.append(pos)
        segments.append(seg)
        parts.append(seg.text)
        pos += len(seg.text)
    if not segments:
        raise InputError(name, "contains no text (empty, or only images: OCR is not available yet)")
    return Document(source=name, text="".join(parts), segments=tuple(segments), offsets=tuple(offsets))
