"""ZIP archives with :mod:`zipfile`: every member through the registry, recursively, within limits.

Zip bombs are refused before anything is decompressed (declared sizes against ``max_total_bytes`` and
``max_ratio``), and reading stops at the declared size, so a member that lies about its size cannot
expand past the limits either.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

from assistant.documents.base import (
    Extractor,
    check_cancel,
    current_limits,
    nested_segments,
    place,
    register,
    report,
)
from assistant.documents.limits import Limits, megabytes, raise_hint
from assistant.documents.sniff import not_a_package
from assistant.errors import InputError
from assistant.records import Segment

_CHUNK = 1 << 20


def _refusal(members: list[zipfile.ZipInfo], limits: Limits) -> str | None:
    if len(members) > limits.max_members:
        return f"refused: {len(members):,} members (limit {limits.max_members:,}); {raise_hint('max_members')}"
    total = sum(m.file_size for m in members)
    if total > limits.max_total_bytes:
        return (f"refused: possible zip bomb: {place()} expands to {megabytes(total)} uncompressed "
                f"(limit {megabytes(limits.max_total_bytes)}; {raise_hint('max_total_bytes')})")
    for m in members:
        ratio = m.file_size / max(m.compress_size, 1)
        if m.file_size > _CHUNK and ratio > limits.max_ratio:
            return (f"refused: possible zip bomb: {place(m.filename)} expands {ratio:,.0f}:1 "
                    f"(limit {limits.max_ratio:,.0f}:1; {raise_hint('max_ratio')})")
    return None


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    parts: list[bytes] = []
    size = 0
    with archive.open(info) as f:
        while chunk := f.read(_CHUNK):
            size += len(chunk)
            if size > info.file_size:
                raise InputError(info.filename, "refused: expands past its declared size (zip bomb)")
            parts.append(chunk)
    return b"".join(parts)


class ZipExtractor(Extractor):
    """Members in archive order; ``section`` is ``member: PATH``. Encrypted members are reported."""

    suffixes = (".zip",)
    isolate = True

    def segments(self, path: Path) -> Iterator[Segment]:
        try:
            archive = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise InputError(str(path), not_a_package(path, "a ZIP archive", exc)) from exc
        with archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            refusal = _refusal(members, current_limits())
            if refusal:
                raise InputError(str(path), refusal)
            for info in members:
                check_cancel()
                if info.flag_bits & 0x1:
                    report("encrypted archive member (password protected)", info.filename)
                    continue
                try:
                    data = _read_member(archive, info)
                except InputError as exc:
                    report(exc.reason, info.filename)
                    continue
                except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
                    report(f"corrupt archive member ({exc})", info.filename)
                    continue
                yield from nested_segments(info.filename, data, label="member")


register(ZipExtractor())
