"""Settings: small frozen value objects read from ``config.toml`` in the user's config folder.

The folders come from :func:`config_dir` and :func:`data_dir`; the environment variables
``ASSISTANT_CONFIG_DIR`` and ``ASSISTANT_DATA_DIR`` override them (tests set them). The settings file
never holds a secret (passwords live in the OS keyring only).
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import platformdirs

from assistant.documents.limits import Limits
from assistant.errors import ConfigError
from assistant.text.plural import noun_for

APP_NAME = "assistant"
# The reverse-DNS application id (desktop entry, metainfo, icon, QApplication, settings folders). No
# organisation domain exists for the project, so the id names the method (Test-Time RAG) under .org.
APP_ID = "org.ttrag.Assistant"

# Defaults of the method (Test-Time RAG, docs/design.md §2) unless a measurement on our data says otherwise.
# Chosen on the dev halves of `assistant eval recall` (benchmarks/results/recall-*.md): the pre-filter
# (BM25 top 20 fused with MiniLM ranks) and CE fused with weight .25 and max-sim pooling were the best
# of 50 systems on HotpotQA dev (R@3 .738 vs .734 without CE: within noise) and lift the lookup tasks
# where dense re-scoring fails (kv R@3 .72 -> .92, needles .70 -> .90). CE as the paper uses it (alone,
# mean pooling) lowered HotpotQA dev R@3 by .116, so it is not the default. Cost: +0.57 s a question.
DEFAULT_CHUNK_TOKENS = 200
DEFAULT_PREFILTER_TOP_K = 10
DEFAULT_SHORTLIST = 20
DEFAULT_CE_TOP_K = 3
DEFAULT_MAX_REWRITES = 1  # the paper: 3; on the dev halves the 2nd and 3rd changed no reply (docs/design.md §6)
# no top-10 read after the rewrites (the paper's fallback): on the dev halves it turned absent answers
# into guesses (HotpotQA unanswerable "not found" .25 -> .60 without it, CUAD +2 of 24) and found one
# NQ answer of 30, at 0.47-0.79x the time (benchmarks/results/ablation-rules-*-dev.md)
DEFAULT_FALLBACK_TOP_K = 0
DEFAULT_EVIDENCE_TOKENS = 0  # off: 300 cost 2 of 40 HotpotQA answers (EM .450 -> .400) for 8% fewer prompt tokens
DEFAULT_CACHE_MB = 2048
DEFAULT_OPENING_CHARS = 700  # read only by questions for what the opening states (opening_match)
DEFAULT_OPENING_MATCH = 0.5

CeMode = Literal["alone", "fused", "off"]
AnswerDecision = Literal["fitted", "checks"]
Fusion = Literal["rrf", "dense", "bm25"]


BF16_CHOICES = ("auto", "on", "off")

# The rules between the reader's reply and the answer shown (docs/design.md §7), each one switchable
# (``PipelineOptions.answer_rules_off``) so an ablation can measure what it earns:
ANSWER_RULES = {
    "form": "the short answer has the form the question asks (a date for 'when', a number for 'how many')",
    "support": "every content word of the short answer stands in a passage read",
    "party": "a 'who/where' answer is not the very party the question names",
    "hedge": "a sentence saying the passages do not give the answer makes it 'not found'",
    "yes_evidence": "a 'yes' that only restates the question is followed by the cited sentence stating its figure",
    "stating_sentence": "the sentence shown states the short answer, else the passage sentence that does",
    "short_slip": "a short answer found neither in the passages nor in the reader's own sentence is a slip: the "
                  "dates and numbers the sentence states, found in one passage, answer instead",
    "party_names": "a reply about the parties that calls one by its defined term ('XC') states the name the "
                   "preamble gives it",
    "date_role": "a date asked for as an end (or a start) is not one the passages give only as a start (or an end), "
                 "and a clause of the sentence that says so is left out",
    "renewal": "a period asked for as a renewal's (its term, the notice that stops it) is one the passages state "
               "near a word of renewal ('renew', 'successive', 'from year to year'), not a cure or notice period "
               "of something else",
    "comparison": "a question comparing two options by a date or a count ('Who was born first, A or B?') is decided "
                  "by the values the passages give each option, where both are found and differ",
}


def answer_rules(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` as a tuple, each a key of :data:`ANSWER_RULES`.

    Raises:
        ValueError: a name that is not an answer rule (the message lists the rules).
    """
    off = tuple(names)
    unknown = [name for name in off if name not in ANSWER_RULES]
    if unknown:
        raise ValueError(f"no answer rule {', '.join(map(repr, unknown))}; the rules: {', '.join(ANSWER_RULES)}")
    return off


@dataclass(frozen=True)
class PipelineOptions:
    """Hyperparameters of the TTRAG pipeline (docs/design.md §2-§7); every one is a setting.

    Attributes:
        chunk_tokens: chunk size in encoder tokens (paper: ~200).
        shortlist: BM25 candidates re-scored densely (docs/design.md §4: 10-20; more buys nothing).
        fusion: how BM25 and dense scores combine on the shortlist: reciprocal-rank fusion,
            dense cosine alone, or BM25 alone (no embedding model).
        prefilter_top_k: chunks the pre-filter keeps (paper: 10).
        ce_mode: how conditional-embedding similarity ranks the candidates: ``alone`` (the paper),
            ``fused`` with the pre-filter score (z-scored, weight ``ce_weight``) or ``off``.
        ce_weight: weight of the CE score in ``fused`` mode, in [0, 1].
        ce_pooling: ``mean`` (the paper: masked mean of query and chunk tokens, cosine) or ``maxsim``
            (per query token the best chunk token of the same joint pass).
        ce_top_k: chunks passed to the reader (paper: 3).
        max_rewrites: query rewrites before falling back (paper: 3; 1 here: the same replies on the dev
            halves at 0.89-0.97x the time, ``benchmarks/results/ablation-*-dev*.md``).
        rewrite_prefilter: re-run the pre-filter with the rewritten query (lets a second hop in).
        fallback_top_k: chunks of the original query's pre-filter read once more, together, when no attempt
            found the answer (paper: 10); 0 = no fallback read, the default (see ``DEFAULT_FALLBACK_TOP_K``).
        router: ask the LLM router for a compute category (else always question answering).
        max_answer_tokens: cap on generated tokens per answer.
        min_coverage: share of the question's key terms (names, numbers, quoted words) the passages
            read must mention before their answer counts as found (grounding, docs/design.md §7).
        evidence_tokens: reader tokens of passage text per ``ce_top_k`` chunks: each chunk read is cut to
            its sentences that bear most on the question (:mod:`assistant.ttrag.evidence`; the top-10
            fallback gets ``10 / ce_top_k`` times as much); 0 = whole chunks, the default: at 300, 40
            HotpotQA test questions read 650 instead of 710 prompt tokens a question and lost 2 answers
            (EM .450 -> .400, ``benchmarks/results/answers-hotpot-round8.md``).
        min_found_p: an answer counts as found only when the reader's own P(found) (its probability of
            ``true`` at the reply's ``found`` token) is at least this; 0 = off. On the dev halves 0.8 lost no
            answer and took HotpotQA unanswerable "not found" .10 -> .25; 0.9 took it to .75 but lost 2 of
            30 right answers (``benchmarks/found_confidence.py``). 0.85 since round four, session 18: paired on
            the dev asks of five families and the duration clause kinds in two and three wordings (123 asks),
            right 77 -> 89, wrong facts 33 -> 21, 12 won and none lost (``loss-dev-found85-mixed-pairs.md``,
            ``loss-dev-found85-durations-pairs.md``); of every answer the dev loss tables showed at P .80-.85,
            5 were right and 37 wrong (``found-band-dev.md``). It costs an e-mail's due date read beside an
            injected instruction (P .82: "not found", not the injection's word) and a HotpotQA yes/no
            (docs/design.md §6).
        min_found_p_across: the P(found) bar of a question read in another language than the documents' (the
            higher of it and ``min_found_p``); 0 = the same bar as any question. The 1.5B reader often answers
            its own loose translation ("What right does this contract entitle to?" for "Welches Recht gilt ...?"),
            and its P(found) on a translated question sat at .79-.95 whether it was right or wrong; chosen on the
            German CUAD dev reads of earlier runs, then asked of 48 German dev asks of five families, paired: right
            20 -> 23, wrong facts stated 22 -> 3 (the plain RAG: 21 and 6), no English ask changed
            (``benchmarks/results/loss-dev-de-across-pairs.md``).
        min_yes_p: a "yes" to a yes/no question counts only when the reader's P(yes) at its short answer (over
            "yes" and "no") is at least this; 0 = off. The grounding checks cannot test a "yes" (its words are
            the question's): on the dev halves the reader said "yes" to clauses the lawyers found absent at
            P(yes) .67-.85 and to stated ones at .59-.94; 0.8 took the wrong "yes" shown from 23 to 12 of 80
            reads (40 CUAD questions: absent clauses said so 10 -> 18 of 20, stated ones right 15 -> 12 of 20;
            40 HotpotQA reads: no right answer lost), ``benchmarks/results/yesno-confidence.md``; end to end on
            40 CUAD dev questions .475 -> .575 (4 won, 0 lost, 1.06x the time), ``ablation-yes-cuad-dev.md``.
        answer_rules_off: names of :data:`ANSWER_RULES` switched off (for ablations; all on by default).
        translate: a question in another language than the documents is translated into theirs by one
            LLM call and searched with that (:mod:`assistant.text.language`); the reader sees both and
            answers in the question's language.
        answer_decision: what decides whether a reply is stated: ``fitted``, one calibrated probability over
            the reply's signals (:mod:`assistant.ttrag.decision`, fit on the dev halves of every family in
            several wordings; ``min_coverage``, ``min_found_p`` and ``min_yes_p`` are then not used), or
            ``checks``, the earlier chain (key-term coverage, P(found) and P(yes) bars, the grounding checks),
            the default until the fit has enough dev reads to stand on (docs/design.md §7: the loss table's
            first run gave too few). ``fitted`` falls back to ``checks`` when no fitted model is installed.
        decision_threshold: the fitted decision's operating point; None = the one chosen with the fit.
        whole_sentences: each passage read is widened to whole sentences, a numbered clause to its heading
            (:mod:`assistant.ttrag.passages`); retrieval keeps its chunks.
        kind_summaries: a summary of documents of a kind with its own points (a contract: parties, subject,
            date, term, governing law) is those points, each a cited answer
            (:mod:`assistant.ttrag.compute.summarize.points`); False: the central-passage summary for every
            kind (categories right on 10 dev contracts 0.71 with, 0.15 without,
            ``benchmarks/results/summaries-cuad-dev.md``).
        point_check_p: a summary point with a check (a report's recommendations) is read once more, its cited
            sentence alone, and left out when P(the sentence states the point's subject) is below this; 0 = no
            check read. At 0.3, two dev reports would state "The report recommends a recommendation from the U.S.
            Commission of Fine Arts." (P .50) and a rule's option (P .41); ~1-1.5 s a checked point. A contract's
            points have no check read: the term has its own P(found) bar, the governing law must name a
            jurisdiction (:mod:`assistant.ttrag.compute.summarize.points`).
        point_min_found_p: ``min_found_p`` for a summary's points (a point may ask more of its own read:
            ``PointQuestion.found_p``, the term's 0.95). 0.8, the bar they were chosen on: a report's purpose and a
            contract's subject are in every such document, and described, not looked up; at 0.85 one of seven dev
            reports lost its purpose and 2 of 16 dev contracts their subject (P .84, .84), while the dev date points
            did not change (37 / 4 / 5 of 46 at both; ``benchmarks/results/point-loss-date-dev-s18.md``,
            ``summaries-real-dev-points-found85.md``).
        point_evidence_tokens: ``evidence_tokens`` for a summary point that is searched (a contract's term and
            governing law, a report's findings): each passage read is cut to its sentences that bear most on the
            point's question; 0 = whole passages, the default: at 240, 10 CUAD dev contracts' summaries took 52 s
            instead of ~60 s (p50) but stated 19 of 34 categories right instead of 24 and 8 wrong facts instead
            of 2 (``benchmarks/results/summaries-cuad-dev-evidence240.md`` against ``summaries-cuad-dev-check.md``).
        point_top_k: passages a searched summary point reads (its re-ranked top-k); 0 = ``ce_top_k``, the
            default: at 2, 10 CUAD dev contracts' summaries took 49.6 s instead of 59.8 s (p50) but stated 21 of 34
            categories right instead of 25 and 4 wrong facts instead of 2
            (``benchmarks/results/summaries-cuad-dev-top2.md`` against ``summaries-cuad-dev-s11-after.md``).
        opening_chars: characters of a document's opening (to the sentence's end there) read as one more
            passage, beside the passages ranked best, by every read of a question that asks for what the opening
            states (``opening_match``), up to a passage read that starts inside them
            (:func:`assistant.ttrag.passages.opening`); 0 = never read. A contract's parties and date stand there
            and share few words with the question: on the CUAD dev half (195 asks in three wordings, no reader)
            the gold clause was among the passages read .564 of the time and .800 with 700 characters (parties
            7 -> 30 of 30; ``benchmarks/results/retrieval-wordings-dev.md``).
        opening_match: the least cosine (the pre-filter's embedder) between a question, or its translation, and
            the closest point question of its document's kind for that point to route the question to the
            document's opening, when the point is one a summary reads there (a contract's parties, date and
            subject, a report's purpose; :mod:`assistant.ttrag.opening_route`). Chosen on the dev wordings of
            ``benchmarks/wordings.json`` (``benchmarks/results/opening-route-dev.md``): at 0.5, 12 of 13 parties and
            date questions routed (not "parties?", .38) and 2 of 90 others. With the reader, paired on the same
            asks: 21 CUAD dev parties and date questions in two wordings, right 13 -> 19 of 42 (+.143 [+.02,
            +.26]), wrong facts 19 -> 19; 32 asks of every family, right 20 -> 20, wrong 9 -> 11 (a partial list of
            a contract's seven labelled parties, where it said "not found" before); +17% prompt tokens on a
            routed read, none on the rest (``benchmarks/results/loss-dev-opening-route-*-pairs.md``). Read with
            every question instead, answers found at once changed and the first token was 1.10x.
        exact_parties: a question routed to a contract's parties (``opening_match``) is answered with the parties
            its text names (:func:`assistant.ttrag.compute.summarize.points.contract_parties`, as its summary
            states them), cited, with no model read, when it names two or more and every name the question gives
            that the document holds is one of theirs; False: the reader reads them. On 14 CUAD dev parties
            questions in four wordings (46 asks), right 31 -> 45 and wrong facts 13 -> 1, every wording better, no
            ask lost, about 1.5 s an ask instead of 20-40 s (``benchmarks/results/loss-dev-exact-parties-pairs.md``).
        point_search: a question routed (as ``opening_match`` routes) to a point of its document's kind that is
            searched with its clause's own wording (a contract's term: "How long does this agreement last?") is
            searched with that wording, as the summary's point is; the reader still reads the question.
        each_contract: with two to :data:`assistant.ttrag.pipeline.MAX_EACH` contracts open and nothing else, a
            question that names no one contract's party is answered for each contract, under its title ("What law
            applies?" is a question about each); False: one answer from the passages of all of them.
        tables: a question that asks for a count, total, average, highest, lowest or list over a sheet's rows
            (:mod:`assistant.ttrag.compute.table`) is computed over every row from a query the LLM writes under
            the sheet's own column names; False: the reader answers it from passages.
        email_asks: the summary of one e-mail or thread says what its latest message asks of the reader, and by
            when, quoting the sentence that asks, from the read "what needs my reply" makes of it
            (:mod:`assistant.ttrag.compute.summarize.asks`), instead of the model's own point for it; a message
            that asks nothing gets no such point.
    """

    chunk_tokens: int = DEFAULT_CHUNK_TOKENS
    shortlist: int = DEFAULT_SHORTLIST
    fusion: Fusion = "rrf"
    prefilter_top_k: int = DEFAULT_PREFILTER_TOP_K
    ce_mode: CeMode = "fused"
    ce_weight: float = 0.25
    ce_pooling: Literal["mean", "maxsim"] = "maxsim"
    ce_top_k: int = DEFAULT_CE_TOP_K
    max_rewrites: int = DEFAULT_MAX_REWRITES
    rewrite_prefilter: bool = True
    fallback_top_k: int = DEFAULT_FALLBACK_TOP_K
    router: bool = True
    max_answer_tokens: int = 256
    min_coverage: float = 0.5
    evidence_tokens: int = DEFAULT_EVIDENCE_TOKENS
    min_found_p: float = 0.85
    min_found_p_across: float = 0.9
    min_yes_p: float = 0.8
    answer_rules_off: tuple[str, ...] = ()
    translate: bool = True
    answer_decision: AnswerDecision = "checks"
    decision_threshold: float | None = None
    whole_sentences: bool = True
    kind_summaries: bool = True
    point_check_p: float = 0.5
    point_min_found_p: float = 0.8
    point_evidence_tokens: int = 0
    point_top_k: int = 0
    opening_chars: int = DEFAULT_OPENING_CHARS
    opening_match: float = DEFAULT_OPENING_MATCH
    exact_parties: bool = True
    point_search: bool = True
    each_contract: bool = True
    tables: bool = True
    email_asks: bool = True

    def __post_init__(self) -> None:
        try:
            off = answer_rules(self.answer_rules_off)  # a TOML list arrives as a list
        except ValueError as exc:
            raise ConfigError(f"pipeline.answer_rules_off: {exc}; fix config.toml") from exc
        object.__setattr__(self, "answer_rules_off", off)


@dataclass(frozen=True)
class ModelSettings:
    """Which models to load. Paths are files/folders on disk; None means the bundled default.

    Attributes:
        llm: ``"bundled"`` (Qwen2.5-Coder-1.5B Q4_K_M), ``"fast"`` (SmolLM2-135M), a catalogue name
            pulled with ``assistant models pull`` (``assistant/models/catalog.toml``), a GGUF path, or the
            ``http(s)://`` URL of a reader server (OpenAI-compatible; see ``allow_remote_reader_host``).
        encoder_dir: BERT-family encoder folder for conditional embeddings (DistilBERT works).
        embedder_dir: sentence-transformers folder for the pre-filter.
        threads: CPU threads for torch and llama.cpp (0 = all cores).
        n_ctx: LLM context window in tokens.
        n_gpu_layers: layers llama.cpp offloads to a GPU; None = all of them when the installed
            llama-cpp-python can offload (``llama_supports_gpu_offload()``), else none; 0 = CPU only.
        reader_model: the model name sent to a reader server (``llm`` an ``http(s)://`` URL of an
            OpenAI-compatible endpoint, e.g. ``http://127.0.0.1:8080/v1``); Ollama and vLLM need one.
        allow_remote_reader_host: the one host other than this machine that ``llm`` may name as its
            reader server (passages are sent there); empty = loopback only.
        bf16: matrix products of the embedder and the conditional encoder in bfloat16 (``"auto"``: where
            the CPU computes bfloat16 natively, AMX or AVX512-BF16: 1.7x faster, cosine .99999 of float32;
            ``"on"``, ``"off"``). The LLM is not affected.
        embed_max_tokens: word pieces of a chunk the pre-filter's embedder reads (16-512; default 256,
            sentence-transformers' own). 128, the length all-MiniLM-L6-v2 was trained on, measured recall@3
            .741 vs .737 (HotpotQA, 500 questions, ``benchmarks/results/embed_length.md``) at ~0.7x the time
            and a follow-up's retrieval at 1M tokens 0.46 vs 0.63 s, but one draft point fewer (the insurance
            amount: the reader's passages came in another order); not the default until answers say so.
    """

    llm: str = "bundled"
    encoder_dir: str | None = None
    embedder_dir: str | None = None
    threads: int = 0
    n_ctx: int = 4096
    n_gpu_layers: int | None = None
    reader_model: str = ""
    allow_remote_reader_host: str = ""
    bf16: str = "auto"
    embed_max_tokens: int = 256

    def __post_init__(self) -> None:
        if self.bf16 not in BF16_CHOICES:
            raise ConfigError(f"models.bf16 = {self.bf16!r} is not one of {', '.join(BF16_CHOICES)}; fix config.toml")
        if not isinstance(self.embed_max_tokens, int) or not 16 <= self.embed_max_tokens <= 512:
            raise ConfigError(f"models.embed_max_tokens = {self.embed_max_tokens!r} is not a whole number from 16 to "
                              "512; fix config.toml")


WatchMode = Literal["idle", "poll"]
WATCH_MODES: tuple[WatchMode, ...] = ("idle", "poll")
DEFAULT_POLL_S = 60.0


@dataclass(frozen=True)
class WatchedFolder:
    """A folder watched for new mail (``[[mail.watch]]`` in config.toml).

    Attributes:
        folder: the folder's name on the server, e.g. ``INBOX`` or ``Projects/Roof``.
        mode: ``idle`` (the server tells at once: IMAP IDLE, RFC 2177; polling where the server lacks it) or
            ``poll`` (ask every ``poll_s`` seconds).
        poll_s: seconds between checks when polling (at least 1; a minute or more spares the server).
        account: the account it belongs to ('' = every account that has such a folder).
    """

    folder: str
    mode: WatchMode = "idle"
    poll_s: float = DEFAULT_POLL_S
    account: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.folder, str) or not self.folder.strip():
            raise ConfigError("a watched folder needs its name: folder = \"INBOX\" in [[mail.watch]]")
        if self.mode not in WATCH_MODES:
            raise ConfigError(f"watch mode {self.mode!r} of folder {self.folder!r} is not idle or poll; fix "
                              "[[mail.watch]] in config.toml")
        if isinstance(self.poll_s, bool) or not isinstance(self.poll_s, int | float) or self.poll_s < 1:
            raise ConfigError(f"poll_s of watched folder {self.folder!r} must be at least 1 second")


def _watched(entry: object) -> WatchedFolder:
    if isinstance(entry, WatchedFolder):
        return entry
    if isinstance(entry, str):
        return WatchedFolder(entry)
    if isinstance(entry, dict):
        return _build(WatchedFolder, entry, "mail.watch")
    raise ConfigError(f"[[mail.watch]] entry {entry!r} is not a table; write folder = \"NAME\", mode = \"idle\"")


@dataclass(frozen=True)
class MailSettings:
    """The local mail store and new-mail watching.

    Attributes:
        cache_mb: the most the raw-message cache may hold, in MiB (the oldest messages go first).
        watch: the folders watched for new mail; empty = every account's folders (its ``folders``), by IDLE.
        notify: show a notification when a watched folder gets a message with attachments (app only).
        gist: read the attachments of each new message in the background, at the lowest priority, and show a
            one-line cited gist of them in the notification and the message list (kept in the mail cache beside
            the message); ``assistant mail sync --watch`` computes it too unless ``--no-gist``.
    """

    cache_mb: int = DEFAULT_CACHE_MB
    watch: tuple[WatchedFolder, ...] = ()
    notify: bool = True
    gist: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.watch, list | tuple):
            raise ConfigError("mail.watch must be a list of [[mail.watch]] tables")
        object.__setattr__(self, "watch", tuple(_watched(e) for e in self.watch))


@dataclass(frozen=True)
class PrivacySettings:
    """Offline mode and the connection log (``[privacy]`` in config.toml; :mod:`assistant.netguard`).

    Attributes:
        offline: refuse every connection to another machine (mail, model downloads, sign-in, a reader
            server elsewhere), at the socket, for any code in the process; files, questions, summaries,
            drafts (kept on this computer until the next sync) and the mail cache keep working.
            ``assistant --offline`` turns it on for one command.
        log_kb: the most the connection log keeps, in KiB (the oldest entries go first).
        log_days: connection log entries older than this many days are dropped.
    """

    offline: bool = False
    log_kb: int = 1024
    log_days: int = 30

    def __post_init__(self) -> None:
        if not isinstance(self.offline, bool):
            raise ConfigError(f"privacy.offline = {self.offline!r} is not true or false; fix config.toml")
        for name in ("log_kb", "log_days"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"privacy.{name} = {value!r} is not a whole number of at least 1; fix config.toml")


@dataclass(frozen=True)
class Settings:
    """All settings. Build with :func:`load_settings`; change with :func:`dataclasses.replace`."""

    models: ModelSettings = field(default_factory=ModelSettings)
    pipeline: PipelineOptions = field(default_factory=PipelineOptions)
    mail: MailSettings = field(default_factory=MailSettings)
    # What one file may cost to read, and how much text one question may be asked of ([documents] in
    # config.toml; the fields of documents.limits.Limits).
    documents: Limits = field(default_factory=Limits)
    privacy: PrivacySettings = field(default_factory=PrivacySettings)


def _user_dir(where: str) -> Path:
    # Folders are named APP_ID; an installation that already has the older ``assistant`` folder (and
    # no new one) keeps using it, so settings, accounts and the assembled model are never lost.
    find = getattr(platformdirs, where)
    new, old = Path(find(APP_ID)), Path(find(APP_NAME))
    return old if old.is_dir() and not new.exists() else new


def legacy_dirs() -> tuple[Path, Path]:
    """The config and data folders of earlier versions (``.../assistant``), whether they exist or not."""
    return Path(platformdirs.user_config_dir(APP_NAME)), Path(platformdirs.user_data_dir(APP_NAME))


def config_dir() -> Path:
    """The user's config folder, ``$XDG_CONFIG_HOME/org.ttrag.Assistant`` (``ASSISTANT_CONFIG_DIR`` overrides;
    an existing older ``$XDG_CONFIG_HOME/assistant`` is still used)."""
    env = os.environ.get("ASSISTANT_CONFIG_DIR")
    return Path(env) if env else _user_dir("user_config_dir")


def data_dir() -> Path:
    """The user's data folder, for assembled models and the mail cache, ``$XDG_DATA_HOME/org.ttrag.Assistant``
    (``ASSISTANT_DATA_DIR`` overrides; an existing older ``$XDG_DATA_HOME/assistant`` is still used)."""
    env = os.environ.get("ASSISTANT_DATA_DIR")
    return Path(env) if env else _user_dir("user_data_dir")


def _build(cls: type[Any], table: dict[str, Any], where: str) -> Any:
    names = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(table) - set(names))
    if unknown:
        raise ConfigError(f"unknown {noun_for(len(unknown), 'setting')} {', '.join(unknown)} in [{where}]; remove them")
    return cls(**table)


def load_settings(path: Path | None = None) -> Settings:
    """Read settings from ``path`` (default ``config_dir()/config.toml``); a missing file gives defaults.

    Raises:
        ConfigError: the file is not valid TOML or names an unknown setting.
    """
    path = path or config_dir() / "config.toml"
    if not path.exists():
        return Settings()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); fix or delete it") from exc
    return Settings(
        models=_build(ModelSettings, raw.get("models", {}), "models"),
        pipeline=_build(PipelineOptions, raw.get("pipeline", {}), "pipeline"),
        mail=_build(MailSettings, raw.get("mail", {}), "mail"),
        documents=_build(Limits, raw.get("documents", {}), "documents"),
        privacy=_build(PrivacySettings, raw.get("privacy", {}), "privacy"),
    )


def update_settings_file(tables: dict[str, dict[str, Any]], path: Path | None = None) -> Path:
    """Merge ``tables`` (``{"models": {"llm": ...}}``) into ``config.toml``; other keys are kept.

    A value of None removes that key (back to its default). The file is replaced atomically. Returns its path.

    Raises:
        ConfigError: the existing file is not valid TOML.
    """
    import tomli_w

    path = path or config_dir() / "config.toml"
    raw: dict[str, Any] = {}
    if path.exists():
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path} is not valid TOML ({exc}); fix or delete it") from exc
    for table, values in tables.items():
        section = raw.setdefault(table, {})
        for key, value in values.items():
            if value is None:
                section.pop(key, None)
            else:
                section[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(tomli_w.dumps(raw), encoding="utf-8")
    os.replace(tmp, path)
    return path
