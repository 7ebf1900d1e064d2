"""Time and peak memory of the gist a new message's attachment gets (``assistant.gist.gist_message``).

Each document is attached to a message and gisted in a child process of its own, so that its peak resident
memory (``ru_maxrss``) is that of one gist: the sample contract (``resources/samples/supply-agreement.md``)
and ``--pdfs`` real contracts from the shared data's CUAD PDFs (those at the 10th, 50th and 90th percentile of
file size). The child loads the reader and the tokenizer first (timed apart: the app has them loaded once),
then reads the attachment and writes the line (``gist s``: reading, chunking, the reading plan and the one
model call). It runs at normal priority: the app runs it at the lowest, which on a busy machine only waits.

    .venv/bin/python benchmarks/gist_on_arrival.py [--llm bundled] [--pdfs 3] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = Path(os.environ.get("ASSISTANT_TEST_DATA", ROOT.parent / "shared" / "data"))
SAMPLE = ROOT / "resources" / "samples" / "supply-agreement.md"


def rss_mb() -> float:
    """This process's resident memory now, in MiB (Linux ``/proc``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def one(path: Path, llm: str) -> dict[str, object]:
    """Gist ``path`` as the attachment of a message, in this process; the figures as a dict."""
    from assistant.config import ModelSettings, Settings
    from assistant.documents.mime.parse import parse_message
    from assistant.gist import gist_message
    from assistant.service import ModelStore

    store = ModelStore(Settings(models=ModelSettings(llm=llm)))
    t0 = time.perf_counter()
    store.generator()
    store.tokenizer()
    load_s = time.perf_counter() - t0
    loaded_mb = rss_mb()
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "Bob <bob@example.org>", "alice@example.org", "Agreement"
    m.set_content("Please find the agreement attached.")
    kind = ("application", "pdf") if path.suffix.lower() == ".pdf" else ("text", "markdown")
    m.add_attachment(path.read_bytes(), maintype=kind[0], subtype=kind[1], filename=path.name)
    t0 = time.perf_counter()
    gist = gist_message(store, parse_message(m.as_bytes()), "bench:INBOX:1")
    gist_s = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"file": path.name, "bytes": path.stat().st_size, "load_s": round(load_s, 2), "gist_s": round(gist_s, 2),
            "loaded_mb": round(loaded_mb), "peak_mb": round(peak_mb), "prompt_tokens":
            sum(u.prompt_tokens for u in store.generator().usage), "line": gist.text if gist else "",
            "sources": [s.where() for s in gist.sources] if gist else []}


def pdfs(n: int) -> list[Path]:
    """``n`` CUAD PDFs spread over the sizes (10th, 50th and 90th percentile first)."""
    folder = DATA / "cuad" / "pdf"
    if not folder.is_dir() or n <= 0:
        return []
    files = sorted(folder.glob("*.pdf"), key=lambda p: (p.stat().st_size, p.name))
    picks = [0.1, 0.5, 0.9, 0.3, 0.7][:n]
    return [files[min(len(files) - 1, int(q * len(files)))] for q in picks]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--llm", default="bundled", help="the reader (models.llm): bundled, fast or a GGUF path")
    parser.add_argument("--pdfs", type=int, default=3, help="how many CUAD PDFs (0: the sample alone)")
    parser.add_argument("--out", type=Path, help="also write the table (Markdown) here")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.llm)))
        return
    documents = [SAMPLE, *pdfs(args.pdfs)]
    load_before = os.getloadavg()
    rows = []
    for path in documents:
        child = subprocess.run([sys.executable, __file__, "--one", str(path), "--llm", args.llm], capture_output=True,
                               text=True, check=False)
        if child.returncode != 0:
            print(f"{path.name}: failed\n{child.stderr[-2000:]}", file=sys.stderr)
            continue
        rows.append(json.loads(child.stdout.strip().splitlines()[-1]))
        print(f"{path.name}: {rows[-1]['gist_s']} s", file=sys.stderr, flush=True)
    load_after = os.getloadavg()
    lines = [f"Gist on arrival, reader `{args.llm}`, {os.cpu_count()} cores; load average (1, 5, 15 min) "
             f"{', '.join(f'{x:.1f}' for x in load_before)} before and {', '.join(f'{x:.1f}' for x in load_after)} "
             "after (other work shared the cores).", "",
             "| attachment | size | gist s | model load s | RSS after load MiB | peak RSS MiB | prompt tokens |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {str(r['file'])[:48]} | {int(r['bytes']) // 1024} KiB | {r['gist_s']} | {r['load_s']} | "
                     f"{r['loaded_mb']} | {r['peak_mb']} | {r['prompt_tokens']} |")
    lines += ["", "The lines:", ""] + [f"- {r['file']}: {r['line']} (sources: {', '.join(r['sources'])})" for r in rows]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(f"# Gist on arrival\n\n`{' '.join(['benchmarks/gist_on_arrival.py', *sys.argv[1:]])}`"
                            f"\n\n{text}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
