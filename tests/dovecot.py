"""A throwaway Dovecot IMAP server for tests (docs/design.md §12): IMAPS and STARTTLS on loopback, one user."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

CONFIG = """\
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
instance_name = assistant-test-{imaps}
ssl = yes
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
{ssl_dh}
disable_plaintext_auth = no
auth_mechanisms = plain login
# No delay after a wrong password (the tests fail logins on purpose; the per-IP penalty, ~4 s on the
# next login, remains).
auth_failure_delay = 0
mail_location = maildir:~/Maildir
first_valid_uid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Drafts {{
    special_use = \\Drafts
    auto = subscribe
  }}
  mailbox Sent {{
    special_use = \\Sent
    auto = subscribe
  }}
}}
protocol imap {{
  mail_max_userip_connections = 200
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    port = {imap}
  }}
  inet_listener imaps {{
    port = {imaps}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
"""


def free_port() -> int:
    """An unprivileged TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost: (cert.pem, key.pem)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    key.chmod(0o644)
    return cert, key


@dataclass
class Dovecot:
    """A running Dovecot: ports, the user and password, the trusted certificate."""

    root: Path
    imap_port: int
    imaps_port: int
    user: str
    password: str
    cert: Path

    @classmethod
    def start(cls, user: str = "alice", password: str = "Wonder-l4nd-S3cret!") -> Dovecot:
        root = Path(tempfile.mkdtemp(prefix="assistant-dovecot-"))
        root.chmod(0o755)  # Dovecot's unprivileged processes must read the config folder
        cert, _ = make_certificate(root)
        uid, gid = (65534, 65534) if os.geteuid() == 0 else (os.getuid(), os.getgid())
        home = root / "home" / user
        (home / "Maildir").mkdir(parents=True)
        for p in (root / "home", home, home / "Maildir"):
            os.chown(p, uid, gid)
        (root / "passwd").write_text(f"{user}:{{PLAIN}}{password}\n")
        imap, imaps = free_port(), free_port()
        dh = Path("/usr/share/dovecot/dh.pem")
        (root / "dovecot.conf").write_text(CONFIG.format(
            root=root, imap=imap, imaps=imaps, uid=uid, gid=gid,
            ssl_dh=f"ssl_dh = <{dh}" if dh.exists() else ""))
        subprocess.run(["dovecot", "-c", str(root / "dovecot.conf")], check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server = cls(root, imap, imaps, user, password, cert)
        server._wait_ready()
        return server

    def _wait_ready(self, timeout_s: float = 10.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.imap_port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.02)
        log = (self.root / "dovecot.log").read_text() if (self.root / "dovecot.log").exists() else ""
        raise RuntimeError(f"dovecot did not start: {log[-2000:]}")

    def halt(self) -> None:
        """Stop the server, keeping its mail (``resume`` starts it again on the same ports)."""
        self._kill()

    def resume(self) -> None:
        subprocess.run(["dovecot", "-c", str(self.root / "dovecot.conf")], check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_ready()

    def stop(self) -> None:
        self._kill()
        shutil.rmtree(self.root, ignore_errors=True)

    def _kill(self) -> None:
        pid_file = self.root / "run" / "master.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().strip())
            os.kill(pid, signal.SIGTERM)
            for _ in range(200):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.02)
