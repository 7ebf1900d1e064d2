"""The gist of new mail's attachments (docs/mail.md): one cited line from the summary path, kept only beside its
message in the mail cache and removed with it, computed in the watch path against a real Dovecot (the library
and `mail sync --watch`), with the small 135M reader."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import uuid
from email.message import EmailMessage
from pathlib import Path

import pytest

from assistant.config import ModelSettings, Settings, WatchedFolder
from assistant.documents.mime.parse import parse_message
from assistant.mail.cache import CachedRef, FolderState, MailCache
from assistant.mail.connect import connector
from assistant.mail.gists import Gist, GistSource, load_gist, save_gist
from assistant.mail.imap import ImapSource
from assistant.mail.sync import sync_folder
from assistant.mail.watch import Watcher, plan_watches
from assistant.records import Chunk, Document, Segment
from assistant.ttrag.compute.summarize import Bullet, Summary
from assistant.ttrag.compute.summarize.oneline import one_line

ROOT = Path(__file__).resolve().parents[1]
REPORT = "Roof repair quote. The roof repair costs 4,250 EUR including VAT. Work starts on 12 May 2026 and " \
         "takes three weeks. Payment is due within 30 days of the invoice.\n"


def with_attachment(subject: str, data: bytes, filename: str, subtype: tuple[str, str] = ("text", "plain")) -> bytes:
    m = EmailMessage()
    m["From"], m["To"] = "Bob <bob@example.org>", "alice@example.org"
    m["Subject"], m["Message-ID"] = subject, f"<{uuid.uuid4().hex}@example.org>"
    m["Date"] = "Mon, 02 Mar 2026 09:00:00 +0000"
    m.set_content("The file is attached.")
    m.add_attachment(data, maintype=subtype[0], subtype=subtype[1], filename=filename)
    return m.as_bytes()


def a_gist(text: str = "Quote (quote.txt): the roof costs 4,250 EUR [1]") -> Gist:
    return Gist(text, (GistSource(1, "quote.txt", None, 0, 40, "The roof repair costs 4,250 EUR"),),
                ("quote.txt",), (), 1.5, "fast")


def wait_for(condition: object, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.1)


# -- kept beside the message, removed with it ------------------------------------------------------------------
def test_a_gist_is_kept_beside_its_message_and_removed_with_it(tmp_path: Path) -> None:
    cache = MailCache(tmp_path / "mail")
    cache.set_state("a", "INBOX", FolderState(7, 33))
    ref, other = CachedRef("a", "INBOX", 7, 3), CachedRef("a", "INBOX", 7, 33)
    folder = tmp_path / "mail" / "a" / "INBOX" / "7"
    assert not save_gist(cache, ref, a_gist())  # no message, no gist: nothing is kept on its own
    cache.put(ref, with_attachment("Quote", REPORT.encode(), "quote.txt"))
    cache.put(other, b"Subject: other\r\n\r\nno attachment\r\n")
    assert load_gist(cache, ref) is None
    assert save_gist(cache, ref, a_gist())
    assert load_gist(cache, ref) == a_gist()
    assert load_gist(cache, other) is None  # 33.eml is not 3.eml's
    assert sorted(p.name for p in folder.iterdir()) == ["3.eml", "3.gist.json", "33.eml"]
    assert cache.uids("a", "INBOX") == [3, 33]  # a gist is not a message
    assert cache.remove("a", "INBOX", [3]) == [3]  # gone from the server: the gist goes too
    assert sorted(p.name for p in folder.iterdir()) == ["33.eml"]
    cache.put(ref, b"Subject: again\r\n\r\n")
    assert save_gist(cache, ref, a_gist())
    os.utime(folder / "3.eml", (1, 1))  # the oldest
    cache.max_bytes = (folder / "33.eml").stat().st_size
    assert cache.enforce_limit() == 1  # the oldest message is evicted, and its gist with it
    assert load_gist(cache, ref) is None and not (folder / "3.gist.json").exists()
    cache.put(ref, b"Subject: again\r\n\r\n")
    assert save_gist(cache, ref, a_gist())
    cache.clear()
    assert load_gist(cache, ref) is None
    with pytest.raises(ValueError, match="plain word"):
        cache.put_sidecar(ref, "../x", b"{}")


def test_a_gist_of_another_format_is_ignored(tmp_path: Path) -> None:
    cache = MailCache(tmp_path / "mail")
    ref = CachedRef("a", "INBOX", 1, 1)
    cache.put(ref, b"Subject: x\r\n\r\n")
    cache.put_sidecar(ref, "gist", json.dumps({"format": 99, "text": "old"}).encode())
    assert load_gist(cache, ref) is None
    cache.put_sidecar(ref, "gist", b"not json")
    assert load_gist(cache, ref) is None


def test_the_gist_goes_with_the_folder_when_uidvalidity_changes(mail_account: object, dovecot: object,
                                                                 server_client: object, user_dirs: Path) -> None:
    folder = f"g-{uuid.uuid4().hex[:8]}"
    server_client.create_folder(folder)  # type: ignore[attr-defined]
    server_client.append(folder, with_attachment("Quote", REPORT.encode(), "quote.txt"))  # type: ignore
    cache = MailCache()
    with ImapSource(mail_account, dovecot.password) as source:  # type: ignore[arg-type,attr-defined]
        first = sync_folder(source, cache, folder)
    ref = CachedRef("test", folder, first.uidvalidity, 1)
    assert save_gist(cache, ref, a_gist()) and load_gist(cache, ref) == a_gist()
    server_client.delete_folder(folder)  # type: ignore[attr-defined]
    time.sleep(1.1)  # Dovecot derives UIDVALIDITY from the clock (seconds)
    server_client.create_folder(folder)  # type: ignore[attr-defined]
    server_client.append(folder, with_attachment("Other", b"other\n", "other.txt"))  # type: ignore[attr-defined]
    with ImapSource(mail_account, dovecot.password) as source:  # type: ignore[arg-type,attr-defined]
        second = sync_folder(source, cache, folder)
    assert second.reset
    assert load_gist(cache, ref) is None
    assert load_gist(cache, CachedRef("test", folder, second.uidvalidity, 1)) is None
    assert not list((cache.root / "test").rglob("*.gist.json"))


# -- one line from the summary ---------------------------------------------------------------------------------
def _doc(source: str, text: str, pages: int = 1) -> Document:
    per = len(text) // pages
    segments = tuple(Segment(text[i * per:(i + 1) * per], page=i + 1 if pages > 1 else None) for i in range(pages))
    return Document(source, text, segments, tuple(i * per for i in range(pages)))


def test_one_line_keeps_each_documents_first_point_and_renumbers_the_markers() -> None:
    a = _doc("m:INBOX:1/contract.pdf", "Supply Agreement\n\nThe term is five years. Late delivery costs 0.5% a day.",
             pages=3)
    b = _doc("m:INBOX:1/prices.xlsx", "Price list\n\nUnit price 12 EUR.")
    ca, ca2 = Chunk(0, "The term is five years.", a.source, 18, 41, 2), Chunk(1, "Late delivery", a.source, 42, 80, 3)
    cb = Chunk(2, "Unit price 12 EUR.", b.source, 12, 30)
    summary = Summary("", (cb, ca, ca2), (Bullet("The term is five years.", (2,)), Bullet("Late delivery costs "
                                                                                        "0.5% a day.", (3,)),
                                          Bullet("A unit costs 12 EUR.", (1,))), (), ())
    text, cited = one_line(summary, [a, b])
    assert text == ("Supply Agreement (contract.pdf, 3 pages): The term is five years [1]; Late delivery costs 0.5% "
                    "a day [2] | Price list (prices.xlsx): A unit costs 12 EUR [3]")
    assert cited == [ca, ca2, cb]
    short, cited = one_line(summary, [a, b], max_chars=100)
    assert short == ("Supply Agreement (contract.pdf, 3 pages): The term is five years [1] | Price list (prices.xlsx): "
                     "A unit costs 12 EUR [2]")
    assert cited == [ca, cb]
    assert one_line(Summary("", (), (), (), ()), [b]) == ("Price list (prices.xlsx)", [])


# -- computed with the small reader ----------------------------------------------------------------------------
@pytest.fixture
def fast_store(fast_llm: object, tokenizer: object, user_dirs: Path) -> object:
    from assistant.service import ModelStore

    store = ModelStore(Settings(models=ModelSettings(llm="fast")))
    store._generator = fast_llm  # type: ignore[assignment]
    store._tokenizer = tokenizer
    return store


def test_the_gist_of_a_pdf_attachment_cites_its_page(fast_store: object, tmp_path: Path) -> None:
    from pdfgen import CLAUSE, NEWS_LEFT, NEWS_RIGHT, Text, drawn_pdf

    from assistant.gist import gist_message

    pages = [[Text(72, 720, "Delivery Terms", 16)] + [Text(72, 690 - 16 * k, line) for k, line in enumerate(CLAUSE)],
             [Text(72, 700 - 16 * k, line) for k, line in enumerate(NEWS_LEFT + NEWS_RIGHT)]]
    pdf = drawn_pdf(tmp_path / "terms.pdf", pages)  # type: ignore[arg-type]
    raw = with_attachment("Delivery terms", pdf.read_bytes(), "terms.pdf", ("application", "pdf"))
    gist = gist_message(fast_store, parse_message(raw), "test:INBOX:5")  # type: ignore[arg-type]
    assert gist is not None and "\n" not in gist.text
    assert gist.text.startswith("Delivery Terms (terms.pdf, 2 pages): ")
    assert gist.sources and gist.attachments == ("terms.pdf",) and gist.reader == "fast"
    assert all(f"[{s.n}]" in gist.text for s in gist.sources)
    from assistant.documents import extract

    text = extract(pdf).text
    for s in gist.sources:  # each marker names the attachment and the page, and quotes the passage
        assert s.attachment == "terms.pdf" and s.page in (1, 2)
        assert s.quote.rstrip("\u2026")[:40] in " ".join(text[s.start:s.end].split())


def test_the_gist_of_a_contract_names_its_parties(fast_store: object) -> None:
    from assistant.gist import gist_message

    sample = Path(__file__).resolve().parents[1] / "resources" / "samples" / "supply-agreement.md"
    raw = with_attachment("Agreement", sample.read_bytes(), "supply-agreement.md")
    gist = gist_message(fast_store, parse_message(raw), "test:INBOX:7")  # type: ignore[arg-type]
    assert gist is not None and "\n" not in gist.text
    parties = gist.text.split("Parties: ", 1)[1]  # the contract's points, not its central passages
    assert parties.startswith("Norhaven Medical Devices GmbH") and "Calder Precision Components Ltd." in parties
    assert gist.text.startswith("Master Supply and Services Agreement (supply-agreement.md, 305 pages): Parties: ")
    assert gist.sources and all(f"[{s.n}]" in gist.text for s in gist.sources)


def test_no_readable_attachment_gives_no_gist(fast_store: object) -> None:
    from assistant.gist import gist_message

    raw = with_attachment("Binary", b"\x00\x01\x02" * 100, "blob.bin", ("application", "octet-stream"))
    assert gist_message(fast_store, parse_message(raw), "test:INBOX:6") is None  # type: ignore[arg-type]


def test_a_cancelled_gist_stops_and_keeps_nothing(fast_store: object, tmp_path: Path) -> None:
    from assistant.errors import Cancelled
    from assistant.gist import gist_and_keep

    cache = MailCache(tmp_path / "mail")
    ref = CachedRef("a", "INBOX", 1, 1)
    cache.put(ref, with_attachment("Quote", REPORT.encode(), "quote.txt"))
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        gist_and_keep(fast_store, cache, ref, cancel=cancel)  # type: ignore[arg-type]
    assert load_gist(cache, ref) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a nice value per thread is Linux's")
def test_the_gist_thread_runs_at_the_lowest_priority_and_its_threads_too() -> None:
    from assistant.gist import LOWEST_NICE, lower_thread_priority

    seen: dict[str, int] = {}

    def child() -> None:
        seen["child"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def gist_thread() -> None:
        seen["lowered"] = int(lower_thread_priority())
        seen["gist"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        t = threading.Thread(target=child)  # as the LLM's worker threads are started from it
        t.start()
        t.join()

    t = threading.Thread(target=gist_thread)
    t.start()
    t.join()
    assert seen == {"lowered": 1, "gist": LOWEST_NICE, "child": LOWEST_NICE}
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) != LOWEST_NICE  # this thread is untouched


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a nice value per thread is Linux's")
def test_a_gist_first_leaves_the_shared_tokenizer_pool_at_normal_priority() -> None:
    """The tokenizers library's pool of threads serves the whole process and is started by its first batch: a
    gist's batch tokenized first must not leave it at the lowest priority for every later question. Run in a
    fresh interpreter (in this one an earlier test has long started the pool)."""
    script = """
import glob, os, threading
from pathlib import Path
from assistant.gist import lower_thread_priority
from assistant.models.tokenizer import load_tokenizer
from assistant.config import Settings
from assistant.models import locate
tokenizer = load_tokenizer(locate.encoder_dir(Settings().models))
def gist():
    lower_thread_priority()
    tokenizer(["a clause of a contract " * 40] * 64, add_special_tokens=False)
    print(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
thread = threading.Thread(target=gist)
thread.start()
thread.join()
print(sorted(int(open(f).read().rsplit(")", 1)[1].split()[16]) for f in glob.glob("/proc/self/task/*/stat")))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         check=True).stdout.split("\n")
    assert out[0] == "19"  # the gist itself ran at the lowest priority
    assert out[1] != "[0]" and set(json.loads(out[1])) == {0}  # the pool's threads were started, at normal priority


# -- the watch path, against a real Dovecot -------------------------------------------------------------------
def test_the_watch_path_keeps_a_gist_for_new_mail_with_attachments(mail_account: object, dovecot: object,
                                                                   server_client: object, fast_store: object) -> None:
    from assistant.gist import GistWorker

    folder = f"g-{uuid.uuid4().hex[:8]}"
    server_client.create_folder(folder)  # type: ignore[attr-defined]
    cache = MailCache()
    gists: queue.Queue[tuple[CachedRef, Gist]] = queue.Queue()
    errors: list[object] = []
    # normal priority here: at the lowest, other work on a shared test machine can starve it for minutes
    worker = GistWorker(fast_store, cache, on_gist=lambda r, g: gists.put((r, g)),  # type: ignore[arg-type]
                        on_error=lambda r, e: errors.append(e), nice=0).start()
    synced = threading.Event()
    plan = plan_watches([mail_account], (WatchedFolder(folder),), connector)  # type: ignore[list-item]
    watcher = Watcher(plan, cache, on_sync=lambda r: synced.set(),
                      on_new=lambda ms: [worker.add(m.ref) for m in ms if m.attachments]).start()
    try:
        assert synced.wait(30)
        server_client.append(folder, with_attachment("Plain", b"", "empty.txt"))  # type: ignore[attr-defined]
        server_client.append(folder, with_attachment("Quote for the roof", REPORT.encode(),  # type: ignore
                                                     "quote.txt"))
        ref, gist = gists.get(timeout=300)
    finally:
        watcher.stop()
        worker.stop()
        assert watcher.join(10) and worker.join(30)
    assert ref.id == f"test:{folder}:2" and "quote.txt" in gist.text and gist.sources
    assert load_gist(cache, ref) == gist  # kept beside the message
    assert load_gist(cache, CachedRef("test", folder, ref.uidvalidity, 1)) is None  # an empty file: no gist
    assert errors == []


def _reader(stream: object, lines: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        lines.put(line.rstrip("\n"))


def test_cli_watch_computes_the_gist_and_mail_show_prints_it(mail_account: object, dovecot: object,
                                                            server_client: object, user_dirs: Path,
                                                            tmp_path: Path) -> None:
    folder = f"g-{uuid.uuid4().hex[:8]}"
    server_client.create_folder(folder)  # type: ignore[attr-defined]
    server_client.append(folder, b"Subject: old\r\n\r\nthere before\r\n")  # type: ignore[attr-defined]
    (user_dirs / "config").mkdir(exist_ok=True)
    (user_dirs / "config" / "config.toml").write_text('[models]\nllm = "fast"\n')
    keyring_file = tmp_path / "keyring.json"
    keyring_file.write_text(json.dumps({"assistant/test": dovecot.password}))  # type: ignore[attr-defined]
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "filekeyring.FileKeyring",
           "ASSISTANT_TEST_KEYRING": str(keyring_file), "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"),
                                                                                      str(ROOT)]),
           "ASSISTANT_CONFIG_DIR": str(user_dirs / "config"), "ASSISTANT_DATA_DIR": str(user_dirs / "data")}
    proc = subprocess.Popen([sys.executable, "-m", "assistant", "mail", "sync", "--watch", "--folder", folder],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    out: queue.Queue[str] = queue.Queue()
    err: queue.Queue[str] = queue.Queue()
    for stream, q in ((proc.stdout, out), (proc.stderr, err)):
        threading.Thread(target=_reader, args=(stream, q), daemon=True).start()
    cache = MailCache(user_dirs / "data" / "mail")
    seen: list[str] = []
    try:
        wait_for(lambda: bool(cache.uids("test", folder)), 60)  # the first sync is done: later mail is new
        server_client.append(folder, with_attachment("Quote for the roof", REPORT.encode(),  # type: ignore
                                                     "quote.txt"))
        line = out.get(timeout=60)
        deadline = time.monotonic() + 300
        while not any(" gist: " in s for s in seen) and time.monotonic() < deadline:
            try:
                seen.append(err.get(timeout=5))
            except queue.Empty:
                continue
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(60)
        for stream in (proc.stdout, proc.stderr):
            stream.close()  # type: ignore[union-attr]
    assert code == 0, "\n".join(seen)
    assert line.startswith(f"test:{folder}:2 ") and out.empty()  # stdout: still one line per new message
    told = next(s for s in seen if " gist: " in s)
    assert told.startswith(f"test:{folder}:2  gist: ") and "quote.txt" in told
    show = subprocess.run([sys.executable, "-m", "assistant", "mail", "show", f"test:{folder}:2"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert show.returncode == 0, show.stderr
    assert "[gist] " + told.split("  gist: ", 1)[1] in show.stdout and "[1] quote.txt: \u201c" in show.stdout
    listed = subprocess.run([sys.executable, "-m", "assistant", "mail", "list", "--json"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert [r.get("gist") for r in json.loads(listed.stdout)] == [None, told.split("  gist: ", 1)[1]]
