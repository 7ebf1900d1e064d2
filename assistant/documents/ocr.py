"""OCR of scanned pages with tesseract through pytesseract (image-only pages, and scans whose hidden text layer
is checked against the image); the only module that runs tesseract."""

from __future__ import annotations

import shutil
from functools import lru_cache
from typing import Any

INSTALL_HINT = ("OCR needs the tesseract program: install it with  sudo apt install tesseract-ocr  "
                "(macOS: brew install tesseract; Windows: the UB Mannheim installer)")


class OcrUnavailable(Exception):
    """Tesseract (or a requested language) is missing; the message says how to install it."""


@lru_cache(maxsize=1)
def _installed_languages() -> frozenset[str]:
    if shutil.which("tesseract") is None:
        raise OcrUnavailable(INSTALL_HINT)
    import pytesseract

    try:
        return frozenset(pytesseract.get_languages(config=""))
    except (pytesseract.TesseractNotFoundError, pytesseract.TesseractError, OSError) as exc:
        raise OcrUnavailable(f"{INSTALL_HINT} ({exc})") from exc


def check_ocr(languages: str) -> None:
    """Raise :class:`OcrUnavailable` unless tesseract and every language in ``eng+deu`` form are installed."""
    missing = [lang for lang in languages.split("+") if lang not in _installed_languages()]
    if missing:
        raise OcrUnavailable(f"tesseract has no {'+'.join(missing)} language data: install it with  "
                             f"sudo apt install {' '.join('tesseract-ocr-' + m for m in missing)}")


def ocr_image(image: Any, languages: str) -> str:
    """Text of a PIL ``image`` (a page rendered at ~300 dpi).

    Raises:
        OcrUnavailable: tesseract or the language data is missing, or tesseract failed.
    """
    import pytesseract

    check_ocr(languages)
    try:
        return str(pytesseract.image_to_string(image, lang=languages))
    except (pytesseract.TesseractNotFoundError, pytesseract.TesseractError, OSError) as exc:
        raise OcrUnavailable(f"tesseract failed: {exc}") from exc
