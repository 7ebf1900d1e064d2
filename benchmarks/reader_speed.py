"""Reader speed on this machine for every catalogue reader that is here (bundled or pulled).

For each reader: load time, prefill tokens/s (a fixed ~600-token prompt of passages, no KV cache reuse),
generation tokens/s (128 tokens at temperature 0), peak RSS of a fresh process. Each reader runs in its
own subprocess so RSS is its own. Prints a markdown table; ``--out FILE`` writes it too.

    .venv/bin/python benchmarks/reader_speed.py [--only fast,bundled] [--out benchmarks/results/reader_speed.md]

Speeds depend on the load of the machine: the table records the 1-minute load average at the start.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PASSAGE = ("The supply agreement between Northwind Traders and Contoso Ltd sets the payment terms at thirty days "
           "from the date of invoice, with a late fee of one and a half percent a month. ")


def _measure(path: str, threads: int) -> dict[str, float]:
    from assistant.models.base import GenerationRequest
    from assistant.models.llama import LlamaGenerator

    t0 = time.perf_counter()
    gen = LlamaGenerator(path, n_ctx=4096, threads=threads, n_gpu_layers=None)
    load_s = time.perf_counter() - t0
    user = "Passages:\n" + PASSAGE * 16 + "\nQuestion: what are the payment terms? Answer in detail."
    list(gen.stream(GenerationRequest("You answer from the passages.", user, max_tokens=128, purpose="bench")))
    u = gen.usage[-1]
    gen_s = max(u.total_s - u.prefill_s, 1e-9)
    return {"load_s": load_s, "prompt_tokens": u.prompt_tokens, "prefill_tok_s": u.prompt_tokens / u.prefill_s,
            "completion_tokens": u.completion_tokens,
            "gen_tok_s": max(u.completion_tokens - 1, 0) / gen_s,
            "rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6}


def _readers(only: set[str] | None) -> list[tuple[str, Path]]:
    import assistant.models  # noqa: F401  (offline)
    from assistant.errors import AssistantError
    from assistant.models import catalog, locate
    from assistant.models.download import installed_path, is_installed

    out = []
    for e in catalog.load_catalog().values():
        if e.role != "reader" or (only and e.name not in only):
            continue
        try:
            if e.name == "fast":
                path = locate.fast_llm_path()
            elif e.name == "bundled":
                path = locate.bundled_llm_path()
                if not locate.verified(path):
                    continue
            elif is_installed(e):
                path = installed_path(e)
            else:
                continue
        except AssistantError:
            continue
        out.append((e.name, path))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="comma-separated catalogue names")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_measure(args.child, args.threads)))
        return 0
    load1 = os.getloadavg()[0]
    lines = [f"Reader speed here ({os.cpu_count()} cores, load average {load1:.1f} at the start; "
             "`benchmarks/reader_speed.py`)", "",
             "| reader | file | load s | prompt tokens | prefill tok/s | generation tok/s | peak RSS GB |",
             "|---|---|---|---|---|---|---|"]
    only = set(args.only.split(",")) if args.only else None
    for name, path in _readers(only):
        res = subprocess.run([sys.executable, __file__, "--child", str(path), "--threads", str(args.threads)],
                             capture_output=True, text=True, check=True)
        r = json.loads(res.stdout.strip().splitlines()[-1])
        lines.append(f"| {name} | {path.name} | {r['load_s']:.1f} | {r['prompt_tokens']:.0f} | "
                     f"{r['prefill_tok_s']:.0f} | {r['gen_tok_s']:.1f} | {r['rss_gb']:.2f} |")
        print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
