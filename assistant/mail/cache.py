"""Raw messages kept for offline use: ``data_dir()/mail/ACCOUNT/FOLDER/UIDVALIDITY/UID.eml``.

The bytes are exactly the server's ``BODY[]`` (re-serialising would change them). Each folder has a
``state.json`` with its UIDVALIDITY, the highest UID synced and the HIGHESTMODSEQ (RFC 7162) at that sync,
so sync is incremental; when the server's UIDVALIDITY changes the folder's cache is dropped and fetched
again, and messages gone from the server are removed (:meth:`MailCache.remove`). The cache is bounded in
bytes: the oldest files (by write time) go first. Folders and files are private (0700/0600). What the app
works out about a message (its attachments' gist) is kept beside it as ``UID.NAME.json``
(:meth:`MailCache.put_sidecar`) and goes with it: removed, evicted or dropped with its folder.

Every write is atomic (:func:`atomic_write`: a temporary file in the same folder, flushed and fsync'ed,
renamed over the target with ``os.replace``, then the folder fsync'ed), so a crash, a ``kill -9`` or a full
disk leaves either the old file or the whole new one, never a partial message; temporary files a killed
sync left behind are removed by :meth:`MailCache.sweep` at the next sync (not one this process is writing: a
gist saved beside its message by another thread). A full disk or a read-only data
folder raises :class:`~assistant.errors.StorageError` naming the folder and what to do.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote

from assistant.config import data_dir
from assistant.errors import StorageError

DEFAULT_MAX_BYTES = 2 * 1024**3
STATE_FILE = "state.json"
TEMP_SUFFIX = ".tmp"
# the temporary files this process is writing now: a sweep leaves them to their writer
_WRITING: set[str] = set()
_WRITING_GUARD = threading.Lock()
SIDECAR_SUFFIX = ".json"  # UID.NAME.json beside UID.eml
_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}


def storage_error(exc: OSError, path: Path, root: Path) -> StorageError:
    """``exc`` (raised writing ``path`` under the data folder ``root``) as a :class:`StorageError` whose
    message names the fault and what to do."""
    why = exc.strerror or str(exc)
    if exc.errno in _FULL:
        return StorageError(str(path), f"Disk full: cannot save {path} ({why}). Free some space on the disk "
                                       f"holding {root}, then run `assistant mail sync` again; what was saved "
                                       "so far is kept")
    if exc.errno == errno.EFBIG:
        return StorageError(str(path), f"Disk full: {path} is larger than this file system or the process's "
                                       f"file size limit allows ({why}). Raise the limit (`ulimit -f`) or move "
                                       "the data folder (ASSISTANT_DATA_DIR), then run `assistant mail sync` "
                                       "again")
    if exc.errno in _READ_ONLY:
        return StorageError(str(path), f"The data folder {root} is read-only ({why}, writing {path}). Make it "
                                       "writable, or set ASSISTANT_DATA_DIR to a writable folder, then run "
                                       "`assistant mail sync` again")
    return StorageError(str(path), f"cannot save {path} ({why}); check the data folder {root}, then run "
                                   "`assistant mail sync` again")


def _fill(f: object, data: bytes) -> None:
    f.write(data)  # type: ignore[attr-defined]


def atomic_write(path: Path, data: bytes, *, root: Path | None = None,
                 fill: Callable[[object, bytes], None] = _fill) -> None:
    """Write ``data`` to ``path`` (0600) so that it holds either its old content or all of ``data``.

    A temporary file ``.NAME.XXXX.tmp`` in the same folder is written by ``fill``, flushed and fsync'ed,
    renamed over ``path`` (``os.replace``, atomic on POSIX), and the folder is fsync'ed so the rename
    survives a power loss. On failure the temporary file is removed.

    Raises:
        StorageError: the disk is full, the folder is read-only, or another write error (``root``, the
            data folder, is named in the message).
    """
    root = root or path.parent
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    except OSError as exc:
        raise storage_error(exc, path, root) from exc
    with _WRITING_GUARD:
        _WRITING.add(os.path.abspath(tmp))
    try:
        with os.fdopen(fd, "wb") as f:
            fill(f, data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise storage_error(exc, path, root) from exc
        raise
    finally:
        with _WRITING_GUARD:
            _WRITING.discard(os.path.abspath(tmp))
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems do not fsync folders; the rename itself is still atomic
        pass
    finally:
        os.close(fd)


@dataclass(frozen=True)
class FolderState:
    """Sync state of one folder: UIDVALIDITY, highest synced UID, the highest before the last sync, and the
    folder's HIGHESTMODSEQ (RFC 7162 §3.1.2.1) when the cache last matched the server (0: not known)."""

    uidvalidity: int
    last_uid: int
    previous_uid: int = 0
    highestmodseq: int = 0


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
        try:
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
            for part in reversed([path, *path.parents]):
                if part == self.root or self.root not in part.parents:
                    continue
                part.mkdir(exist_ok=True, mode=0o700)
        except OSError as exc:
            raise storage_error(exc, path, self.root) from exc

    def state(self, account: str, folder: str) -> FolderState | None:
        """The folder's sync state, or None before its first sync."""
        path = self._folder_dir(account, folder) / STATE_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return FolderState(int(data["uidvalidity"]), int(data["last_uid"]), int(data.get("previous_uid", 0)),
                               int(data.get("highestmodseq", 0)))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def set_state(self, account: str, folder: str, state: FolderState) -> None:
        """Record the folder's sync state (atomically)."""
        d = self._folder_dir(account, folder)
        self._mkdir(d)
        self._write(d / STATE_FILE, json.dumps({"uidvalidity": state.uidvalidity, "last_uid": state.last_uid,
                                               "previous_uid": state.previous_uid,
                                               "highestmodseq": state.highestmodseq}).encode())

    def _write(self, path: Path, data: bytes) -> None:
        atomic_write(path, data, root=self.root, fill=self._fill)

    def _fill(self, f: object, data: bytes) -> None:
        """Write ``data`` into the open temporary file ``f`` (a test replaces this to inject a write error)."""
        _fill(f, data)

    def sweep(self, account: str, folder: str) -> int:
        """Remove temporary files an interrupted write left in the folder's cache (a killed sync's); returns
        how many. A write this process has under way is left to its writer (:func:`atomic_write` registers
        it): a message's gist saved beside it while the watcher's sync of the folder started lost its file
        ("cannot save .../3.gist.json (No such file or directory)")."""
        d = self._folder_dir(account, folder)
        removed = 0
        for path in d.rglob(f"*{TEMP_SUFFIX}") if d.is_dir() else []:
            with _WRITING_GUARD:
                if os.path.abspath(path) in _WRITING:
                    continue
            try:
                path.unlink()
                removed += 1
            except OSError:
                pass
        return removed

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

    def _sidecar(self, ref: CachedRef, name: str) -> Path:
        if not name.isidentifier():
            raise ValueError(f"sidecar name {name!r} must be a plain word")
        return self._folder_dir(ref.account, ref.folder) / str(ref.uidvalidity) / f"{ref.uid}.{name}{SIDECAR_SUFFIX}"

    def put_sidecar(self, ref: CachedRef, name: str, data: bytes) -> Path | None:
        """Keep ``data`` (JSON) beside the cached message ``ref`` as ``UID.NAME.json``, removed with the message;
        None (nothing written) when the message is no longer cached.

        Raises:
            ValueError: ``name`` is not a plain word.
            StorageError: the data folder is full or read-only.
        """
        path = self._sidecar(ref, name)
        if not path.with_name(f"{ref.uid}.eml").exists():
            return None
        self._write(path, data)
        return path

    def get_sidecar(self, ref: CachedRef, name: str) -> bytes | None:
        """What :meth:`put_sidecar` kept beside ``ref`` under ``name``, or None."""
        try:
            return self._sidecar(ref, name).read_bytes()
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

    def uids(self, account: str, folder: str) -> list[int]:
        """UIDs cached for the folder's current UIDVALIDITY, ascending ([] before its first sync)."""
        state = self.state(account, folder)
        if state is None:
            return []
        return self._uids_in(self._folder_dir(account, folder) / str(state.uidvalidity))

    @staticmethod
    def _uids_in(d: Path) -> list[int]:
        try:
            names = os.listdir(d)
        except (FileNotFoundError, NotADirectoryError):
            return []
        return sorted(int(n[:-4]) for n in names if n.endswith(".eml") and n[:-4].isdigit())

    def remove(self, account: str, folder: str, uids: Iterable[int]) -> list[int]:
        """Remove the messages ``uids`` of the folder's current UIDVALIDITY (gone from the server); returns
        the UIDs whose file was there. Drafts kept while offline (:mod:`assistant.mail.pending`) live
        elsewhere and are never touched.

        Raises:
            StorageError: a file cannot be removed (e.g. the data folder is read-only).
        """
        state = self.state(account, folder)
        if state is None:
            return []
        d = self._folder_dir(account, folder) / str(state.uidvalidity)
        removed: list[int] = []
        for uid in sorted(set(uids)):
            path = d / f"{int(uid)}.eml"
            try:
                path.unlink()
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise storage_error(exc, path, self.root) from exc
            _remove_sidecars(path)
            removed.append(int(uid))
        if removed:
            _fsync_dir(d)
        return removed

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
                for uid in self._uids_in(folder_dir / str(state.uidvalidity)):
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
        files: list[tuple[float, int, str]] = []
        for folder, _dirs, names in os.walk(self.root):  # one stat per file: this runs after every sync
            for name in names:
                if name.endswith(".eml"):
                    path = os.path.join(folder, name)
                    try:
                        st = os.stat(path)
                    except FileNotFoundError:
                        continue
                    files.append((st.st_mtime, st.st_size, path))
        total = sum(size for _, size, _ in files)
        if total <= self.max_bytes:
            return 0
        removed = 0
        for _, size, path in sorted(files):
            if total <= self.max_bytes:
                break
            Path(path).unlink(missing_ok=True)
            _remove_sidecars(Path(path))
            total -= size
            removed += 1
        return removed


def _remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _remove_sidecars(message: Path) -> None:
    """Remove what was kept beside the message file ``UID.eml`` (``UID.NAME.json``)."""
    for sidecar in message.parent.glob(f"{message.stem}.*{SIDECAR_SUFFIX}"):
        sidecar.unlink(missing_ok=True)
