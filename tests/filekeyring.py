"""A keyring backend of ours for tests that cross a process boundary: passwords in the JSON file named by
``ASSISTANT_TEST_KEYRING`` (select it with ``PYTHON_KEYRING_BACKEND=filekeyring.FileKeyring``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import keyring.errors
from keyring.backend import KeyringBackend


class FileKeyring(KeyringBackend):
    """Passwords in a JSON object keyed ``SERVICE/USERNAME`` (a real ``KeyringBackend``; tests only)."""

    priority = 1

    @property
    def path(self) -> Path:
        return Path(os.environ["ASSISTANT_TEST_KEYRING"])

    def _load(self) -> dict[str, str]:
        return json.loads(self.path.read_text()) if self.path.exists() else {}

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(f"{service}/{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        store = self._load()
        store[f"{service}/{username}"] = password
        self.path.write_text(json.dumps(store))

    def delete_password(self, service: str, username: str) -> None:
        store = self._load()
        if store.pop(f"{service}/{username}", None) is None:
            raise keyring.errors.PasswordDeleteError("no such password")
        self.path.write_text(json.dumps(store))
