"""Markdown tables, JSON and PNG plots of evaluation results (plots need matplotlib: the ``eval`` extra)."""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

METRICS = ("R@1", "R@3", "R@10", "all@3", "MRR")


def machine() -> str:
    """One line describing this machine (CPU model, cores, RAM, Python)."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem = next(int(x.split()[1]) for x in Path("/proc/meminfo").read_text().splitlines()
                   if x.startswith("MemTotal")) / 2**20
        ram = f", {mem:.0f} GiB RAM"
    except (OSError, StopIteration, ValueError):
        ram = ""
    return f"{cpu}, {os.cpu_count()} cores{ram}, no GPU used, Python {platform.python_version()}"


def fmt(x: object, nd: int = 3) -> str:
    return f"{x:.{nd}f}" if isinstance(x, float) else str(x)


def recall_order(results: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Plain systems first (in a fixed order), then CE variants by dev R@3, then MRR (best first)."""
    plain = [s for s in ("bm25", "exact scan", "dense-everything", "dense10", "rrf20") if s in results]
    ce = [s for s in results if s not in plain]
    key = "dev" if all("dev" in results[s] for s in ce) else "all"
    ce.sort(key=lambda s: (-results[s][key]["R@3"], -results[s][key]["MRR"], s))
    return plain + ce


def recall_table(results: Mapping[str, Mapping[str, Any]], systems: Sequence[str], splits: Sequence[str]) -> list[str]:
    head = "| system | " + " | ".join(f"{sp} {m}" for sp in splits for m in METRICS) + " | median s/query |"
    lines = [head, "|---" * (2 + len(splits) * len(METRICS)) + "|"]
    for s in systems:
        lat = results[s].get("latency", {}).get("p50")
        cells = [fmt(results[s][sp][m]) if sp in results[s] else "-" for sp in splits for m in METRICS]
        lines.append(f"| {s} | " + " | ".join(cells) + f" | {fmt(lat) if lat is not None else '-'} |")
    return lines


def summary_table(summary: Mapping[str, object]) -> list[str]:
    """A ``| measure | value |`` table: a (value, low, high) tuple as ``0.460 [0.32, 0.60]`` (a figure and its
    bootstrap interval), a float to one decimal (seconds), anything else as it is."""
    lines = ["| measure | value |", "|---|---|"]
    for k, v in summary.items():
        if isinstance(v, tuple):
            cell = f"{v[0]:.3f} [{v[1]:.2f}, {v[2]:.2f}]"
        else:
            cell = f"{v:.1f}" if isinstance(v, float) else str(v)
        lines.append(f"| {k} | {cell} |")
    return lines


def latency_table(rows: Mapping[str, Mapping[str, float]]) -> list[str]:
    lines = ["| stage | n | mean s | p50 s | p95 s | p99 s |", "|---|---|---|---|---|---|"]
    for name, st in rows.items():
        lines.append(f"| {name} | {int(st['n'])} | {st['mean']:.3f} | {st['p50']:.3f} | {st['p95']:.3f} | "
                     f"{st['p99']:.3f} |")
    return lines


def answers_table(summary: Mapping[str, Mapping[str, Any]]) -> list[str]:
    lines = ["| system | n | EM | token F1 | gold contained | gold key stated | not found (answerable) | "
             "not found (unanswerable) | supported by cited passages | gold R@3 of first read | gold ever read | "
             "LLM calls | prompt tokens | first token s p50 / p95 | end-to-end s mean / p50 / p95 |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]

    def opt(v: Any) -> str:
        return "-" if v is None or v != v else f"{v:.3f}"

    for name, r in summary.items():
        t, f = r["total_s"], r["first_token_s"]
        lines.append(f"| {name} | {r['n']} | {opt(r['EM'])} | {opt(r['F1'])} | {opt(r['contained'])} | "
                     f"{opt(r.get('key'))} | {opt(r['not_found'])} | {opt(r.get('not_found_unanswerable'))} | "
                     f"{opt(r.get('supported'))} | "
                     f"{r['R@3 first read']:.3f} | {r['gold ever read']:.3f} | "
                     f"{r['llm_calls']:.1f} | {r['prompt_tokens']:.0f} | {f['p50']:.1f} / {f['p95']:.1f} | "
                     f"{t['mean']:.1f} / {t['p50']:.1f} / {t['p95']:.1f} |")
    return lines


def write(out: Path, markdown: Sequence[str], data: Mapping[str, Any]) -> tuple[Path, Path]:
    """``out``.md and ``out``.json (the folder is created)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    md, js = out.with_suffix(".md"), out.with_suffix(".json")
    md.write_text("\n".join(markdown) + "\n", encoding="utf-8")
    js.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
    return md, js


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def bar_plot(path: Path, title: str, groups: Mapping[str, Mapping[str, float]], ylabel: str) -> Path | None:
    """Grouped bars: ``groups`` = {system: {metric: value}}; returns the PNG path, or None without matplotlib."""
    plt = _pyplot()
    if plt is None:
        return None
    names = list(groups)
    metrics = list(next(iter(groups.values())))
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(names) + 2), 4.2), dpi=110)
    width = 0.8 / len(metrics)
    for j, m in enumerate(metrics):
        xs = [i + (j - (len(metrics) - 1) / 2) * width for i in range(len(names))]
        bars = ax.bar(xs, [groups[n][m] for n in names], width, label=m)
        ax.bar_label(bars, fmt="%.2f", fontsize=7)
    ax.set_xticks(range(len(names)), names, rotation=25, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 1.05)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))  # outside: never over a bar
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def line_plot(path: Path, title: str, xs: Sequence[float], series: Mapping[str, Sequence[float]], xlabel: str,
              ylabel: str, *, log: bool = True) -> Path | None:
    """Lines on log-log axes: ``series`` = {label: y per x}; returns the PNG path, or None without matplotlib."""
    plt = _pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    for label, ys in series.items():
        ax.plot(xs, ys, marker="o", label=label)
    if log:
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
