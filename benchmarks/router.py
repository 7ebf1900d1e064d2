"""Router accuracy: confusion matrix of the shipped router (cues first, then the LLM) against the LLM on
every request, over a labelled set of 40 requests per route with look-alikes.

    .venv/bin/python benchmarks/router.py [--llm PATH.gguf] [--out benchmarks/results/router]

Writes OUT.md and OUT.json: per system the confusion matrix, accuracy, LLM calls and seconds per request.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import assistant.models  # noqa: F401  (offline environment)
from assistant.config import ModelSettings
from assistant.eval.report import machine, write
from assistant.models import locate
from assistant.models.base import GenerationRequest, Generator
from assistant.models.llama import LlamaGenerator
from assistant.records import ROUTES
from assistant.ttrag import router
from assistant.ttrag.prompts import SYSTEM, route_prompt

HERE = Path(__file__).resolve().parent


def llm_always(generator: Generator, question: str) -> router.Decision:
    """The router as it was before the cues: an LLM call for every request, then the same checks."""
    raw = generator.complete(GenerationRequest(SYSTEM, route_prompt(question), max_tokens=64,
                                               json_schema=router.ROUTE_SCHEMA, purpose="route"))
    return router.parse_decision(raw, question)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llm", help="GGUF file (default: the bundled 1.5B model)")
    ap.add_argument("--data", type=Path, default=HERE / "data" / "router-requests.jsonl")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "router")
    args = ap.parse_args()
    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    gen = LlamaGenerator(args.llm or locate.llm_path(ModelSettings()), n_ctx=4096)
    systems = {"shipped: cues, then the LLM": router.route, "LLM on every request (before)": llm_always}
    results: dict[str, dict[str, object]] = {}
    for name, fn in systems.items():
        matrix = {t: {p: 0 for p in ROUTES} for t in ROUTES}
        calls0, seconds, wrong = len(gen.usage), [], []
        for row in rows:
            t0 = time.perf_counter()
            decision = fn(gen, row["request"])
            seconds.append(time.perf_counter() - t0)
            matrix[row["route"]][decision.route] += 1
            if decision.route != row["route"]:
                wrong.append({"request": row["request"], "label": row["route"], "got": decision.route,
                              "raw": decision.raw})
        correct = sum(matrix[r][r] for r in ROUTES)
        results[name] = {"accuracy": correct / len(rows), "matrix": matrix, "llm_calls": len(gen.usage) - calls0,
                         "s_per_request_mean": sum(seconds) / len(seconds), "s_max": max(seconds), "wrong": wrong}
        print(f"{name}: accuracy {correct}/{len(rows)}, LLM calls {len(gen.usage) - calls0}, "
              f"{sum(seconds) / len(seconds):.2f} s mean", flush=True)
    md = ["# Router: confusion matrices on the labelled requests", "",
          "Command: `.venv/bin/python benchmarks/router.py`  ", f"Machine: {machine()}  ",
          f"Data: `benchmarks/data/router-requests.jsonl`, {len(rows)} requests, 40 per route, with look-alikes "
          "(\"how many days does ...\" is question answering; \"how many times ...\" counting). Bundled 1.5B "
          f"model, warm (llama.cpp's state cache serves the router's fixed prefix). Date: {time.strftime('%Y-%m-%d')}.",
          ""]
    for name, r in results.items():
        m: dict[str, dict[str, int]] = r["matrix"]  # type: ignore[assignment]
        md += [f"## {name}", "", f"Accuracy {r['accuracy']:.3f}; LLM calls {r['llm_calls']} for {len(rows)} requests; "
               f"{r['s_per_request_mean']:.2f} s a request (max {r['s_max']:.2f} s).", "",
               "| label \\ routed to | " + " | ".join(ROUTES) + " |", "|---" * (len(ROUTES) + 1) + "|"]
        md += [f"| {t} | " + " | ".join(str(m[t][p]) for p in ROUTES) + " |" for t in ROUTES]
        wrong: list[dict[str, str]] = r["wrong"]  # type: ignore[assignment]
        if wrong:
            md += ["", "Misrouted: " + "; ".join(f"\"{w['request']}\" ({w['label']} -> {w['got']})" for w in wrong)]
        md.append("")
    for p in write(args.out, md, {"machine": machine(), "results": results}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
