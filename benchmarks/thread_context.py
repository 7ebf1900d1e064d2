"""What finding a conversation costs: the earlier messages of a reply found in the local mail cache (the draft's
extra context, :func:`assistant.mail.threads.earlier_in_cache`) and grouping a whole cache into conversations
(the message list's "Group by conversation"), for caches of several sizes.

    .venv/bin/python benchmarks/thread_context.py [--sizes 500 2000 10000] [--repeats 5]
        [--out benchmarks/results/thread_context.md]

Each cache holds N messages of ~2 KB in conversations of 5 (a first message with a 40 KB text attachment, then
4 replies with References and In-Reply-To), spread over INBOX and Sent. The reply timed is the last message of
the last conversation; its 4 earlier messages must be found (checked). Grouping is timed from parsed messages
(what the message list holds) and, separately, from the cached bytes' header blocks alone. Median and max wall
time in milliseconds. No model, no server.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from assistant.documents.mime.parse import parse_message  # noqa: E402
from assistant.mail.cache import CachedRef, FolderState, MailCache  # noqa: E402
from assistant.mail.threads import earlier_in_cache, group_threads, headers_of, read_headers  # noqa: E402

PER_THREAD = 5
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def message(i: int) -> bytes:
    thread, pos = divmod(i, PER_THREAD)
    m = EmailMessage()
    m["From"], m["To"] = f"Sender {thread} <s{thread}@example.org>", "alice@example.org"
    m["Subject"] = ("Re: " if pos else "") + f"Topic {thread}"
    m["Message-ID"] = f"<t{thread}.{pos}@example.org>"
    m["Date"] = (T0 + timedelta(minutes=i)).strftime("%a, %d %b %Y %H:%M:%S +0000")
    if pos:
        m["In-Reply-To"] = f"<t{thread}.{pos - 1}@example.org>"
        m["References"] = " ".join(f"<t{thread}.{p}@example.org>" for p in range(pos))
    m.set_content("Lorem ipsum dolor sit amet. " * 70)
    if pos == 0:
        m.add_attachment(("Figures and terms. " * 2100).encode(), maintype="text", subtype="plain",
                         filename=f"terms-{thread}.txt")
    return m.as_bytes()


def fill(root: Path, n: int) -> tuple[MailCache, str]:
    cache = MailCache(root, max_bytes=10**12)
    last = ""
    counts = {"INBOX": 0, "Sent": 0}
    for i in range(n):
        folder = "Sent" if i % PER_THREAD == 2 else "INBOX"  # one message of each conversation is ours
        counts[folder] += 1
        cache.put(CachedRef("acc", folder, 1, counts[folder]), message(i))
        last = f"acc:{folder}:{counts[folder]}"
    for folder, uid in counts.items():
        cache.set_state("acc", folder, FolderState(1, uid))
    return cache, last


def timed_ms(fn: object) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()  # type: ignore[operator]
    return (time.perf_counter() - t0) * 1000, out


def one_size(n: int, repeats: int) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="assistant-threads-") as tmp:
        cache, last = fill(Path(tmp), n)
        account, folder, uid = last.split(":")
        ref = cache.find(account, folder, int(uid))
        assert ref is not None
        reply = parse_message(cache.get(ref) or b"")
        parsed = [(r.id, parse_message(cache.get(r) or b"")) for r in cache.refs("acc")]
        found_ms, group_ms, header_ms = [], [], []
        for _ in range(repeats):
            ms, found = timed_ms(lambda: earlier_in_cache(cache, reply, last, account="acc"))
            assert len(found) == PER_THREAD - 1, len(found)  # type: ignore[arg-type]
            found_ms.append(ms)
            ms, threads = timed_ms(lambda: group_threads([headers_of(m, k) for k, m in parsed]))
            assert len(threads) == -(-n // PER_THREAD)  # type: ignore[arg-type]
            group_ms.append(ms)
            ms, _ = timed_ms(lambda: group_threads([read_headers(cache.get(r) or b"", r.id)
                                                    for r in cache.refs("acc")]))
            header_ms.append(ms)
        size_mb = cache.size() / 1024**2
        return [f"{n:,}", f"{size_mb:,.0f}",
                *(f"{statistics.median(v):,.0f} / {max(v):,.0f}" for v in (found_ms, group_ms, header_ms))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 2000, 10000])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = [one_size(n, args.repeats) for n in args.sizes]
    head = ["messages", "cache MB", "earlier messages of a reply (ms, median / max)",
            "group parsed messages (ms)", "group from cached header blocks (ms)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    table = "\n".join(lines)
    print(table)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(f"# Conversation look-ups ({args.repeats} repeats; `benchmarks/thread_context.py`)\n\n"
                            f"{table}\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
