"""A loopback OAuth 2.0 provider and a Dovecot that checks its tokens (Dovecot's oauth2 passdb, 2.3).

The provider has an authorization endpoint (answers with a redirect carrying a code, RFC 6749 §4.1.2),
a token endpoint (authorization_code with PKCE S256 checked, RFC 7636 §4.6; refresh_token), and an
introspection endpoint (RFC 7662) that Dovecot posts each token to. Tokens can be revoked or expired.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import subprocess
import tempfile
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from dovecot import CONFIG, Dovecot, free_port, make_certificate

OAUTH2_PASSDB = """passdb {{
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = {root}/dovecot-oauth2.conf.ext
}}
userdb {{"""

OAUTH2_EXT = """introspection_mode = post
introspection_url = {url}
username_attribute = username
active_attribute = active
active_value = true
force_introspection = yes
"""


@dataclass
class TokenServer:
    """The loopback provider. ``deny`` makes the authorization endpoint answer ``access_denied``."""

    user: str
    client_id: str = "test-client"
    deny: bool = False
    access: dict[str, str] = field(default_factory=dict)  # access token -> user
    refresh: dict[str, str] = field(default_factory=dict)  # refresh token -> user
    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (path, form) seen
    introspected: list[str] = field(default_factory=list)
    rotate: bool = True
    port: int = 0

    def start(self) -> TokenServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                parts = urllib.parse.urlsplit(self.path)
                q = {k: v[0] for k, v in urllib.parse.parse_qs(parts.query).items()}
                if parts.path != "/authorize":
                    self.send_error(404)
                    return
                self.send_response(302)
                self.send_header("Location", owner.authorize(q))
                self.end_headers()

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                form = {k: v[0] for k, v in urllib.parse.parse_qs(self.rfile.read(length).decode()).items()}
                owner.requests.append((self.path, form))
                status, body = owner.post(self.path, form)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self._server.server_address[1])
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def authorize(self, q: dict[str, str]) -> str:
        redirect = q["redirect_uri"]
        assert urllib.parse.urlsplit(redirect).hostname == "127.0.0.1", redirect  # RFC 8252 §7.3
        if self.deny:
            return f"{redirect}?error=access_denied&state={q['state']}"
        assert q["client_id"] == self.client_id and q["response_type"] == "code"
        assert q["code_challenge_method"] == "S256" and len(q["code_challenge"]) == 43
        code = secrets.token_urlsafe(16)
        self.codes[code] = {"challenge": q["code_challenge"], "redirect_uri": redirect, "scope": q["scope"]}
        return f"{redirect}?code={code}&state={q['state']}"

    def _issue(self, user: str, refresh: str | None = None) -> dict[str, Any]:
        access = secrets.token_urlsafe(24)
        self.access[access] = user
        if refresh is None or self.rotate:
            self.refresh.pop(refresh or "", None)
            refresh = secrets.token_urlsafe(24)
            self.refresh[refresh] = user
        return {"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh,
                "scope": "imap"}

    def post(self, path: str, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        if path == "/introspect":
            token = form.get("token", "")
            self.introspected.append(token)
            user = self.access.get(token)
            return 200, ({"active": "true", "username": user} if user else {"active": "false"})
        if path != "/token" or form.get("client_id") != self.client_id:
            return 400, {"error": "invalid_client"}
        if form.get("grant_type") == "authorization_code":
            grant = self.codes.pop(form.get("code", ""), None)
            verifier = form.get("code_verifier", "")
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
            if grant is None or grant["challenge"] != challenge or grant["redirect_uri"] != form.get("redirect_uri"):
                return 400, {"error": "invalid_grant"}
            return 200, self._issue(self.user)
        if form.get("grant_type") == "refresh_token":
            user = self.refresh.get(form.get("refresh_token", ""))
            if user is None:
                return 400, {"error": "invalid_grant", "error_description": "Token has been expired or revoked."}
            return 200, self._issue(user, form["refresh_token"])
        return 400, {"error": "unsupported_grant_type"}

    def revoke(self) -> None:
        """Revoke every token (as a person does at the provider's security page)."""
        self.access.clear()
        self.refresh.clear()

    def expire_access_tokens(self) -> None:
        """Access tokens stop working; refresh tokens still do."""
        self.access.clear()


def start_oauth_dovecot(tokens: TokenServer) -> Dovecot:
    """A Dovecot on 127.0.0.1 whose only passdb is oauth2, introspecting at ``tokens``."""
    root = Path(tempfile.mkdtemp(prefix="assistant-dovecot-oauth-"))
    root.chmod(0o755)
    cert, _ = make_certificate(root)
    user = tokens.user
    uid, gid = (65534, 65534) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    home = root / "home" / user
    (home / "Maildir").mkdir(parents=True)
    for p in (root / "home", home, home / "Maildir"):
        os.chown(p, uid, gid)
    imap, imaps = free_port(), free_port()
    dh = Path("/usr/share/dovecot/dh.pem")
    config = CONFIG.replace("auth_mechanisms = plain login", "auth_mechanisms = xoauth2 oauthbearer")
    start = config.index("passdb {{")
    end = config.index("userdb {{")
    config = config[:start] + OAUTH2_PASSDB + config[end + len("userdb {{"):]
    (root / "dovecot-oauth2.conf.ext").write_text(OAUTH2_EXT.format(url=f"{tokens.base}/introspect"))
    (root / "dovecot.conf").write_text(config.format(
        root=root, imap=imap, imaps=imaps, uid=uid, gid=gid, ssl_dh=f"ssl_dh = <{dh}" if dh.exists() else ""))
    subprocess.run(["dovecot", "-c", str(root / "dovecot.conf")], check=True,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Dovecot(root, imap, imaps, user, "", cert)
    server._wait_ready()
    return server
