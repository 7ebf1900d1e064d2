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


# -- the system programs the tests use (packaging/system-packages.sh, run by install.sh --test) ----------------
PACKAGES = "dovecot-imapd openssl tesseract-ocr desktop-file-utils appstream"
PROGRAMS = {"dovecot-imapd": "dovecot", "openssl": "openssl", "tesseract-ocr": "tesseract",
            "desktop-file-utils": "desktop-file-validate", "appstream": "appstreamcli"}


def _fake_system(tmp_path: Path, *, uid: int, sudo_without_password: bool, apt: bool = True,
                 present: tuple[str, ...] = ()) -> tuple[Path, Path]:
    """A PATH holding only fakes: ``id``, ``sudo`` and ``apt-get`` (which "installs" a package by putting its
    program there), and the programs ``present``; the calls are written to the returned log."""
    bin_dir, log = tmp_path / "bin", tmp_path / "calls.log"
    bin_dir.mkdir()
    log.write_text("")

    def script(name: str, body: str) -> None:
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)

    script("id", f'[ "$1" = -u ] && echo {uid}')
    script("sudo", f'echo "sudo $*" >>{log}\n[ "$1" = -n ] && shift\n[ "$1" = true ] && exit '
                   f'{0 if sudo_without_password else 1}\n'
                   'while case "$1" in *=*) export "$1" ;; *) false ;; esac; do shift; done\nexec "$@"')
    if apt:
        installs = "".join(f'    {pkg}) printf "#!/bin/sh\\n" >{bin_dir}/{prog}; chmod 755 {bin_dir}/{prog} ;;\n'
                           for pkg, prog in PROGRAMS.items())
        script("apt-get", f'echo "apt-get $* uid=$(id -u) frontend=$DEBIAN_FRONTEND" >>{log}\n'
                          f'[ "$1" = install ] || exit 0\nfor p in "$@"; do\n  case $p in\n{installs}  esac\ndone')
    for prog in present:
        script(prog, "exit 0")
    return bin_dir, log


def _system_packages(bin_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([shutil.which("bash") or "/bin/bash", str(ROOT / "packaging" / "system-packages.sh")],
                          env={"PATH": str(bin_dir), "HOME": str(bin_dir.parent), **env}, capture_output=True,
                          text=True, timeout=60)


def test_the_test_programs_are_installed_with_apt_get_as_root(tmp_path: Path) -> None:
    bin_dir, log = _fake_system(tmp_path, uid=0, sudo_without_password=False)
    done = _system_packages(bin_dir, REQUIRE_TEST_PACKAGES="1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"with apt-get as root: {PACKAGES}" in done.stdout and f"Installed: {PACKAGES}." in done.stdout
    assert log.read_text().splitlines() == ["apt-get update -qq uid=0 frontend=",
                                            f"apt-get install -y -qq {PACKAGES} uid=0 frontend=noninteractive"]
    again = _system_packages(bin_dir)  # all there now: nothing to do
    assert "are all installed" in again.stdout and len(log.read_text().splitlines()) == 2


def test_the_test_programs_are_installed_through_sudo_when_it_asks_no_password(tmp_path: Path) -> None:
    bin_dir, log = _fake_system(tmp_path, uid=1000, sudo_without_password=True, present=("openssl", "appstreamcli"))
    done = _system_packages(bin_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "with sudo (it needs no password here): dovecot-imapd tesseract-ocr desktop-file-utils" in done.stdout
    calls = log.read_text().splitlines()
    assert "sudo -n apt-get update -qq" in calls
    assert "sudo -n DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dovecot-imapd tesseract-ocr " \
           "desktop-file-utils" in calls
    assert "apt-get install -y -qq dovecot-imapd tesseract-ocr desktop-file-utils uid=1000 " \
           "frontend=noninteractive" in calls


def test_without_root_or_sudo_it_says_what_is_missing_the_command_and_what_skips(tmp_path: Path) -> None:
    bin_dir, log = _fake_system(tmp_path, uid=1000, sudo_without_password=False, present=("tesseract",))
    done = _system_packages(bin_dir)
    assert done.returncode == 0, done.stdout + done.stderr  # the install goes on
    out = done.stdout
    assert "sudo here asks for a password" in out
    assert "Missing: dovecot-imapd openssl desktop-file-utils appstream." in out
    assert "  Install them with: sudo apt-get install dovecot-imapd openssl desktop-file-utils appstream\n" in out
    assert "- without dovecot: the mail tests" in out and "- without appstreamcli: the check of the AppStream" in out
    assert "tesseract" not in out.split("Missing:")[1]
    assert "apt-get" not in log.read_text()  # nothing was tried: sudo -n only asked whether it may
    required = _system_packages(bin_dir, REQUIRE_TEST_PACKAGES="1")  # CI: a missing program is an error
    assert required.returncode == 1 and "still missing: dovecot-imapd" in required.stderr


def test_without_apt_get_it_names_the_packages_for_another_package_manager(tmp_path: Path) -> None:
    bin_dir, _ = _fake_system(tmp_path, uid=0, sudo_without_password=False, apt=False)
    done = _system_packages(bin_dir)
    assert done.returncode == 0 and "No apt-get on this system" in done.stdout
    assert "your system's package manager" in done.stdout and "- without tesseract:" in done.stdout


def test_install_test_runs_the_system_programs_step() -> None:
    script = SCRIPT.read_text()
    assert 'bash "$ROOT/packaging/system-packages.sh"' in script
    assert "\ntest_programs\n" in script.split("# --- the install ---")[1]


def test_pytest_sums_up_the_tests_skipped_for_a_missing_program() -> None:
    from conftest import missing_program_skips

    reasons = ["dovecot or openssl is not installed (apt-get install dovecot-imapd openssl)"] * 3 + [
        "tesseract is not installed (apt-get install tesseract-ocr)", "evaluation data not present at /x",
        "appstreamcli is not installed (apt-get install desktop-file-utils appstream)"]
    lines = missing_program_skips(reasons)
    assert lines[0] == "5 tests skipped: they need a program not installed on this computer:"
    assert lines[1].split() == ["3", "dovecot", "or", "openssl"] and "tesseract" in lines[2]
    assert "sudo apt-get install dovecot-imapd openssl tesseract-ocr desktop-file-utils appstream" in lines[-1]
    assert "install.sh --test" in lines[-1]
    assert missing_program_skips(["evaluation data not present at /x"]) == []


# -- the optional copyleft readers (--with msg / tnef) -----------------------------------------------------------

_FAKE_PYTHON = r"""#!/usr/bin/env bash
# Stands in for .venv/bin/python: pip calls are logged, versions come from the constraints, nothing installs.
here=$(cd "$(dirname "$0")/../.." && pwd)
case " $* " in
  *" -m pip "*) printf '%s\n' "$*" >>"$PIP_LOG" ;;
  *importlib.metadata*) sed -n "s/^${@: -1}==//p" "$here/packaging/constraints.txt" ;;
  *"import torch"*) echo CPU ;;
  *bundled_llm_path*) echo "$FAKE_MODEL" ;;
  *) exit 1 ;;
esac
"""


def _fake_checkout(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the packaging files with a stand-in .venv, so that the whole install runs in seconds."""
    root = tmp_path / "checkout"
    shutil.copytree(ROOT / "packaging", root / "packaging")
    icons = root / "resources" / "icons"
    icons.mkdir(parents=True)
    shutil.copy(ROOT / "resources" / "icons" / f"{APP_ID}.svg", icons)
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(_FAKE_PYTHON)
    (bin_dir / "assistant").write_text("#!/bin/sh\nexit 0\n")
    for tool in ("python", "assistant"):
        (bin_dir / tool).chmod(0o755)
    (bin_dir / "activate").write_text(f'export PATH="{bin_dir}:$PATH"\n')
    model = tmp_path / "model.gguf"
    model.write_bytes(b"GGUF")
    return root, model


@pytest.mark.parametrize("args, extras", [(["--with", "msg"], "gui,msg"), (["--with=msg,tnef"], "gui,msg,tnef"),
                                          (["--with", "tnef", "--with", "msg", "--with", "tnef"], "gui,tnef,msg")])
def test_with_installs_the_optional_readers_into_the_venv(tmp_path: Path, args: list[str], extras: str) -> None:
    root, model = _fake_checkout(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    log = tmp_path / "pip.log"
    done = subprocess.run(["bash", str(root / "packaging" / "install.sh"), *args], capture_output=True, text=True,
                          env=_env(home, PIP_LOG=str(log), FAKE_MODEL=str(model)), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"(extras: {extras})" in done.stdout
    installs = [line for line in log.read_text().splitlines() if " -e " in line]
    assert installs == [f"-m pip --disable-pip-version-check -q install -c {root}/packaging/constraints.txt "
                        f"-e .[{extras}]"]


@pytest.mark.parametrize("args, said", [(["--with"], "--with needs an extra: msg, tnef"),
                                        (["--with", "zip"], "unknown extra zip for --with"),
                                        (["--with", "msg", "--register-only"], "--with goes with an install")])
def test_with_refuses_what_it_cannot_install(tmp_path: Path, args: list[str], said: str) -> None:
    done = subprocess.run(["bash", str(SCRIPT), *args], env=_env(tmp_path), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and said in done.stderr
    assert not (tmp_path / "state").exists()  # refused before anything was written


def test_the_usage_names_the_with_switch() -> None:
    usage = SCRIPT.read_text().split("set -euo pipefail")[0]
    assert "--with EXTRA" in usage and "msg (Outlook .msg files" in usage and "tnef (winmail.dat" in usage
