"""A new message's gist: one cited line on what its attachments are, kept only in the mail cache beside the
message (``UID.gist.json``, :meth:`~assistant.mail.cache.MailCache.put_sidecar`) and removed with it.

The gist is computed by :func:`assistant.gist.gist_message`; this module holds the record and its storage
only, so that the message list and ``assistant mail list`` read it without loading a model.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from assistant.mail.cache import CachedRef, MailCache

SIDECAR = "gist"
FORMAT = 1  # the stored JSON's version; a gist of another version is ignored (computed again on arrival)


@dataclass(frozen=True)
class GistSource:
    """The passage a gist's ``[n]`` cites: the attachment's file name, its page (None where the format has
    none), the passage's character span in the attachment's text, and its first words (at most
    :data:`QUOTE_CHARS` characters)."""

    n: int
    attachment: str
    page: int | None
    start: int
    end: int
    quote: str

    def where(self) -> str:
        """``contract.pdf p. 12`` or ``notes.txt``."""
        return f"{self.attachment} p. {self.page}" if self.page else self.attachment


QUOTE_CHARS = 240


@dataclass(frozen=True)
class Gist:
    """What a message's attachments are, in one line.

    Attributes:
        text: one line, each statement ending in ``[n]`` markers that number :attr:`sources`, e.g.
            ``Supply Agreement (contract.pdf, 305 pages): the term is five years [1]; ...``.
        sources: the passages cited, in marker order.
        attachments: the file names read.
        skipped: ``FILENAME: reason`` for each attachment that could not be read.
        seconds: wall time from reading the attachments to the line (models loaded before excluded).
        reader: the LLM that wrote it (``bundled``, ``fast``, a file name).
    """

    text: str
    sources: tuple[GistSource, ...] = ()
    attachments: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    seconds: float = 0.0
    reader: str = ""

    def cited(self) -> str:
        """The line, then one line per source: ``[1] contract.pdf p. 12: "The term of this ..."``."""
        lines = [self.text] + [f"[{s.n}] {s.where()}: \u201c{s.quote}\u201d" for s in self.sources]
        return "\n".join(lines)

    def to_json(self) -> bytes:
        return json.dumps({"format": FORMAT, **asdict(self)}, ensure_ascii=False).encode()

    @classmethod
    def from_json(cls, data: bytes) -> Gist | None:
        """The gist stored as ``data``, or None when it is not one this version reads."""
        try:
            raw = json.loads(data)
            if raw.pop("format", None) != FORMAT:
                return None
            sources = tuple(GistSource(**s) for s in raw.pop("sources", ()))
            return cls(sources=sources, attachments=tuple(raw.pop("attachments", ())),
                       skipped=tuple(raw.pop("skipped", ())), **raw)
        except (ValueError, TypeError, AttributeError):
            return None


def save_gist(cache: MailCache, ref: CachedRef, gist: Gist) -> bool:
    """Keep ``gist`` beside the cached message ``ref``; False when the message left the cache meanwhile.

    Raises:
        StorageError: the data folder is full or read-only.
    """
    return cache.put_sidecar(ref, SIDECAR, gist.to_json()) is not None


def load_gist(cache: MailCache, ref: CachedRef) -> Gist | None:
    """The gist kept beside ``ref``, or None."""
    data = cache.get_sidecar(ref, SIDECAR)
    return Gist.from_json(data) if data is not None else None
