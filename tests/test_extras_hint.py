"""The command that installs an optional copyleft reader names this install's own programs: the install
script's ``--with`` switch and the checkout's ``.venv`` pip, never a bare ``pip`` or PyPI's unrelated
``assistant`` project."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from assistant.documents import extract, extras
from assistant.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def test_from_the_checkout_the_install_script_and_the_venv_pip(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    venv = tmp_path / "my venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "pip").write_text("")
    monkeypatch.setattr(sys, "prefix", str(venv))
    assert extras.install_command("msg", "extract-msg") == (
        f"bash {ROOT}/packaging/install.sh --with msg  (or  '{venv}/bin/pip' install -e '{ROOT}[msg]')")


def test_outside_a_checkout_this_pythons_pip_with_the_extras_requirement(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    monkeypatch.setattr(extras, "checkout_root", lambda: None)
    monkeypatch.setattr(sys, "prefix", str(tmp_path))  # no bin/pip there: python -m pip
    command = extras.install_command("tnef", "tnefparse")
    assert command == f"{sys.executable} -m pip install 'tnefparse>=1.4'"  # the requirement in pyproject.toml
    assert "assistant[" not in command


@pytest.mark.parametrize("module, name, data, extra", [
    ("extract_msg", "mail.msg", b"\xd0\xcf\x11\xe0", "msg"),
    ("tnefparse", "winmail.dat", b"\x78\x9f\x3e\x22rest", "tnef")])
def test_a_file_that_needs_a_missing_extra_names_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             module: str, name: str, data: bytes,
                                                             extra: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InputError) as caught:
        extract(path)
    reason = caught.value.reason
    assert f"need the optional {extra} extra" in reason
    assert f"install it with  bash {ROOT}/packaging/install.sh --with {extra}  (or  " in reason
    assert reason.endswith(f" install -e '{ROOT}[{extra}]')") and "pip install 'assistant[" not in reason


def test_the_formats_page_gives_the_same_commands() -> None:
    page = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    assert "pip install 'assistant[" not in page
    assert "packaging/install.sh --with msg" in page and "packaging/install.sh --with tnef" in page
