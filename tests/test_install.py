"""packaging/install.sh registers the app in a temporary XDG home and the uninstall removes exactly that.

Runs the real script (``--register-only``: the existing .venv is used, nothing is downloaded) with HOME and
the XDG folders in a temporary directory. desktop-file-validate and appstreamcli run when installed (CI:
``apt-get install desktop-file-utils appstream``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import assistant.secrets
from assistant.config import APP_ID, config_dir, data_dir

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "packaging" / "install.sh"
COMMAND = ROOT / ".venv" / "bin" / "assistant"

pytestmark = pytest.mark.skipif(not COMMAND.exists(), reason="needs the installed .venv (packaging/install.sh)")


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("XDG_", "ASSISTANT_CONFIG_DIR", "ASSISTANT_DATA_DIR"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               XDG_STATE_HOME=str(home / "state"), PATH=os.environ["PATH"], **extra)
    return env


def _run(home: Path, *args: str, **extra: str) -> str:
    done = subprocess.run(["bash", str(SCRIPT), *args], env=_env(home, **extra), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _tree(home: Path) -> set[str]:
    return {str(p.relative_to(home)) for p in home.rglob("*")}


def _desktop_keys(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def test_register_installs_each_file_and_uninstall_removes_them(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    before = _tree(home)
    out = _run(home, "--register-only")
    assert "Registered org.ttrag.Assistant" in out
    data = home / "data"

    entry = data / "applications" / f"{APP_ID}.desktop"
    keys = _desktop_keys(entry)
    assert keys["Exec"] == f"{COMMAND} gui %F" and keys["TryExec"] == str(COMMAND)
    assert keys["Icon"] == APP_ID and keys["Type"] == "Application"
    mime_types = keys["MimeType"].split(";")
    for mime in ("application/pdf", "text/markdown", "message/rfc822",
                 "application/vnd.openxmlformats-officedocument.wordprocessingml.document"):
        assert mime in mime_types
    icon = data / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    assert icon.read_bytes() == (ROOT / "resources" / "icons" / f"{APP_ID}.svg").read_bytes()
    metainfo = data / "metainfo" / f"{APP_ID}.metainfo.xml"
    assert f"<id>{APP_ID}</id>" in metainfo.read_text()
    assert f'<launchable type="desktop-id">{APP_ID}.desktop</launchable>' in metainfo.read_text()
    assert (data / "mime" / "packages" / f"{APP_ID}.xml").exists()

    launcher = home / ".local" / "bin" / "assistant"
    assert os.access(launcher, os.X_OK)
    shown = subprocess.run([str(launcher), "--help"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and shown.stdout.startswith("usage: assistant")

    if shutil.which("desktop-file-validate"):  # the installed entry, with its absolute Exec
        done = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
    if shutil.which("update-desktop-database"):
        assert f"application/pdf={APP_ID}.desktop" in (data / "applications" / "mimeinfo.cache").read_text()
    if shutil.which("update-mime-database"):
        assert "application/vnd.ms-outlook:*.msg" in (data / "mime" / "globs2").read_text()

    again = _run(home, "--register-only")  # again: nothing new, the manifest lists each file once
    assert "belongs to another program" not in again  # its own launcher is recognised and refreshed
    manifest = (home / "state" / APP_ID / "install-manifest.txt").read_text().splitlines()
    assert len(manifest) == len(set(manifest)) and f"file {entry}" in manifest

    out = _run(home, "--uninstall")
    assert "Uninstalled" in out
    assert _tree(home) == before


def test_uninstall_leaves_what_was_there_before(tmp_path: Path) -> None:
    home = tmp_path / "home"
    apps = home / "data" / "applications"
    apps.mkdir(parents=True)
    other = apps / "viewer.desktop"
    other.write_text("[Desktop Entry]\nType=Application\nName=Viewer\nExec=viewer %f\nMimeType=application/pdf;\n")
    theirs = home / ".local" / "bin" / "assistant"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("#!/bin/sh\necho another program\n")
    before = _tree(home)

    out = _run(home, "--register-only")
    assert "belongs to another program" in out
    assert theirs.read_text() == "#!/bin/sh\necho another program\n"
    _run(home, "--uninstall")

    after = _tree(home)
    if shutil.which("update-desktop-database"):  # the cache now lists the other entry only
        after.discard("data/applications/mimeinfo.cache")
        cache = (apps / "mimeinfo.cache").read_text()
        assert "viewer.desktop" in cache and APP_ID not in cache
    assert after == before
    assert other.read_text().startswith("[Desktop Entry]")


def test_purge_removes_settings_caches_and_the_accounts_passwords(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    store = tmp_path / "keyring.json"
    kept = {"other-app/work": "keep", "assistant/someone-else": "keep"}
    secrets = {"assistant/work": "s3cret", "assistant/old": "0ld", **kept}
    if hasattr(assistant.secrets, "delete_refresh_token"):  # OAuth accounts' sign-in tokens go too
        secrets["assistant/work/oauth2-refresh-token"] = "token"
    store.write_text(json.dumps(secrets))
    keyring_env = {"PYTHON_KEYRING_BACKEND": "filekeyring.FileKeyring", "ASSISTANT_TEST_KEYRING": str(store),
                   "PYTHONPATH": str(ROOT / "tests")}
    account = '[accounts.{0}]\nhost = "imap.example.org"\nusername = "{0}@example.org"\n'
    # the current folders and the older "assistant" ones, as an earlier version left them
    for folder, name in ((home / "config" / APP_ID, "work"), (home / "config" / "assistant", "old")):
        folder.mkdir(parents=True)
        (folder / "accounts.toml").write_text(account.format(name))
    for folder in (home / "data" / APP_ID / "mail", home / "data" / "assistant" / "models"):
        folder.mkdir(parents=True)
        (folder / "kept.bin").write_bytes(b"x")

    _run(home, "--register-only")
    _run(home, "--uninstall", **keyring_env)  # without --purge: settings, caches and passwords stay
    assert (home / "config" / APP_ID / "accounts.toml").exists()
    assert (home / "data" / APP_ID / "mail" / "kept.bin").exists()
    assert json.loads(store.read_text())["assistant/work"] == "s3cret"

    _run(home, "--register-only")
    out = _run(home, "--uninstall", "--purge", **keyring_env)
    tokens = 2 if "assistant/work/oauth2-refresh-token" in secrets else 1
    assert f"removed {tokens} secret(s) of account work" in out and "removed 1 secret(s) of account old" in out
    assert json.loads(store.read_text()) == kept
    for gone in ("config/" + APP_ID, "config/assistant", "data/" + APP_ID, "data/assistant"):
        assert not (home / gone).exists(), gone
    assert not list((home / "data").rglob("*"))


def test_qt_check_prints_the_one_install_command(tmp_path: Path) -> None:
    fake_ldd = tmp_path / "ldd"  # ldd as it answers on a minimal X11 system
    fake_ldd.write_text("#!/bin/sh\ncat <<'EOF'\n"
                        "\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x0001)\n"
                        "\tlibxcb-icccm.so.4 => not found\n"
                        "\tlibxcb-keysyms.so.1 => not found\n"
                        "\tlibxkbcommon-x11.so.0 => not found\n"
                        "\tlibxcb-cursor.so.0 => not found\n"
                        "\tlibxcb-icccm.so.4 => not found\n"
                        "EOF\n")
    fake_ldd.chmod(0o755)
    out = _run(tmp_path, "--check-qt", LDD=str(fake_ldd))
    assert "libxcb-icccm.so.4" in out and "libxcb-keysyms.so.1" in out
    assert "  sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0\n" in out

    out = _run(tmp_path, "--check-qt")  # the real plugin on this machine: complete, or one command
    assert "has all its libraries" in out or "\n  sudo apt install libxcb" in out


def test_app_id_is_the_same_everywhere() -> None:
    assert APP_ID == "org.ttrag.Assistant"
    packaging = ROOT / "packaging"
    assert sorted(p.name for p in packaging.iterdir() if p.name.startswith("org.")) == [
        f"{APP_ID}.desktop", f"{APP_ID}.metainfo.xml", f"{APP_ID}.mime.xml"]
    assert _desktop_keys(packaging / f"{APP_ID}.desktop")["Icon"] == APP_ID
    assert (ROOT / "resources" / "icons" / f"{APP_ID}.svg").exists()
    assert not list(ROOT.glob("packaging/com.example.*")) and not list(ROOT.glob("resources/icons/com.example.*"))
    assert "APP_ID" in (ROOT / "assistant" / "gui" / "app.py").read_text()


def test_settings_folders_are_named_by_the_app_id_and_older_ones_still_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASSISTANT_CONFIG_DIR", raising=False)
    monkeypatch.delenv("ASSISTANT_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert config_dir() == tmp_path / "config" / APP_ID and data_dir() == tmp_path / "data" / APP_ID
    (tmp_path / "config" / "assistant").mkdir(parents=True)  # an earlier version's folder
    assert config_dir() == tmp_path / "config" / "assistant"
    (tmp_path / "config" / APP_ID).mkdir()
    assert config_dir() == tmp_path / "config" / APP_ID


@pytest.mark.parametrize("tool", ["desktop-file-validate", "appstreamcli"])
def test_packaging_files_validate(tool: str) -> None:
    if not shutil.which(tool):
        pytest.skip(f"{tool} is not installed (apt-get install desktop-file-utils appstream)")
    if tool == "desktop-file-validate":
        args = [tool, str(ROOT / "packaging" / f"{APP_ID}.desktop")]
    else:
        args = [tool, "validate", "--no-net", str(ROOT / "packaging" / f"{APP_ID}.metainfo.xml")]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
