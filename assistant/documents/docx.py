"""DOCX text as a person sees it: the body in reading order, then headers, footers, notes and comments.

The WordprocessingML parts are walked directly (zipfile + lxml), so nothing a reader sees hides from us:
content controls (``w:sdt``) at any depth, tracked changes in their accepted view (``w:ins`` read,
``w:del`` not), hyperlinks, smart tags, fields, tables nested in cells and text boxes. Transitional and
Strict Open XML namespaces both work. Headings (``Heading N`` / ``Title`` styles) start body sections;
every other part follows as its own section: ``header``, ``footer``, ``footnote N``, ``endnote N``,
``comment by AUTHOR``. Word's automatic list numbers ("1.2", "(a)", bullets) start their paragraphs as
Word shows them (:mod:`assistant.documents.docx_numbering`). Hidden text (``w:vanish``, and white or
1-pt runs) is kept but moved to a ``hidden text`` section, so the body reads as printed and the reader
still sees what the file carries.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.documents.base import Extractor, register, report_title
from assistant.documents.docx_numbering import ListNumbering
from assistant.documents.protected import decrypted_office
from assistant.documents.sheet import encrypted_office
from assistant.documents.sniff import not_a_package
from assistant.documents.wordml import W_NAMESPACES, attr, child, local, namespace
from assistant.errors import InputError
from assistant.records import Segment

_MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_MATH = ("http://schemas.openxmlformats.org/officeDocument/2006/math", "http://purl.oclc.org/ooxml/officeDocument/math")
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"

# Elements whose content a reader never sees (properties, deleted or moved-away text, field codes).
_SKIP = frozenset({"pPr", "rPr", "tblPr", "tblGrid", "trPr", "tcPr", "sectPr", "sdtPr", "sdtEndPr", "del",
                   "moveFrom", "delText", "delInstrText", "instrText", "footnoteRef", "endnoteRef",
                   "annotationRef", "commentReference", "separator", "continuationSeparator", "fldData",
                   "rubyPr", "numPr", "bookmarkStart", "bookmarkEnd", "proofErr", "lastRenderedPageBreak"})
_INLINE_TEXT = {"tab": "\t", "ptab": "\t", "br": "\n", "cr": "\n", "noBreakHyphen": "-"}


@dataclass
class _Reader:
    """Walks one part; ``styles`` maps style ids to names, ``numbering`` gives list numbers, ``notes``
    collects note references in order."""

    styles: dict[str, str]
    numbering: ListNumbering | None = None
    notes: dict[str, list[str]] = field(default_factory=lambda: {"footnote": [], "endnote": []})
    hidden: list[str] = field(default_factory=list)

    def blocks(self, container: Any, top: bool = False) -> Iterator[tuple[str, bool]]:
        """(line, is_heading) for the block-level content of ``container`` in reading order."""
        for el in container:
            name = local(el.tag)
            if name in _SKIP or name == "":
                continue
            if name == "p":
                text, boxes = self.paragraph(el)
                if text.strip():
                    yield text, top and self.is_heading(el)
                for box in boxes:
                    yield from self.blocks(box)
            elif name == "tbl":
                yield from ((row, False) for row in self.table(el))
            elif name == "AlternateContent" and namespace(el.tag) == _MC:
                yield from self.blocks(_choice(el), top)
            else:  # sdt, sdtContent, customXml, ins, moveTo, smartTag and anything unknown: look inside
                yield from self.blocks(el, top)

    def table(self, tbl: Any) -> Iterator[str]:
        for row in _descend(tbl, "tr", stop="tbl"):
            trpr = child(row, "trPr")
            if trpr is not None and child(trpr, "del") is not None:
                continue  # a row deleted with tracked changes on
            cells = ["\n".join(line for line, _ in self.blocks(tc)).strip() for tc in _descend(row, "tc", stop="tbl")]
            if any(cells):
                yield " | ".join(cells)

    def paragraph(self, p: Any) -> tuple[str, list[Any]]:
        """The paragraph's visible text, and the text boxes anchored in it (read after it)."""
        parts: list[str] = []
        hidden: list[str] = []
        boxes: list[Any] = []
        self._inline(p, parts, hidden, boxes, False)
        if "".join(hidden).strip():
            self.hidden.append("".join(hidden).strip())
        text = "".join(parts)
        number = self.numbering.label(p) if self.numbering is not None else ""  # counted even when empty
        return (number + text if number and text.strip() else text), boxes

    def _inline(self, el: Any, parts: list[str], hidden: list[str], boxes: list[Any], vanish: bool) -> None:
        for sub in el:
            name = local(sub.tag)
            ns = namespace(sub.tag)
            if name in _SKIP or name == "":
                continue
            if name == "r" and ns in W_NAMESPACES:
                self._inline(sub, hidden if vanish or _vanished(sub) else parts, hidden, boxes,
                             vanish or _vanished(sub))
            elif name == "t" and (ns in W_NAMESPACES or ns in _MATH):
                parts.append(sub.text or "")
            elif name in _INLINE_TEXT and ns in W_NAMESPACES:
                parts.append(_INLINE_TEXT[name])
            elif name == "sym" and ns in W_NAMESPACES:
                try:
                    code = int(attr(sub, "char") or "0", 16)
                except ValueError:
                    code = 0
                if 0x20 <= code < 0xE000:  # symbol-font private-use codes have no text meaning
                    parts.append(chr(code))
            elif name in ("footnoteReference", "endnoteReference") and ns in W_NAMESPACES:
                note = attr(sub, "id")
                if note is not None:
                    self.notes[name[:-9]].append(note)
            elif name == "txbxContent":
                boxes.append(sub)
            elif name == "AlternateContent" and ns == _MC:
                self._inline(_choice(sub), parts, hidden, boxes, vanish)
            elif name == "p":  # a paragraph inside something inline (e.g. a text box without txbxContent)
                boxes.append([sub])
            else:  # ins, moveTo, hyperlink, smartTag, sdt, sdtContent, fldSimple, drawing, pict, oMath...
                self._inline(sub, parts, hidden, boxes, vanish)

    def is_heading(self, p: Any) -> bool:
        ppr = child(p, "pPr")
        style = child(ppr, "pStyle") if ppr is not None else None
        style_id = attr(style, "val") if style is not None else None
        if not style_id:
            return False
        name = self.styles.get(style_id, style_id).lower()
        return name.startswith(("heading", "title"))


def _vanished(run: Any) -> bool:
    rpr = child(run, "rPr")
    if rpr is None:
        return False
    vanish = child(rpr, "vanish")
    if vanish is not None and attr(vanish, "val") not in ("0", "false", "off"):
        return True
    # Text a person cannot see without w:vanish: white on no shading or highlight, or 1 pt and smaller
    # (w:sz counts half-points; ECMA-376 Part 1 §17.3.2.6, §17.3.2.38).
    color, size = child(rpr, "color"), child(rpr, "sz")
    painted = child(rpr, "shd") is not None or child(rpr, "highlight") is not None
    white = color is not None and (attr(color, "val") or "").upper() == "FFFFFF" and not painted
    half_points = (attr(size, "val") or "") if size is not None else ""
    tiny = half_points.isdigit() and int(half_points) <= 2
    return white or tiny


def _choice(alternate: Any) -> list[Any]:
    """The first ``mc:Choice`` of an ``mc:AlternateContent`` (its ``mc:Fallback`` repeats the content)."""
    for sub in alternate:
        if local(sub.tag) in ("Choice", "Fallback"):
            return [sub]
    return []


def _descend(el: Any, name: str, stop: str) -> Iterator[Any]:
    """Children named ``name``, looking through wrappers (sdt, customXml, ins) but not into ``stop``."""
    for sub in el:
        tag = local(sub.tag)
        if tag == name:
            yield sub
        elif tag not in _SKIP and tag != stop and tag not in ("tc", "p"):
            yield from _descend(sub, name, stop)


class _Package:
    """The parts of an OPC zip, found through relationships (Transitional or Strict types)."""

    def __init__(self, zf: zipfile.ZipFile) -> None:
        from lxml import etree

        self.zf = zf
        self.names = set(zf.namelist())
        self._parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True,
                                       remove_pis=True)

    def xml(self, name: str) -> Any:
        from lxml import etree

        return etree.fromstring(self.zf.read(name), self._parser)

    def related(self, source: str) -> list[tuple[str, str]]:
        """(relationship type's last word, part name) of ``source``'s internal relationships, in order."""
        folder, base = posixpath.split(source)
        rels = posixpath.join(folder, "_rels", base + ".rels")
        if rels not in self.names:
            return []
        found = []
        for rel in self.xml(rels):
            if local(rel.tag) != "Relationship" or rel.get("TargetMode") == "External":
                continue
            target = rel.get("Target") or ""
            part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
            if part in self.names:
                found.append(((rel.get("Type") or "").rpartition("/")[2], part))
        return found


def _core_title(package: _Package) -> str:
    """The title property of the package (``dc:title`` of its core properties), '' when it has none."""
    core = next((part for kind, part in package.related("") if kind == "core-properties"), None)
    if core is None and "docProps/core.xml" in package.names:
        core = "docProps/core.xml"
    if core is None:
        return ""
    title = package.xml(core).find("{http://purl.org/dc/elements/1.1/}title")
    return str(title.text or "") if title is not None else ""


def _part(package: _Package, parts: list[tuple[str, str]], kind: str) -> Any:
    """The root element of the first related part of ``kind`` (``styles``, ``numbering``), or None."""
    return next((package.xml(part) for rel_kind, part in parts if rel_kind == kind), None)


def _styles(styles: Any) -> dict[str, str]:
    names: dict[str, str] = {}
    for style in styles if styles is not None else []:
        style_id = attr(style, "styleId")
        name = child(style, "name")
        if style_id and name is not None:
            names[style_id] = attr(name, "val") or style_id
    return names


def _notes(package: _Package, reader: _Reader, part: str, kind: str) -> Iterator[Segment]:
    """Footnotes or endnotes numbered in the order the body refers to them (unreferenced ones after)."""
    notes = {}
    for note in package.xml(part):
        if local(note.tag) == kind and attr(note, "type") in (None, "normal"):
            notes[attr(note, "id") or ""] = "\n".join(line for line, _ in reader.blocks(note)).strip()
    order = list(dict.fromkeys(n for n in reader.notes[kind] if n in notes))
    order += [n for n in notes if n not in order]
    for number, note_id in enumerate(order, start=1):
        if notes[note_id]:
            yield Segment(text=notes[note_id], section=f"{kind} {number}")


class DocxExtractor(Extractor):
    """One segment per heading-delimited body section (DOCX has no fixed pages), then one per other part."""

    suffixes = (".docx",)
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        from lxml import etree

        package = decrypted_office(path, "Word document") if encrypted_office(path) else None
        try:
            with zipfile.ZipFile(io.BytesIO(package) if package is not None else path) as zf:
                yield from self._read(_Package(zf))
        except (zipfile.BadZipFile, KeyError, ValueError, etree.XMLSyntaxError, EOFError) as exc:
            raise InputError(str(path), not_a_package(path, "a Word document", exc)) from exc

    def _read(self, package: _Package) -> Iterator[Segment]:
        main = next((part for kind, part in package.related("") if kind == "officeDocument"), None)
        if main is None and "word/document.xml" in package.names:  # package relationships lost
            main = "word/document.xml"
        if main is None:
            raise ValueError("no main document part")
        root = package.xml(main)
        if namespace(root.tag) not in W_NAMESPACES:
            raise ValueError(f"main part is not WordprocessingML ({namespace(root.tag) or root.tag})")
        report_title(_core_title(package))
        parts = package.related(main)
        styles, numbering = _part(package, parts, "styles"), _part(package, parts, "numbering")
        reader = _Reader(styles=_styles(styles),
                         numbering=ListNumbering(numbering, styles) if numbering is not None else None)
        section: str | None = None
        lines: list[str] = []
        body = child(root, "body")
        for line, heading in reader.blocks(body if body is not None else root, top=True):
            if heading:
                if lines:
                    yield Segment(text="\n".join(lines), section=section)
                section, lines = line.strip(), []
            lines.append(line)
        if lines:
            yield Segment(text="\n".join(lines), section=section)
        seen: set[tuple[str, str]] = set()
        for kind in ("header", "footer"):
            for rel_kind, part in parts:
                if rel_kind == kind:
                    text = "\n".join(line for line, _ in reader.blocks(package.xml(part))).strip()
                    if text and (kind, text) not in seen:  # first-page/even-page copies often repeat
                        seen.add((kind, text))
                        yield Segment(text=text, section=kind)
        for kind in ("footnote", "endnote"):
            for rel_kind, part in parts:
                if rel_kind == kind + "s":
                    yield from _notes(package, reader, part, kind)
        for rel_kind, part in parts:
            if rel_kind == "comments":
                for comment in package.xml(part):
                    if local(comment.tag) == "comment":
                        text = "\n".join(line for line, _ in reader.blocks(comment)).strip()
                        if text:
                            yield Segment(text=text, section=f"comment by {attr(comment, 'author') or 'unknown'}")
        if reader.hidden:
            yield Segment(text="\n".join(reader.hidden), section="hidden text")


register(DocxExtractor())
