"""``assistant models setup|status``: assemble and verify the bundled LLM, show where models are."""

from __future__ import annotations

from pathlib import Path

from assistant.config import load_settings
from assistant.errors import ModelError
from assistant.models import locate
from assistant.progress import TerminalRenderer
from assistant.records import Progress


def run_models(action: str) -> int:
    """Run ``action`` (``setup`` or ``status``); returns the exit status."""
    renderer = TerminalRenderer()
    if action == "setup":
        ready = locate.assemble_llm(lambda done, total: renderer(Progress("assemble", done, total, "B")))
        renderer.close()
        print(f"bundled model ready: {ready} (sha256 verified)")
        return 0
    settings = load_settings()
    rows = [("llm (bundled 1.5B)", lambda: locate.bundled_llm_path()),
            ("llm (fast 135M)", locate.fast_llm_path),
            ("embedder", lambda: locate.embedder_dir(settings.models)),
            ("encoder", lambda: locate.encoder_dir(settings.models))]
    status = 0
    for name, find in rows:
        path: Path | None = None
        try:
            path = find()
            state = "ok" if path.exists() else "missing (run `assistant models setup`)"
        except ModelError as exc:
            path, state, status = None, str(exc), 1
        print(f"{name:20} {path or '-'}  {state}")
    return status
