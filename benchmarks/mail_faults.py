"""Faults during mail sync (docs/security.md), repeated at seeded random points against a real Dovecot.

    .venv/bin/python benchmarks/mail_faults.py [--runs 5] [--seed 14] [--out benchmarks/results/mail_faults]

Each run makes a folder of 30 messages (seeded sizes, 1-60 KB), syncs it in batches of 8 and injects one
fault at a random message: the connection cut mid FETCH, a truncated literal, an unprompted ``* BYE``, a
stall past the 2 s read timeout (``tests/faultproxy.py``), a full disk (ENOSPC) or a read-only folder
(EROFS) at a random write, or ``kill -9`` of an ``assistant mail sync`` process mid-way. Then a second sync
runs. Counted: the error the person saw (our own type, naming the fault), and after the second sync the
messages lost, duplicated or differing from the server's ``BODY.PEEK[]``, and partial files left in the cache.
Needs ``dovecot`` and ``openssl`` (no model).
"""

from __future__ import annotations

import argparse
import errno
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from dovecot import Dovecot  # noqa: E402
from faultproxy import FaultProxy  # noqa: E402
from test_mail_faults import FullDiskCache, message, plain_account, sync_process  # noqa: E402

from assistant.accounts import add_account  # noqa: E402
from assistant.errors import AssistantError, ConnectionLost, StorageError  # noqa: E402
from assistant.eval.report import machine, write  # noqa: E402
from assistant.mail.cache import MailCache  # noqa: E402
from assistant.mail.imap import ImapSource  # noqa: E402
from assistant.mail.sync import sync_folder  # noqa: E402

N_MESSAGES = 30
BATCH = 8
FAULTS = ("cut", "truncate", "bye", "stall", "disk full", "read-only", "kill -9")


def check(cache: MailCache, account: str, folder: str, client: object) -> dict[str, int]:
    """Lost, duplicated and differing messages, and partial files, against the server's copy."""
    client.select_folder(folder, readonly=True)  # type: ignore[attr-defined]
    server = client.fetch(client.search(["ALL"]), [b"BODY.PEEK[]"])  # type: ignore[attr-defined]
    refs = [r for r in cache.refs(account) if r.folder == folder]
    uids = [r.uid for r in refs]
    files = [p for p in cache.root.rglob("*") if p.is_file()]
    return {"lost": len(set(server) - set(uids)), "duplicated": len(uids) - len(set(uids)),
            "differing": sum(cache.get(r) != server[r.uid][b"BODY[]"] for r in refs if r.uid in server),
            "partial files": sum(p.suffix not in (".eml", ".json") for p in files)}


def one_run(fault: str, rng: random.Random, server: Dovecot, client: object, work: Path) -> dict[str, object]:
    folder = f"b-{rng.randrange(16**8):08x}"
    client.create_folder(folder)  # type: ignore[attr-defined]
    for i in range(N_MESSAGES):
        client.append(folder, message(i, rng.randrange(1_000, 60_000)))  # type: ignore[attr-defined]
    data = work / folder
    os.environ["ASSISTANT_DATA_DIR"] = str(data)
    os.environ["ASSISTANT_CONFIG_DIR"] = str(data / "config")  # `mail sync` syncs every account configured
    cache = MailCache(data / "mail")
    at = rng.randrange(1, N_MESSAGES + 1)
    seen = ""
    right_type = False
    with FaultProxy(server.imap_port, fault=fault if fault in ("cut", "truncate", "bye", "stall") else None,
                    at_literal=at, throttle_s=0.003 if fault == "kill -9" else 0.0) as proxy:
        account = plain_account(server, proxy.port, folder, name=f"a{rng.randrange(10**6)}")
        if fault == "kill -9":
            add_account(account)
            proc = sync_process(account.name, server.password)
            at = min(at, N_MESSAGES - BATCH)  # killed before the last batch
            while len(list(cache.root.rglob("*.eml"))) < at and proc.poll() is None:
                time.sleep(0.005)
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
            _out, err = proc.communicate(timeout=30)
            right_type = proc.returncode == -signal.SIGKILL
            seen = (f"killed after {len(list(cache.root.rglob('*.eml')))} messages" if right_type
                    else f"(the sync ended before the kill, status {proc.returncode}: {err.strip()[-200:]})")
        else:
            target: MailCache = cache
            if fault in ("disk full", "read-only"):
                target = FullDiskCache(cache.root, fail_at=at + 1,
                                       error=errno.ENOSPC if fault == "disk full" else errno.EROFS)
            try:
                with ImapSource(account, server.password, timeout_s=2) as source:
                    sync_folder(source, target, folder, batch_size=BATCH)
                seen = "(no error: the fault did not fire)"
            except AssistantError as exc:
                seen = str(exc)
                right_type = isinstance(exc, ConnectionLost if fault in ("cut", "truncate", "bye", "stall")
                                        else StorageError)
        with ImapSource(account, server.password) as source:
            sync_folder(source, cache, folder, batch_size=BATCH)
    return {"fault": fault, "at": at, "message": seen, "reported": right_type,
            **check(cache, account.name, folder, client)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs per fault (default 5)")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "mail_faults")
    args = ap.parse_args()
    import ssl

    import imapclient
    import keyring
    from memkeyring import MemoryKeyring

    keyring.set_keyring(MemoryKeyring())
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="mail-faults-"))
    server = Dovecot.start()
    rows = []
    try:
        client = imapclient.IMAPClient("127.0.0.1", port=server.imaps_port,
                                       ssl_context=ssl.create_default_context(cafile=str(server.cert)))
        client.login(server.user, server.password)
        for fault in FAULTS:
            for _ in range(args.runs):
                row = one_run(fault, rng, server, client, work)
                rows.append(row)
                print(f"{fault:<10} at {row['at']:>2}: lost {row['lost']} dup {row['duplicated']} "
                      f"diff {row['differing']} partial {row['partial files']} | {row['message'][:90]}", flush=True)
        client.logout()
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    keys = ("lost", "duplicated", "differing", "partial files")
    md = ["# Faults during mail sync", "", "Command: `.venv/bin/python benchmarks/mail_faults.py`  ",
          f"Machine: {machine()}  ", f"{len(rows)} faults ({args.runs} per kind, seed {args.seed}), each at a random "
          f"message of a {N_MESSAGES}-message folder (batches of {BATCH}), real Dovecot; then one more sync. "
          f"Date {time.strftime('%Y-%m-%d')}.", "",
          "| fault | runs | reported with our error | messages lost | duplicated | differing | partial files |",
          "|---|---|---|---|---|---|---|"]
    for fault in FAULTS:
        rs = [r for r in rows if r["fault"] == fault]
        md.append(f"| {fault} | {len(rs)} | {sum(bool(r['reported']) for r in rs)} | "
                  + " | ".join(str(sum(int(r[k]) for r in rs)) for k in keys) + " |")  # type: ignore[call-overload]
    md += ["", "For kill -9 the reported column counts syncs killed mid-way (a killed process says nothing; the next "
           "sync is what must be complete).", "", "Messages the person saw (one per kind):", ""]
    md += [f"- {fault}: {next(r['message'] for r in rows if r['fault'] == fault)}" for fault in FAULTS]
    summary = {"faults injected": len(rows), **{k: sum(int(r[k]) for r in rows) for k in keys},  # type: ignore
               "reported": sum(bool(r["reported"]) for r in rows)}
    for p in write(args.out, md, {"machine": machine(), "summary": summary, "runs": rows}):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
