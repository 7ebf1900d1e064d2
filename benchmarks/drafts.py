"""Draft replies grounded in the sample contract: emails asking 1-3 questions about
it, and emails asking what it does not say.

    .venv/bin/python benchmarks/drafts.py [--limit N] [--out benchmarks/results/drafts]

Per email: the points answered right (an expected value, or an alias, in the draft body), numbers stated
that are in neither the email nor the passages the answers cite ("invented"), whether a point the
contract does not answer is said to be not stated, and the seconds to a finished draft (warm models).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import Settings
from assistant.documents import read_many
from assistant.eval.metrics import normalize
from assistant.eval.report import machine, write
from assistant.service import ModelStore, Session
from assistant.ttrag.compute.draft import Draft, write_draft

HERE = Path(__file__).resolve().parent
CONTRACT = HERE.parent / "resources" / "samples" / "supply-agreement.md"
_NUMBER = re.compile(r"\d[\d,.]*\d|\d")
_LIST_NUMBER = re.compile(r"^\d+\. ", re.M)
_NOT_STATED = re.compile(r"does not (say|state|specify|mention|cover)|doesn't (say|state|specify|mention)|not stated|"
                         r"no information|not (specified|mentioned|covered)", re.I)


def invented_numbers(draft: Draft, email_text: str) -> list[str]:
    """Numbers in the draft body that stand neither in the email nor in a passage an answer cites."""
    ctx_text = email_text + " " + " ".join(p.answer.text for p in draft.points if p.answer.found)
    ctx_text += " " + " ".join(s.snippet for p in draft.points for s in p.answer.sources)
    known = {n.replace(",", "") for n in _NUMBER.findall(ctx_text)}
    body = _LIST_NUMBER.sub("", draft.body)  # "1. ", "2. " number the points; they state nothing
    return [n for n in _NUMBER.findall(body) if n.replace(",", "").rstrip(".") not in known]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=0, help="emails (0 = all 20)")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "drafts")
    args = ap.parse_args()
    rows = [json.loads(x) for x in (HERE / "data" / "draft-emails.jsonl").read_text().splitlines() if x.strip()]
    rows = rows[:args.limit] if args.limit else rows
    store = ModelStore(Settings())
    session = Session(store, read_many([CONTRACT]).documents)
    models = store.models()
    results = []
    for row in rows:
        email_text = f"From: Bob Miller <bob@norhaven.example>\nSubject: {row['subject']}\n\n{row['body']}"
        calls = len(models.generator.usage)
        t0 = time.perf_counter()
        draft = write_draft(session.context, email_text, models, store.settings.pipeline, signer="Alice Meyer")
        seconds = time.perf_counter() - t0
        usage = models.generator.usage[calls:]
        body = normalize(draft.body)
        right = [any(normalize(a) in body for a in aliases) for aliases in row["expected"]]
        invented = invented_numbers(draft, email_text)
        results.append({"subject": row["subject"], "answerable": row["answerable"], "right": right,
                        "invented": invented, "not_stated_said": bool(_NOT_STATED.search(draft.body)),
                        "points": [[p.request, p.answer.found, p.answer.short_answer] for p in draft.points],
                        "seconds": seconds, "llm_calls": [[u.purpose, u.prompt_tokens, u.completion_tokens,
                                                           round(u.prefill_s, 2), round(u.total_s, 2)] for u in usage],
                        "body": draft.body})
        print(f"{row['subject']}: {sum(right)}/{len(right)} right, invented {invented}, {seconds:.0f} s", flush=True)
    asked = [r for x in results for r in x["right"]]
    unanswerable = [x for x in results if not x["answerable"]]
    secs = [x["seconds"] for x in results]
    three = [x["seconds"] for x in results if len(x["right"]) == 3]
    summary = {"points right": sum(asked) / max(1, len(asked)), "points": len(asked),
               "invented numbers": sum(len(x["invented"]) for x in results),
               "not stated said (unanswerable emails)": sum(x["not_stated_said"] for x in unanswerable) /
               max(1, len(unanswerable)), "seconds mean": sum(secs) / len(secs), "seconds max": max(secs),
               "seconds, 3-question drafts": three}
    md = ["# Drafts grounded in the sample contract", "", "Command: `.venv/bin/python benchmarks/drafts.py`  ",
          f"Machine: {machine()}  ", f"{len(results)} emails (`benchmarks/data/draft-emails.jsonl`), bundled 1.5B "
          f"model, warm. Date: {time.strftime('%Y-%m-%d')}.", "",
          "| measure | value |", "|---|---|"] + [f"| {k} | {v if not isinstance(v, float) else round(v, 3)} |"
                                                  for k, v in summary.items()]
    md += ["", "LLM calls: how many, their prompt tokens, and the seconds spent in them (prefill + decode) of the "
           "draft's seconds (the rest is retrieval and assembly).", "",
           "| email | right | invented numbers | says not stated | s | LLM calls | prompt tokens | LLM s |",
           "|---|---|---|---|---|---|---|---|"]
    md += [f"| {x['subject']} | {sum(x['right'])}/{len(x['right'])} | {', '.join(x['invented']) or '-'} | "
           f"{'yes' if x['not_stated_said'] else 'no'} | {x['seconds']:.0f} | {len(x['llm_calls'])} | "
           f"{sum(c[1] for c in x['llm_calls']):,} | {sum(c[4] for c in x['llm_calls']):.0f} |" for x in results]
    for p in write(args.out, md, {"machine": machine(), "summary": summary, "emails": results}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
