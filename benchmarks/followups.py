"""Follow-up accuracy: 21 two- and three-turn conversations over the bundled sample contract.

Every conversation opens with a self-contained question (most from the contract's facts file); the
follow-ups lean on it through pronouns ("Is there a cap on it?"), ellipsis ("And Norhaven's?") and "the
second one". Gold answers come from the facts file or were written by hand from the cited section
(``resources/samples/supply-agreement.md``). Only follow-up turns are scored: a turn is right when a gold
answer occurs in the answer shown (SQuAD-normalised containment; "not found" scores 0).

Systems (the first turn is asked once and shared):
- ``words``: each follow-up answered in the person's words (no rewrite, no carried sources);
- ``standalone``: the conversation as shipped: the standalone rewrite (one LLM call only when the question
  has a cue that it leans on earlier turns) and the last answer's passages carried into the candidates.

    .venv/bin/python benchmarks/followups.py [--limit N] [--out benchmarks/results/followups]

Writes OUT.md and OUT.json (rewritten after every conversation, so a stopped run keeps what it measured).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from statistics import mean
from typing import Any

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.eval.metrics import contains
from assistant.eval.report import machine, write
from assistant.records import Answer
from assistant.service import ModelStore, Session, read_files
from assistant.ttrag.conversation import Conversation, Turn

HERE = Path(__file__).resolve().parent
CONTRACT = HERE.parent / "resources" / "samples" / "supply-agreement.md"

# (question, gold answers or () for an unscored opening turn, where the gold stands)
Conv = list[tuple[str, tuple[str, ...], str]]
CONVERSATIONS: list[Conv] = [
    [("What is the penalty for late delivery?", (), "p. 39"),
     ("Is there a cap on it?", ("7.5%",), "facts: 9.3 Cap on Liquidated Damages")],
    [("Who is Calder's contract manager for this agreement?", (), ""),
     ("And Norhaven's?", ("Henrike Vosskamp",), "facts: 28.1"),
     ("What is her role?", ("Head of Strategic Procurement",), "facts: 28.1")],
    [("What are the payment terms for invoices?", (), ""),
     ("What interest is charged when they are paid late?", ("3.25 percentage points",), "facts: 7.3")],
    [("Which court has jurisdiction over disputes under the agreement?", (), ""),
     ("And which law governs it?", ("Netherlands",), "facts: 31.1")],
    [("How long is the initial term of the supply agreement?", (), ""),
     ("How much notice is needed to end it for convenience?", ("180 days",), "facts: 29.1")],
    [("Where will Calder's second machining plant be located?", (), ""),
     ("When is series production planned to start there?", ("third quarter of 2027",), "S8.41, by hand"),
     ("How many machining centres will it house at first?", ("ten",), "S8.41, by hand")],
    [("What is the escrow reference for the test-rig control software source code?", (), ""),
     ("Who holds the deposit?", ("Ledgerline Escrow Services",), "S3.6, by hand"),
     ("How soon must it be updated after a new software release?", ("thirty days",), "S3.6, by hand")],
    [("What is the phone number of Calder's 24-hour crisis hotline?", (), ""),
     ("Who staffs it?", ("duty manager",), "S9.6, by hand"),
     ("And how quickly do they call back?", ("thirty minutes",), "S9.6, by hand")],
    [("What is the bore diameter and tolerance for part CPC-31852-B?", (), ""),
     ("What material is it made of?", ("17-4 PH stainless steel",), "S4.58, by hand"),
     ("Which drawing is it made to?", ("DRW-83545",), "S4.58, by hand")],
    [("Where must sterile-barrier components be delivered?", (), ""),
     ("Until what time does that dock accept deliveries?", ("12:00",), "S2.2, by hand")],
    [("Which sites of the buyer receive deliveries of the products?", (), ""),
     ("What is the address of the second one?", ("Am Emsdeich 9",), "S2.2, by hand")],
    [("How far did the Joint Steering Committee decide to raise the consignment safety stock?", (), ""),
     ("At which meeting was that decided?", ("18 June 2026",), "S7.17 heading, by hand")],
    [("How long is the warranty period for the products?", (), ""),
     ("When does it start?", ("date of delivery",), "facts: 16.1")],
    [("What is the cap on each party's aggregate liability?", (), ""),
     ("How much product liability insurance must the supplier carry in addition to that?",
      ("10,000,000",), "facts: 21.1")],
    [("What is the on-time-in-full delivery target?", (), ""),
     ("And what did it actually reach in May 2026?", ("94.8%",), "S7.17, by hand")],
    [("How quickly must Calder's technical support respond to a critical field failure?", (), ""),
     ("And for a major one?", ("1 Business Day",), "S3.3 table, by hand")],
    [("Which company is the buyer under the supply agreement?", (), ""),
     ("What is its registered office address?", ("Hafenstrasse 112",), "facts: Parties")],
    [("How many scheduled quality audits per year may the buyer carry out?", (), ""),
     ("Within how many days after each quarter must it send a written summary of them?", ("sixty",),
      "26.2, by hand")],
    [("On what date was the supply agreement signed?", (), ""),
     ("And how long is its initial term?", ("five (5) years",), "facts: 3.1"),
     ("How long do its confidentiality obligations survive after it ends?", ("seven (7) years",), "facts: 19.5")],
    [("Who wrote the letter about Calder's second machining plant?", (), ""),
     ("What is her role?", ("Customer Service Lead",), "S8.41, by hand"),
     ("And who was it addressed to?", ("Niall Uhlig",), "S8.41, by hand")],
    [("What is the unit price of part CPC-20417-T?", (), ""),
     ("What material is it made of?", ("Ti-6Al-4V ELI",), "S1.3 table, by hand")],
]


def _row(question: str, gold: tuple[str, ...], answer: Answer, standalone: str, seconds: float,
         rewrite_s: float, llm_call: bool) -> dict[str, Any]:
    text = answer.text if answer.found else ""
    return {"question": question, "standalone": standalone, "gold": list(gold), "answer": answer.text,
            "found": answer.found, "correct": contains(text, gold) if gold else None, "seconds": round(seconds, 2),
            "rewrite_s": round(rewrite_s, 2), "rewrite_call": llm_call,
            "pages": [s.page for s in answer.sources]}


def run_conversation(session: Session, conv: Conv) -> dict[str, Any]:
    """Both systems over one conversation; the opening turn is asked once."""
    first, _, _ = conv[0]
    conversation = Conversation()
    t0 = time.perf_counter()
    opening = session.ask_followup(conversation, first)
    open_s = time.perf_counter() - t0
    conversation.add(opening)
    out: dict[str, Any] = {"opening": _row(first, (), opening.answer, first, open_s, 0.0, False),
                           "words": [], "standalone": []}
    for question, gold, _ in conv[1:]:
        t0 = time.perf_counter()
        answer = session.ask(question)
        out["words"].append(_row(question, gold, answer, question, time.perf_counter() - t0, 0.0, False))
        t0 = time.perf_counter()
        turn: Turn = session.ask_followup(conversation, question)
        seconds = time.perf_counter() - t0
        conversation.add(turn)
        r = turn.rewrite
        out["standalone"].append(_row(question, gold, turn.answer, turn.standalone, seconds,
                                      r.seconds if r else 0.0, bool(r and r.asked_model)))
    return out


def report(results: list[dict[str, Any]], started: str, setup: dict[str, float],
           planned: int = len(CONVERSATIONS)) -> tuple[list[str], dict[str, Any]]:
    systems = {"words": "person's words (before issue 17: no rewrite, no carried sources)",
               "standalone": "standalone rewrite + last answer's passages carried (shipped)"}
    n_turns = sum(len(r["words"]) for r in results)
    md = ["# Follow-up questions: accuracy with and without the standalone rewrite", "",
          "Command: `.venv/bin/python benchmarks/followups.py`  ",
          f"Machine: {machine()}  ",
          f"Date: {started}; {len(results)} conversations over `resources/samples/supply-agreement.md`, "
          f"{n_turns} scored follow-up turns; bundled Qwen2.5-Coder-1.5B Q4_K_M, temperature 0; "
          f"context build {setup.get('build_s', 0):.1f} s."
          + (f" **Partial run: {len(results)} of {planned} conversations** (stopped; rerun for the rest)."
             if len(results) < planned else ""), "",
          "A follow-up is right when a gold answer (facts file or written by hand from the cited section) "
          "occurs in the answer shown (SQuAD-normalised); \"not found\" scores 0. The opening turn of each "
          "conversation is asked once and shared by both systems. Seconds: end to end per follow-up turn; "
          "rewrite s: the standalone rewrite's LLM call (0 when the detector saw no reference and no call "
          "was made). The machine was shared with other jobs, so seconds are indicative.", "",
          "| system | follow-up turns | right | accuracy | not found | rewrite calls | rewrite s mean (per call) "
          "| s per turn mean |",
          "|---|---|---|---|---|---|---|---|"]
    data: dict[str, Any] = {"date": started, "machine": machine(), "setup": setup, "conversations": results,
                            "summary": {}}
    for key, label in systems.items():
        rows = [t for r in results for t in r[key]]
        if not rows:
            continue
        right = sum(bool(t["correct"]) for t in rows)
        calls = [t["rewrite_s"] for t in rows if t["rewrite_call"]]
        summary = {"turns": len(rows), "right": right, "accuracy": round(right / len(rows), 3),
                   "not_found": sum(not t["found"] for t in rows), "rewrite_calls": len(calls),
                   "rewrite_s_mean": round(mean(calls), 2) if calls else 0.0,
                   "seconds_mean": round(mean(t["seconds"] for t in rows), 2)}
        data["summary"][key] = summary
        md.append(f"| {label} | {summary['turns']} | {right} | {summary['accuracy']:.3f} | {summary['not_found']} | "
                  f"{len(calls)} | {summary['rewrite_s_mean']:.1f} | {summary['seconds_mean']:.1f} |")
    md += ["", "## Turns", "", "| # | person's words | standalone question | gold | words: answer | ok | "
           "standalone: answer | ok |", "|---|---|---|---|---|---|---|---|"]
    for i, r in enumerate(results, 1):
        md.append(f"| {i} | *{r['opening']['question']}* | (opening) | | {_cell(r['opening']['answer'])} | | | |")
        for w, s in zip(r["words"], r["standalone"], strict=True):
            md.append(f"| {i} | {w['question']} | {s['standalone'] if s['rewrite_call'] else '(no call)'} | "
                      f"{' / '.join(w['gold'])} | {_cell(w['answer'])} | {_ok(w)} | {_cell(s['answer'])} | {_ok(s)} |")
    return md, data


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())[:160]


def _ok(row: dict[str, Any]) -> str:
    return "yes" if row["correct"] else "no"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=0, help="only the first N conversations")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "followups")
    ap.add_argument("--report-only", action="store_true",
                    help="rewrite OUT.md from OUT.json (e.g. after a stopped run) without asking anything")
    args = ap.parse_args()
    if args.report_only:
        old = json.loads(args.out.with_suffix(".json").read_text(encoding="utf-8"))
        md, data = report(old["conversations"], old["date"], old["setup"])
        write(args.out, md, data)
        print("\n".join(md[:14]))
        return
    started = time.strftime("%Y-%m-%d %H:%M")
    store = ModelStore(Settings())
    t0 = time.perf_counter()
    opened = read_files([CONTRACT])
    session = Session(store, opened.documents)
    setup = {"build_s": round(time.perf_counter() - t0, 2)}
    convs = CONVERSATIONS[:args.limit] if args.limit else CONVERSATIONS
    results: list[dict[str, Any]] = []
    for i, conv in enumerate(convs, 1):
        results.append(run_conversation(session, conv))
        setup.update(store.load_seconds)
        md, data = report(results, started, setup)
        write(args.out, md, data)
        print(f"conversation {i}/{len(convs)} done", flush=True)
    print("\n".join(md[:12 + len(data["summary"])]))


if __name__ == "__main__":
    main()
