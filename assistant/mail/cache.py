"""Raw messages kept for offline use: ``data_dir()/mail/ACCOUNT/FOLDER/UIDVALIDITY/UID.eml``.

The bytes are exactly the server's ``BODY[]`` (re-serialising would change them). Each folder has a
``state.json`` with its UIDVALIDITY and the highest UID synced, so sync is incremental; when the
server's UIDVALIDITY changes the folder's cache is dropped and fetched again. The cache is bounded in
bytes: the oldest files (by write time) go first. Folders and files are private (0700/0600).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote

from assistant.config import data_dir

DEFAULT_MAX_BYTES = 2 * 1024**3
STATE_FILE = "state.json"


@dataclass(frozen=True)
class FolderState:
    """Sync state of one folder: UIDVALIDITY, highest synced UID, and the highest before the last sync."""

    uidvalidity: int
    last_uid: int
    previous_uid: int = 0


@dataclass(frozen=True)
class CachedRef:
    """Where a cached message is: account, folder, UIDVALIDITY, UID; ``id`` is ``account:folder:uid``."""

    account: str
    folder: str
    uidvalidity: int
    uid: int

    @property
    def id(self) -> str:
        return f"{self.account}:{self.folder}:{self.uid}"


def safe_name(name: str) -> str:
    """``name`` as one flat, reversible path part (percent-encoded; a leading dot encoded too)."""
    # Percent-encoding keeps every folder name (slashes, non-ASCII) one flat, reversible path part;
    # a leading dot is encoded too so "." and ".." cannot escape.
    s = quote(name, safe="")
    return "%2E" + s[1:] if s.startswith(".") else s


class MailCache:
    """Raw message store under ``root`` (default ``data_dir()/mail``), at most ``max_bytes`` bytes."""

    def __init__(self, root: Path | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.root = root or data_dir() / "mail"
        self.max_bytes = max_bytes

    def _folder_dir(self, account: str, folder: str) -> Path:
        return self.root / safe_name(account) / safe_name(folder)

    def _mkdir(self, path: Path) -> None:
        # The mail root is created private first; folders below it inherit nothing, so each is 0700.
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        for part in reversed([path, *path.parents]):
            if part == self.root or self.root not in part.parents:
                continue
            part.mkdir(exist_ok=True, mode=0o700)

    def state(self, account: str, folder: str) -> FolderState | None:
        """The folder's sync state, or None before its first sync."""
        path = self._folder_dir(account, folder) / STATE_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return FolderState(int(data["uidvalidity"]), int(data["last_uid"]), int(data.get("previous_uid", 0)))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def set_state(self, account: str, folder: str, state: FolderState) -> None:
        """Record the folder's sync state (atomically)."""
        d = self._folder_dir(account, folder)
        self._mkdir(d)
        self._write(d / STATE_FILE, json.dumps({"uidvalidity": state.uidvalidity, "last_uid": state.last_uid,
                                               "previous_uid": state.previous_uid}).encode())

    def _write(self, path: Path, data: bytes) -> None:
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)

    def put(self, ref: CachedRef, raw: bytes) -> Path:
        """Store ``raw`` (the exact server bytes) for ``ref``; returns the file."""
        d = self._folder_dir(ref.account, ref.folder) / str(ref.uidvalidity)
        self._mkdir(d)
        path = d / f"{ref.uid}.eml"
        self._write(path, raw)
        return path

    def get(self, ref: CachedRef) -> bytes | None:
        """The stored bytes of ``ref``, or None when not cached."""
        try:
            return (self._folder_dir(ref.account, ref.folder) / str(ref.uidvalidity) / f"{ref.uid}.eml").read_bytes()
        except FileNotFoundError:
            return None

    def find(self, account: str, folder: str, uid: int) -> CachedRef | None:
        """The cached message ``uid`` of the folder's current UIDVALIDITY, or None."""
        state = self.state(account, folder)
        if state is None:
            return None
        ref = CachedRef(account, folder, state.uidvalidity, uid)
        path = self._folder_dir(account, folder) / str(state.uidvalidity) / f"{uid}.eml"
        return ref if path.exists() else None

    def refs(self, account: str | None = None) -> Iterator[CachedRef]:
        """Every cached message of the current UIDVALIDITY of each folder, by account, folder and UID."""
        if not self.root.is_dir():
            return
        accounts = [self.root / safe_name(account)] if account else sorted(self.root.iterdir())
        for acc_dir in accounts:
            if not acc_dir.is_dir():
                continue
            for folder_dir in sorted(acc_dir.iterdir()):
                acc, folder = unquote(acc_dir.name), unquote(folder_dir.name)
                state = self.state(acc, folder)
                if state is None:
                    continue
                d = folder_dir / str(state.uidvalidity)
                uids = sorted(int(p.stem) for p in d.glob("*.eml")) if d.is_dir() else []
                for uid in uids:
                    yield CachedRef(acc, folder, state.uidvalidity, uid)

    def drop_folder(self, account: str, folder: str) -> None:
        """Forget a folder: its messages of every UIDVALIDITY and its state."""
        _remove_tree(self._folder_dir(account, folder))

    def clear(self, account: str | None = None) -> None:
        """Remove every cached message (of one account, or all)."""
        _remove_tree(self.root / safe_name(account) if account else self.root)

    def size(self) -> int:
        """Bytes used by cached messages."""
        return sum(p.stat().st_size for p in self.root.rglob("*.eml")) if self.root.is_dir() else 0

    def enforce_limit(self) -> int:
        """Remove the oldest messages until the cache fits ``max_bytes``; returns how many were removed."""
        if not self.root.is_dir():
            return 0
        files = [(p.stat().st_mtime, p.stat().st_size, p) for p in self.root.rglob("*.eml")]
        total = sum(size for _, size, _ in files)
        removed = 0
        for _, size, path in sorted(files):
            if total <= self.max_bytes:
                break
            path.unlink(missing_ok=True)
            total -= size
            removed += 1
        return removed


def _remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
