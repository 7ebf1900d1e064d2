"""Start-up as a person sees it: whole ``assistant`` commands timed as processes, before and after.

Each command runs as a fresh process (``python -c`` running ``assistant.cli.main``, exactly what the
``assistant`` script runs) with a hook that stamps every progress event on a pipe of its own; times are
wall-clock from spawning the process. Measured per checkout:

- ``--help``: the command line alone (imports);
- first stage: from the command to the first pipeline stage (``route``: files read, chunked and
  indexed, models loaded), ``ask`` with the bundled 1.5B LLM on the README's sample file (181k tokens)
  and on a ~1M-token text;
- cold retrieval at 1M and 4M tokens: chunk + BM25 index (from the tokenizer being ready and the file read to
  the index built) + pre-filter + conditional re-rank, wall time as they ran in the command (models
  loading beside them included);
- follow-up retrieval: pre-filter + re-rank of the second question of ``chat`` on the same text (``--fast``
  LLM: the reader does not take part in retrieval);
- peak RSS: ``ru_maxrss`` of the process (``os.wait4``). Each ``ask`` is stopped at its first answer
  token (``--max-rewrites 0``): everything is loaded and the answer prompt prefilled by then.

The ~1M-token text is cut from the HotpotQA haystack padded with NQ passages and essays (as in
``benchmarks/scale.py``) and written to a temporary file.

    .venv/bin/python benchmarks/startup.py --before /tmp/startup-before --out benchmarks/results/startup.md

``--before`` names another checkout (``git worktree add /tmp/startup-before COMMIT``) run with the same
interpreter, side by side with this one.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHARS_PER_TOKEN = 4.6  # measured on this haystack (see benchmarks/scale.py)
SAMPLE = ROOT / "resources" / "samples" / "supply-agreement.md"
QUESTION = "What is the penalty for late delivery?"
FOLLOW_UP = "Who wrote the essay about startups?"

# Runs in the measured process: stamps each progress event on its own pipe (llama.cpp silences stdout and
# stderr while a model loads), then runs the command line unchanged.
CHILD = """
import os, sys, time
stamps = os.fdopen(int(os.environ["STARTUP_STAMPS_FD"]), "w", buffering=1)
import assistant.progress as progress
from assistant.records import Progress, TokenText
shown = progress.TerminalRenderer.__call__
def stamp_tokenizer():  # chunking starts once the tokenizer is there (it sends no start event)
    import assistant.service as service
    load = service.ModelStore.tokenizer
    def tokenizer(self):
        value = load(self)
        stamps.write(f"@@ {time.time():.4f} tokenizer 1 1\\n")
        return value
    service.ModelStore.tokenizer = tokenizer
def stamped(self, event):
    if isinstance(event, Progress) and event.stage == "read" and event.done == 0:
        stamp_tokenizer()
    if isinstance(event, Progress):
        stamps.write(f"@@ {time.time():.4f} {event.stage} {event.done} {event.total}\\n")
    elif isinstance(event, TokenText):
        stamps.write(f"@@ {time.time():.4f} token 0 0\\n")
    return shown(self, event)
progress.TerminalRenderer.__call__ = stamped
from assistant.cli import main
sys.argv[0] = "assistant"
sys.exit(main())
"""


@dataclass
class Run:
    """One process: its stamped events (seconds from spawn), wall time, peak RSS and exit."""

    events: list[tuple[float, str, int, int]] = field(default_factory=list)
    wall_s: float = 0.0
    rss_mb: float = 0.0
    cpu_s: float = 0.0
    code: int = 0
    tail: str = ""

    def first(self, stage: str, after: float = 0.0) -> float | None:
        return next((t for t, s, _, _ in self.events if s == stage and t >= after), None)

    def span(self, stage: str, after: float = 0.0) -> float:
        """Seconds from the first event of ``stage`` (at or after ``after``) to its end (done == total)."""
        start = self.first(stage, after)
        if start is None:
            return 0.0
        end = next((t for t, s, d, n in self.events if s == stage and t >= start and n and d >= n), start)
        return end - start


def run(checkout: Path, args: list[str], *, stdin: str = "", stop_at_token: int = 0, stop_at: str = "") -> Run:
    """Run ``assistant ARGS`` from ``checkout``; stop it at its ``stop_at_token``-th answer or when stage
    ``stop_at`` starts (neither: let it end)."""
    read_end, write_end = os.pipe()
    env = {**os.environ, "PYTHONPATH": str(checkout), "HF_HUB_OFFLINE": "1", "STARTUP_STAMPS_FD": str(write_end)}
    err = tempfile.TemporaryFile("w+")
    t0 = time.time()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, *args], cwd=checkout, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err, pass_fds=(write_end,))
    os.close(write_end)
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    result, answers, last_stage = Run(), 0, ""
    for line in os.fdopen(read_end):
        _, stamp, stage, done, total = line.split()
        result.events.append((float(stamp) - t0, stage, int(done), int(total)))
        if stage == stop_at:
            proc.send_signal(signal.SIGTERM)
            break
        if stage == "token" and last_stage != "token":
            answers += 1
            if answers == stop_at_token:
                proc.send_signal(signal.SIGTERM)
                break
        last_stage = stage
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    result.wall_s = time.time() - t0
    result.rss_mb = usage.ru_maxrss / 1024
    result.cpu_s = usage.ru_utime + usage.ru_stime
    result.code = proc.returncode
    err.seek(0)
    result.tail = "".join(err.read().splitlines(keepends=True)[-20:])
    err.close()
    return result


def haystack_file(data: Path, tokens: int, folder: Path) -> Path:
    """A text of about ``tokens`` MiniLM tokens from the evaluation haystack."""
    sys.path.insert(0, str(ROOT))
    from assistant.eval.filler import essays, nq_passages
    from assistant.eval.hotpot import build_haystack

    base = build_haystack(data, extra_texts=nq_passages(data) + essays(data)).document.text
    chars = int(tokens * CHARS_PER_TOKEN)
    path = folder / f"haystack-{tokens}.txt"
    path.write_text((base * (chars // len(base) + 1))[:chars], encoding="utf-8")
    return path


def cold_retrieval(cold: Run) -> tuple[float, float]:
    """(chunk + index, cold retrieval) seconds of a cold ``ask``."""
    index_end = (cold.first("index") or 0.0) + cold.span("index")
    chunk_index = index_end - max(cold.first("tokenizer") or 0.0, _read_end(cold))
    return chunk_index, chunk_index + cold.span("prefilter") + cold.span("conditional")


def measure(checkout: Path, big: Path, follow_up: bool = True, repeats: int = 3,
            huge: Path | None = None) -> dict[str, float]:
    """The figures of one checkout (the follow-up only with ``follow_up``: the median of ``repeats`` chats,
    since a half-second stage is the noisiest figure on a shared machine)."""
    row: dict[str, float] = {}
    help_run = run(checkout, ["--help"])
    row["help_s"] = help_run.wall_s
    ask = ["ask", "--max-rewrites", "0"]
    small = run(checkout, [*ask, str(SAMPLE), QUESTION], stop_at="generate")
    row["first_stage_small_s"] = small.first("route") or float("nan")
    row["cpu_small_s"] = small.cpu_s
    cold = run(checkout, [*ask, str(big), QUESTION], stop_at_token=1)
    _check(cold, "ask 1M")
    row["first_stage_1m_s"] = cold.first("route") or float("nan")
    row["chunk_index_1m_s"], row["cold_retrieval_1m_s"] = cold_retrieval(cold)
    row["rss_1m_mb"] = cold.rss_mb
    row["cpu_1m_s"] = cold.cpu_s
    row["cold_retrieval_4m_s"] = float("nan")
    if huge is not None:
        larger = run(checkout, [*ask, str(huge), QUESTION], stop_at_token=1)
        _check(larger, "ask 4M")
        row["cold_retrieval_4m_s"] = cold_retrieval(larger)[1]
    row["follow_up_retrieval_s"] = float("nan")
    if not follow_up:
        return row
    spans = []
    for _ in range(max(1, repeats)):
        chat = run(checkout, ["chat", "--fast", "--max-rewrites", "0", "--no-router", str(big)],
                   stdin=f"{QUESTION}\n{FOLLOW_UP}\n", stop_at_token=2)
        _check(chat, "chat 1M")
        first_answer = chat.first("token") or 0.0
        spans.append(chat.span("prefilter", first_answer) + chat.span("conditional", first_answer))
    row["follow_up_retrieval_s"] = statistics.median(spans)
    row["follow_up_runs"] = spans  # type: ignore[assignment]
    return row


def _read_end(result: Run) -> float:
    return max((t for t, s, d, n in result.events if s == "read" and n and d >= n), default=0.0)


def _check(result: Run, what: str) -> None:
    if not any(s == "token" for _, s, _, _ in result.events):
        raise SystemExit(f"{what} gave no answer (exit {result.code}):\n{result.tail}")


ROWS = [
    ("help_s", "`assistant --help` (imports only), s", None),
    ("first_stage_small_s", "command to first stage, README sample (181k tokens), s", 4.0),
    ("cpu_small_s", "CPU time of that command up to the answer stage (user + system), s", None),
    ("first_stage_1m_s", "command to first stage, 1M tokens, s", None),
    ("chunk_index_1m_s", "chunk + BM25 index, 1M tokens, s", None),
    ("cold_retrieval_1m_s", "**cold retrieval, 1M tokens** (chunk + index + pre-filter + re-rank), s", 3.0),
    ("cold_retrieval_4m_s", "**cold retrieval, 4M tokens**, s", 10.0),
    ("follow_up_retrieval_s", "**follow-up retrieval** (pre-filter + re-rank, median of the chats), s", 0.5),
    ("rss_1m_mb", "**peak RSS**, ask at 1M tokens with the bundled models, MB", 3072.0),
    ("cpu_1m_s", "CPU time of the 1M-token ask up to its first answer token, s", None),
]


def table(results: dict[str, dict[str, float]]) -> str:
    names = list(results)
    lines = ["| measure | target | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for key, label, target in ROWS:
        goal = "" if target is None else (f"< {target / 1024:.0f} GB" if key == "rss_1m_mb" else f"< {target:g}")
        cells = [f"{results[n][key]:,.0f}" if key == "rss_1m_mb" else f"{results[n][key]:.2f}" for n in names]
        lines.append(f"| {label} | {goal} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--before", type=Path, help="another checkout to measure first (e.g. a git worktree)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--large-tokens", type=int, default=4_000_000, help="the second cold ask's size (0: none)")
    ap.add_argument("--no-follow-up", action="store_true", help="skip the chat runs (the slowest)")
    ap.add_argument("--repeats", type=int, default=3, help="chats per checkout for the follow-up (median)")
    args = ap.parse_args()
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="startup-") as tmp:
        big = haystack_file(args.data, args.tokens, Path(tmp))
        huge = haystack_file(args.data, args.large_tokens, Path(tmp)) if args.large_tokens else None
        if args.before:
            results["before"] = measure(args.before, big, not args.no_follow_up, args.repeats, huge)
            print("before:", results["before"], flush=True)
        results["after" if args.before else "this checkout"] = measure(ROOT, big, not args.no_follow_up, args.repeats,
                                                                       huge)
    load = os.getloadavg()
    runs = "".join(f"Follow-up retrieval of each chat, {name}: "
                   + ", ".join(f"{x:.2f}" for x in row["follow_up_runs"]) + " s.  \n"  # type: ignore[attr-defined]
                   for name, row in results.items() if "follow_up_runs" in row)
    runs += "\n" if runs else ""
    text = (f"# Start-up, whole commands as processes ({platform.machine()}, Python {platform.python_version()}, "
            f"{os.cpu_count()} cores)\n\n"
            f"Command: `python benchmarks/startup.py {' '.join(sys.argv[1:])}`  \n"
            f"Load average at the end: {load[0]:.1f} on {os.cpu_count()} cores (the measured commands use both "
            "cores themselves): single runs, so wall times are noisy; CPU times are steadier.\n\n"
            + table(results) + "\n\n" + runs + "\n\n".join(__doc__.split("\n\n")[1:3]) + "\n")
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
