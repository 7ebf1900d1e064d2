"""Resync cost of a synced folder with QRESYNC (RFC 7162) against comparing UID sets, on a local Dovecot.

    .venv/bin/python benchmarks/mail_resync.py [--messages 2000] [--repeats 9] [--out benchmarks/results/mail_resync]

One folder of N messages (~2 KB each; bodies are not fetched again, so their size hardly matters) is synced
fully into two caches, one through a connection with QRESYNC enabled and one with it turned off (UID SEARCH
of the whole folder compared with the cached UIDs). Then, ``--repeats`` times and in alternating order:
a resync with nothing changed on the open connection (watch mode), a resync after another client deleted
5 messages, and a resync including connect and login over IMAPS (``assistant mail sync``). Median and
max wall time in milliseconds; every resync must remove exactly what the other client deleted (checked).
Needs ``dovecot`` and ``openssl`` (no model).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import ssl
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from dovecot import Dovecot  # noqa: E402

MODES = {"QRESYNC": True, "UID compare": False}
SCENARIOS = ("no change, open connection", "5 deleted, open connection", "no change, connect + login")


def message(i: int) -> bytes:
    return (f"From: Sender {i} <s{i}@example.org>\r\nTo: alice@example.org\r\nSubject: message {i}\r\n"
            f"Message-ID: <r{i}@example.org>\r\nDate: Tue, 03 Mar 2026 10:15:00 +0000\r\n\r\n" +
            "Lorem ipsum dolor sit amet. " * 70 + "\r\n").encode()


def timed(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """Wall time of ``fn(*args)`` in milliseconds, and its result."""
    t0 = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - t0) * 1000, out


class ByteCounter:
    """Counts the bytes an open connection reads from the server (wraps imaplib's ``readline``/``read``)."""

    def __init__(self, source: Any) -> None:
        self.n = 0
        imap = source.client._imap
        readline, read = imap.readline, imap.read

        def counted_readline() -> bytes:
            line = readline()
            self.n += len(line)
            return line

        def counted_read(size: int) -> bytes:
            data = read(size)
            self.n += len(data)
            return data

        imap.readline, imap.read = counted_readline, counted_read


def fresh_sync(account: Any, password: str, qresync: bool, cache: Any, folder: str) -> Any:
    """Connect, log in, resync ``folder``, log out (what ``assistant mail sync`` does)."""
    from assistant.mail.imap import ImapSource
    from assistant.mail.sync import sync_folder

    with ImapSource(account, password, qresync=qresync) as source:
        return sync_folder(source, cache, folder)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "mail_resync")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="assistant-resync-"))
    os.environ["ASSISTANT_CONFIG_DIR"] = str(work / "config")
    os.environ["ASSISTANT_DATA_DIR"] = str(work / "data")
    import imapclient

    from assistant.accounts import Account
    from assistant.eval.report import machine, write
    from assistant.mail.cache import MailCache
    from assistant.mail.imap import ImapSource
    from assistant.mail.sync import sync_folder

    rng = random.Random(args.seed)
    server = Dovecot.start()
    try:
        other = imapclient.IMAPClient("127.0.0.1", port=server.imaps_port,
                                      ssl_context=ssl.create_default_context(cafile=str(server.cert)))
        other.login(server.user, server.password)
        folder = "Bench"
        other.create_folder(folder)
        for start in range(0, args.messages, 200):
            other.multiappend(folder, [message(i) for i in range(start, min(args.messages, start + 200))])
        account = Account("bench", "127.0.0.1", server.user, port=server.imaps_port, ca_file=str(server.cert),
                          folders=(folder,))
        caches = {mode: MailCache(work / "cache" / str(i)) for i, mode in enumerate(MODES)}
        sources = {mode: ImapSource(account, server.password, qresync=q) for mode, q in MODES.items()}
        for mode, source in sources.items():
            source.connect()
            assert source.qresync is MODES[mode], f"{mode}: QRESYNC not as asked"
            result = sync_folder(source, caches[mode], folder)
            assert len(result.new_uids) == args.messages
        counters = {mode: ByteCounter(source) for mode, source in sources.items()}
        received: dict[str, dict[str, list[int]]] = {m: {s: [] for s in SCENARIOS[:2]} for m in MODES}
        times: dict[str, dict[str, list[float]]] = {m: {s: [] for s in SCENARIOS} for m in MODES}
        used: dict[str, set[str]] = {m: set() for m in MODES}
        for rep in range(args.repeats):
            order = list(MODES) if rep % 2 == 0 else list(reversed(MODES))
            for mode in order:
                before = counters[mode].n
                ms, r = timed(sync_folder, sources[mode], caches[mode], folder)
                assert r.removed_uids == () and r.new_uids == ()
                times[mode][SCENARIOS[0]].append(ms)
                received[mode][SCENARIOS[0]].append(counters[mode].n - before)
                used[mode].add(r.resync)
            other.select_folder(folder)
            gone = sorted(rng.sample(other.search(["ALL"]), 5))
            other.delete_messages(gone)
            other.expunge()
            for mode in order:
                before = counters[mode].n
                ms, r = timed(sync_folder, sources[mode], caches[mode], folder)
                assert list(r.removed_uids) == gone, (mode, r.removed_uids, gone)
                times[mode][SCENARIOS[1]].append(ms)
                received[mode][SCENARIOS[1]].append(counters[mode].n - before)
            for mode in order:
                ms, r = timed(fresh_sync, account, server.password, MODES[mode], caches[mode], folder)
                assert r.removed_uids == ()
                times[mode][SCENARIOS[2]].append(ms)
        for source in sources.values():
            source.close()
        other.select_folder(folder, readonly=True)
        left = sorted(other.search(["ALL"]))
        for mode, cache in caches.items():
            assert cache.uids("bench", folder) == left, f"{mode}: cache differs from the server"
        other.logout()
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)

    summary = {m: {s: {"median_ms": round(statistics.median(v), 1), "max_ms": round(max(v), 1)}
                   for s, v in times[m].items()} for m in MODES}
    md = ["# Mail resync: QRESYNC against UID compare", "",
          "Command: `.venv/bin/python benchmarks/mail_resync.py "
          f"--messages {args.messages} --repeats {args.repeats}`  ",
          f"Machine: {machine()}  ",
          f"One folder of {args.messages:,} messages (~2 KB each) on a local Dovecot over IMAPS (127.0.0.1), already "
          f"synced; {args.repeats} resyncs per cell, alternating order; {5 * args.repeats} deletions in all, each "
          f"removed from both caches (checked). Date {time.strftime('%Y-%m-%d')}.", "",
          "| resync of " + f"{args.messages:,} messages | " + " | ".join(f"{m} median (max), ms" for m in MODES) + " |",
          "|---|" + "---|" * len(MODES)]
    for s in SCENARIOS:
        md.append(f"| {s} | " + " | ".join(f"{summary[m][s]['median_ms']:.1f} ({summary[m][s]['max_ms']:.1f})"
                                             for m in MODES) + " |")
    rx = {m: {s: round(statistics.median(v)) for s, v in received[m].items()} for m in MODES}
    md += ["", "Bytes read from the server per resync (median):", "",
           "| resync | " + " | ".join(MODES) + " |", "|---|" + "---|" * len(MODES)]
    for s in SCENARIOS[:2]:
        md.append(f"| {s} | " + " | ".join(f"{rx[m][s]:,}" for m in MODES) + " |")
    md += ["", "QRESYNC: `EXAMINE folder (QRESYNC (uidvalidity modseq 1:last-uid))` answers with the vanished UIDs "
           "(RFC 7162 §3.2.5), then `UID SEARCH UID last-uid+1:*` for new mail; UID compare: `EXAMINE`, then "
           "`UID SEARCH UID 1:*` (every UID in the folder) compared with the cached UIDs. Both list the cached "
           "files (QRESYNC to check the counts)."]
    print("\n".join(md))
    for p in write(args.out, md, {"machine": machine(), "messages": args.messages, "repeats": args.repeats,
                                  "summary": summary, "times_ms": times, "bytes_received": received,
                                  "resync_used": {m: sorted(u) for m, u in used.items()}}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
