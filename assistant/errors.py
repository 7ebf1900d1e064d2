"""One exception tree for the assistant; every message says what to do next.

    AssistantError
     +-- InputError            a file cannot be read (missing, unreadable, empty, unsupported, corrupt)
     +-- ModelError            a model file is missing, corrupt or cannot be loaded
     +-- ConfigError           the settings file is invalid
     +-- Cancelled             the user cancelled a long operation
"""

from __future__ import annotations


class AssistantError(Exception):
    """Base of every error the assistant reports to a user."""


class InputError(AssistantError):
    """A file could not be read. The message names the file and the reason."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class ModelError(AssistantError):
    """A model is missing, corrupt (wrong hash, truncated) or failed to load."""


class ConfigError(AssistantError):
    """The settings file or an environment override is invalid."""


class Cancelled(AssistantError):
    """The operation was cancelled by the user."""

    def __init__(self) -> None:
        super().__init__("cancelled")
