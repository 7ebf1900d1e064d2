"""The package layout of docs/design.md §13, checked on the source's import statements."""

from __future__ import annotations

import ast
from pathlib import Path

import assistant

ROOT = Path(assistant.__file__).parent


def _imports(path: Path) -> set[str]:
    """Absolute module names imported by one source file (``from .x import`` resolved against its package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(("assistant",) + path.relative_to(ROOT).parent.parts)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                names.add(node.module)
    return names


def _offenders(folder: str, forbidden: str) -> list[str]:
    return sorted(f"{path.relative_to(ROOT)} imports {name}"
                  for path in (ROOT / folder).rglob("*.py")
                  for name in _imports(path)
                  if name == forbidden or name.startswith(forbidden + "."))


def test_the_readers_do_not_import_the_imap_side():
    assert _offenders("documents", "assistant.mail") == []


def test_ttrag_does_not_import_mail():
    """Dependencies point one way: ``ttrag`` works on records; what it shares with ``mail`` (subject
    normalisation) lives below both, in ``assistant.text``."""
    assert _offenders("ttrag", "assistant.mail") == []


def test_qt_is_imported_only_under_gui():
    offenders = [line for folder in ("documents", "mail", "ttrag", "models", "eval", "cli")
                 for line in _offenders(folder, "PySide6")]
    assert offenders == []


def test_the_checker_sees_an_import():
    """The checks above can fail: the imports they look for are found where they do occur."""
    assert "PySide6.QtWidgets" in _imports(ROOT / "gui" / "window_layout.py")
    assert "assistant.mail.drafts" in _imports(ROOT / "cli" / "draft.py")
    assert "assistant.text.subjects" in _imports(ROOT / "mail" / "threads.py")
