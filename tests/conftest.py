"""Shared fixtures: real small models loaded once per session, the shared evaluation data, fakes."""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("ASSISTANT_CONFIG_DIR", tempfile.mkdtemp(prefix="assistant-test-config-"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the connection guard main() installs logs every later connection of the session: into a temporary file, not
# the real data folder (tests that read the log unset this, so it goes to their own data folder)
os.environ.setdefault("ASSISTANT_CONNECTION_LOG", os.path.join(tempfile.mkdtemp(prefix="assistant-test-log-"),
                                                              "connections.jsonl"))

import assistant.models  # noqa: E402,F401  (switches the hub clients offline before any model import)
from assistant.models.base import GenerationRequest, Generator  # noqa: E402
from assistant.records import Retract, TokenText  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.service import ModelStore


def shared_data() -> Path:
    """``../shared/data`` beside the checkout (``ASSISTANT_TEST_DATA`` overrides)."""
    return Path(os.environ.get("ASSISTANT_TEST_DATA", ROOT.parent / "shared" / "data"))


@pytest.fixture(autouse=True)
def _cyclic_garbage_between_tests() -> Iterator[None]:
    """Once a window has moved the cyclic collector to the GUI thread (assistant.gui.collector), tests that
    run no event loop never reach its timer: collect what is due after each test, on the main thread."""
    yield
    gui_collector = sys.modules.get("assistant.gui.collector")
    if gui_collector is not None and (installed := gui_collector.collector()) is not None:
        installed.collect_due()


@pytest.fixture(scope="session")
def data_root() -> Path:
    root = shared_data()
    if not root.is_dir():
        pytest.skip(f"evaluation data not present at {root}")
    return root


@pytest.fixture(scope="session")
def minilm_dir() -> Path:
    from assistant.models.locate import bundled_minilm_dir

    return bundled_minilm_dir()


@pytest.fixture(scope="session")
def tokenizer(minilm_dir: Path) -> object:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(minilm_dir, local_files_only=True)


@pytest.fixture(scope="session")
def embedder(minilm_dir: Path) -> object:
    from assistant.models.embedder import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(minilm_dir)


@pytest.fixture(scope="session")
def encoder(minilm_dir: Path) -> object:
    from assistant.models.encoder import TransformersEncoder

    return TransformersEncoder(minilm_dir)


@pytest.fixture(scope="session")
def fast_llm() -> object:
    from assistant.models.llama import LlamaGenerator
    from assistant.models.locate import fast_llm_path

    return LlamaGenerator(fast_llm_path(), n_ctx=4096)


@pytest.fixture(scope="session")
def big_llm() -> object:
    from assistant.models.llama import LlamaGenerator
    from assistant.models.locate import assemble_llm

    return LlamaGenerator(assemble_llm(), n_ctx=4096)


def scripted_store(generator: Generator, tokenizer: object, embedder: object, encoder: object, *,
                   settings: Settings | None = None) -> ModelStore:
    """A ModelStore (``settings``, default ones) with the session's small real models and ``generator`` as its
    reader: what the GUI tests run the window on."""
    from assistant.config import Settings
    from assistant.service import ModelStore

    store = ModelStore(settings if settings is not None else Settings())
    store._tokenizer, store._embedder, store._encoder = tokenizer, embedder, encoder  # type: ignore[assignment]
    store._generator = generator
    return store


class ScriptedGenerator(Generator):
    """A generator of ours for stop-rule tests: replies come from ``script(request)``; requests are kept."""

    def __init__(self, script: Callable[[GenerationRequest], str]) -> None:
        super().__init__()
        self.script = script
        self.requests: list[GenerationRequest] = []

    def stream(self, request: GenerationRequest) -> Iterator[str]:
        self.requests.append(request)
        reply = self.script(request)
        if request.on_prefill is not None:  # as a backend reports its prompt read in slices (~4 chars a token)
            prompt = max(2, len(request.system + request.user) // 4)
            for done in [*range(256, prompt, 256), prompt]:
                request.on_prefill(done, prompt)
        for i in range(0, len(reply), 3):
            yield reply[i:i + 3]
        self._record(request.purpose, len(request.user) // 4, len(reply) // 4, 0.0, None)


@pytest.fixture
def memory_keyring() -> Iterator[object]:
    """Our in-memory keyring backend, active for one test (the previous backend is restored)."""
    import keyring
    from memkeyring import MemoryKeyring

    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fresh config and data folders for one test (``ASSISTANT_CONFIG_DIR``/``ASSISTANT_DATA_DIR``)."""
    monkeypatch.setenv("ASSISTANT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture(scope="session")
def dovecot() -> Iterator[object]:
    """A Dovecot IMAP server for the whole session (skipped when Dovecot is not installed)."""
    import shutil

    if shutil.which("dovecot") is None or shutil.which("openssl") is None:
        pytest.skip("dovecot or openssl is not installed (apt-get install dovecot-imapd openssl)")
    from dovecot import Dovecot

    server = Dovecot.start()
    yield server
    server.stop()


@pytest.fixture
def mail_account(dovecot: object, user_dirs: Path, memory_keyring: object) -> object:
    """An IMAPS account on the test Dovecot, trusting its certificate, password in our keyring."""
    from assistant import secrets
    from assistant.accounts import Account, add_account

    account = Account("test", "127.0.0.1", dovecot.user, port=dovecot.imaps_port,  # type: ignore[attr-defined]
                      ca_file=str(dovecot.cert))  # type: ignore[attr-defined]
    add_account(account)
    secrets.set_password(account.name, dovecot.password)  # type: ignore[attr-defined]
    return account


@pytest.fixture
def server_client(dovecot: object) -> Iterator[object]:
    """A second, independent IMAP connection (test side) to put messages on the server."""
    import ssl

    import imapclient

    client = imapclient.IMAPClient("127.0.0.1", port=dovecot.imaps_port,  # type: ignore[attr-defined]
                                   ssl_context=ssl.create_default_context(
                                       cafile=str(dovecot.cert)))  # type: ignore[attr-defined]
    client.login(dovecot.user, dovecot.password)  # type: ignore[attr-defined]
    yield client
    client.logout()


_MISSING = re.compile(r"(?:^|: )(?P<what>[^:]+?) (?:is|are) not installed(?: \((?:sudo )?apt-get install "
                      r"(?P<packages>[^)]+)\))?")


def missing_program_skips(reasons: list[str]) -> list[str]:
    """The summary lines for skip ``reasons`` that name a program not installed ("dovecot or openssl is not
    installed (apt-get install dovecot-imapd openssl)"): one line a program with its count of tests, then the
    one command that installs them all; [] when no skip is for a missing program."""
    counts: dict[str, int] = {}
    packages: list[str] = []
    for reason in reasons:
        m = _MISSING.search(reason)
        if m is None:
            continue
        counts[m["what"]] = counts.get(m["what"], 0) + 1
        packages += [p for p in (m["packages"] or "").split() if p not in packages]
    if not counts:
        return []
    n = sum(counts.values())
    lines = [f"{n} test{'s' if n != 1 else ''} skipped: {'they need' if n != 1 else 'it needs'} a program not "
             "installed on this computer:"]
    lines += [f"  {n:4d}  {what}" for what, n in sorted(counts.items(), key=lambda kv: -kv[1])]
    if packages:
        lines.append(f"Install them with `sudo apt-get install {' '.join(packages)}`, or run "
                     "`bash packaging/install.sh --test` as root or where sudo asks no password.")
    return lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """After the run: which tests skipped for want of a system program, and how to install it (pytest's own
    list names each skip's place, not what to do)."""
    reasons = []
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            reasons.append(str(longrepr[2]).removeprefix("Skipped: "))
    lines = missing_program_skips(reasons)
    if lines:
        terminalreporter.section("programs not installed")
        for line in lines:
            terminalreporter.write_line(line)


def visible(events: list[object]) -> str:
    """What a consumer shows after the events: the streamed pieces less the withdrawn ones."""
    shown = ""
    for event in events:
        if isinstance(event, TokenText):
            shown += event.text
        elif isinstance(event, Retract):
            assert shown.endswith(event.text)
            shown = shown[:len(shown) - len(event.text)]
    return shown
