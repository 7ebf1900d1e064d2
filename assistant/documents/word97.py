"""Word 97-2003 (.doc) through a converter program when one is installed: antiword, catdoc or LibreOffice.

No Python library reads .doc faithfully, so, as OCR uses tesseract, the reader runs the first converter
found on PATH and says plainly what to install when there is none.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import Extractor, register
from assistant.errors import InputError
from assistant.records import Segment

INSTALL_HINT = ("cannot read .doc: install antiword (sudo apt install antiword) or LibreOffice "
                "(sudo apt install libreoffice-writer; macOS: brew install antiword)")
TIMEOUT_S = 120


def converter() -> list[str] | None:
    """The command (without the file) of the first installed converter, or None."""
    for program, args in (("antiword", ["-w", "0"]), ("catdoc", ["-w", "-d", "utf-8"])):
        found = shutil.which(program)
        if found:
            return [found, *args]
    office = shutil.which("soffice") or shutil.which("libreoffice")
    return [office] if office else None


def _run(command: list[str], path: Path) -> str:
    if Path(command[0]).name in ("soffice", "libreoffice"):
        with tempfile.TemporaryDirectory(prefix="assistant-doc-") as tmp:
            subprocess.run([*command, "--headless", "--convert-to", "txt:Text (encoded):UTF8", "--outdir", tmp,
                            str(path)], capture_output=True, timeout=TIMEOUT_S, check=True)
            out = Path(tmp) / f"{path.stem}.txt"
            if not out.exists():
                raise InputError(str(path), "LibreOffice could not convert this .doc file")
            return out.read_text("utf-8", errors="replace")
    done = subprocess.run([*command, str(path)], capture_output=True, timeout=TIMEOUT_S, check=True)
    return done.stdout.decode("utf-8", errors="replace")


class DocExtractor(Extractor):
    """Word 97-2003 documents; the text as the converter lays it out."""

    suffixes = (".doc",)
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        command = converter()
        if command is None:
            raise InputError(str(path), INSTALL_HINT)
        try:
            text = _run(command, path)
        except subprocess.TimeoutExpired as exc:
            raise InputError(str(path), f"the .doc converter took more than {TIMEOUT_S} s") from exc
        except subprocess.CalledProcessError as exc:
            why = exc.stderr.decode("utf-8", errors="replace").strip().splitlines()[-1:] if exc.stderr else []
            hint = "encrypted or corrupt .doc file"
            raise InputError(str(path), f"{hint} ({Path(command[0]).name}: {' '.join(why) or exc.returncode})"
                             ) from exc
        yield Segment(text=text.replace("\r\n", "\n").replace("\f", "\n"))


register(DocExtractor())
