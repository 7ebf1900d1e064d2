"""What the ``account`` and ``mail`` commands do (parsing is in :mod:`assistant.cli.mail`; ``draft`` is in
:mod:`assistant.cli.draft`)."""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import threading
from typing import TYPE_CHECKING

from assistant import netguard, secrets
from assistant.accounts import Account, add_account, get_account, load_accounts, remove_account
from assistant.documents.mime.parse import parse_message
from assistant.errors import AssistantError, ConfigError, SecretStoreError
from assistant.mail.autoconfig import ServerSettings
from assistant.mail.cache import CachedRef, FolderState, MailCache
from assistant.mail.connect import connector
from assistant.mail.gists import load_gist
from assistant.mail.pending import Delivered, PendingDrafts
from assistant.mail.sync import OFFLINE_REACHED, SyncResult, sync_account
from assistant.records import Message
from assistant.text.plural import count_of

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.gist import GistWorker
    from assistant.mail.gists import Gist


def read_password(args: argparse.Namespace, prompt: str) -> str:
    """The password from one line of stdin (``--password-stdin``) or a no-echo prompt."""
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return getpass.getpass(prompt)


def _found(args: argparse.Namespace) -> ServerSettings | None:
    """Settings found from the address (autoconfig) when no --host is given; printed for the person."""
    from assistant.mail.autoconfig import discover

    if args.host:
        return None
    address = args.user or args.name
    if "@" not in address:
        raise ConfigError(f"give your e-mail address (found: {address!r}) or the server with --host HOST --user USER")
    print(f"Looking up the mail server for {address}\u2026", file=sys.stderr)
    found = discover(address)
    print(f"Found {found.describe()}.\nTo change it, pass --host, --port, --security or --user.")
    if found.note:
        print(f"Note: {found.note}.")
    return found


def _open_browser(url: str) -> bool:
    import webbrowser

    print(f"Opening the sign-in page in your browser. If none opens, paste this address into a browser on this "
          f"computer:\n{url}", file=sys.stderr)
    return bool(webbrowser.open(url))


def account_add(args: argparse.Namespace) -> int:
    from assistant.mail import oauth

    if args.oauth:
        oauth.provider(args.oauth)  # an unknown name fails before any look-up
        if not args.client_id:
            raise ConfigError(f"--oauth {args.oauth} needs --client-id: the id you or your organisation "
                              "registered with the provider (see docs/mail.md)")
    found = _found(args)
    provider_key = args.oauth or ""
    if found and found.oauth_provider and not provider_key:
        if args.client_id:
            provider_key = found.oauth_provider
        elif found.oauth_provider == "microsoft":
            raise ConfigError("Microsoft accepts only sign-in (OAuth 2.0) for IMAP: register a client id (see "
                              "docs/mail.md) and run this again with --oauth microsoft --client-id ID")
    if provider_key and not args.client_id:
        raise ConfigError(f"--oauth {provider_key} needs --client-id: the id you or your organisation registered "
                          "with the provider (see docs/mail.md)")
    account = Account(args.name, args.host or (found.host if found else ""),
                      args.user or (found.username if found else args.name if "@" in args.name else ""),
                      security=args.security or (found.security if found else "ssl"),
                      port=args.port or (found.port if found else 0),
                      folders=tuple(args.folders or ("INBOX",)), drafts_folder=args.drafts_folder,
                      ca_file=args.ca_file, display_name=args.display_name,
                      auth="oauth2" if provider_key else "password", oauth_provider=provider_key,
                      oauth_client_id=args.client_id if provider_key else "", sasl_mechanism=args.sasl)
    where = f"{account.host}:{account.effective_port}, {account.security}"
    if provider_key:
        prov = oauth.provider(provider_key)
        oauth.sign_in(account.name, prov, args.client_id, client_secret=args.client_secret or None,
                      login_hint=account.username, open_browser=_open_browser)
        add_account(account)
        print(f"Signed in to {prov.title} as {account.username}; saved account {account.name} ({where}). The "
              f"sign-in token is in the OS keyring. Check it with `assistant account test {account.name}`.")
        return 0
    password = read_password(args, f"Password for {account.username} at {account.host}: ")
    secrets.set_password(account.name, password)
    add_account(account)
    print(f"Saved account {account.name} ({where}); "
          "the password is in the OS keyring. Check it with "
          f"`assistant account test {account.name}`.")
    return 0


mail_add = account_add


def account_list(args: argparse.Namespace) -> int:
    accounts = load_accounts()
    if args.json:
        print(json.dumps([{"name": a.name, "host": a.host, "port": a.effective_port, "security": a.security,
                           "username": a.username, "folders": list(a.folders), "drafts_folder": a.drafts_folder,
                           "ca_file": a.ca_file, "auth": a.auth, "oauth_provider": a.oauth_provider}
                          for a in accounts.values()], indent=2))
        return 0
    if not accounts:
        print("No accounts. Add one with `assistant account add NAME --host HOST --user USER`.")
    for a in accounts.values():
        auth = f", sign-in with {a.oauth_provider}" if a.auth == "oauth2" else ""
        print(f"{a.name}: {a.username} at {a.host}:{a.effective_port} ({a.security}{auth}), "
              f"folders {', '.join(a.folders)}")
    return 0


def account_remove(args: argparse.Namespace) -> int:
    removed = remove_account(args.name)
    try:
        secrets.delete_password(args.name)
        if removed.auth == "oauth2":
            from assistant.mail.oauth import sign_out

            sign_out(args.name)
    except SecretStoreError as exc:
        print(f"warning: {exc}", file=sys.stderr)
    print(f"Removed account {args.name}.")
    return 0


def account_test(args: argparse.Namespace) -> int:
    account = get_account(args.name)
    with netguard.purpose("testing the account"), connector(account)() as source:
        folders = source.folders()
        try:
            drafts = source.drafts_folder()
        except AssistantError as exc:
            drafts = f"none ({exc})"
        for name in account.folders:
            status = source.select(name)
            print(f"{name}: {status.exists} messages (UIDVALIDITY {status.uidvalidity})")
    print(f"OK: logged in to {account.host} as {account.username}; {len(folders)} folders; drafts: {drafts}")
    return 0


def _accounts(name: str | None) -> list[Account]:
    if name:
        return [get_account(name)]
    accounts = list(load_accounts().values())
    if not accounts:
        raise ConfigError("no mail account configured; add one with `assistant account add`")
    return accounts


def _report(results: list[SyncResult]) -> None:
    for r in results:
        reset = " (UIDVALIDITY changed: folder fetched again)" if r.reset else ""
        gone = f", {len(r.removed_uids)} removed (deleted or moved on the server)" if r.removed_uids else ""
        print(f"{r.account}/{r.folder}: {len(r.new_uids)} new{gone}{reset}", file=sys.stderr)


def _report_delivered(delivered: list[Delivered]) -> None:
    for d in delivered:
        how = "was already there" if d.already else "saved"
        print(f"{d.draft.account}: pending draft \"{d.draft.subject}\" {how} in {d.folder}", file=sys.stderr)


def mail_sync(args: argparse.Namespace) -> int:
    from assistant.progress import TerminalRenderer

    cache = MailCache()
    pending = PendingDrafts()
    accounts = _accounts(args.account)
    if args.watch:
        return _watch(args, accounts, cache, pending)
    if args.poll is not None:
        raise ConfigError("--poll goes with --watch: `assistant mail sync --watch --poll 60`")
    renderer = TerminalRenderer()
    for account in accounts:
        with netguard.purpose("mail sync"), connector(account)() as source:
            results = sync_account(source, cache, folders=args.folders or None, emit=renderer)
            delivered = pending.deliver(source)
        renderer.close()
        _report(results)
        _report_delivered(delivered)
    if netguard.is_offline():  # a sync that worked reached a server on this computer, and only that
        print(f"{OFFLINE_REACHED[:1].upper()}{OFFLINE_REACHED[1:]}.", file=sys.stderr)
    return 0


def _watch(args: argparse.Namespace, accounts: list[Account], cache: MailCache, pending: PendingDrafts) -> int:
    """``mail sync --watch``: every folder on its own connection; one line per new message on stdout, the
    rest on stderr; Ctrl-C stops. Exits 1 when every folder's watch ended on an error the person must fix."""
    from assistant.config import load_settings
    from assistant.mail.watch import FolderWatch, NewMessage, Watcher, plan_watches

    if args.poll is not None and args.poll < 1:
        raise ConfigError("--poll needs at least 1 second")
    settings = load_settings()
    cache.max_bytes = settings.mail.cache_mb * 1024**2
    plan = plan_watches(accounts, settings.mail.watch, connector, folders=args.folders,
                        mode="poll" if args.poll is not None else None, poll_s=args.poll)
    if not plan:
        raise ConfigError("nothing to watch: the watched folders in the settings ([[mail.watch]]) name other "
                          "accounts; pass --folder FOLDER or --account NAME")
    lock = threading.Lock()  # the folders' threads print whole lines, one at a time
    ended: list[str] = []

    def on_new(messages: list[NewMessage]) -> None:
        with lock:
            for m in messages:
                print(m.line(), flush=True)
        for m in messages:
            if m.attachments and gists is not None:
                gists.add(m.ref)

    def on_problem(watch: FolderWatch, exc: AssistantError, permanent: bool) -> None:
        with lock:
            if permanent:
                ended.append(watch.name)
                print(f"error: {watch.name}: {exc} (no longer watched)", file=sys.stderr, flush=True)
            else:
                print(f"warning: {watch.name}: {exc} (reconnecting)", file=sys.stderr, flush=True)

    def on_delivered(delivered: list[Delivered]) -> None:
        with lock:
            _report_delivered(delivered)

    ways = ", ".join(f"{w.name} ({'IDLE' if w.folder.mode == 'idle' else f'every {w.folder.poll_s:g} s'})"
                     for w in plan)
    print(f"Watching {ways}; one line per new message. Ctrl-C stops.", file=sys.stderr, flush=True)
    gists = None if args.no_gist or not settings.mail.gist else start_gists(settings, cache, lock)
    if gists is not None:
        print("The attachments of new messages are read in the background; each gist follows on stderr "
              "(--no-gist: not read).", file=sys.stderr, flush=True)
    watcher = Watcher(plan, cache, on_new=on_new, on_problem=on_problem, pending=pending,
                      on_delivered=on_delivered).start()
    try:
        while watcher.alive:
            watcher.join(0.5)
    except KeyboardInterrupt:
        watcher.stop()
        if gists is not None:
            gists.stop()  # a model call ends at its next token; loading a model is waited for
            gists.join(30)
        watcher.join(5)
        return 0
    return 1 if ended and len(ended) == len(plan) else 0


def start_gists(settings: Settings, cache: MailCache, lock: threading.Lock) -> GistWorker:
    """``mail sync --watch``'s gist worker: each gist on stderr as ``ID  gist: LINE`` once kept."""
    from assistant.gist import GistWorker
    from assistant.service import ModelStore

    def on_gist(ref: CachedRef, gist: Gist) -> None:
        with lock:
            print(f"{ref.id}  gist: {gist.text}", file=sys.stderr, flush=True)

    def on_error(ref: CachedRef, exc: AssistantError) -> None:
        with lock:
            print(f"warning: {ref.id}: no gist ({exc})", file=sys.stderr, flush=True)

    return GistWorker(ModelStore(settings), cache, on_gist=on_gist, on_error=on_error).start()


def mail_pending(args: argparse.Namespace) -> int:
    drafts = PendingDrafts().waiting(args.account)
    if not drafts:
        print("No drafts waiting: every draft reached its Drafts folder.")
    for d in drafts:
        print(f"{d.account:<12} {d.created:%Y-%m-%d %H:%M}  to {d.to[:30]:<30}  {d.subject}")
    if drafts:
        print(f"{count_of(len(drafts), 'draft')} kept on this computer; `assistant mail sync` saves them to Drafts.")
    return 0


def parse_id(message_id: str) -> tuple[str, str, int]:
    """``ACCOUNT:FOLDER:UID`` -> parts (a folder may itself contain colons).

    Raises:
        ConfigError: not in that form.
    """
    account, _, rest = message_id.partition(":")
    folder, _, uid = rest.rpartition(":")
    if not account or not folder or not uid.isdigit():
        raise ConfigError(f"{message_id!r} is not a message ID; use ACCOUNT:FOLDER:UID as `assistant mail list` "
                          "shows")
    return account, folder, int(uid)


def load_message(message_id: str, cache: MailCache | None = None) -> tuple[CachedRef, Message]:
    """The cached message ``message_id``, parsed.

    Raises:
        ConfigError: malformed ID, or the message is not in the cache.
    """
    cache = cache or MailCache()
    account, folder, uid = parse_id(message_id)
    ref = cache.find(account, folder, uid)
    raw = cache.get(ref) if ref else None
    if ref is None or raw is None:
        raise ConfigError(f"message {message_id} is not in the local cache; run `assistant mail sync` and "
                          "pick an ID from `assistant mail list`")
    return ref, parse_message(raw)


def _summary(ref: CachedRef, m: Message) -> dict[str, object]:
    return {"id": ref.id, "date": m.date.isoformat() if m.date else None, "from": m.sender,
            "subject": m.subject, "attachments": [a.filename for a in m.attachments]}


def mail_list(args: argparse.Namespace) -> int:
    cache = MailCache()
    refs = list(cache.refs(args.account))
    if args.new:
        states: dict[tuple[str, str], FolderState | None] = {}
        for r in refs:
            states.setdefault((r.account, r.folder), cache.state(r.account, r.folder))
        refs = [r for r in refs if (s := states[(r.account, r.folder)]) and r.uid > s.previous_uid]
    if args.limit:
        refs = refs[-args.limit:]
    rows = []
    depth: dict[str, int] = {}
    parsed = [(ref, parse_message(raw)) for ref in refs if (raw := cache.get(ref)) is not None]
    if args.threads:
        from assistant.mail.threads import group_threads, headers_of

        by_id = {ref.id: (ref, m) for ref, m in parsed}
        threads = group_threads([headers_of(m, ref.id) for ref, m in parsed])
        parsed = [by_id[key] for t in reversed(threads) for key in t.keys]  # newest conversation last
        depth = {key: int(i > 0) for t in threads for i, key in enumerate(t.keys)}
        roots = {key: t.root for t in threads for key in t.keys}
    for ref, m in parsed:
        gist = load_gist(cache, ref) if m.attachments else None
        rows.append(_summary(ref, m) | ({"thread": roots[ref.id]} if args.threads else {}) |
                    ({"gist": gist.text} if gist is not None and gist.text else {}))
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print("No messages" + (" new since the sync before last" if args.new else "") +
              ". Fetch mail with `assistant mail sync`.")
    for row in rows:
        date = str(row["date"] or "")[:16].replace("T", " ")
        clip = "  [+]" if row["attachments"] else ""
        indent = "  \u21B3 " if depth.get(str(row["id"])) else ""
        print(f"{row['id']:<24} {date:<16}  {str(row['from'])[:30]:<30}  {indent}{row['subject']}{clip}")
        if row.get("gist"):
            print(f"{'':<24} {'':<16}  {indent}{row['gist']}")
    return 0


def mail_show(args: argparse.Namespace) -> int:
    ref, m = load_message(args.id)
    print(f"From: {m.sender}\nTo: {', '.join(m.to)}")
    if m.cc:
        print(f"Cc: {', '.join(m.cc)}")
    print(f"Date: {m.date.isoformat() if m.date else ''}\nSubject: {m.subject}\nID: {ref.id}\n")
    print(m.body or "(no text)")
    for a in m.attachments:
        print(f"[attachment] {a.filename} ({a.content_type}, {a.size:,} bytes)")
    gist = load_gist(MailCache(), ref) if m.attachments else None
    if gist is not None and gist.text:
        print(f"\n[gist] {gist.cited()}")
    for d in m.defects:
        print(f"[note] {d}", file=sys.stderr)
    return 0


def mail_clear(args: argparse.Namespace) -> int:
    MailCache().clear(args.account)
    print("Local mail cache deleted" + (f" for {args.account}" if args.account else "") + ".")
    return 0
