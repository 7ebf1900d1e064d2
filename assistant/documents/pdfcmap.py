"""Text PDFium leaves out: strings shown in a font with a predefined CJK CMap that its text page skips.

PDFium keeps such text objects (a Type0 font whose ``/Encoding`` names a predefined CMap such as ``V`` or
``90ms-RKSJ-H``, ISO 32000-1 9.7.5.2) but may give them no characters at all. Their strings are read from
the page's content stream (by pypdf, :mod:`assistant.documents.pdfraw`), decoded with the codec of the
CMap's character encoding, and each object's text is placed at its bounds (one column when the CMap is
vertical).
PDFium leaves out text objects with no width or no height (a vertical font without metrics), so only
pages with such an object that has no characters pay for reading the file.
"""

from __future__ import annotations

import ctypes
from typing import Any

from assistant.documents.pdflayout import Fragment
from assistant.documents.pdfobjects import object_bounds
from assistant.documents.pdfraw import RawPdf

_JIS = "jis"  # two-byte JIS X 0208 codes: ISO-2022-JP once ESC $ B has switched to them
#: the codec of each predefined CJK CMap (ISO 32000-1 Table 118), by its name without ``-H``/``-V``
CMAP_CODECS: dict[str, str] = {
    "": _JIS, "EUC": "euc_jp", "83pv-RKSJ": "cp932", "90ms-RKSJ": "cp932", "90msp-RKSJ": "cp932",
    "90pv-RKSJ": "cp932", "Add-RKSJ": "cp932", "Ext-RKSJ": "cp932", "UniJIS-UCS2": "utf_16_be",
    "UniJIS-UCS2-HW": "utf_16_be", "UniJIS-UTF16": "utf_16_be",
    "GB-EUC": "gb2312", "GBpc-EUC": "gb2312", "GBK-EUC": "gbk", "GBKp-EUC": "gbk", "GBK2K": "gb18030",
    "UniGB-UCS2": "utf_16_be", "UniGB-UTF16": "utf_16_be",
    "B5pc": "big5", "ETen-B5": "big5", "HKscs-B5": "big5hkscs", "ETenms-B5": "cp950",
    "UniCNS-UCS2": "utf_16_be", "UniCNS-UTF16": "utf_16_be",
    "KSC-EUC": "euc_kr", "KSCpc-EUC": "euc_kr", "KSCms-UHC": "cp949", "KSCms-UHC-HW": "cp949",
    "UniKS-UCS2": "utf_16_be", "UniKS-UTF16": "utf_16_be",
}
FLAT = 0.01  # points: a text object this thin has no characters in PDFium's text page
_SHOW = {"Tj": 0, "'": 0, '"': 2, "TJ": 0}  # text-showing operators and the operand holding the string


def cmap_codec(name: str) -> tuple[str, bool] | None:
    """The codec of the predefined CJK CMap ``name`` and whether it writes vertically; None for others."""
    if name in ("H", "V"):
        return CMAP_CODECS[""], name == "V"
    if name[-2:] in ("-H", "-V") and name[:-2] in CMAP_CODECS and name[:-2]:
        return CMAP_CODECS[name[:-2]], name.endswith("-V")
    return None


def decode(data: bytes, codec: str) -> str:
    """``data`` shown in a font whose CMap has ``codec`` as text; undecodable bytes are dropped."""
    if codec == _JIS:
        return (b"\x1b$B" + data).decode("iso2022_jp", errors="ignore")
    return data.decode(codec, errors="ignore").replace("\x00", "")


def unmapped_fragments(texts: list[Any], textpage: Any, raw: RawPdf | None, index: int,
                       hidden: set[int]) -> list[Fragment]:
    """The text of the page's text objects that PDFium gives no characters while their font has a
    predefined CJK CMap, as fragments at the objects' bounds.

    Args:
        texts: the page's own text objects in drawing order; textpage: its ``PdfTextPage``.
        raw: the file's objects; index: the page's index in it.
        hidden: addresses of text objects a person cannot see (their fragments are marked hidden).
    """
    import pypdfium2.raw as c

    if raw is None:
        return []
    boxes = {k: box for k, obj in enumerate(texts) if (box := object_bounds(obj)) is not None
             and min(box[2] - box[0], box[3] - box[1]) < FLAT
             and c.FPDFTextObj_GetText(obj, textpage.raw, None, 0) <= 2}  # 2: just the terminating NUL
    if not boxes:
        return []
    shown = _shown(raw, index)
    if shown is None or len(shown) != len(texts):  # the objects cannot be told apart: leave the page as it is
        return []
    out = []
    for k, box in sorted(boxes.items()):
        font, strings = shown[k]
        codec = cmap_codec(font)
        text = "".join(decode(s, codec[0]) for s in strings).strip() if codec else ""
        if codec and text:
            address = ctypes.cast(texts[k], ctypes.c_void_p).value or 0
            out.append(Fragment(text, *box, address in hidden, codec[1]))
    return out


def _shown(raw: RawPdf, index: int) -> list[tuple[str, list[bytes]]] | None:
    """For each text object of page ``index`` (each text-showing operator with a string, ISO 32000-1
    9.4.3), the ``/Encoding`` name of its font when that is a composite (Type0) font, and its strings;
    None when the page cannot be read."""
    page = raw.page(index)
    if page is None:
        return None
    out: list[tuple[str, list[bytes]]] = []
    cmap, saved = "", []  # the current font's /Encoding name; those saved by q (the font is graphics state)
    for op, operands in page.operations:
        if op == "q":
            saved.append(cmap)
        elif op == "Q":
            cmap = saved.pop() if saved else cmap
        elif op == "Tf" and operands and isinstance(operands[0], str):
            font = page.fonts.get(operands[0])
            cmap = font.encoding if font is not None and font.subtype == "Type0" and font.composite else ""
        elif op in _SHOW and len(operands) > _SHOW[op]:
            value = operands[_SHOW[op]]
            strings = [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, bytes)]
            if strings if op == "TJ" else isinstance(value, bytes) and value:  # PDFium's rule for an object
                out.append((cmap, strings))
    return out
