"""Does an e-mail's summary say what the message asks of its reader, and by when, and claim no ask where there
is none? The labelled mailbox of ``mail_todo.py`` (39 messages, 15 that ask), each summarised as a person asks
for it ("Summarize this email", :func:`assistant.ttrag.pipeline.ask`) three ways, side by side on the same
message (:data:`WAYS`): as shipped (``email_asks``: the ask from the latest message's own read, quoted; the
model's second point asks for the details the message gives); the same with the second point asking "what was
decided, released or agreed", as before; and before (the model's own third point for what is asked).

    .venv/bin/python benchmarks/summary_asks.py [--limit N] [--out benchmarks/results/summary-asks]

Judged by rules written before any run (:data:`ASKS`, :data:`DUE`): a message that asks is "ask stated" when a
point of its summary holds a word of what it asks (RSVP, review, slides ...); "by when" where the message
gives a date and a point holds it. A message that asks nothing is "ask claimed" when a point says it asks
(``Asks you``, or the words ask, request, please, RSVP, invite, must, should, need). Any summary claims a
decision it should not where a point says agreed, approved, decided, ordered, confirmed, accepted, signed or
scheduled in a form of the word the message's text does not hold. Every summary is written
out to be read. Halves as in ``mail_todo.py`` (SHA-1 order of the names, even ranks dev): the choice is made
on dev, the test half is reported beside it. Intervals: 95% percentile bootstrap over messages.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np
from mail_todo import DATA, load_labels, split_key  # beside this script

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.documents import read_many
from assistant.eval.metrics import bootstrap_ci
from assistant.eval.report import machine, write
from assistant.models.base import GenerationRequest
from assistant.service import ModelStore
from assistant.ttrag import prompts
from assistant.ttrag.context import build_context
from assistant.ttrag.pipeline import ask
from assistant.ttrag.prompts import SYSTEM

HERE = Path(__file__).resolve().parent
SHIPPED = prompts.SUMMARY_SLOTS["email"]
QUESTION = "Summarize this email"
#: what each message that asks asks, as words a point stating it holds (written before any run)
ASKS = {
    "emails/sa_nice/mime3": r"rsvp", "emails/sa_nice/mime5": r"mm_quiet|msplit|mcombine|split|question",
    "emails/cpython_email/msg_01.txt": r"like this message",
    "emails/unstructured_eml/family-day.eml": r"rsvp",
    "emails/unstructured_eml/email-replace-mime-encodings-error-2.eml": r"review|previous e-?mail",
    "written/w01.eml": r"review", "written/w02.eml": r"cop(y|ies)|send", "written/w03.eml": r"work for you|tuesday",
    "written/w04.eml": r"\bsign|\bnda\b", "written/w05.eml": r"servers?", "written/w06.eml": r"approv",
    "written/w07.eml": r"confirm|at home|let the engineer", "written/w08.eml": r"coming|dinner",
    "written/w09.eml": r"quote", "written/w10.eml": r"slides",
}
#: the date by which a message wants its ask done, where it gives one
DUE = {"written/w01.eml": r"27 november", "written/w04.eml": r"3 december", "written/w05.eml": r"thursday",
       "written/w08.eml": r"thursday", "written/w09.eml": r"20 november|board meet"}
CLAIMS = re.compile(r"^asks you|\b(asks?|asked|asking|requests?|requested|please|rsvp|invites?|must|should|needs?)\b",
                    re.I)
#: a point that says something was decided (agreed, approved, ordered ...) in a word the message does not hold
DECIDED = re.compile(r"\b(agree[sd]?|approved?|approves|decided?|decision|order(s|ed)?|confirm(s|ed)|accepted|"
                     r"signed|scheduled)\b", re.I)
#: the e-mail gist's points before this change: the second asked for what was decided
DECIDED_SLOTS = ("who writes and what they announce or ask", "what was decided, released or agreed",
                 "what is still open or asked of the reader")
#: a trial, not adopted: the first point asked for what the message is about, not "what they announce or ask" (a
#: request was written as an announcement: "Priya Raman announces the Q3 carrier cost breakdown"); it wrote asks
#: into messages that ask nothing instead (results/summary-asks-about.md)
ABOUT_SLOTS = ("who writes and what the message is about",
               "the details it gives: what, when and where, with names, dates and figures as written",
               "what is still open or asked of the reader")
#: way -> (``email_asks``, the e-mail gist's slots: None = as shipped)
WAYS: dict[str, tuple[bool, tuple[str, ...] | None]] = {
    "asks read": (True, None), "asks read, about slot": (True, ABOUT_SLOTS),
    "asks read, decided slot": (True, DECIDED_SLOTS), "model's point, decided slot": (False, DECIDED_SLOTS)}


def points(text: str) -> list[str]:
    """The summary's points (its bullet lines, markers and citations off)."""
    return [re.sub(r"\s*(\[\d+\])+\s*$", "", ln[2:]).strip() for ln in text.splitlines() if ln.startswith("- ")]


def judge(name: str, asks_me: bool, text: str, message: str) -> dict[str, Any]:
    """The verdicts on one summary's points; ``message`` is the text the summary was made from."""
    lines = points(text)
    held = {w.lower() for w in re.findall(r"\w+", message)}
    decided = [ln for ln in lines if any(m.group(0).lower() not in held for m in DECIDED.finditer(ln))]
    out: dict[str, Any] = {"points": len(lines), "decided": bool(decided), "decided_points": decided}
    if asks_me:
        out["stated"] = any(re.search(ASKS[name], ln, re.I) for ln in lines)
        out["announced"] = any(re.search(r"\bannounc", ln, re.I) for ln in lines)  # a request called an announcement
        if name in DUE:
            out["due"] = any(re.search(DUE[name], ln, re.I) for ln in lines)
    else:
        out["claimed"] = any(CLAIMS.search(ln) for ln in lines)
    return out


def _share(rows: list[dict[str, Any]], key: str) -> tuple[int, int, tuple[float, float, float] | None]:
    values = [float(r[key]) for r in rows if key in r]
    if not values:
        return 0, 0, None
    return int(sum(values)), len(values), bootstrap_ci(np.asarray(values))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--limit", type=int, default=0, help="at most N messages (0: all)")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "summary-asks")
    ap.add_argument("--ways", default=";".join(WAYS), help="the ways to run, separated by ; (default: all)")
    args = ap.parse_args()
    ways_run = {w: WAYS[w] for w in args.ways.split(";")}
    labels = sorted(load_labels(args.data), key=lambda r: split_key(r[0]))
    halves = {name: "dev" if i % 2 == 0 else "test" for i, (name, *_rest) in enumerate(labels)}
    labels = labels[:args.limit] if args.limit else labels
    store = ModelStore(Settings())
    tokenizer = store.tokenizer()
    models = store.models()
    models.generator.complete(GenerationRequest(SYSTEM, "Say OK.", max_tokens=2, purpose="warm-up"))
    rows: list[dict[str, Any]] = []
    for name, path, asks_me, reason in labels:
        docs = read_many([path]).documents[:1]
        if not docs:
            print(f"{name}: not read", flush=True)
            continue
        ctx = build_context(docs, tokenizer)
        row: dict[str, Any] = {"message": name, "half": halves[name], "asks_me": asks_me, "reason": reason}
        ways = list(ways_run.items())  # which runs first rotates: a later one reads the first's cached prefix
        k = len(rows) % len(ways)
        for way, (on, slots) in ways[k:] + ways[:k]:
            opts = dataclasses.replace(store.settings.pipeline, email_asks=on)
            prompts.SUMMARY_SLOTS["email"] = slots or SHIPPED
            t0 = time.perf_counter()
            answer = ask(ctx, QUESTION, models, opts)
            seconds = round(time.perf_counter() - t0, 1)
            row[way] = {"text": answer.text, "s": seconds, **judge(name, asks_me, answer.text, docs[0].text)}
        prompts.SUMMARY_SLOTS["email"] = SHIPPED
        rows.append(row)
        print(f"{name} ({'asks' if asks_me else 'no ask'}): " + " | ".join(
            f"{w} {row[w].get('stated', row[w].get('claimed'))} {row[w]['s']} s" for w in ways_run), flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    md = ["# E-mail summaries: the ask stated, by when, and no ask claimed where there is none", "",
          "Command: `.venv/bin/python benchmarks/summary_asks.py" + (f" --limit {args.limit}" if args.limit else "") +
          (f" --ways '{args.ways}'" if set(ways_run) != set(WAYS) else "") + f" --out {args.out}`  ",
          f"Commit: {commit} (plus the working tree). Machine: {machine()}. Date: {time.strftime('%Y-%m-%d %H:%M')}. "
          "Bundled 1.5B reader, default settings but ``email_asks``, warm; the ways on a message one after the "
          "other, which one first rotating (a later one reads the first's passages from the model's cache).  ",
          "**Settings chosen on:** the dev half (``email_asks``); the test half is reported beside it, read once.",
          "", "| half | measure | " + " | ".join(ways_run) + " |", "|---|---|" + "---|" * len(ways_run)]
    for half in ("dev", "test", "all"):
        part = [r for r in rows if half in ("all", r["half"])]
        for key, label in (("stated", "asks stated (messages that ask)"), ("due", "by when stated (a date given)"),
                           ("claimed", "an ask claimed (messages that ask nothing)"),
                           ("decided", "a decision claimed in words the message does not hold"),
                           ("announced", "a message that asks said to announce (a point says announces)")):
            cells = []
            for way in ways_run:
                k, n, ci = _share([r[way] for r in part], key)
                cells.append(f"{k} of {n}" + (f" ({k / n:.2f} [{ci[1]:.2f}, {ci[2]:.2f}])" if ci and n else ""))
            md.append(f"| {half} | {label} | " + " | ".join(cells) + " |")
        md.append(f"| {half} | points a summary, mean | " + " | ".join(
            f"{statistics.mean(r[w]['points'] for r in part):.2f}" if part else "-" for w in ways_run) + " |")
        md.append(f"| {half} | seconds a summary, p50 | " + " | ".join(
            f"{statistics.median(r[w]['s'] for r in part):.1f}" if part else "-" for w in ways_run) + " |")
    md += ["", "## The summaries", ""]
    for r in rows:
        md += [f"### {r['message']} ({r['half']}; {'asks' if r['asks_me'] else 'asks nothing'}: {r['reason']})", ""]
        for way in ways_run:
            verdict = {k: v for k, v in r[way].items() if k in ("stated", "due", "claimed", "decided", "announced")}
            md += [f"{way} ({r[way]['s']} s; {verdict}):", "", "```", r[way]["text"], "```", ""]
    write(args.out, md, {"machine": machine(), "commit": commit, "rows": rows})


if __name__ == "__main__":
    main()
