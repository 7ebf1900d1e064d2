"""The TTRAG pipeline (docs/design.md §2): route, pre-filter, conditional re-rank, rewrite loop, generate.

Everything runs at question time over the in-memory :class:`Context`; the stages report progress and
trace events through ``emit`` and check ``cancel`` between steps.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from assistant.config import PipelineOptions
from assistant.errors import Cancelled
from assistant.models.base import (
    CancellableGenerator,
    ConditionalEncoder,
    Embedder,
    GenerationRequest,
    Generator,
)
from assistant.records import (
    Answer,
    Chunk,
    Document,
    Event,
    Hit,
    Preview,
    Progress,
    Retract,
    Route,
    Source,
    TokenText,
    TraceStep,
    source_name,
)
from assistant.text.language import classify, language_name, question_language
from assistant.ttrag import (
    aliases,
    conditional,
    dated,
    decision,
    evidence,
    opening_route,
    passages,
    prefilter,
    router,
    scope,
)
from assistant.ttrag.compute import comparison, counting, needle, summarize, table, table_answer
from assistant.ttrag.compute.draft_points import is_whole, whole_fragment
from assistant.ttrag.compute.summarize import pointcheck, points
from assistant.ttrag.compute.summarize.choose import documents_asked
from assistant.ttrag.compute.summarize.oneline import lead_line
from assistant.ttrag.compute.summarize.sidematter import side_share, side_spans, source_spans
from assistant.ttrag.context import Context, chunk_at, restricted
from assistant.ttrag.generate import Reading, cite, part_of, rows_quoted, states_numbers, stream_answer
from assistant.ttrag.grounding import terms
from assistant.ttrag.prompts import SYSTEM
from assistant.ttrag.rewrite import rewrite_query, translate_answer, translate_query

#: The not-found reply in the languages whose questions are measured (one document, several), by ISO 639-1 code.
NOT_FOUND = {
    "en": ("Not found in the document: none of the passages read answers this question.",
           "Not found in the {n} documents: none of the passages read answers this question."),
    "de": ("Nicht im Dokument gefunden: Keine der gelesenen Passagen beantwortet diese Frage.",
           "Nicht in den {n} Dokumenten gefunden: Keine der gelesenen Passagen beantwortet diese Frage."),
    "fr": ("Introuvable dans le document : aucun des passages lus ne répond à cette question.",
           "Introuvable dans les {n} documents : aucun des passages lus ne répond à cette question."),
    "es": ("No se encuentra en el documento: ninguno de los pasajes leídos responde a esta pregunta.",
           "No se encuentra en los {n} documentos: ninguno de los pasajes leídos responde a esta pregunta."),
}


def not_found_text(n_documents: int = 1, language: str = "en") -> str:
    """The answer shown when none of the passages read answers the question, naming what was searched, in
    the question's ``language`` (ISO 639-1) when :data:`NOT_FOUND` has it, else in English."""
    one, several = NOT_FOUND.get(language, NOT_FOUND["en"])
    return one if n_documents == 1 else several.format(n=n_documents)


NOT_FOUND_TEXT = not_found_text(1)


@dataclass
class Models:
    """The models one ask uses; the embedder and encoder may be None (BM25-only / CE off)."""

    generator: Generator
    embedder: Embedder | None
    encoder: ConditionalEncoder | None


@dataclass
class _Run:
    emit: Callable[[Event], None]
    cancel: threading.Event
    timings: dict[str, float] = field(default_factory=dict)
    trace: list[dict[str, object]] = field(default_factory=list)
    # the stages under way, innermost last (shared with a run nested in this one): where prefill reports go
    current: list[tuple[str, str]] = field(default_factory=list)
    asked: _Asked | None = None  # the question translated (:func:`_translate`), once an ask needs it

    @contextmanager
    def stage(self, name: str, detail: str = "") -> Iterator[None]:
        if self.cancel.is_set():
            raise Cancelled()
        self.emit(Progress(name, 0, 1, detail=detail))
        t0 = time.perf_counter()
        self.current.append((name, detail))
        try:
            yield
        finally:
            self.current.pop()
        self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - t0
        self.emit(Progress(name, 1, 1, detail=detail))

    def prefill(self, done: int, total: int) -> None:
        """How far the reader has read the prompt of the stage under way, as that stage's progress in
        prompt tokens (a read of three long passages takes tens of seconds on two cores)."""
        if self.current and total > 1:
            name, detail = self.current[-1]
            self.emit(Progress(name, done, total, "tokens", detail))

    def note(self, stage: str, **detail: object) -> None:
        self.trace.append({"stage": stage, **detail})
        self.emit(TraceStep(stage, detail))

    def text(self, piece: str) -> None:
        if self.cancel.is_set():
            raise Cancelled()
        self.timings.setdefault("first_token", time.perf_counter() - self.t0)
        self.emit(TokenText(piece))

    def retract(self, text: str) -> None:
        self.emit(Retract(text))

    t0: float = 0.0


def _hits_view(hits: list[Hit]) -> list[dict[str, object]]:
    return [{"chunk": h.chunk.id, "page": h.chunk.page, "score": round(h.score, 4),
             **{k: round(v, 4) for k, v in h.scores.items()}, "text": h.chunk.text[:80]} for h in hits]


def ask(ctx: Context, question: str, models: Models, options: PipelineOptions | None = None, *,
        emit: Callable[[Event], None] = lambda e: None, cancel: threading.Event | None = None,
        carried: Sequence[int] = ()) -> Answer:
    """Answer ``question`` from the context.

    Args:
        ctx: chunks, BM25 index and cached embeddings of the session.
        question: the user's question (generation always receives this original text).
        models: generator, embedder, conditional encoder.
        options: hyperparameters (defaults: the paper's, except where docs/design.md §2 says otherwise).
        emit: receives :class:`Progress`, :class:`TokenText`, :class:`Retract` (streamed text withdrawn)
            and :class:`TraceStep` events.
        cancel: set it from another thread to stop: between stages, and inside a model call between
            prefill slices and generated tokens.
        carried: chunk ids of the passages that answered the previous question of a conversation: added
            to the pre-filter's short list and ranked with the rest (:mod:`assistant.ttrag.conversation`).

    Returns:
        The :class:`Answer`; ``found`` is False when the documents do not contain the answer.

    Raises:
        Cancelled: ``cancel`` was set.
        ModelError: a model failed (e.g. the prompt does not fit its context).
    """
    opts = options or PipelineOptions()
    run = _Run(emit, cancel or threading.Event())
    run.t0 = time.perf_counter()
    usage_start = len(models.generator.usage)
    # every model call of this ask carries the cancel event, so Cancel stops the call itself
    models = replace(models, generator=CancellableGenerator(models.generator, run.cancel, run.prefill))
    decision = router.Decision("question_answering", "", "", fallback=False)
    if opts.router:
        with run.stage("route"):
            decision = router.route(models.generator, question)
        run.note("route", route=decision.route, target=decision.target, raw=decision.raw,
                 fallback=decision.fallback)
    languages = (question_language(question, fallback=ctx.language), ctx.language)
    answer: _Result | None = None
    route_taken: Route = decision.route
    if opts.tables and decision.route in ("question_answering", "needle_lookup"):
        # a code a sheet's row holds ("SKU-108") is looked up in its row, not scanned for in the text
        answer = _table(ctx, question, models, opts, run, languages)
        route_taken = "table" if answer is not None else decision.route
    if answer is None and decision.route == "needle_lookup":
        answer = _needle(ctx, question, decision.target, models, opts, run)
    elif decision.route == "counting":
        answer = _count(ctx, decision.target, run)
    elif decision.route == "summarization":
        answer = _summarize(ctx, question, decision.target, models, opts, run)
    if answer is None and opts.each_contract:
        answer = _each_contract(ctx, question, models, opts, run, languages)
    if answer is None:
        answer = _question_answering(ctx, question, models, opts, run, carried, languages)
        route_taken = "question_answering"
    run.timings["total"] = time.perf_counter() - run.t0
    short = answer.reading.short_answer if answer.reading and answer.found else answer.short
    # each source quotes the sentence holding the short answer; a "yes" or "no" is in no passage: the answer's
    # words choose the sentence instead, and so do the lines of an answer given for each contract
    plain = short if short.strip().lower() not in ("yes", "no") and not answer.each else ""
    return Answer(question=question, text=answer.text, found=answer.found, route=route_taken,
                  sources=answer.sources or tuple(cite(answer.chunks, plain or answer.text, question,
                                                       documents={d.source: d for d in ctx.documents})),
                  rewrites=tuple(answer.rewrites), timings={k: round(v, 4) for k, v in run.timings.items()},
                  usage=tuple(models.generator.usage[usage_start:]), trace=tuple(run.trace),
                  short_answer=short, language=languages[0], document_language=languages[1],
                  supported_by=answer.reading.supported_by if answer.reading and answer.found else ())


@dataclass(frozen=True)
class _Result:
    """What a route produced: the text shown, whether it answers, the chunks cited (numbered as the
    reader saw them), the rewrites spent, and the reader's structured reply when there was one."""

    text: str
    found: bool
    chunks: list[Chunk]
    rewrites: list[str]
    reading: Reading | None = None
    each: bool = False  # answered for each contract, a block each (:func:`_each_contract`)
    short: str = ""  # the short answer of a route without a reader's reply (a table's figure)
    sources: tuple[Source, ...] = ()  # where the route quotes its sources itself (a table's rows)


#: characters of two file names that a progress line still names (two CUAD file names run to 150)
PROGRESS_NAMES = 60


def passages_read(chunks: Sequence[Chunk]) -> str:
    """``passages 1\u20133 of contract.pdf``: the passages as the reader numbers them (and the sources list
    after the answer), and the files they come from, for the progress shown while they are read."""
    names = list(dict.fromkeys(source_name(c.source) for c in chunks))
    which = "passage 1" if len(chunks) == 1 else f"passages 1\u2013{len(chunks)}"
    files = " and ".join(names)
    if len(names) > 2 or len(names) == 2 and len(files) > PROGRESS_NAMES:
        files = f"{len(names)} files"  # two long names left the line no room ("... passages 1-3 of ")
    return f"{which} of {files}"


@dataclass(frozen=True)
class _Asked:
    """A question in another language than the documents: its ``translated`` form (the passages'
    language) and the English name of its own ``language``, the answer's; both '' otherwise."""

    translated: str = ""
    language: str = ""


def _read(run: _Run, models: Models, opts: PipelineOptions, question: str, chunks: list[Chunk],
          attempt: int, purpose: str = "answer", read_before: Sequence[Chunk] = (), note: str = "",
          equivalents: Sequence[tuple[str, str]] = (), asked: _Asked = _Asked(),
          documents: Mapping[str, Document] | None = None, parties: Sequence[tuple[str, str]] = ()) -> Reading:
    detail = passages_read(chunks)
    # passages of a contract and its later amendment: the reader is told which is later and governs
    note = " ".join(n for n in (note, dated.note_for(chunks, documents or {})) if n)
    if opts.evidence_tokens > 0:
        with run.stage("evidence", detail):
            chunks = evidence.select(asked.translated or question, chunks, models.embedder,
                                     budget=opts.evidence_tokens * len(chunks) // max(opts.ce_top_k, 1),
                                     count_tokens=models.generator.count_tokens)
    with run.stage("generate", detail):
        reading = stream_answer(models.generator, question, chunks, max_tokens=opts.max_answer_tokens,
                                on_text=run.text, on_retract=run.retract, purpose=purpose,
                                min_coverage=opts.min_coverage, read_before=read_before, note=note,
                                equivalents=equivalents, min_passages=opts.ce_top_k,
                                translated=asked.translated, language=asked.language,
                                min_found_p=max(opts.min_found_p, opts.min_found_p_across) if asked.translated
                                else opts.min_found_p, min_yes_p=opts.min_yes_p,
                                rules_off=opts.answer_rules_off,
                                decision_model=decision.active(opts.answer_decision),
                                decision_threshold=opts.decision_threshold, parties=parties)
    if reading.fit is not None and reading.fit.cut:  # long passages: what the reader's window left out
        run.note("fit", attempt=attempt, window=models.generator.context_window, **reading.fit.trace())
    run.note("answer", attempt=attempt, found=reading.found, short_answer=reading.short_answer,
             supported_by=list(reading.supported_by), reason=reading.reason, reply=reading.raw,
             found_p=None if reading.found_p is None else round(reading.found_p, 4),
             **({} if reading.yes_p is None else {"yes_p": round(reading.yes_p, 4)}))
    if reading.found and asked.language:
        reading = _in_language(run, models, reading, asked.language, attempt)
    return reading


_WORD = re.compile(r"\w+")


def _in_language(run: _Run, models: Models, reading: Reading, language: str, attempt: int) -> Reading:
    """``reading`` with its sentence in ``language`` (the question's, an English name). The reader is asked
    to write in it, but a 1.5B reader sometimes copies the passage's own sentence, and the sentence that
    replaces one not stating the short answer is the passage's: a found sentence the detector places in
    another language is translated by one call (stage ``translate_answer``), its ``[n]`` markers kept. The
    translation replaces it on screen (a :class:`Retract`, then the new text) only when the detector places it
    in ``language``, it states every number and every name (capitalised word) of the short answer, and it is
    not more than twice as long; else the sentence stands as it was (a list of names, a passage of codes and
    scripts that a translation can only garble)."""
    markers = " " + "".join(f"[{n}]" for n in reading.supported_by)  # as stream_answer appends them
    sentence = reading.sentence.removesuffix(markers)
    markers = reading.sentence[len(sentence):]
    code, _ = classify(sentence)
    if not code or language_name(code) == language:
        return reading
    with run.stage("translate_answer"):
        translated = translate_answer(models.generator, sentence, language)
    names = [w for w in _WORD.findall(reading.short_answer) if w[:1].isupper() and w.lower() not in ("the", "a", "an")]
    kept = bool(translated) and language_name(classify(translated)[0]) == language and \
        states_numbers(reading.short_answer, translated) and all(w.lower() in translated.lower() for w in names) \
        and len(translated) <= 2 * len(sentence) + 40
    run.note("translate_answer", attempt=attempt, language=code, sentence=translated, kept=kept)
    if not kept:
        return reading
    run.retract(reading.sentence)
    run.text(translated + markers)
    return replace(reading, sentence=translated + markers)


def _passages_read(chunks: list[Chunk], reading: Reading) -> list[Chunk]:
    """``chunks`` less the lowest-ranked ones the reader's window left out (the answer's markers number the rest)."""
    return chunks[:len(reading.fit.chunks)] if reading.fit is not None else chunks


def _question_answering(ctx: Context, question: str, models: Models, opts: PipelineOptions,
                        run: _Run, carried: Sequence[int] = (), languages: tuple[str, str] = ("", ""),
                        search_as: str = "") -> _Result:
    """TTRAG Algorithm 1: CE top-k, answer-or-rewrite up to ``max_rewrites`` times, then top-10 fallback.
    ``languages`` (the question's, the documents'): when they differ, the search runs on the question
    translated into the documents' language, and the reader answers in the question's. ``search_as``: the
    text the pre-filter and the re-ranker search with instead of the question (a summary point's clause as
    contracts word it, :attr:`points.PointQuestion.search`); the reader still reads the question."""
    pending = [m for m in (models.embedder, models.encoder) if m is not None and not m.loaded]
    if pending:  # the torch models were still loading while the router ran: the wait is its own stage
        with run.stage("load_models"):
            for model in pending:
                model.ensure_loaded()
    asked = _translate(question, languages, models, opts, run)
    searched = asked.translated or question
    # a party the question names by its name ("Calder's") is searched for by its defined term too
    # ("the Supplier"), and the reader is told which term is which party
    note = aliases.reader_note(searched, ctx.terms)
    search = search_as or aliases.search_query(searched, ctx.terms)
    # "Norhaven" in the question is found where the passages say "the Buyer" (the grounding's coverage)
    equivalents = [(t.name, t.term) for t in aliases.named_in(searched, ctx.terms)]
    documents = {d.source: d for d in ctx.documents} if len(ctx.documents) > 1 else {}
    # "Governing law of the Gunston Consulting agreement?" over a sheet of contracts' rows: the row naming Gunston
    scoped = scope.named(f"{question} {searched}", ctx)
    named = scoped.chunks if scoped is not None else None
    if scoped is not None:  # the records chosen by their names are searched with the rest of the question, not
        # with the parties' defined terms ("(the VIP)": a term naming the record stands in every cell of it); their
        # names, and every word of the question the records hold, are its setting, as a party's are: a cell need
        # not repeat them
        search = search_as or scoped.query(searched)
        equivalents = [*equivalents, (" ".join(sorted(scoped.held)), "")]
        run.note("scope", chunks=sorted(scoped.chunks), names=sorted(scoped.names))
    with run.stage("prefilter"):
        original = prefilter.prefilter(ctx, search, models.embedder, shortlist=opts.shortlist,
                                       fusion=opts.fusion, top_k=opts.prefilter_top_k, also=carried, within=named)
    run.note("prefilter", query=search, hits=_hits_view(original),
             **({"carried": list(carried)} if carried else {}))
    if asked.translated:  # a loose translation ("Recht" as "rights") must not lose what the question names: the
        # question as asked searches too, and its candidates join the translation's for the re-ranker
        with run.stage("prefilter"):
            own = prefilter.prefilter(ctx, scoped.query(question) if scoped else question, models.embedder,
                                      shortlist=opts.shortlist, fusion=opts.fusion,
                                      top_k=opts.prefilter_top_k, within=named)
        ids = {h.chunk.id for h in original}
        original = original + [h for h in own if h.chunk.id not in ids]
        run.note("prefilter", query=question, hits=_hits_view(own), as_asked=True)
    candidates, query = original, search
    rewrites: list[str] = []
    seen = {question.strip().lower(), searched.strip().lower()}
    read: set[tuple[int, ...]] = set()
    read_chunks: list[Chunk] = []
    asks_opening: opening_route.OpeningRoute | None = None
    parties: tuple[tuple[str, str], ...] = ()  # a question for the parties: the names their terms stand for
    # "Who was born first, A or B?": the dates (or counts) the passages give each option decide, no read; a
    # question in another language is parsed as translated ("Wer ist älter, A oder B?"), where the translation
    # kept both names as the question writes them (not "Hangzhou" for "Hanggin"); things counted are translated
    # ("Decken oder Laptops" -> "blankets or laptops": their counts are read where the text states them)
    compared = comparison.parse(searched) if "comparison" not in opts.answer_rules_off and not search_as else None
    if compared is not None and asked.translated and not all(comparison.is_item(o) for o in compared.options) and \
            (not all(o.lower() in question.lower() for o in compared.options) or
             not comparison.event_kept(compared, question)):  # the translation changed the event: the reader reads
        compared = None
    for attempt in range(opts.max_rewrites + 1):
        ranked = _rerank(ctx, query, candidates, models, opts, run)
        if attempt == 0 and compared is not None:
            exact = _compared(ctx, compared, ranked, models, opts, run, language=asked.language)
            if exact is not None:
                return exact
        if attempt == 0:  # the point of its document's kind the question asks for, if any
            nearest = _nearest_point(ctx, searched, ranked, models, opts)
            point = opening_route.search_of(nearest, searched) if opts.point_search and not search_as else None
            if point is not None:  # the term: searched with its clause's own wording, as the summary's point is
                run.note("point_search", point=point.label)
                with run.stage("prefilter"):
                    original = prefilter.prefilter(ctx, point.search, models.embedder, shortlist=opts.shortlist,
                                                   fusion=opts.fusion, top_k=opts.prefilter_top_k, also=carried,
                                                   within=named)
                run.note("prefilter", query=point.search, hits=_hits_view(original))
                candidates, query = original, point.search
                ranked = _rerank(ctx, query, candidates, models, opts, run)
            # a question for what the document's opening states (parties, date) reads it in every read
            asks_opening = opening_route.opening_of(nearest) if opts.opening_chars > 0 else None
            if asks_opening is not None:
                run.note("opening", point=asks_opening.label, cosine=asks_opening.cosine)
                exact = _exact_parties(ctx, question, ranked, run) \
                    if asks_opening.label == "Parties" and opts.exact_parties else None
                if exact is not None:
                    return exact
                parties = _parties(ctx, ranked) if asks_opening.label == "Parties" else ()
        chunks = _with_opening(ctx, ranked, opts) if asks_opening is not None else ranked
        if attempt == 0 and chunks:  # something to look at while the reader reads: the best passage
            run.emit(Preview(cite(chunks[:1], "", question, documents={d.source: d for d in ctx.documents})[0]))
        key = tuple(sorted(c.id for c in chunks))
        if key in read:  # the same passages were already read: the reply (temperature 0) would be too
            run.note("answer", attempt=attempt, found=False, reply="(same passages as an earlier attempt)")
        else:
            read.add(key)
            reading = _read(run, models, opts, question, chunks, attempt,
                            read_before=[c for c in read_chunks if c not in chunks], note=note,
                            equivalents=equivalents, asked=asked, documents=documents, parties=parties)
            read_chunks.extend(chunks)
            if reading.found:
                shown = _passages_read(chunks, reading)
                reading = _made_whole(ctx, reading, shown, run)
                if len(chunks) > len(ranked) and len(shown) == len(chunks) and len(chunks) not in reading.supported_by:
                    shown = shown[:-1]  # the document's opening, read but not cited, is not listed as a source
                return _Result(reading.sentence, True, shown, rewrites, reading)
        if attempt == opts.max_rewrites:
            break
        with run.stage("rewrite"):
            new_query = rewrite_query(models.generator, searched, query, chunks)
        if not new_query or new_query.strip().lower() in seen:
            # no search again (a newcomer read "Attempt 2 of 2: searching again with 'Can we get out early?'")
            run.note("rewrite", stopped="the rewrite repeated an earlier query")
            break
        # attempt n of N: the progress shows that a further search is under way, and with what
        run.note("rewrite", query=new_query, attempt=attempt + 2, attempts=opts.max_rewrites + 1)
        seen.add(new_query.strip().lower())
        rewrites.append(new_query)
        query = scoped.query(new_query) if scoped is not None else aliases.search_query(new_query, ctx.terms)
        if opts.rewrite_prefilter:
            with run.stage("prefilter"):
                fresh = prefilter.prefilter(ctx, query, models.embedder, shortlist=opts.shortlist,
                                            fusion=opts.fusion, top_k=opts.prefilter_top_k, within=named)
            # keep the original candidates in play: the rewrite adds, it does not replace
            ids = {h.chunk.id for h in fresh}
            candidates = fresh + [h for h in original if h.chunk.id not in ids]
            run.note("prefilter", query=query, hits=_hits_view(fresh))
    fallback = _whole(ctx, [h.chunk for h in original[:opts.fallback_top_k]], opts)
    last: Reading | None = None
    if fallback:  # fallback_top_k 0: no fallback read, "not found" once the attempts are spent
        run.note("fallback", chunks=[c.id for c in fallback])
        last = _read(run, models, opts, question, fallback, opts.max_rewrites + 1, purpose="answer_fallback",
                     note=note, equivalents=equivalents, asked=asked, documents=documents, parties=parties)
        if last.found:
            shown = _passages_read(fallback, last)
            last = _made_whole(ctx, last, shown, run)
            return _Result(last.sentence, True, shown, rewrites, last)
    text = not_found_text(len(ctx.documents), languages[0] if asked.language else "en")
    run.text(text)
    return _Result(text, False, (fallback or [h.chunk for h in original])[:opts.ce_top_k], rewrites, last)


#: Contracts asked one by one at most (``PipelineOptions.each_contract``): each is a whole read of its own.
MAX_EACH = 4
_MARKER_RUN = re.compile(r"(?:\s*\[\d+\])+\s*$")


def _each_contract(ctx: Context, question: str, models: Models, opts: PipelineOptions, run: _Run,
                   languages: tuple[str, str]) -> _Result | None:
    """``question`` answered of each contract apart, when two to :data:`MAX_EACH` documents are open, every one a
    contract (:func:`points.summary_kind`) and none an amendment (a contract and its amendment are read together,
    the later governing: :mod:`assistant.ttrag.dated`), and the question names no party of one of them alone
    (that one is searched as before, among all): "What law applies?" with two contracts open is a question about
    each, and one answer from the passages of both names one contract's law without saying whose. Each contract's
    answer (or its "not found") shows under its title line as soon as it is read, its ``[n]`` markers
    numbered across the whole answer; the contracts' passages are searched and read as one document's are
    (:func:`assistant.ttrag.context.restricted`). None when it does not apply."""
    docs = ctx.documents
    if not 2 <= len(docs) <= MAX_EACH or any(points.summary_kind(d) != "contract" for d in docs):
        return None
    if any(dated.dated(d).amends for d in docs):  # a contract and its amendment: one answer, the later governing
        return None
    if len({t.source for t in aliases.named_in(question, ctx.terms)}) == 1:
        return None
    run.note("each_contract", documents=[d.source for d in docs])
    quiet = _Run(lambda e: None if isinstance(e, (TokenText, Retract, Preview)) else run.emit(e), run.cancel,
                 trace=run.trace, current=run.current)
    quiet.t0 = run.t0
    blocks: list[str] = []
    cited: list[Chunk] = []
    shorts: list[str] = []  # one per contract answered
    support: list[int] = []
    first: Reading | None = None  # the first contract's read, for the fields a combined answer keeps
    rewrites: list[str] = []
    for doc in docs:
        sub, original = restricted(ctx, doc.source)
        result = _question_answering(sub, question, models, opts, quiet, (), languages)
        rewrites.extend(result.rewrites)
        if result.found:
            # a read's passages it cites; the parties named in the text (no read), every passage that names them
            own = result.reading.supported_by if result.reading is not None else range(1, len(result.chunks) + 1)
            numbers = [len(cited) + n for n in own if 1 <= n <= len(result.chunks)]
            sentence = result.reading.sentence if result.reading is not None else result.text
            line = _MARKER_RUN.sub("", sentence) + (" " + "".join(f"[{n}]" for n in numbers) if numbers else "")
            cited.extend(replace(c, id=original[c.id]) for c in result.chunks)
            shorts.append(result.reading.short_answer if result.reading is not None else result.text)
            support.extend(numbers)
            first = first or result.reading
        else:  # the one document's "not found", in the question's language
            line = result.text
        block = f"{lead_line(doc)}:\n{line}"
        run.text(("\n\n" if blocks else "") + block)
        blocks.append(block)
        for k in ("prefilter", "conditional", "evidence", "generate", "rewrite"):
            if k in quiet.timings:
                run.timings[k] = run.timings.get(k, 0.0) + quiet.timings.pop(k)
    text = "\n\n".join(blocks)
    if not shorts:
        return _Result(text, False, [], rewrites, None, each=True)
    reading = replace(first, sentence=text, short_answer="; ".join(shorts), supported_by=tuple(support)) \
        if first is not None else Reading(True, "; ".join(shorts), text, tuple(support), "", "")
    return _Result(text, True, cited, rewrites, reading, each=True)


def _made_whole(ctx: Context, reading: Reading, chunks: Sequence[Chunk], run: _Run) -> Reading:
    """``reading`` whose sentence is a piece of a passage's sentence ("of the Commonwealth of Virginia, without
    regard to any of its conflicts of laws", "additional, successive periods of one (1) year each (each a") with
    that whole sentence of the passage it cites instead, as a draft's points and a summary's are made whole
    (:func:`~assistant.ttrag.compute.draft_points.whole_fragment`, read without the document's side matter); what
    was shown is taken back and the whole sentence shown. A sentence of the reader's own words, or one already
    whole, stays as it is."""
    markers = " " + "".join(f"[{n}]" for n in reading.supported_by)
    copied = reading.sentence.removesuffix(markers)
    if not copied.strip() or is_whole(copied):
        return reading
    cited = [chunks[n - 1] for n in reading.supported_by if 1 <= n <= len(chunks)]
    for doc in ctx.documents:  # each cited document once, its side matter found once
        spans = [(c.start, c.end, c.id) for c in cited if c.source == doc.source]
        if not spans:
            continue
        # widened without the page furniture between its lines ("2 Source: TUBE MEDIA CORP., 8-K, 3/10/2006")
        whole = whole_fragment(copied, points.without_side(doc, side_spans(doc)), spans)
        whole = " ".join(whole.split()) if whole else None  # the blanked furniture's spaces
        if whole and whole != copied:
            run.note("whole_sentence", fragment=copied, sentence=whole)
            run.retract(reading.sentence)
            run.text(whole + markers)
            return replace(reading, sentence=whole + markers)
    return reading


def _whole(ctx: Context, chunks: list[Chunk], opts: PipelineOptions) -> list[Chunk]:
    """The passages as the reader reads them: widened to whole sentences (:mod:`assistant.ttrag.passages`)
    unless ``whole_sentences`` is off."""
    return passages.whole(ctx.documents, chunks) if opts.whole_sentences else chunks


def _rerank(ctx: Context, query: str, candidates: list[Hit], models: Models, opts: PipelineOptions,
            run: _Run) -> list[Chunk]:
    """The re-ranker's top ``ce_top_k`` of ``candidates`` for ``query``, as the reader reads them."""
    with run.stage("conditional"):
        top = conditional.rerank(query, candidates, models.encoder, mode=opts.ce_mode, weight=opts.ce_weight,
                                 top_k=opts.ce_top_k, pooling=opts.ce_pooling)
    run.note("conditional", query=query, mode=opts.ce_mode, hits=_hits_view(top))
    return _whole(ctx, [h.chunk for h in top], opts)


def _nearest_point(ctx: Context, question: str, ranked: list[Chunk], models: Models,
                   opts: PipelineOptions) -> tuple[points.PointQuestion, float] | None:
    """The point of its document's kind ``question`` asks for and their cosine (:func:`opening_route.nearest`,
    the document the best of ``ranked`` comes from), or None: none asked, or no passage."""
    doc = _document(ctx, ranked[0].source) if ranked else None
    return opening_route.nearest(question, doc, models.embedder, opts.opening_match) if doc is not None else None


def _document(ctx: Context, source: str) -> Document | None:
    """The document of ``ctx`` read from ``source``, or None."""
    return next((d for d in ctx.documents if d.source == source), None)


def _parties(ctx: Context, ranked: list[Chunk]) -> tuple[tuple[str, str], ...]:
    """(name, term) of the parties the preamble of the document the best of ``ranked`` comes from defines
    (:func:`points.preamble_parties`, as a contract summary names them)."""
    doc = _document(ctx, ranked[0].source) if ranked else None
    return tuple((p.name, p.term) for p in points.preamble_parties(doc)) if doc is not None else ()


def _exact_parties(ctx: Context, question: str, ranked: list[Chunk], run: _Run) -> _Result | None:
    """A question for a contract's parties answered from its text with no model read: the parties the document
    the best of ``ranked`` comes from names (:func:`points.contract_parties`), cited where it names them. None
    when it names fewer than two; when it holds several contracts (signed more than twice: the first
    preamble's parties need not be those asked about); or when the question gives a name the document holds
    that is none of theirs ("Who are the parties to the agreement with Eurofarma?"): a capitalised word, not the
    question's first, that the document never writes in lower case."""
    doc = _document(ctx, ranked[0].source) if ranked else None
    found = points.contract_parties(doc) if doc is not None else []
    if doc is None or len(found) < 2 or len(points.WITNESS.findall(doc.text)) > 2:
        return None
    theirs = {w for p in found for w in terms(f"{p.name} {p.term}")}
    words = re.findall(r"\b[A-Z][\w&'-]+", question.strip())[1:]
    names = [w for w in words if w.lower() not in _CONTRACT_WORDS and re.search(rf"\b{re.escape(w)}\b", doc.text)
             and not re.search(rf"\b{re.escape(w.lower())}\b", doc.text)]
    if any(not terms(w) <= theirs for w in names):
        run.note("exact_parties", skipped="the question names someone else", names=names)
        return None
    text = points.parties_sentence(found)
    run.note("exact_parties", parties=[p.name for p in found])
    run.text(text)
    return _Result(text, True, list(_where_named(ctx, doc, found)), [])


def _compared(ctx: Context, asked: comparison.Comparison, ranked: list[Chunk], models: Models,
              opts: PipelineOptions, run: _Run, *, language: str = "") -> _Result | None:
    """A comparison question decided by the values the passages give its two options
    (:mod:`assistant.ttrag.compute.comparison`): read in the re-ranked passages, then in the pre-filter's best
    for each option searched alone (its name and what is compared). None when a value is missing or both are
    the same: the reader reads as usual. ``language``: the question's, when it is not the documents' (the
    question was parsed as translated); the answer is then given in it as a read's is (:func:`_in_language`)."""
    with run.stage("comparison"):
        chunks = list(ranked)
        for option in asked.options:
            hits = prefilter.prefilter(ctx, f"{option} {asked.noun or asked.event}".strip(), models.embedder,
                                       shortlist=opts.shortlist, fusion=opts.fusion, top_k=opts.ce_top_k)
            chunks += [h.chunk for h in hits if h.chunk not in chunks]
        chunks = [_paragraph(ctx, c) for c in chunks]
        decided = comparison.decide(asked, [c.text for c in chunks])
    if decided is None:
        run.note("comparison", decided=False, options=list(asked.options))
        return None
    def stating(value: comparison.Value) -> Chunk:  # the sentence that states the value, as its source (the
        # paragraph around it was read for its subject)
        chunk = chunks[value.passage]
        return replace(chunk, text=chunk.text[value.sentence_start:value.sentence_end],
                       start=chunk.start + value.sentence_start, end=chunk.start + value.sentence_end)

    said = [stating(decided.won), stating(decided.lost)]
    cited = list(dict.fromkeys(said))
    won, lost = (cited.index(c) + 1 for c in said)
    text = comparison.sentence(decided, won, lost)
    run.note("comparison", decided=True, winner=decided.winner, values=[decided.won.figure, decided.lost.figure],
             chunks=[c.id for c in cited])
    run.text(text)
    reading = Reading(True, decided.winner, text, tuple(range(1, len(cited) + 1)), "",
                      f"(compared: {decided.won.figure} | {decided.lost.figure})")
    if language:
        reading = _in_language(run, models, reading, language, 0)
    return _Result(reading.sentence, True, cited, [], reading)


#: characters a passage is widened by at most, each way, to the paragraph it stands in
PARAGRAPH_REACH = 1500


def _paragraph(ctx: Context, chunk: Chunk) -> Chunk:
    """``chunk`` widened to the paragraph(s) it stands in (blank line to blank line, at most
    :data:`PARAGRAPH_REACH` characters each way): a chunk boundary cuts "Oplismenus is a small genus ..." from
    "... with over 100 described species" after it."""
    doc = _document(ctx, chunk.source)
    if doc is None:
        return chunk
    text = doc.text
    before = text.rfind("\n\n", max(0, chunk.start - PARAGRAPH_REACH), chunk.start + 1)
    start = before + 2 if before >= 0 else max(0, chunk.start - PARAGRAPH_REACH)
    after = text.find("\n\n", max(chunk.end - 1, start), chunk.end + PARAGRAPH_REACH)
    end = after if after >= 0 else min(len(text), chunk.end + PARAGRAPH_REACH)
    start, end = min(start, chunk.start), max(end, chunk.end)
    while start < chunk.start and text[start].isspace():
        start += 1
    while end > chunk.end and text[end - 1].isspace():
        end -= 1
    return replace(chunk, text=text[start:end], start=start, end=end) if (start, end) != (chunk.start, chunk.end) \
        else chunk


def _where_named(ctx: Context, doc: Document, parties: Sequence[points.Party]) -> tuple[Chunk, ...]:
    """The chunks of ``doc`` where ``parties`` are named, each once, in order."""
    return tuple(dict.fromkeys(chunk_at(ctx, doc.source, p.start) for p in parties))


# words a question capitalises that name no one ("Who are the Parties to this Agreement?")
_CONTRACT_WORDS = frozenset("agreement contract party parties company companies this the".split())


def _with_opening(ctx: Context, chunks: list[Chunk], opts: PipelineOptions) -> list[Chunk]:
    """``chunks`` and, after them, the opening of the document the best of them comes from
    (:func:`passages.opening`, ``opening_chars`` characters; up to the first of ``chunks`` that starts inside
    it); ``chunks`` as they are when there are none, their document is not in the context or one of them starts
    at the document's start."""
    if not chunks:
        return chunks
    source = chunks[0].source
    doc = _document(ctx, source)
    if doc is None:
        return chunks
    head = passages.opening(doc, chunk_at(ctx, source, 0).id, opts.opening_chars)
    starts = [c.start for c in chunks if c.source == source and c.start < head.end]
    if starts:  # a passage read starts inside the opening: the opening is read up to it (not twice)
        cut = min(starts)
        if not doc.text[head.start:cut].strip():
            return chunks
        head = replace(head, text=doc.text[head.start:cut].strip(), end=cut)
    return [*chunks, head]


def _translate(question: str, languages: tuple[str, str], models: Models, opts: PipelineOptions,
               run: _Run) -> _Asked:
    """The question in the documents' language when it is written in another (one LLM call, traced as
    ``translate``); an empty :class:`_Asked` when the languages agree, translation is off or the model gave
    no translation (the question is then searched as asked)."""
    mine, theirs = languages
    if not opts.translate or not mine or not theirs or mine == theirs:
        return _Asked()
    if run.asked is not None:  # translated already (for a query over a table)
        return run.asked
    with run.stage("translate"):
        translated = translate_query(models.generator, question, language_name(theirs))
    run.note("translate", language=mine, document_language=theirs, query=translated)
    run.asked = _Asked(translated, language_name(mine)) if translated else _Asked()
    return run.asked


def _needle(ctx: Context, question: str, target: str, models: Models, opts: PipelineOptions,
            run: _Run) -> _Result | None:
    """Exact scan of the whole text for the key instead of ranked retrieval, then one reading of the
    chunks that hold it. Returns None (full pipeline) when the key is absent or the reader finds no answer."""
    with run.stage("needle_lookup"):
        matches = needle.find(ctx.documents, target, limit=opts.ce_top_k)
    run.note("needle_lookup", target=target, matches=len(matches))
    if not matches:
        return None  # not quoted exactly: let the full pipeline search for it
    chunks = _whole(ctx, list(dict.fromkeys(chunk_at(ctx, m.source, m.start) for m in matches)), opts)
    reading = _read(run, models, opts, question, chunks, 0)
    return _Result(reading.sentence, True, _passages_read(chunks, reading), [], reading) if reading.found else None


def _table(ctx: Context, question: str, models: Models, opts: PipelineOptions, run: _Run,
           languages: tuple[str, str]) -> _Result | None:
    """A count, total, average, extreme or list over a sheet's rows, or a cell of the rows the question names,
    computed over every row (:mod:`assistant.ttrag.compute.table`; one LLM call writes the query); None
    (question answering) where the question asks for none, the context has no table, or the query does not
    stand (the trace's ``table`` step says why)."""
    if ctx.tables is None:
        ctx.tables = table.tables(ctx.documents)
    chosen = table.table_for(question, ctx.tables)
    if chosen is None:
        return None
    # a question in another language than the sheet's is read with its translation too: its words ask for the
    # computation and write the values ("storniert": "cancelled")
    both = f"{question}\n{_translate(question, languages, models, opts, run).translated}".strip()
    cued: list[str] = list(table.cued_operations(both))
    if table.names_rows(chosen, both):
        cued.append("value")
    if not cued:
        return None
    with run.stage("table", chosen.name):
        shown = table.columns_for(chosen, both)
        raw = models.generator.complete(GenerationRequest(
            SYSTEM, table.query_prompt(both, chosen, shown), max_tokens=160,
            json_schema=table.query_schema(chosen, cued, shown), purpose="table"))
        query, why = table.parse_query(raw, chosen, both, cued)
        result = table.compute(chosen, query) if query is not None else None
    if query is not None and result is not None:
        why = table.unanswered(chosen, query, result)
        query = None if why else query
    run.note("table", table=chosen.name, cued=cued, raw=raw, reason=why,
             rows=len(result.rows) if result is not None and query is not None else None)
    if query is None or result is None:
        return None
    text, short = table_answer.answer_text(chosen, query, result, languages[0])
    run.text(text)
    doc = next(d for d in ctx.documents if d.source == chosen.source)
    sources, chunks = [], []
    for n, row in enumerate(result.holding[:3], 1):
        at, quote = table.row_quote(chosen, row, query, doc.text)
        chunk = chunk_at(ctx, chosen.source, at)
        chunks.append(chunk)
        section = rows_quoted(doc, at, at + len(quote), part_of(doc.section_at(at)))
        sources.append(Source(n, chosen.source, doc.page_at(at), chunk.start, chunk.end,
                              " ".join(quote.split())[:240], chunk.id, section))
    return _Result(text, True, chunks, [], short=short, sources=tuple(sources))


def _count(ctx: Context, target: str, run: _Run) -> _Result:
    with run.stage("counting"):
        counts = counting.count(ctx.documents, target)
    total = sum(c.count for c in counts)
    run.note("counting", target=target, total=total, per_file={c.source: c.count for c in counts})
    parts = [f"{c.source.rsplit('/', 1)[-1]}: {c.count}" for c in counts] if len(counts) > 1 else []
    text = f"\"{target}\" occurs {total} time{'s' if total != 1 else ''}" + \
        (f" ({', '.join(parts)})" if parts else "") + " (exact count, case-insensitive, whole words)."
    run.text(text)
    chunks = [chunk_at(ctx, c.source, s) for c in counts for s in c.first][:3]
    return _Result(text, True, chunks, [])


def _summarize(ctx: Context, question: str, focus: str, models: Models, opts: PipelineOptions,
               run: _Run) -> _Result:
    """A summary read from the document's structure (:mod:`assistant.ttrag.compute.summarize`):
    focus, length and form from the request; each bullet checked against the passage it cites."""
    request = summarize.parse_request(question, focus)
    run.note("summarization", focus=request.focus, detail=request.detail, form=request.form)
    asked = documents_asked(ctx.documents, request.document)
    if opts.kind_summaries and not request.focus and request.form == "bullets" and asked and \
            all(points.points_for(points.summary_kind(d)) for d in asked):
        kind_summary = _kind_summary(ctx, request, asked, models, opts, run)
        if kind_summary is not None:
            return _Result(kind_summary.text, True, list(kind_summary.passages), [])
    with run.stage("summarization"):
        result = summarize.summarize(
            ctx, request, models.generator, embedder=models.embedder, asks=opts.email_asks, on_text=run.text,
            on_progress=lambda done, total: run.emit(Progress("summarization", done, total, "calls")),
            note=run.note)
    return _Result(result.text, bool(result.bullets), list(result.passages), [])


def summarize_by_kind(ctx: Context, models: Models, options: PipelineOptions | None = None, *,
                      request: summarize.SummaryRequest | None = None, gist: bool = False,
                      emit: Callable[[Event], None] = lambda e: None,
                      cancel: threading.Event | None = None) -> summarize.Summary | None:
    """The summary of the context's documents built from the questions their kind is read for
    (:mod:`assistant.ttrag.compute.summarize.points`), or None when a document has no such kind or no point
    was found (the caller then summarises from central passages). ``gist``: the few points of a new mail's
    line (a contract's parties and subject). ``emit`` receives the points as :class:`TokenText`, one line
    each, and :class:`Progress` ``summarization`` as ``(point done, points)``.

    Raises:
        Cancelled: ``cancel`` was set.
        ModelError: a model failed.
    """
    opts = options or PipelineOptions()
    run = _Run(emit, cancel or threading.Event())
    run.t0 = time.perf_counter()
    models = replace(models, generator=CancellableGenerator(models.generator, run.cancel, run.prefill))
    docs = [d for d in ctx.documents if d.text.strip()]
    if not docs or not all(points.points_for(points.summary_kind(d)) for d in docs):
        return None
    return _kind_summary(ctx, request or summarize.SummaryRequest(), docs, models, opts, run, gist=gist)


def _kind_summary(ctx: Context, request: summarize.SummaryRequest, docs: Sequence[Document], models: Models,
                  opts: PipelineOptions, run: _Run, *, gist: bool = False) -> summarize.Summary | None:
    """Each document's points (:func:`~assistant.ttrag.compute.summarize.points.points_for` its kind), each
    under the document's title line, streamed one line at a time as it is answered. A point is one read with
    no rewrite and no fallback read (a point not found is left out: a summary is no place for a second
    search); the reads' own text is not streamed, the point's line is. Then, but for a gist, the kind's
    central sentences quoted (:func:`~assistant.ttrag.compute.summarize.points.central_quotes`: a report's). None
    when nothing was stated."""
    pending = [m for m in (models.embedder, models.encoder) if m is not None and not m.loaded]
    for model in pending:
        model.ensure_loaded()
    point_opts = point_options(opts)
    quiet = _Run(lambda e: None if isinstance(e, (TokenText, Retract, Preview)) else run.emit(e), run.cancel,
                 trace=run.trace, current=run.current)
    quiet.t0 = run.t0
    numbering = points.Numbering()
    bullets: list[summarize.Bullet] = []
    lines: list[str] = []
    kinds = {d.source: points.summary_kind(d) for d in docs}
    asked = [(d, p) for d in docs for p in points.points_for(kinds[d.source], detail=request.detail, gist=gist)]
    done = 0
    headed: set[str] = set()

    def show(doc: Document, line: str) -> None:
        """Stream and keep one line, under the document's title line the first time the document shows one (a
        blank line before the title of a second document)."""
        heading = [] if doc.source in headed else ([""] if lines else []) + [f"{lead_line(doc)}:"]
        headed.add(doc.source)
        run.text(("" if not lines else "\n") + "".join(h + "\n" for h in heading) + line)
        lines.extend([*heading, line])

    def state(point: points.Point, doc: Document) -> None:
        """Stream and keep one point (its passages with the whole context's chunk ids), under the document's
        title line the first time the document shows a point."""
        line = points.render_point(point, numbering)
        show(doc, line)
        bullets.append(summarize.Bullet(f"{point.label}: {point.sentence}", tuple(
            next(i for i, k in enumerate(numbering.chunks, 1) if k.source == c.source and k.id == c.id)
            for c in point.cited)))

    for doc in docs:
        sub, original = restricted(ctx, doc.source)
        missing: list[str] = []
        for point in (p for d, p in asked if d is doc):
            run.emit(Progress("summarization", done, len(asked), "points",
                              f"Point {done + 1} of {len(asked)}: {point.label.lower()}"))
            t0 = time.perf_counter()
            found = _point(sub, point, models, point_opts, quiet)
            done += 1
            run.note("summary_point", label=point.label, found=found is not None,
                     seconds=round(time.perf_counter() - t0, 2), sentence=found.sentence if found else "",
                     check_p=None if found is None or found.check_p is None else round(found.check_p, 4))
            if found is None or (found.check_p is not None and found.check_p < opts.point_check_p):
                missing.append(point.label)
                continue
            state(replace(found, cited=tuple(replace(c, id=original[c.id]) for c in found.cited)), doc)
        if not gist:
            for quoted in points.central_quotes(ctx, doc, kinds[doc.source],
                                                {(c.source, c.id) for c in numbering.chunks}):
                state(quoted, doc)
            # a point left out is said to be, not passed over in silence (once a point was shown: a summary with
            # none is the central-passage one)
            if missing and bullets:
                show(doc, points.left_out_line(missing))
        for k in ("prefilter", "conditional", "evidence", "generate"):
            if k in quiet.timings:
                run.timings[k] = quiet.timings[k]
    run.emit(Progress("summarization", len(asked), len(asked), "points"))
    if not bullets:
        return None
    return summarize.Summary("\n".join(lines), tuple(numbering.chunks), tuple(bullets), (), ())


def point_options(opts: PipelineOptions) -> PipelineOptions:
    """``opts`` as a summary point is read with: no router, no rewrite and no fallback read (a point not found
    is left out: a summary is no place for a second search), and the points' own P(found) bar
    (``point_min_found_p``)."""
    return replace(opts, router=False, max_rewrites=0, fallback_top_k=0, min_found_p=opts.point_min_found_p)


#: share of a passage at least that is a list of sources
#: (:func:`~assistant.ttrag.compute.summarize.sidematter.source_spans`) for a summary's point to stand on it no
#: more: a point whose cited passages all are is left out
SIDE_POINT = 0.5


def _point(ctx: Context, point: points.PointQuestion, models: Models, opts: PipelineOptions,
           run: _Run) -> points.Point | None:
    """One point of a kind's summary read from ``ctx`` (one document), or None when it is not found."""
    doc = ctx.documents[0]
    if point.where == "preamble":
        # both parties named, exactly as the contract names them; none read by the reader: where the text names
        # fewer than two, the reader named them wrong 4 times in 5 (benchmarks/results/preamble-parties-dev-read.md)
        parties = points.contract_parties(doc)
        if len(parties) < 2:
            return None
        return points.Point(point.label, points.parties_sentence(parties), _where_named(ctx, doc, parties))
    furniture = side_spans(doc)  # running footers, page numbers: left out of the opening read and of a whole sentence
    if point.where == "opening":
        chunks = _whole(ctx, points.opening_chunks(ctx.chunks, doc.source)[:opts.ce_top_k], opts)
        # read without the page furniture and the file's name: an SEC filing's footer on every page ("Source:
        # PELICAN DELIVERS, INC., S-1, 2/11/2020") and its file's name give the filing's date, not the agreement's
        reading = _read(run, models, opts, point.question, [points.as_read(c, furniture) for c in chunks], 0)
        if not reading.found:
            return None
        chunks = _passages_read(chunks, reading)
    else:
        # a point reads its passages alone: the document's opening is read for its own points (parties, date)
        searched = replace(opts, evidence_tokens=opts.point_evidence_tokens or opts.evidence_tokens, opening_chars=0,
                           ce_top_k=opts.point_top_k or opts.ce_top_k)
        result = _question_answering(ctx, point.question, models, searched, run, search_as=point.search)
        if not result.found or result.reading is None:
            return None
        reading, chunks = result.reading, result.chunks
        if point.found_p and reading.found_p is not None and reading.found_p < point.found_p:
            run.note("point_unsure", label=point.label, found_p=reading.found_p, sentence=reading.sentence)
            return None  # the reader is less sure than it is of the point's right answers (PointQuestion.found_p)
    cited = tuple(chunks[n - 1] for n in reading.supported_by if 1 <= n <= len(chunks)) or tuple(chunks[:1])
    sources = source_spans(doc)
    if sources and all(side_share(sources, c.start, c.end) >= SIDE_POINT for c in cited):
        run.note("point_side_matter", label=point.label, sentence=reading.sentence)
        return None  # a report's "recommendations" read from a book's title in its list of sources
    sentence = points.whole_point_sentence(reading.sentence, doc, cited, furniture)
    if not sentence or not points.has_form(sentence, point.form):
        return None
    # the sentence cited, as the point's checks were chosen on (a line, where a PDF breaks the sentence): read
    # whole across its lines, Elandia's term was taken for the non-solicitation clause beside it on the CUAD dev half
    snippet = cite(cited[:1], sentence, point.question, max_chars=600, across_lines=False)[0].snippet
    if point.other_clause is not None and point.other_clause.search(snippet):
        run.note("point_other_clause", label=point.label, snippet=snippet)
        return None  # e.g. a survival clause read as the term: another clause, whatever the reader made of it
    if point.not_a_notice and points.notice_only(sentence, "\n".join(c.text for c in cited)):
        run.note("point_other_clause", label=point.label, snippet=snippet, notice=True)
        return None  # a termination notice's "sixty (60) days" read as the term
    check_p = None
    if point.check and opts.point_check_p > 0:  # the cited sentence is read alone: is it about the point at all?
        with run.stage("point_check"):
            check_p = pointcheck.check_point(models.generator, snippet, point.check)
    return points.Point(point.label, sentence, cited, check_p)
