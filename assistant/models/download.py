"""``pull``, ``verify`` and ``remove`` catalogue models: downloads through ``huggingface_hub``.

A download happens only here, when the person asks for it (``assistant models pull`` or Download in the
app); an ask never downloads (the package keeps ``HF_HUB_OFFLINE=1`` everywhere else, see
:mod:`assistant.models`). Steps of :func:`pull`:

1. one HEAD request a file (``get_hf_file_metadata``) pins the commit the hub reports
   (``X-Repo-Commit``) so every file comes from the same commit, and reads the hub's content hash
   (``X-Linked-Etag``: the LFS object id, which is the file's SHA-256; a small non-LFS file's ``ETag`` is
   its git blob id, a SHA-1). A catalogue SHA-256 that disagrees with the hub's stops the pull before
   any byte is fetched.
2. ``hf_hub_download`` fetches each file into ``<data>/models/.incoming/<name>/`` (a temporary file,
   renamed when complete; a dropped connection is resumed with an HTTP ``Range`` request, up to 5
   times) with its tqdm progress bar (or the ``tqdm_class`` given).
3. every file is hashed: SHA-256 against the catalogue (or the hub's LFS id), git blob SHA-1 for
   small files; any mismatch deletes the download and installs nothing.
4. ``manifest.json`` (repo, commit, per-file size and SHA-256) is written and the folder is renamed
   atomically to ``<data>/models/<name>/``.

A pull interrupted between runs starts that file again (huggingface_hub 2.x keeps no partial file
across processes).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant import netguard
from assistant.config import data_dir
from assistant.errors import ModelError
from assistant.models.catalog import CatalogEntry
from assistant.models.locate import sha256_file

DEFAULT_ENDPOINT = "https://huggingface.co"
MANIFEST = "manifest.json"
CHUNK_BYTES = 1 << 20  # progress and Cancel act on each 1 MiB read


class HubUnreachable(ModelError):
    """The model hub could not be reached (offline, DNS failure, refused, timed out)."""


def models_root() -> Path:
    """``<data>/models``: the assembled bundled model and every pulled model's folder."""
    return data_dir() / "models"


def installed_dir(name: str) -> Path:
    """Folder of the pulled model ``name`` (it may not exist)."""
    return models_root() / name


def installed_path(entry: CatalogEntry) -> Path:
    """What a backend loads: the GGUF file of a reader, the folder of an encoder or embedder."""
    folder = installed_dir(entry.name)
    return folder / entry.gguf if entry.gguf else folder


def manifest(name: str) -> dict[str, Any] | None:
    """The pulled model's ``manifest.json`` (None when not pulled or unreadable)."""
    try:
        data = json.loads((installed_dir(name) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def is_installed(entry: CatalogEntry) -> bool:
    """True when the model was pulled (its manifest exists and names every file)."""
    m = manifest(entry.name)
    return m is not None and all((installed_dir(entry.name) / f).is_file() for f in m.get("files", {}))


def hub_endpoint() -> str:
    """The hub to pull from: ``HF_ENDPOINT`` (a mirror, or a test server) or huggingface.co."""
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


@contextlib.contextmanager
def _online() -> Iterator[None]:
    """Let huggingface_hub make requests for the duration of a pull (the package keeps it offline), reading
    the body in :data:`CHUNK_BYTES` pieces (its default, 10 MiB, makes the progress bar and Cancel coarse);
    its connections are logged as for "model download" and closed at the end."""
    from huggingface_hub import close_session, constants

    before = constants.HF_HUB_OFFLINE, constants.DOWNLOAD_CHUNK_SIZE
    constants.HF_HUB_OFFLINE, constants.DOWNLOAD_CHUNK_SIZE = False, CHUNK_BYTES
    try:
        with netguard.purpose("model download"):
            yield
    finally:
        constants.HF_HUB_OFFLINE, constants.DOWNLOAD_CHUNK_SIZE = before
        close_session()  # no connection to the hub stays open after a pull (and the log gets its byte counts)


def _is_hex(text: str, n: int) -> bool:
    return len(text) == n and all(c in "0123456789abcdef" for c in text)


def git_blob_sha1(path: Path) -> str:
    """Git's object id of a file (SHA-1 of ``blob <size>\\0`` + content): the hub's ETag of a non-LFS file."""
    h = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())
    with path.open("rb") as fh:
        while block := fh.read(8 << 20):
            h.update(block)
    return h.hexdigest()


@dataclass(frozen=True)
class _Remote:
    file: str
    commit: str
    size: int | None
    sha256: str | None  # the hub's LFS id, when the file is in LFS
    git_sha1: str | None  # the git blob id, when it is not


def _unreachable(endpoint: str, exc: BaseException) -> HubUnreachable:
    off = netguard.refusal(exc)
    if off is not None:
        return HubUnreachable(str(off))
    reason = str(exc).split("\n")[0] or type(exc).__name__
    return HubUnreachable(f"cannot reach the model hub at {endpoint} ({reason}); you seem to be offline or the hub "
                          "is down. Nothing was downloaded, and the bundled models keep working "
                          "(`assistant models use bundled`).")


def _remote_files(entry: CatalogEntry, endpoint: str) -> list[_Remote]:
    import httpx2
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.errors import (
        EntryNotFoundError,
        HfHubHTTPError,
        OfflineModeIsEnabled,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    revision = entry.revision or "main"
    out = []
    for name in entry.files:
        url = hf_hub_url(entry.repo, name, revision=revision, endpoint=endpoint)
        try:
            meta = get_hf_file_metadata(url, endpoint=endpoint)
        except (httpx2.ConnectError, httpx2.TimeoutException, httpx2.NetworkError, OfflineModeIsEnabled) as exc:
            raise _unreachable(endpoint, exc) from exc
        except RepositoryNotFoundError as exc:
            raise ModelError(f"the hub has no repository {entry.repo} (or it needs a login: `hf auth login`)") \
                from exc
        except RevisionNotFoundError as exc:
            raise ModelError(f"{entry.repo} has no revision {revision}; the catalogue entry is out of date") from exc
        except EntryNotFoundError as exc:
            raise ModelError(f"{entry.repo} at {revision} has no file {name}; the catalogue entry is out of date") \
                from exc
        except HfHubHTTPError as exc:
            raise ModelError(f"the hub refused {url}: {str(exc).splitlines()[0]}") from exc
        if not meta.commit_hash:
            raise ModelError(f"{endpoint} did not answer like a model hub (no X-Repo-Commit header for {url}); "
                             "check HF_ENDPOINT")
        revision = meta.commit_hash  # every further file from the same commit
        etag = (meta.etag or "").lower()
        out.append(_Remote(name, meta.commit_hash, meta.size, etag if _is_hex(etag, 64) else None,
                           etag if _is_hex(etag, 40) else None))
    return out


def pull(entry: CatalogEntry, *, endpoint: str | None = None, tqdm_class: Any = None,
         progress: Callable[[str], None] | None = None) -> Path:
    """Download ``entry`` from the hub, check every file's hash and install it atomically.

    Args:
        entry: a catalogue entry that is not bundled.
        endpoint: the hub URL (default :func:`hub_endpoint`).
        tqdm_class: progress bar class passed to ``hf_hub_download`` (default: huggingface_hub's tqdm).
        progress: called with one line per step (``checking``, ``downloading FILE``, ``verifying``).

    Returns:
        :func:`installed_path` of the entry.

    Raises:
        HubUnreachable: offline, or the hub did not answer (nothing downloaded).
        ModelError: a bundled entry, a file the hub does not have, a hash that disagrees with the
            catalogue (nothing installed), or a full disk.
    """
    import httpx2
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    if entry.bundled:
        raise ModelError(f"{entry.name} is bundled with the install; nothing to pull (`assistant models setup`)")
    endpoint = (endpoint or hub_endpoint()).rstrip("/")
    say = progress or (lambda _line: None)
    staging = models_root() / ".incoming" / entry.name
    with _online():
        say(f"checking {entry.repo} on {endpoint}")
        remote = _remote_files(entry, endpoint)
        commit = remote[-1].commit
        for r in remote:
            pinned = entry.sha256.get(r.file)
            if pinned and r.sha256 and pinned != r.sha256:
                raise ModelError(f"the hub serves {entry.repo}/{r.file} with sha256 {r.sha256[:12]}..., but the "
                                 f"catalogue pins {pinned[:12]}...; not downloaded (the file changed upstream)")
            if not pinned and not r.sha256 and not r.git_sha1:
                raise ModelError(f"{endpoint} gave no content hash for {r.file}; it cannot be verified, so it is "
                                 "not downloaded")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        files: dict[str, dict[str, object]] = {}
        try:
            for r in remote:
                say(f"downloading {r.file}")
                try:
                    got = Path(hf_hub_download(entry.repo, r.file, revision=commit, local_dir=staging,
                                               endpoint=endpoint, tqdm_class=tqdm_class))
                except (httpx2.TransportError, LocalEntryNotFoundError) as exc:
                    raise _unreachable(endpoint, exc) from exc
                except OSError as exc:  # disk full, size check of huggingface_hub, HTTP errors
                    raise ModelError(f"downloading {r.file} failed: {str(exc).splitlines()[0]}") from exc
                say(f"verifying {r.file}")
                files[r.file] = _check(entry, r, got)
            shutil.rmtree(staging / ".cache", ignore_errors=True)
            record = {"name": entry.name, "repo": entry.repo, "revision": commit, "endpoint": endpoint,
                      "role": entry.role, "pulled": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                      "files": files}
            (staging / MANIFEST).write_text(json.dumps(record, indent=2), encoding="utf-8")
            _install(staging, installed_dir(entry.name))
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return installed_path(entry)


def _check(entry: CatalogEntry, remote: _Remote, path: Path) -> dict[str, object]:
    """Hash a downloaded file against the catalogue and the hub; delete it and raise on a mismatch."""
    size = path.stat().st_size
    digest = sha256_file(path)
    expected = entry.sha256.get(remote.file) or remote.sha256
    problem = None
    if remote.size is not None and size != remote.size:
        problem = f"is {size} bytes, the hub announced {remote.size}"
    elif expected and digest != expected:
        problem = f"has sha256 {digest}, expected {expected}"
    elif not expected and remote.git_sha1 and git_blob_sha1(path) != remote.git_sha1:
        problem = f"does not match the hub's git blob id {remote.git_sha1}"
    elif remote.file.endswith(".gguf") and _magic(path) != b"GGUF":
        problem = "is not a GGUF file"
    if problem:
        path.unlink(missing_ok=True)
        raise ModelError(f"the downloaded {remote.file} {problem}; it was deleted and {entry.name} was not "
                         "installed (try the pull again; if it repeats, the catalogue entry is wrong)")
    st = path.stat()
    return {"size": size, "sha256": digest, "mtime_ns": st.st_mtime_ns}


def _magic(path: Path) -> bytes:
    with path.open("rb") as fh:
        return fh.read(4)


def _install(staging: Path, target: Path) -> None:
    """Rename ``staging`` to ``target`` (same file system); an older copy is moved aside first."""
    old = target.with_name(f".old-{target.name}")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        os.replace(target, old)
    os.replace(staging, target)
    shutil.rmtree(old, ignore_errors=True)


def verify(entry: CatalogEntry, *, full: bool = True,
           progress: Callable[[int, int], None] | None = None) -> list[str]:
    """Problems with the pulled ``entry`` (an empty list when it verifies).

    ``full`` re-hashes every file (SHA-256 against the manifest and the catalogue); otherwise a file whose
    size and mtime are those recorded at its last full check is taken as good.
    """
    m = manifest(entry.name)
    if m is None:
        return [f"{entry.name} is not pulled (`assistant models pull {entry.name}`)"]
    folder = installed_dir(entry.name)
    problems = []
    changed = False
    for name, rec in m.get("files", {}).items():
        path = folder / name
        if not path.is_file():
            problems.append(f"{path} is missing")
            continue
        st = path.stat()
        if st.st_size != rec.get("size"):
            problems.append(f"{path} is {st.st_size} bytes, expected {rec.get('size')}")
            continue
        if not full and st.st_mtime_ns == rec.get("mtime_ns"):
            continue
        digest = sha256_file(path, progress)
        expected = entry.sha256.get(name) or rec.get("sha256")
        if digest != expected:
            problems.append(f"{path} has sha256 {digest[:12]}..., expected {str(expected)[:12]}...")
        elif st.st_mtime_ns != rec.get("mtime_ns"):
            rec["mtime_ns"] = st.st_mtime_ns
            changed = True
    if changed:
        (folder / MANIFEST).write_text(json.dumps(m, indent=2), encoding="utf-8")
    return problems


def remove(entry: CatalogEntry) -> Path:
    """Delete the pulled ``entry``'s folder; returns it.

    Raises:
        ModelError: a bundled entry, or nothing pulled under that name.
    """
    if entry.bundled:
        raise ModelError(f"{entry.name} is bundled with the install and cannot be removed here")
    folder = installed_dir(entry.name)
    if not folder.exists():
        raise ModelError(f"{entry.name} is not pulled; nothing to remove")
    shutil.rmtree(folder)
    return folder
