"""Filler texts from the evaluation data folder (``--data``) past 1M tokens: NQ gold passages, essays."""

from __future__ import annotations

import gzip
import json
from pathlib import Path


def nq_passages(data_root: Path) -> list[str]:
    """Gold Wikipedia passages of NQ-open (``Title. text``), deduplicated, in file order."""
    out: dict[str, None] = {}
    with gzip.open(data_root / "qa" / "nq-open-oracle.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            for ctx in row.get("ctxs", []):
                if ctx.get("isgold", True):
                    out[f"{ctx.get('title', '')}. {ctx['text']}".strip()] = None
    return list(out)


def essays(data_root: Path) -> list[str]:
    """Paul Graham's essays, one paragraph per item."""
    paras: list[str] = []
    for path in sorted((data_root / "needle" / "PaulGrahamEssays").glob("*.txt")):
        paras.extend(p.strip() for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip())
    return paras
