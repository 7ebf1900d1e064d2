"""Limits on what one extraction may read: file size, archive nesting and expansion, OCR work."""

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


@dataclass(frozen=True)
class Limits:
    """How much one extraction may read before refusing (sizes in bytes, ratio uncompressed:compressed).

    ``max_depth`` counts containers inside containers (a zip in an email is depth 2); ``max_ocr_pages``
    caps the scanned pages OCR'd per file (~2.6 s each at 300 dpi); ``ocr_languages`` uses tesseract's
    ``eng+deu`` form.
    """

    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    max_depth: int = DEFAULT_MAX_DEPTH
    max_members: int = DEFAULT_MAX_MEMBERS
    max_total_bytes: int = DEFAULT_MAX_TOTAL_BYTES
    max_ratio: float = DEFAULT_MAX_RATIO
    max_ocr_pages: int = DEFAULT_MAX_OCR_PAGES
    ocr_languages: str = DEFAULT_OCR_LANGUAGES
    ocr_dpi: int = DEFAULT_OCR_DPI


DEFAULT_LIMITS = Limits()


def megabytes(n: int) -> str:
    """``n`` bytes for a message, e.g. ``512 MB``."""
    return f"{n / 1_000_000:.0f} MB" if n >= 1_000_000 else f"{n:,} bytes"
