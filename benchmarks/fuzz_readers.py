"""Fuzzing of every reader: mutated real files through ``extract`` and the mail parser, bounded and seeded.

Inputs are the files under ``../shared/data/docs`` and ``../shared/data/emails`` (every suffix the readers
know, plus files without one), mutated by a strategy built with Hypothesis (``st.randoms`` drives every
choice, so ``--seed`` replays the same inputs in the same order):

- **flip**: 1-64 bytes XOR-ed with random values;
- **truncate**: cut at a random offset;
- **splice**: a random slice of another file written over or into a random place;
- **big header**: a mail header of up to 4 MB or 50,000 header lines (mail), or a 1-4 MB run of one
  byte or token inserted (other files);
- **nest**: the file 2-300 levels deep in ZIPs, ``message/rfc822`` parts or ``multipart/mixed`` parts;
- **lengths**: a PDF's stream ``/Length``, ``startxref`` and xref offsets, or a ZIP's local and central
  sizes and offsets rewritten with wrong values (other files: flip).

Each input goes through :func:`assistant.documents.extract` (PDF, Office and archive readers in their
child process with ``--file-seconds`` and ``--file-mb`` limits) and
:func:`assistant.documents.mime.parse.parse_message`,
and is classed **read** (text came back), **reported** (an ``InputError`` with a reason), **crash** (any
other exception, from either) or **hang** (over ``--file-seconds`` + 10 s, stopped by a SIGALRM that
ordinary ``except Exception`` blocks do not catch). Time and peak RSS (this process's VmHWM, reset per
input through ``/proc/self/clear_refs``, or the reader child's peak, whichever is larger) are kept per input.

    python benchmarks/fuzz_readers.py --seconds 900 --seed 14 --out benchmarks/results/fuzz_readers

writes ``fuzz_readers.md`` (the table) and ``fuzz_readers.json`` (every input). Linux only (SIGALRM, /proc).
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import platform
import random
import re
import signal
import struct
import sys
import tempfile
import time
import traceback
import zipfile
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared/data"
FOLDERS = ("docs", "emails")
KINDS = ("flip", "truncate", "splice", "big header", "nest", "lengths")
OUTCOMES = ("read", "reported", "crash", "hang")
MAX_BASE_BYTES = 4_000_000
MAIL_SUFFIXES = (".eml", ".mbox", "")


@dataclass(frozen=True)
class Case:
    """One fuzzed input: the file it came from, how it was mutated, its bytes and the name it is read as."""

    base: str
    kind: str
    detail: str
    name: str
    data: bytes


@dataclass
class Outcome:
    """What the readers made of one :class:`Case` (seconds: both readers; peak RSS in MB)."""

    base: str
    kind: str
    detail: str
    name: str
    size: int
    outcome: str
    reason: str
    seconds: float
    peak_rss_mb: float
    growth_mb: float = 0.0


class Hang(BaseException):
    """Raised by SIGALRM in the reading thread (a BaseException, so readers' ``except Exception`` pass it)."""


class TimeUp(BaseException):
    """The run's time is spent (stops Hypothesis at once, no shrinking)."""


def corpus(data: Path) -> list[Path]:
    """The real files that seed the fuzzing: every file under docs/ and emails/ up to 4 MB, sorted."""
    files = [p for folder in FOLDERS for p in sorted((data / folder).rglob("*"))
             if p.is_file() and 0 < p.stat().st_size <= MAX_BASE_BYTES and ".git" not in p.parts]
    return files


def _suffix(path: Path) -> str:
    return path.suffix.lower() if re.fullmatch(r"\.[a-z][a-z0-9]{1,5}", path.suffix.lower()) else ""


# --- mutations: each takes the bytes, a seeded Random and the corpus, returns (bytes, detail, name suffix) ---

def _flip(data: bytes, rnd: random.Random) -> tuple[bytes, str]:
    out = bytearray(data)
    n = rnd.randint(1, 64)
    for _ in range(n):
        at = rnd.randrange(len(out))
        out[at] ^= rnd.randint(1, 255)
    return bytes(out), f"{n} bytes"


def _truncate(data: bytes, rnd: random.Random) -> tuple[bytes, str]:
    at = rnd.randrange(len(data))
    return data[:at], f"at {at:,} of {len(data):,}"


def _splice(data: bytes, rnd: random.Random, other: bytes, other_name: str) -> tuple[bytes, str]:
    start = rnd.randrange(len(other))
    piece = other[start:start + rnd.randint(1, 65536)]
    at = rnd.randrange(len(data) + 1)
    if rnd.random() < 0.5:
        return data[:at] + piece + data[at + len(piece):], f"{len(piece):,} bytes of {other_name} over"
    return data[:at] + piece + data[at:], f"{len(piece):,} bytes of {other_name} into"


def _big_header(data: bytes, rnd: random.Random, mail: bool) -> tuple[bytes, str]:
    size = rnd.randint(1, 4) * 1_000_000
    if mail:
        style = rnd.choice(("long value", "many lines", "long folded", "long subject encoded-word"))
        if style == "long value":
            head = b"X-Fuzz: " + b"A" * size + b"\r\n"
        elif style == "many lines":
            head = b"".join(b"X-Fuzz-%d: value\r\n" % i for i in range(50_000))
        elif style == "long folded":
            head = b"Subject: start" + b"\r\n continued" * (size // 12) + b"\r\n"
        else:
            word = b"=?utf-8?B?" + base64.b64encode(b"fuzz" * 12) + b"?="
            head = b"Subject: " + b" ".join([word] * (size // 80)) + b"\r\n"
        return head + data, style
    token = rnd.choice((b"A", b"\x00", b"<<", b"[", b"(", b"<w:p>", b"%"))
    at = rnd.randrange(len(data) + 1)
    return data[:at] + token * (size // len(token)) + data[at:], f"{size:,} bytes of {token!r}"


def _zip_once(name: str, data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return buf.getvalue()


def _mail_with(leaf: bytes, leaf_name: str, mail: bool) -> bytes:
    if mail:
        return leaf
    return (b"From: a@example.org\r\nTo: b@example.org\r\nSubject: leaf\r\nMIME-Version: 1.0\r\n"
            b"Content-Type: application/octet-stream; name=\"" + leaf_name.encode() + b"\"\r\n"
            b"Content-Disposition: attachment; filename=\"" + leaf_name.encode() + b"\"\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n" + base64.encodebytes(leaf))


def _nest(data: bytes, rnd: random.Random, name: str, mail: bool) -> tuple[bytes, str, str]:
    style = rnd.choice(("zip", "rfc822", "multipart"))
    levels = rnd.choice((2, 4, 6, 12, 30, 100, 300)) if style != "zip" else rnd.choice((2, 4, 6, 8, 12, 30))
    if style == "zip":
        out, inner = data, name
        for level in range(levels):
            out, inner = _zip_once(inner, out), f"level{level}.zip"
        return out, f"zip x{levels}", ".zip"
    message = _mail_with(data, name, mail)
    if style == "rfc822":
        for level in range(levels):
            message = (b"From: n%d@example.org\r\nSubject: level %d\r\nMIME-Version: 1.0\r\n"
                       b"Content-Type: message/rfc822\r\n\r\n" % (level, level)) + message
        return message, f"message/rfc822 x{levels}", ".eml"
    body = message
    for level in range(levels):
        boundary = b"b%d" % level
        body = (b"Content-Type: multipart/mixed; boundary=\"" + boundary + b"\"\r\n\r\n--" + boundary + b"\r\n"
                + body + b"\r\n--" + boundary + b"--\r\n")
    return b"From: a@example.org\r\nSubject: deep\r\nMIME-Version: 1.0\r\n" + body, f"multipart x{levels}", ".eml"


_LENGTH = re.compile(rb"/Length\s+(\d+)")
_STARTXREF = re.compile(rb"startxref\s+(\d+)")
_XREF_ROW = re.compile(rb"(?m)^(\d{10}) (\d{5}) n")


def _wrong_number(rnd: random.Random, old: int) -> int:
    return rnd.choice((0, 1, old - 1, old + 1, old * 2, old * 1000, 2 ** 31 - 1, 2 ** 32 - 1, rnd.randrange(2 ** 32)))


def _lengths(data: bytes, rnd: random.Random) -> tuple[bytes, str] | None:
    if data.startswith(b"%PDF"):
        out = data
        changed = 0
        for rx in (_LENGTH, _STARTXREF, _XREF_ROW):
            matches = list(rx.finditer(out))
            rnd.shuffle(matches)
            for m in sorted(matches[:rnd.randint(0, 3)], key=lambda m: -m.start()):
                value = max(_wrong_number(rnd, int(m.group(1))), 0)
                text = (b"%010d" % (value % 10 ** 10)) if rx is _XREF_ROW else str(value).encode()
                out = out[:m.start(1)] + text + out[m.end(1):]
                changed += 1
        return out, f"PDF, {changed} lengths/offsets"
    if data.startswith(b"PK\x03\x04"):
        out = bytearray(data)
        spots = [(m.start(), 18) for m in re.finditer(rb"PK\x03\x04", data)] + \
                [(m.start(), 22) for m in re.finditer(rb"PK\x03\x04", data)] + \
                [(m.start(), 20) for m in re.finditer(rb"PK\x01\x02", data)] + \
                [(m.start(), 24) for m in re.finditer(rb"PK\x01\x02", data)] + \
                [(m.start(), 42) for m in re.finditer(rb"PK\x01\x02", data)] + \
                [(m.start(), 16) for m in re.finditer(rb"PK\x05\x06", data)] + \
                [(m.start(), 10) for m in re.finditer(rb"PK\x05\x06", data)]
        rnd.shuffle(spots)
        picked = spots[:rnd.randint(1, 4)]
        for start, field in picked:
            at = start + field
            if at + 4 > len(out):
                continue
            if field == 10:  # the end record's member count: 2 bytes
                out[at:at + 2] = struct.pack("<H", rnd.choice((0, 1, 0xFFFF, rnd.randrange(0x10000))))
            else:
                old = struct.unpack("<I", out[at:at + 4])[0]
                out[at:at + 4] = struct.pack("<I", _wrong_number(rnd, old) % 2 ** 32)
        return bytes(out), f"ZIP, {len(picked)} sizes/offsets"
    return None


def groups(files: list[Path]) -> list[list[Path]]:
    """The files by suffix (no suffix is a group too), so each format is fuzzed as often as the others."""
    by: dict[str, list[Path]] = defaultdict(list)
    for f in files:
        by[_suffix(f)].append(f)
    return [by[k] for k in sorted(by)]


def build_case(rnd: random.Random, files: list[Path], cache: dict[Path, bytes], kind: str, base: Path,
               index: int) -> Case:
    """Mutate ``base`` with ``kind``, every choice made by ``rnd``; ``files`` give the spliced parts."""
    data = cache.setdefault(base, base.read_bytes())
    suffix = _suffix(base)
    mail = suffix in MAIL_SUFFIXES and (data[:5] == b"From " or b":" in data[:200])
    detail = ""
    if kind == "flip":
        data, detail = _flip(data, rnd)
    elif kind == "truncate":
        data, detail = _truncate(data, rnd)
    elif kind == "splice":
        other = files[rnd.randrange(len(files))]
        data, detail = _splice(data, rnd, cache.setdefault(other, other.read_bytes()), other.name)
    elif kind == "big header":
        data, detail = _big_header(data, rnd, mail)
    elif kind == "nest":
        data, detail, suffix = _nest(data, rnd, base.name, mail)
    else:
        wrong = _lengths(data, rnd)
        if wrong is None:
            data, detail = _flip(data, rnd)
            detail = "not PDF/ZIP: flip " + detail
        else:
            data, detail = wrong
    name = f"fuzz{index}{suffix}" if rnd.random() >= 0.1 else f"fuzz{index}"  # 10%: no suffix, sniffed
    return Case(base=f"{base.parent.name}/{base.name}", kind=kind, detail=detail, name=name, data=data)


def cases(files: list[Path]) -> Any:
    """A Hypothesis strategy of :class:`Case`: a file, a mutation kind, and a seeded Random for the rest."""
    from hypothesis import strategies as st

    cache: dict[Path, bytes] = {}
    counter = iter(range(10 ** 12))
    by_suffix = groups(files)

    @st.composite
    def case(draw: Any) -> Case:
        group = draw(st.sampled_from(by_suffix))
        base = group[draw(st.integers(0, len(group) - 1))]
        return build_case(draw(st.randoms(use_true_random=False)), files, cache, draw(st.sampled_from(KINDS)),
                          base, next(counter))

    return case()


# --- running one input ---

def _vm_hwm_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _reset_hwm() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


def _crash(where: str, exc: Exception) -> str:
    return f"{where}: {type(exc).__name__}: {exc}"[:300] + "\n" + traceback.format_exc(limit=-4)


def run_case(case: Case, folder: Path, limits: Any) -> Outcome:
    """Read ``case`` with ``extract`` and ``parse_message``; never raises (but Hang/TimeUp)."""
    from assistant.documents import extract, isolate
    from assistant.documents.mime.parse import parse_message
    from assistant.errors import InputError

    path = folder / case.name
    path.write_bytes(case.data)
    isolate.last_child_peak_kb = 0
    _reset_hwm()
    before = _vm_hwm_mb()
    outcome, reason = "read", ""
    t0 = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, limits.max_seconds + 10)
    try:
        try:
            doc = extract(path, limits=limits)
            reason = "; ".join(doc.problems)[:300]
        except InputError as exc:
            outcome, reason = "reported", exc.reason[:300]
        except Exception as exc:  # noqa: BLE001  (what the fuzzing is looking for)
            outcome, reason = "crash", _crash("extract", exc)
        try:
            parse_message(case.data)
        except Exception as exc:  # noqa: BLE001
            outcome, reason = "crash", _crash("parse_message", exc)
    except Hang:
        outcome, reason = "hang", f"over {limits.max_seconds + 10:g} s"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        path.unlink(missing_ok=True)
    seconds = time.perf_counter() - t0
    peak = max(_vm_hwm_mb(), isolate.last_child_peak_kb / 1024)
    return Outcome(case.base, case.kind, case.detail, case.name, len(case.data), outcome, reason, seconds, peak,
                   max(_vm_hwm_mb() - before, 0.0))


def fuzz(files: list[Path], seconds: float, seed: int, limits: Any, on_result: Any = None,
         max_examples: int = 10 ** 9) -> list[Outcome]:
    """Run seeded Hypothesis-generated cases until ``seconds`` pass or ``max_examples`` ran."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    results: list[Outcome] = []
    deadline = time.monotonic() + seconds
    previous = signal.signal(signal.SIGALRM, _alarm)

    with tempfile.TemporaryDirectory(prefix="fuzz-readers-") as tmp:
        @hseed(seed)
        @settings(max_examples=max_examples, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck), derandomize=False, report_multiple_bugs=False)
        @given(cases(files))
        def one(case: Case) -> None:
            if time.monotonic() > deadline:
                raise TimeUp()
            result = run_case(case, Path(tmp), limits)
            results.append(result)
            if on_result:
                on_result(result)

        try:
            one()
        except TimeUp:
            pass
        finally:
            signal.signal(signal.SIGALRM, previous)
    return results


# --- the report ---

def isolation_overhead(files: list[Path], repeats: int = 15) -> dict[str, float]:
    """Median ms of reading the smallest PDF in its child process vs in-process, and of a small text file."""
    import statistics

    from assistant.documents import Limits, extract
    from assistant.documents.pdf import PdfExtractor

    limits = Limits()
    pdf = min((p for p in files if p.suffix.lower() == ".pdf"), key=lambda p: p.stat().st_size)
    txt = min((p for p in files if p.suffix.lower() == ".txt"), key=lambda p: p.stat().st_size)

    def timed(path: Path) -> float:
        runs = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            try:
                extract(path, limits=limits)
            except Exception:  # noqa: BLE001  (an unreadable sample still measures the cost)
                pass
            runs.append((time.perf_counter() - t0) * 1000)
        return statistics.median(runs)

    timed(pdf)  # starts the fork server
    child = timed(pdf)
    PdfExtractor.isolate = False
    try:
        inproc = timed(pdf)
    finally:
        PdfExtractor.isolate = True
    return {"pdf": pdf.name, "pdf_child_ms": child, "pdf_in_process_ms": inproc, "txt": txt.name,
            "txt_ms": timed(txt)}


def _load() -> str:
    import os

    return f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def report(results: list[Outcome], args: argparse.Namespace, overhead: dict[str, Any], elapsed: float) -> str:
    totals = Counter(r.outcome for r in results)
    by_kind: dict[str, list[Outcome]] = defaultdict(list)
    by_reader: dict[str, list[Outcome]] = defaultdict(list)
    for r in results:
        by_kind[r.kind].append(r)
        by_reader[Path(r.name).suffix or "(no suffix: sniffed)"].append(r)
    slowest = max(results, key=lambda r: r.seconds)
    biggest = max(results, key=lambda r: r.peak_rss_mb)

    def row(name: str, rs: list[Outcome]) -> str:
        c = Counter(r.outcome for r in rs)
        return (f"| {name} | {len(rs):,} | {c['read']:,} | {c['reported']:,} | {c['crash']:,} | {c['hang']:,} | "
                f"{max(r.seconds for r in rs):.2f} | {max(r.peak_rss_mb for r in rs):.0f} | "
                f"{max(r.growth_mb for r in rs):.0f} |")

    head = ("| {} | inputs | read | reported | crash | hang | slowest (s) | peak RSS (MB) | RSS growth (MB) |\n"
            "|---|---|---|---|---|---|---|---|---|")
    lines = [
        "# Fuzzing the readers", "",
        f"`python benchmarks/fuzz_readers.py --seconds {args.seconds:g} --seed {args.seed}` on "
        f"{platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}: "
        f"{len(results):,} inputs in {elapsed / 60:.1f} min from {len(corpus(args.data)):,} real files under "
        f"`shared/data/{{docs,emails}}`, mutated by a seeded Hypothesis strategy; each through `extract` "
        f"(PDF, Office, archives in a child process, limits {args.file_seconds:g} s and {args.file_mb:,} MB) "
        f"and `parse_message`. Peak RSS: the reading process or its reader child, whichever is larger. "
        f"Load average at the end: {_load()} (times scale with it).", "",
        "## Totals", "",
        "| inputs | read | reported | crash | hang | slowest input (s) | peak RSS (MB) | RSS growth (MB) |",
        "|---|---|---|---|---|---|---|---|",
        f"| {len(results):,} | {totals['read']:,} | {totals['reported']:,} | {totals['crash']:,} | "
        f"{totals['hang']:,} | {slowest.seconds:.2f} | {biggest.peak_rss_mb:.0f} | "
        f"{max(r.growth_mb for r in results):.0f} |", "",
        "RSS growth: the reading process's peak during the input minus its RSS before it (in-process readers).", "",
        f"Slowest: {slowest.name} ({slowest.kind}, {slowest.detail}, from {slowest.base}, {slowest.size:,} bytes): "
        f"{slowest.outcome}{' - ' + slowest.reason.splitlines()[0][:160] if slowest.reason else ''}.",
        f"Largest peak RSS: {biggest.name} ({biggest.kind}, {biggest.detail}, from {biggest.base}).", "",
        "## By mutation", "", head.format("mutation"),
        *[row(k, by_kind[k]) for k in KINDS if by_kind.get(k)], "",
        "## By reader (the name the input was read as)", "", head.format("suffix"),
        *[row(k, v) for k, v in sorted(by_reader.items())], "",
        "## Cost of the child process", "",
        "| case | median ms (15 runs) |", "|---|---|",
        f"| {overhead['pdf']} in its child process (fork server warm) | {overhead['pdf_child_ms']:.1f} |",
        f"| {overhead['pdf']} in-process | {overhead['pdf_in_process_ms']:.1f} |",
        f"| {overhead['txt']} (plain text: always in-process) | {overhead['txt_ms']:.2f} |", "",
        "## Most frequent reasons reported", "", "| reason (numbers removed) | inputs |", "|---|---|",
    ]
    reasons = Counter(re.sub(r"\d[\d,.]*", "N", r.reason.split(" (")[0])[:90]
                      for r in results if r.outcome == "reported")
    lines += [f"| {reason.replace('|', '/')} | {n:,} |" for reason, n in reasons.most_common(15)]
    bad = [r for r in results if r.outcome in ("crash", "hang")]
    lines += ["", "## Crashes and hangs", ""]
    if not bad:
        lines.append("None.")
    for r in bad[:30]:
        lines.append(f"- {r.outcome}: {r.name} ({r.kind}, {r.detail}, from {r.base}): "
                     f"`{r.reason.splitlines()[0][:200]}`")
    return "\n".join(lines) + "\n"


def refused_inputs() -> str:
    """Time, RSS growth and message for the big inputs of the limits table (made cheaply: a sparse file, empty ZIP
    members, empty PDF pages), and a 20 MB mbox read whole to show that memory follows the text, not the file."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_reader_limits import many_page_pdf

    from assistant.documents import Limits, extract, isolate
    from assistant.errors import InputError

    rows = []
    with tempfile.TemporaryDirectory(prefix="refused-") as tmp:
        folder = Path(tmp)
        mbox = folder / "archive-2gb.mbox"
        with mbox.open("wb") as f:
            f.write(b"From a@example.org Mon Jan  1 00:00:00 2024\nSubject: hi\n\nhello\n")
            f.truncate(2 * 1024 ** 3)
        pdf = many_page_pdf(folder / "report-10000p.pdf", 10_000)
        zipped = folder / "members-50000.zip"
        with zipfile.ZipFile(zipped, "w") as archive:
            for i in range(50_000):
                archive.writestr(f"m{i}.txt", b"")
        big = folder / "mail-20mb.mbox"
        with big.open("wb") as f:
            for i in range(10_000):
                f.write(b"From a@example.org Mon Jan  1 00:00:00 2024\nSubject: note %d\n\n" % i
                        + b"Line of the message body with some words in it.\n" * 40 + b"\n")
        for path in (mbox, pdf, zipped, big):
            isolate.last_child_peak_kb = 0
            _reset_hwm()
            before = _vm_hwm_mb()
            t0 = time.perf_counter()
            try:
                doc = extract(path, limits=Limits())
                result = f"read: {len(doc.text):,} characters"
            except InputError as exc:
                result = exc.reason
            seconds = time.perf_counter() - t0
            rows.append(f"| {path.name} ({path.stat().st_size / 1e6:,.0f} MB) | {result} | {seconds:.2f} | "
                        f"{max(_vm_hwm_mb() - before, 0):.0f} | {isolate.last_child_peak_kb / 1024:.0f} |")
    return "\n".join(["## Limits: refused inputs", "",
                      "| input | what the person sees | seconds | RSS growth here (MB) | reader child peak RSS (MB) |",
                      "|---|---|---|---|---|", *rows]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz (default 60)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--file-seconds", type=float, default=20.0, help="Limits.max_seconds per file")
    parser.add_argument("--file-mb", type=int, default=1024, help="Limits.max_memory_mb per file")
    parser.add_argument("--out", type=Path, help="write OUT.md and OUT.json")
    parser.add_argument("--refused-only", action="store_true",
                        help="only the refused-inputs table (to OUT-limits.md with --out)")
    args = parser.parse_args()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))

    from assistant.documents import Limits

    if args.refused_only:
        overhead = isolation_overhead(corpus(args.data), repeats=31)
        table = refused_inputs() + "\n".join([
            "", "## Cost of the child process", "", "| case | median ms (31 runs) |", "|---|---|",
            f"| {overhead['pdf']} in its child process (fork server warm) | {overhead['pdf_child_ms']:.1f} |",
            f"| {overhead['pdf']} in-process | {overhead['pdf_in_process_ms']:.1f} |",
            f"| {overhead['txt']} (plain text: always in-process) | {overhead['txt_ms']:.2f} |"]) + "\n"
        print(table)
        if args.out:
            args.out.with_name(args.out.name + "-limits.md").write_text(
                f"# Limits a person can see\n\n`python benchmarks/fuzz_readers.py --refused-only` on "
                f"{platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}, "
                f"default limits, load average {_load()} (times scale with it).\n\n" + table)
        return
    files = corpus(args.data)
    if not files:
        sys.exit(f"no files under {args.data}/{{docs,emails}}")
    limits = Limits(max_seconds=args.file_seconds, max_memory_mb=args.file_mb)
    overhead = isolation_overhead(files)
    counts: Counter[str] = Counter()

    def progress(r: Outcome) -> None:
        counts[r.outcome] += 1
        if r.outcome in ("crash", "hang"):
            print(f"{r.outcome}: {r.name} {r.kind} {r.detail} from {r.base}: {r.reason}", file=sys.stderr)
        if sum(counts.values()) % 100 == 0:
            print(f"{sum(counts.values())} inputs: {dict(counts)}", file=sys.stderr, flush=True)

    t0 = time.monotonic()
    results = fuzz(files, args.seconds, args.seed, limits, progress)
    text = report(results, args, overhead, time.monotonic() - t0)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.with_suffix(".md").write_text(text)
        summary = {"seed": args.seed, "seconds": args.seconds, "inputs": len(results),
                   **{k: sum(r.outcome == k for r in results) for k in OUTCOMES},
                   "slowest_s": max(r.seconds for r in results),
                   "peak_rss_mb": max(r.peak_rss_mb for r in results), "overhead": overhead}
        args.out.with_suffix(".json").write_text(json.dumps(
            {"summary": summary, "inputs": [asdict(r) for r in results]}, indent=1))


if __name__ == "__main__":
    main()
