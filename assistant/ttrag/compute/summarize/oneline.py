"""A summary folded into one line (the gist a notification shows): each document's title line, then its
checked points, each with the ``[n]`` of the passage it stands on."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.records import Chunk, Document
from assistant.ttrag.compute.summarize.titles import title_of
from assistant.ttrag.compute.summarize.write import Summary

LINE_CHARS = 400  # a line longer than this keeps its first point of each document and drops the rest


def lead_line(doc: Document) -> str:
    """``TITLE (FILE, N pages)``: the document's own title (not a contract's whole title page: the line is
    short)."""
    pages = {s.page for s in doc.segments if s.page}
    size = f", {len(pages)} pages" if len(pages) > 1 else ""
    return f"{title_of(doc)} ({doc.source.replace(chr(92), '/').rsplit('/', 1)[-1]}{size})"


def one_line(summary: Summary, documents: Sequence[Document], *,
             max_chars: int = LINE_CHARS) -> tuple[str, list[Chunk]]:
    """``summary`` as one line: ``TITLE (FILE, N pages): point [1]; point [2]``, documents separated by
    `` | ``, points in the summary's order; a point that would take the line past ``max_chars`` is left out
    (each document keeps its first point). Markers are renumbered from 1 in the line's order.

    Returns:
        The line, and the passages its markers cite (``[n]`` is the n-th).
    """
    by_source: dict[str, list[tuple[str, list[Chunk]]]] = {}
    for bullet in summary.bullets:
        cited = [summary.passages[n - 1] for n in bullet.cites if 1 <= n <= len(summary.passages)]
        if cited:
            by_source.setdefault(cited[0].source, []).append((bullet.text.strip().rstrip("."), cited))
    docs = {d.source: d for d in documents}
    order = [d.source for d in documents if d.source in by_source]
    if not order:
        return " | ".join(lead_line(d) for d in documents[:3]), []
    length = sum(len(lead_line(docs[src])) + 2 for src in order)
    kept: set[tuple[str, int]] = set()
    for src in order:  # the first point of each document, then the rest while the line has room
        length += len(by_source[src][0][0]) + 6
        kept.add((src, 0))
    for src in order:
        for i, (text, _) in enumerate(by_source[src][1:], 1):
            if length + len(text) + 6 <= max_chars:
                kept.add((src, i))
                length += len(text) + 6
    passages: list[Chunk] = []
    blocks = []
    for src in order:
        points = []
        for i, (text, cited) in enumerate(by_source[src]):
            if (src, i) not in kept:
                continue
            marks = ""
            for c in cited:
                if c not in passages:
                    passages.append(c)
                marks += f"[{passages.index(c) + 1}]"
            points.append(f"{text} {marks}")
        blocks.append(f"{lead_line(docs[src])}: " + "; ".join(points))
    return " | ".join(blocks), passages
