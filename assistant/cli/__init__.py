"""The ``assistant`` command line: one module per command group; :func:`main` is the entry point."""

from assistant.cli.main import main

__all__ = ["main"]
