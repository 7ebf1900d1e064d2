"""Choosing a catalogue model: its state here, whether the settings use it, and the settings that make it used.

Shared by ``assistant models list|use|remove`` and the app's Models dialog; nothing here touches the network.
"""

from __future__ import annotations

from typing import Literal

from assistant.config import Settings
from assistant.errors import ModelError
from assistant.models import download
from assistant.models.catalog import CatalogEntry

State = Literal["bundled", "installed", "available"]


def state(entry: CatalogEntry) -> State:
    """``bundled`` (shipped by a package), ``installed`` (pulled and complete) or ``available`` (to pull)."""
    if entry.bundled:
        return "bundled"
    return "installed" if download.is_installed(entry) else "available"


def in_use(entry: CatalogEntry, settings: Settings) -> bool:
    """True when ``settings`` name ``entry`` for its role (the reader by name, an encoder or embedder by folder;
    the bundled MiniLM when neither folder is set)."""
    m = settings.models
    if entry.role == "reader":
        return m.llm == entry.name
    if entry.bundled:
        return not m.encoder_dir and not m.embedder_dir
    folder = str(download.installed_dir(entry.name))
    return folder in (m.encoder_dir, m.embedder_dir)


def settings_changes(entry: CatalogEntry) -> dict[str, object]:
    """The ``[models]`` keys that make ``entry`` the one in use (a None value: back to the default).

    Raises:
        ModelError: the entry is not bundled and not pulled yet.
    """
    if not entry.bundled and not download.is_installed(entry):
        raise ModelError(f"{entry.name} is not pulled yet; run `assistant models pull {entry.name}` first")
    if entry.role == "reader":
        return {"llm": entry.name}
    if entry.bundled:  # the bundled MiniLM for both roles
        return {"encoder_dir": None, "embedder_dir": None}
    key = "encoder_dir" if entry.role == "encoder" else "embedder_dir"
    return {key: str(download.installed_dir(entry.name))}
