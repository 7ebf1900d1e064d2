"""Writing a summary: the model's points over the planned passages, each checked against the passage it
cites, numbered in order of first citation and rendered as bullets or sentences."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from assistant.documents.chunk import sentence_spans
from assistant.models.base import Embedder, GenerationRequest, Generator
from assistant.records import Chunk, Document
from assistant.text.subjects import base_subject
from assistant.ttrag.compute.summarize.asks import ask_point
from assistant.ttrag.compute.summarize.plan import DETAIL_BUDGET, GIST_BUDGET, Planned, reading_plan
from assistant.ttrag.compute.summarize.request import Form, SummaryRequest
from assistant.ttrag.compute.summarize.sidematter import is_boilerplate
from assistant.ttrag.compute.summarize.structure import ABSTRACT, Kind, document_kind
from assistant.ttrag.compute.summarize.support import supported_by
from assistant.ttrag.compute.summarize.titles import MAX_TITLE, title_of, title_page
from assistant.ttrag.context import Context
from assistant.ttrag.grounding import terms
from assistant.ttrag.prompts import (
    SUMMARY_SLOTS,
    SYSTEM,
    summary_plan_prompt,
    summary_points_prompt,
    summary_points_schema,
)
from assistant.ttrag.window import Fit, fit_read

MAX_MAP_CALLS = 4  # map calls for "in detail" (each ~the gist's cost)
GIST_BULLETS = 3
DETAIL_BULLETS_PER_CALL = 3


@dataclass(frozen=True)
class Bullet:
    """One statement of a summary and the passages (1-based, as read) that support it."""

    text: str
    cites: tuple[int, ...]


@dataclass(frozen=True)
class Summary:
    """A finished summary: ``text`` as shown (bullets or sentences, each ending in ``[n]`` markers),
    the passages cited (numbered as in the markers, in order of first citation), the bullets kept (their
    ``cites`` in the same numbering), the statements dropped as not supported by the passage they cite, and
    the reading plan (every passage read)."""

    text: str
    passages: tuple[Chunk, ...]
    bullets: tuple[Bullet, ...]
    dropped: tuple[str, ...]
    plan: tuple[Planned, ...]


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
_MARK = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
_PAGE_NOTE = re.compile(r"\s*\((?:p\.|page)\s*\d+\)", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _statements(text: str, form: Form) -> list[tuple[str, list[int]]]:
    """(statement without markers, cited passage numbers) for each bullet or sentence of a reply."""
    out = []
    lines = [ln for ln in text.splitlines() if ln.strip()]
    pieces: list[str] = []
    for ln in lines:
        ln = _BULLET.sub("", ln).strip()
        pieces.extend(_SENTENCE.split(ln) if form == "sentences" else [ln])
    for p in pieces:
        cites = [int(n) for m in _MARK.finditer(p) for n in m.group(1).split(",")]
        body = _PAGE_NOTE.sub("", _MARK.sub("", p)).strip(" :-")
        if len(body.split()) >= 3 and not body.lower().startswith(("here is", "here are", "summary")):
            out.append((body, cites))
    return out


class _Numbers:
    """Source numbers in order of first citation: the passages a summary cites become [1], [2], ... and
    the passages read but not cited are not listed (a reader shown eight sources for three bullets cannot
    tell why five are there)."""

    def __init__(self) -> None:
        self.new: dict[int, int] = {}

    def __call__(self, cites: Sequence[int]) -> tuple[int, ...]:
        return tuple(dict.fromkeys(self.new.setdefault(n, len(self.new) + 1) for n in cites))


def _render(bullets: Sequence[Bullet], form: Form, numbers: _Numbers) -> str:
    marks = ["".join(f"[{n}]" for n in numbers(b.cites)) for b in bullets]
    if form == "sentences":
        return " ".join(f"{b.text.rstrip('.')}. {m}".strip() for b, m in zip(bullets, marks, strict=True))
    return "\n".join(f"- {b.text} {m}".rstrip() for b, m in zip(bullets, marks, strict=True))


_LINE_BREAK = re.compile(r"(?<=[\w,;-])[ \t]*\n(?=[ \t]*[a-z(])")  # the sentence goes on in lower case


def _extractive(passages: Sequence[Chunk], n: int) -> list[Bullet]:
    """The first real sentence of the first ``n`` passages that have one (supported by construction); for
    passages without running text (a table, a list) their first lines as they stand, so that a document
    with text never gets an empty summary. A line break inside a sentence (a PDF's column line ending before
    "question answering ...") is read as a space; legal boilerplate and a call's logistics are no sentence to
    quote (:func:`~.sidematter.is_boilerplate`)."""
    out = []
    for i, c in enumerate(passages, 1):
        flowed = _LINE_BREAK.sub(" ", c.text)
        for s, e in sentence_spans(flowed):
            sentence = re.sub(r"[#*]+", "", flowed[s:e]).strip()
            if len(sentence.split()) >= 6 and _is_sentence(sentence) and not is_boilerplate(sentence):
                out.append(Bullet(sentence, (i,)))
                break
        if len(out) >= n:
            break
    if not out:
        lines = ((i, re.sub(r"[#*]+", "", line).strip()) for i, c in enumerate(passages, 1)
                 for line in c.text.splitlines())
        out = [Bullet(line, (i,)) for i, line in lines if len(line.split()) >= 2][:n]
    return out


def _is_sentence(text: str) -> bool:
    """Running text rather than a heading or a title line: mostly lower-case letters, ending in a full stop
    (or 12 words or more), and the start of a sentence, not the rest of one broken across lines ("can
    outperform and potentially replace the traditional sparse retrieval component in open-domain", a PDF's
    column line)."""
    letters = [ch for ch in text if ch.isalpha()]
    lower = sum(ch.islower() for ch in letters) >= 0.6 * max(1, len(letters))
    return lower and not (letters and letters[0].islower()) and \
        (text.rstrip().endswith((".", "!", "?", ".)", '."')) or len(text.split()) >= 12)


def _same(a: str, b: str) -> bool:
    ta, tb = terms(a), terms(b)
    return bool(ta and tb) and len(ta & tb) / min(len(ta), len(tb)) >= 0.8


def _restates(point: str, title: str) -> bool:
    """Whether ``point`` says little beyond the title line: 80% of its content words are the title's (a
    point holding the title's words and more, "In this work, we demonstrated that dense retrieval can
    outperform ... in open-domain question answering" under "Dense Passage Retrieval for Open-Domain Question
    Answering", does not)."""
    tp, tt = terms(point), terms(title)
    return bool(tp and tt) and len(tp & tt) / len(tp) >= 0.8


def _write(generator: Generator, passages: Sequence[Chunk], kind: Kind, request: SummaryRequest, n: int,
           purpose: str) -> tuple[list[tuple[str, list[int]]], Fit]:
    """The model's statements with the passage numbers each cites (not yet checked), and the passages as cut
    to fit the reader's window (the numbers count these)."""
    def prompt_for(chunks: Sequence[Chunk]) -> str:
        return summary_plan_prompt(chunks, kind=kind, focus=request.focus, n=n, form=request.form)

    fit = fit_read(generator, passages, prompt_for, max_tokens=40 * n + 30)
    reply = generator.complete(GenerationRequest(SYSTEM, prompt_for(fit.chunks), max_tokens=40 * n + 30,
                                                 purpose=purpose))
    return _statements(reply, request.form)[:n], fit


def gist_slots(passages: Sequence[Chunk], kind: Kind) -> list[str]:
    """What each point of the whole-document gist states (:data:`~assistant.ttrag.prompts.SUMMARY_SLOTS` by
    kind). A mailbox of separate messages (more than one subject, "Re:" aside) gets a point per message
    read, up to :data:`GIST_BULLETS`: "what the message in passage [2] (from Alexandre Julliard) announces
    or asks"."""
    if kind == "email":
        messages = []
        for n, c in enumerate(passages, 1):
            subject = re.search(r"^Subject:\s*(.+)$", c.text, re.M)
            sender = re.search(r"^From:\s*(.+?)\s*(?:<[^>]*>)?\s*$", c.text, re.M)
            if subject:
                messages.append((n, base_subject(subject.group(1)), sender.group(1).strip('" ') if sender else ""))
        if len({m[1] for m in messages}) > 1:
            return [f"what the message in passage [{n}]" + (f" (from {who})" if who else "") +
                    " announces or asks, with its main details" for n, _s, who in messages[:GIST_BULLETS]]
    if kind == "report" and any(ABSTRACT.match(c.text.lstrip()) for c in passages):
        return list(SUMMARY_SLOTS["paper"])
    return list(SUMMARY_SLOTS.get(kind, SUMMARY_SLOTS["document"]))


_POINT_SENTENCE = re.compile(r'"sentence"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"passage"\s*:\s*(\d+)')


def focus_slots(focus: str) -> list[str]:
    """The points of a summary of one topic ("termination provisions"): what may or must be done and by
    whom, its conditions (notice, period, amount), and what follows from it."""
    return [f"what the passages say about {focus}: what may or must be done, and by whom",
            f"the conditions of {focus}: the notice, period or amount, exactly as written",
            f"what follows from {focus}: its consequences or the steps after it"]


def _write_points(generator: Generator, passages: Sequence[Chunk],
                  slots: Sequence[str]) -> tuple[list[tuple[str, list[int]]], Fit]:
    """A gist as named points, one per slot (:func:`gist_slots`, :func:`focus_slots`), decoded under
    :func:`~assistant.ttrag.prompts.summary_points_schema` (one call), and the passages as cut to fit the
    reader's window. A reply cut short by the token limit keeps its complete points."""
    max_tokens = 60 * len(slots) + 40
    fit = fit_read(generator, passages, lambda chunks: summary_points_prompt(chunks, slots), max_tokens=max_tokens)
    reply = generator.complete(GenerationRequest(SYSTEM, summary_points_prompt(fit.chunks, slots),
                                                 max_tokens=max_tokens, json_schema=summary_points_schema(len(slots)),
                                                 purpose="summary"))
    out = []
    for m in _POINT_SENTENCE.finditer(reply):
        try:
            sentence = json.loads(f'"{m.group(1)}"')
        except ValueError:
            continue
        body = _PAGE_NOTE.sub("", _MARK.sub("", sentence)).strip()
        marked = [int(n) for k in _MARK.finditer(sentence) for n in k.group(1).split(",")]  # "[3][5]" in the text
        cites = list(dict.fromkeys([*marked, int(m.group(2))]))
        if body.endswith(":"):  # "The 0.10 release notes are available at:", its address on the next line
            body = _completed(body, [fit.chunks[n - 1] for n in cites if 1 <= n <= len(fit.chunks)])
        body = body.strip(" :-")
        if len(body.split()) >= 3:
            out.append((body, cites))
    return out, fit


_COMPLETION_CHARS = 120  # characters of the line that completes a point ending in a colon, at most


def _completed(statement: str, passages: Sequence[Chunk]) -> str:
    """A ``statement`` that ends in a colon, completed by the line that follows it where a cited passage
    states it (a web address, a short list: at most :data:`_COMPLETION_CHARS` characters); '' (no statement)
    when none does: a point that stops at "available at" states nothing."""
    said = statement.rstrip(":").rstrip()
    pattern = r"\s+".join(re.escape(w) for w in said.split()) + r"\s*:[ \t]*\n?[ \t]*(\S[^\n]*)"
    for c in passages:
        m = re.search(pattern, c.text, re.I)
        if m and len(m.group(1).strip()) <= _COMPLETION_CHARS:
            return f"{said}: {m.group(1).strip()}"
    return ""


def summarize(ctx: Context, request: SummaryRequest, generator: Generator, *, embedder: Embedder | None = None,
              asks: bool = True, on_text: Callable[[str], None] = lambda s: None,
              on_progress: Callable[[int, int], None] = lambda done, total: None,
              note: Callable[..., None] = lambda stage, **detail: None) -> Summary:
    """Summarize the context's documents (or the part ``request.focus`` names).

    Args:
        ctx: the session's context.
        request: focus, length (gist of :data:`GIST_BULLETS` bullets, or ``detail``: up to
            :data:`MAX_MAP_CALLS` map calls of :data:`DETAIL_BULLETS_PER_CALL`) and form.
        generator: the LLM (its ``stream`` may raise :class:`~assistant.errors.Cancelled`).
        embedder: pre-filter embeddings for a focus (None: BM25 alone).
        asks: the gist of one e-mail or thread says what its latest message asks of the reader from that
            message's own read (:mod:`.asks`), in place of the model's third point.
        on_text: receives the summary, one checked bullet at a time.
        on_progress: ``(calls done, calls planned)``.
        note: trace events (``summary_plan``, ``summary_check``).

    Returns:
        The :class:`Summary`. Statements not supported by the passage they cite are dropped (listed in
        ``dropped``); if none is left, the openings of the planned passages are shown.

    Raises:
        Cancelled: the generator was cancelled.
        ModelError: the model failed.
    """
    calls = MAX_MAP_CALLS if request.detail else 1
    budget = (DETAIL_BUDGET * calls) if request.detail else GIST_BUDGET
    plan = reading_plan(ctx, request, embedder=embedder, budget=budget)
    passages = [p.chunk for p in plan]
    note("summary_plan", passages=[{"role": p.role, "chunk": p.chunk.id, "page": p.chunk.page,
                                    "chars": len(p.chunk.text), "text": p.chunk.text[:60]} for p in plan])
    if not passages:
        return Summary("", (), (), (), ())
    if len({c.source for c in passages}) > 1 and not request.focus and not request.detail:
        return _gists(ctx, plan, request, generator, on_text=on_text, on_progress=on_progress, note=note)
    kinds = {document_kind(d) for d in ctx.documents if d.source in {c.source for c in passages}}
    kind: Kind = kinds.pop() if len(kinds) == 1 else "document"
    groups = _groups(passages, DETAIL_BUDGET) if request.detail else [list(range(len(passages)))]
    groups = groups[:calls]
    per_call = DETAIL_BULLETS_PER_CALL if request.detail else GIST_BULLETS
    slots = focus_slots(request.focus) if request.focus else gist_slots(passages, kind)
    email = [d for d in ctx.documents if d.source == passages[0].source] if asks and kind == "email" and \
        not request.detail and request.form == "bullets" and slots == list(SUMMARY_SLOTS["email"]) else []
    if email:
        slots = slots[:-1]  # what is asked of the reader: the latest message's own read, below
    kept: list[Bullet] = []
    dropped: list[str] = []
    shown = 0
    numbers = _Numbers()
    lead = _lead(ctx, passages, request)
    if lead:
        on_text(lead + "\n")
    # a point that restates the title line (a document without a title is named by its first sentence,
    # which the model then tends to copy) gives its place to another passage's sentence
    titles = [_title(d, 100_000) for d in ctx.documents if d.source in {c.source for c in passages}] \
        if lead and not request.detail else []
    total = len(groups) + bool(email)
    on_progress(0, total)
    for g, members in enumerate(groups):
        local = [passages[i] for i in members]
        if request.detail:
            replies, fit = _write(generator, local, kind, request, per_call, "summary" if g == 0 else "summary_map")
        else:
            replies, fit = _write_points(generator, local, slots)
        if fit.cut:  # checked against the passages as the model read them
            note("summary_fit", call=g + 1, **fit.trace())
            local, members = fit.chunks, members[:len(fit.chunks)]
        for statement, cites in replies:
            support = supported_by(statement, local, cites) if not is_boilerplate(statement) else []
            if not support:
                dropped.append(statement)
                continue
            bullet = Bullet(statement, tuple(members[n - 1] + 1 for n in support))
            if any(_same(bullet.text, k.text) for k in kept) or any(_restates(bullet.text, t) for t in titles):
                continue
            kept.append(bullet)
        if request.form == "bullets":  # show what is checked so far; later groups append
            text = _render(kept[shown:], request.form, numbers)
            if text:
                on_text(("\n" if shown else "") + text)
                shown = len(kept)
        on_progress(g + 1, total)
    if email:
        point = ask_point(generator, ctx, email[0], passages)
        note("summary_ask", point=point[0] if point else "")
        if point is not None:
            passages += [point[1]] if point[1] not in passages else []
            kept.append(Bullet(point[0], (passages.index(point[1]) + 1,)))
        on_progress(total, total)
    note("summary_check", kept=len(kept), dropped=dropped)
    if not kept:
        kept = [b for b in _extractive(passages, per_call + 1) if not any(_restates(b.text, t) for t in titles)]
        kept = kept[:per_call]
        note("summary_check", extractive=len(kept))
        shown = 0
    elif not request.detail and not request.focus and request.form == "bullets" and len(kept) < per_call:
        # the small model often writes one bullet from a plan of several parts (the DOJ handbook: 1 of 3);
        # the parts it left out are shown by their opening sentence, quoted, so the gist still covers them
        cited = {n for b in kept for n in b.cites}
        unused = [c if i not in cited else replace(c, text="") for i, c in enumerate(passages, 1)]
        extra = [b for b in _extractive(unused, len(passages))
                 if not any(_same(b.text, k.text) for k in kept) and not any(_restates(b.text, t) for t in titles)]
        extra = extra[:per_call - len(kept)]
        kept += extra
        note("summary_check", extractive=len(extra))
    if request.form == "sentences" or shown < len(kept):
        if shown == 0:
            on_text(_render(kept, request.form, numbers))
        else:
            on_text("\n" + _render(kept[shown:], request.form, numbers))
    text = (lead + "\n" if lead else "") + _render(kept, request.form, numbers)
    order = sorted(numbers.new, key=numbers.new.__getitem__)
    return Summary(text, tuple(passages[n - 1] for n in order), tuple(Bullet(b.text, numbers(b.cites)) for b in kept),
                   tuple(dropped), tuple(plan))


def _title(doc: Document, limit: int = MAX_TITLE) -> str:
    """The title page of a contract or report, else the document's title (cut at ``limit`` characters)."""
    return title_page(doc, limit=limit) if document_kind(doc) in ("contract", "report") else title_of(doc, limit=limit)


def _lead_line(doc: Document) -> str:
    """"<title> (<file>, <n> pages)"."""
    pages = {s.page for s in doc.segments if s.page}
    size = f", {len(pages)} pages" if len(pages) > 1 else ""
    return f"{_title(doc)} ({doc.source.replace(chr(92), '/').rsplit('/', 1)[-1]}{size})"


def _lead(ctx: Context, passages: Sequence[Chunk], request: SummaryRequest) -> str:
    """The line that says what is summarized (bullets only): "<title> (<file>, <n> pages)", with the focus."""
    if request.form != "bullets":
        return ""
    sources = list(dict.fromkeys(c.source for c in passages))
    lead = "; ".join(_lead_line(d) for d in ctx.documents if d.source in sources[:3])
    return f"{lead}, on {request.focus}:" if request.focus else f"{lead}:"


def _gists(ctx: Context, plan: Sequence[Planned], request: SummaryRequest, generator: Generator, *,
           on_text: Callable[[str], None], on_progress: Callable[[int, int], None],
           note: Callable[..., None]) -> Summary:
    """Several documents open and the request names none of them: a short gist of each, under its own title
    line, from one call (two points for each of two documents, one each for more). A statement stands on
    passages of one document only; a document left without one gets its first planned sentence, quoted."""
    passages = [p.chunk for p in plan]
    sources = list(dict.fromkeys(c.source for c in passages))
    per_doc = 2 if len(sources) == 2 else 1
    slots = []
    for src in sources:
        nums = [n for n, c in enumerate(passages, 1) if c.source == src]
        where = f"passages [{nums[0]}] to [{nums[-1]}]" if len(nums) > 1 else f"passage [{nums[0]}]"
        name = src.replace("\\", "/").rsplit("/", 1)[-1]
        slots += [f"what the document {name} ({where}) is and its main point",
                  f"another main point of {name} ({where})"][:per_doc]
    on_progress(0, 1)
    replies, fit = _write_points(generator, passages, slots)
    on_progress(1, 1)
    if fit.cut:  # checked against the passages as the model read them
        note("summary_fit", **fit.trace())
        passages = list(fit.chunks)
    by_doc: dict[str, list[Bullet]] = {src: [] for src in sources}
    dropped: list[str] = []
    for statement, cites in replies:
        own = passages[cites[0] - 1].source if cites and 1 <= cites[0] <= len(passages) else ""
        local = [c if c.source == own else replace(c, text="") for c in passages]  # one document's passages
        support = supported_by(statement, local, cites) if own and not is_boilerplate(statement) else []
        kept = [b for bs in by_doc.values() for b in bs]
        if not support:
            dropped.append(statement)
        elif not any(_same(statement, k.text) for k in kept) and len(by_doc[own]) < per_doc:
            by_doc[own].append(Bullet(statement, tuple(support)))
    for src, bullets in by_doc.items():
        if not bullets:
            bullets += _extractive([c if c.source == src else replace(c, text="") for c in passages], 1)
    note("summary_check", kept=sum(len(b) for b in by_doc.values()), dropped=dropped)
    numbers = _Numbers()
    docs = {d.source: d for d in ctx.documents}
    blocks = [(f"{_lead_line(docs[src])}:\n" if request.form == "bullets" else "") +
              _render(by_doc[src], request.form, numbers) for src in sources]
    text = ("\n" if request.form == "bullets" else " ").join(blocks)
    on_text(text)
    bullets = [b for src in sources for b in by_doc[src]]
    order = sorted(numbers.new, key=numbers.new.__getitem__)
    return Summary(text, tuple(passages[n - 1] for n in order),
                   tuple(Bullet(b.text, numbers(b.cites)) for b in bullets), tuple(dropped), tuple(plan))


def _groups(passages: Sequence[Chunk], budget: int) -> list[list[int]]:
    """Consecutive passages packed into groups of at most ``budget`` characters (a passage alone may
    exceed it)."""
    groups: list[list[int]] = [[]]
    size = 0
    for i, c in enumerate(passages):
        if groups[-1] and size + len(c.text) > budget:
            groups.append([])
            size = 0
        groups[-1].append(i)
        size += len(c.text)
    return groups
