"""Limits on what one extraction may read: file size, pages, archive nesting and expansion, OCR work,
and the time and memory one file's reader may use; and how much text one question's context is built from.

Every limit is a setting in the ``[documents]`` table of ``config.toml`` (same names as the fields of
:class:`Limits`); a refusal names the limit and the setting that raises it (:func:`raise_hint`).
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024
DEFAULT_MAX_DEPTH = 5
DEFAULT_MAX_MEMBERS = 10_000
DEFAULT_MAX_TOTAL_BYTES = 1024 * 1024 * 1024
DEFAULT_MAX_RATIO = 100.0
DEFAULT_MAX_OCR_PAGES = 200
DEFAULT_OCR_LANGUAGES = "eng"
DEFAULT_OCR_DPI = 300
DEFAULT_MAX_PAGES = 5_000
DEFAULT_MAX_SECONDS = 120.0
DEFAULT_MAX_MEMORY_MB = 2048
DEFAULT_MAX_CONTEXT_MB = 64
MIB = 1024 * 1024
SETTINGS_TABLE = "documents"
# Plain text, HTML, calendars and mail larger than this are read in a child process too (with the time and
# memory limits); smaller ones in-process, which costs no process start.
ISOLATE_ABOVE_BYTES = 1_000_000


@dataclass(frozen=True)
class Limits:
    """How much one extraction may read before refusing (sizes in bytes, ratio uncompressed:compressed).

    ``max_depth`` counts containers inside containers (a zip in an email is depth 2); ``max_ocr_pages``
    caps the pages OCR'd per file (~2.6 s each at 300 dpi): scanned pages, and scans whose hidden text
    layer is checked against the image (:mod:`assistant.documents.ocrlayer`); ``ocr_languages`` uses tesseract's
    ``eng+deu`` form. ``max_pages`` refuses longer PDFs before a page is read. ``max_seconds`` (wall
    clock) and ``max_memory_mb`` (address space, MiB) bound one file's reader when it runs in a child
    process (PDF, Office, archives: see :mod:`assistant.documents.isolate`); 0 turns either off.
    ``max_context_mb`` is the most text (MiB of characters, all the files of one question together) a
    question's chunks and index are built from; more is refused before any of it is chunked, since the build
    holds memory in proportion to the text (benchmarks/results/ask_memory.md); 0 turns it off.
    """

    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    max_depth: int = DEFAULT_MAX_DEPTH
    max_members: int = DEFAULT_MAX_MEMBERS
    max_total_bytes: int = DEFAULT_MAX_TOTAL_BYTES
    max_ratio: float = DEFAULT_MAX_RATIO
    max_ocr_pages: int = DEFAULT_MAX_OCR_PAGES
    ocr_languages: str = DEFAULT_OCR_LANGUAGES
    ocr_dpi: int = DEFAULT_OCR_DPI
    max_pages: int = DEFAULT_MAX_PAGES
    max_seconds: float = DEFAULT_MAX_SECONDS
    max_memory_mb: int = DEFAULT_MAX_MEMORY_MB
    max_context_mb: int = DEFAULT_MAX_CONTEXT_MB


DEFAULT_LIMITS = Limits()


def megabytes(n: int) -> str:
    """``n`` bytes for a message, e.g. ``512 MB``."""
    return f"{n / 1_000_000:.0f} MB" if n >= 1_000_000 else f"{n:,} bytes"


def raise_hint(setting: str) -> str:
    """How a person raises a limit, e.g. ``raise max_pages in [documents] of config.toml``."""
    return f"raise {setting} in [{SETTINGS_TABLE}] of config.toml"
