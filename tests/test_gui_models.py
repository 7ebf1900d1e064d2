"""The Models dialog (docs/models.md): the catalogue with size, memory and speed; a download from a loopback
hub with progress, Cancel and a clear message when the hub is unreachable; a pulled reader chosen in Settings,
saved and loaded by the next question's model store; removal asked first."""

from __future__ import annotations

import hashlib
import os
import socket
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from hubserver import Hub, HubFile  # noqa: E402
from PySide6.QtWidgets import QMessageBox, QTableWidgetItem, QWidget  # noqa: E402
from pytestqt.qtbot import QtBot  # noqa: E402
from qtmodal import on_next_modal, press  # noqa: E402

from assistant.config import ModelSettings, Settings  # noqa: E402
from assistant.gui.models_dialog import COLUMNS, ModelsDialog  # noqa: E402
from assistant.gui.settings_dialog import SettingsDialog  # noqa: E402
from assistant.models import catalog, download  # noqa: E402
from assistant.models.locate import fast_llm_path  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

REPO = "test-org/SmolLM2-135M-GGUF"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
NAME = "tiny-llama"


@pytest.fixture(scope="module")
def gguf_bytes() -> bytes:
    return fast_llm_path().read_bytes()


@pytest.fixture()
def hub(user_dirs: Path, gguf_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> Iterator[Hub]:
    """The loopback hub serving the bundled SmolLM2 GGUF as ``tiny-llama`` (in the person's own catalogue)."""
    server = Hub().start()
    server.files[(REPO, GGUF)] = HubFile(gguf_bytes)
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    config = user_dirs / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "catalog.toml").write_text(f"""
[[model]]
name = "{NAME}"
role = "reader"
title = "SmolLM2 served by the test hub"
repo = "{REPO}"
files = ["{GGUF}"]
revision = "main"
sha256 = {{ "{GGUF}" = "{hashlib.sha256(gguf_bytes).hexdigest()}" }}
size = {len(gguf_bytes)}
size_exact = true
licence = "Apache-2.0"
ram_gb = 0.3
""", encoding="utf-8")
    yield server
    server.stop()


class GateProxy:
    """A loopback TCP proxy that forwards the hub's replies until ``pause_after`` bytes went through, then
    holds them until :attr:`gate` is set: a download that is surely still running when Cancel is pressed."""

    def __init__(self, upstream: str, pause_after: int) -> None:
        self.upstream_port = int(upstream.rsplit(":", 1)[1])
        self.pause_after = pause_after
        self.sent = 0
        self.gate = threading.Event()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._server.getsockname()[1]}"
        self._sockets: list[socket.socket] = [self._server]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            self._sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, True), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, gated: bool) -> None:
        try:
            while data := src.recv(65536):
                if gated and self.sent >= self.pause_after:
                    self.gate.wait(60)
                dst.sendall(data)
                self.sent += len(data) if gated else 0
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.close()
                except OSError:
                    pass

    def close(self) -> None:
        self.gate.set()
        for s in self._sockets:
            try:
                s.close()
            except OSError:
                pass


def item(dialog: ModelsDialog, row: int, col: int) -> QTableWidgetItem:
    found = dialog.table.item(row, col)
    assert found is not None, (row, col)
    return found


def cells(dialog: ModelsDialog, name: str) -> dict[str, str]:
    row = dialog.row_of(name)
    assert row >= 0, name
    return {col: item(dialog, row, i).text() for i, col in enumerate(COLUMNS)}


def installed_gguf(user_dirs: Path) -> Path:
    return user_dirs / "data" / "models" / NAME / GGUF


def nothing_left(user_dirs: Path) -> bool:
    models = user_dirs / "data" / "models"
    incoming = models / ".incoming"
    return not (models / NAME).exists() and (not incoming.exists() or not any(incoming.rglob("*")))


def test_the_list_shows_each_model_with_size_memory_speed_licence_and_state(qtbot: QtBot, hub: Hub) -> None:
    dialog = ModelsDialog()
    qtbot.addWidget(dialog)
    llama = cells(dialog, "llama-3.2-1b-instruct")
    assert llama["Model"] == "Llama-3.2-1B-Instruct Q4_K_M" and llama["Used for"] == "Reads and answers"
    assert llama["Download size"] == "0.81 GB" and llama["Memory needed"].startswith("1.6 GB")
    assert llama["Speed on this computer"] == "not measured here"
    assert llama["Licence"] == "Llama 3.2 Community License" and llama["State"] == "Not downloaded"
    assert cells(dialog, "bundled")["State"] == "Comes with the app, in use"
    assert "measured here" in cells(dialog, "bundled")["Speed on this computer"]
    assert cells(dialog, "fast")["State"] == "Comes with the app"
    assert cells(dialog, "distilbert-base-uncased")["Used for"] == "Ranks passages"
    assert cells(dialog, "bge-small-en-v1.5")["Used for"] == "Finds passages"
    assert cells(dialog, NAME)["State"] == "Not downloaded"  # the person's own catalogue entry is listed too
    shown = [item(dialog, r, c).text() for r in range(dialog.table.rowCount()) for c in range(len(COLUMNS))]
    shown += [*COLUMNS, *(b.text() for b in (dialog.download_button, dialog.cancel_button, dialog.use_button,
                                             dialog.remove_button))]
    assert not any("GGUF" in text for text in shown)  # the jargon is explained in the tooltip instead
    column_tips = [dialog.table.horizontalHeaderItem(c).toolTip() for c in range(len(COLUMNS))]
    column_tips += [item(dialog, 0, c).toolTip() for c in (2, 3)]  # the size and memory cells' tips
    assert not any(jargon in text for text in shown + column_tips for jargon in ("tok/s", "token", "chunks/s"))
    speed = cells(dialog, "bundled")["Speed on this computer"]
    assert speed == "reads about 70 words a second, writes about 20 (measured here)", speed
    speed_tip = item(dialog, dialog.row_of("bundled"), 4).toolTip()
    assert "prefill 90 tok/s" in speed_tip  # the measurement itself, for the curious
    assert "about 3,000 words" in item(dialog, dialog.row_of("bundled"), 3).toolTip()
    role_tip = item(dialog, dialog.row_of("fast"), 1).toolTip()
    assert "GGUF" in role_tip and "LLM" in role_tip
    dialog.select("bundled")  # in use: nothing to do
    assert not dialog.use_button.isEnabled() and not dialog.download_button.isEnabled()
    assert not dialog.remove_button.isEnabled()
    dialog.select("fast")
    assert dialog.use_button.isEnabled() and not dialog.download_button.isEnabled()
    dialog.select("llama-3.2-1b-instruct")
    assert dialog.download_button.isEnabled() and not dialog.use_button.isEnabled()
    assert not dialog.cancel_button.isEnabled()


def test_download_shows_progress_and_ends_installed(qtbot: QtBot, hub: Hub, user_dirs: Path,
                                                    gguf_bytes: bytes) -> None:
    dialog = ModelsDialog()
    qtbot.addWidget(dialog)
    values: list[int] = []
    dialog.progress.valueChanged.connect(values.append)
    dialog.select(NAME)
    dialog.download_button.click()
    assert dialog.cancel_button.isEnabled() and not dialog.download_button.isEnabled()
    qtbot.waitUntil(lambda: cells(dialog, NAME)["State"] == "Installed", timeout=120000)
    assert any(0 < v < 1000 for v in values) and values[-1] == 1000  # it moved, and reached the end
    assert installed_gguf(user_dirs).read_bytes() == gguf_bytes
    assert "installed and checked" in dialog.message.text()
    assert not dialog.progress.isVisible() and not dialog.cancel_button.isEnabled()
    dialog.select(NAME)
    assert dialog.use_button.isEnabled() and dialog.remove_button.isEnabled()
    assert not dialog.download_button.isEnabled()


def test_cancel_mid_download_leaves_nothing_installed(qtbot: QtBot, hub: Hub, user_dirs: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    proxy = GateProxy(hub.url, pause_after=6 << 20)  # of the ~100 MB file: held after 6 MB
    monkeypatch.setenv("HF_ENDPOINT", proxy.url)
    try:
        dialog = ModelsDialog()
        qtbot.addWidget(dialog)
        dialog.select(NAME)
        dialog.download_button.click()
        qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=60000)
        assert cells(dialog, NAME)["State"].startswith("Downloading")
        dialog.cancel_button.click()
        assert "cancelled; nothing was installed" in dialog.message.text()
        assert cells(dialog, NAME)["State"] == "Not downloaded" and not dialog.progress.isVisible()
        proxy.gate.set()  # the worker reads on, sees the cancel at its next piece and cleans up
        assert dialog.runner.wait(60000)
        assert nothing_left(user_dirs)
        assert proxy.sent < len(hub.files[(REPO, GGUF)].content)  # it stopped before the end
        assert "cancelled" in dialog.message.text()  # nothing late overwrote the message
        dialog.select(NAME)
        assert dialog.download_button.isEnabled()
    finally:
        proxy.close()


def test_an_unreachable_hub_says_so_and_downloads_nothing(qtbot: QtBot, hub: Hub, user_dirs: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    dialog = ModelsDialog()
    qtbot.addWidget(dialog)
    dialog.select(NAME)
    dialog.download_button.click()
    qtbot.waitUntil(lambda: dialog.downloading is None, timeout=120000)
    text = dialog.message.text()
    assert f"Could not reach the model site (http://127.0.0.1:{port})" in text
    assert "offline" in text and "Nothing was downloaded" in text and "keep working" in text
    assert cells(dialog, NAME)["State"] == "Not downloaded" and nothing_left(user_dirs)


def test_a_pulled_reader_chosen_in_settings_is_saved_and_used_by_the_next_question(
        qtbot: QtBot, hub: Hub, user_dirs: Path) -> None:
    path = download.pull(catalog.entry(NAME))
    assert path == installed_gguf(user_dirs)
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    assert dialog.model.findData(NAME) >= 0  # a downloaded reader is one of the model choices
    assert dialog.model.currentData() == "bundled"
    seen: list[str] = []

    def use_it(modal: QWidget) -> None:
        assert isinstance(modal, ModelsDialog)
        seen.append(cells(modal, NAME)["State"])
        modal.select(NAME)
        modal.use_button.click()

    on_next_modal(ModelsDialog, use_it)
    dialog.more_models.click()
    assert seen == ["Installed"]
    assert dialog.model.currentData() == NAME and "once you press Save" in dialog.error.text()
    dialog.accept()
    assert dialog.saved is not None and dialog.saved.models.llm == NAME
    written = tomllib.loads((user_dirs / "config" / "config.toml").read_text(encoding="utf-8"))
    assert written["models"]["llm"] == NAME
    # the window's live-settings path: a new store for the next question loads the pulled file, no restart
    store = ModelStore(Settings()).with_settings(dialog.saved)
    assert getattr(store.generator(), "path", None) == path
    again = SettingsDialog()
    qtbot.addWidget(again)
    assert again.model.currentData() == NAME and again.gguf.text() == ""


def test_remove_asks_first_and_not_while_the_model_is_in_use(qtbot: QtBot, hub: Hub, user_dirs: Path) -> None:
    download.pull(catalog.entry(NAME))
    busy = ModelsDialog(settings=Settings(models=ModelSettings(llm=NAME)))
    qtbot.addWidget(busy)
    busy.select(NAME)
    assert cells(busy, NAME)["State"] == "Installed, in use"
    assert not busy.remove_button.isEnabled() and "in use" in busy.remove_button.toolTip()
    dialog = ModelsDialog()
    qtbot.addWidget(dialog)
    dialog.select(NAME)
    on_next_modal(QMessageBox, press("Cancel"))
    dialog.remove_button.click()
    assert installed_gguf(user_dirs).is_file() and cells(dialog, NAME)["State"] == "Installed"
    on_next_modal(QMessageBox, press("Remove"))
    dialog.remove_button.click()
    assert not (user_dirs / "data" / "models" / NAME).exists()
    assert cells(dialog, NAME)["State"] == "Not downloaded" and "removed" in dialog.message.text()
