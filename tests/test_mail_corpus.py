"""Real-world messages (shared/data/emails) through the server, sync and parser: nothing escapes."""

from __future__ import annotations

import dataclasses
import re
import uuid
from pathlib import Path

import imapclient.exceptions
import pytest

from assistant.accounts import Account
from assistant.documents.mime.attachments import attachment_documents
from assistant.documents.mime.parse import parse_message
from assistant.mail.cache import MailCache
from assistant.mail.imap import ImapSource
from assistant.mail.sync import sync_folder


def corpus() -> list[tuple[str, bytes]]:
    root = Path(__file__).resolve().parents[2] / "shared" / "data" / "emails"
    if not root.is_dir():
        pytest.skip(f"shared email data not present at {root}")
    items: list[tuple[str, bytes]] = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix == ".tnef":  # TNEF files are attachments, not messages
            continue
        if path.suffix == ".mbox":
            # Split by hand: mailbox.mbox opens the file for writing, and this data is shared.
            parts = re.split(rb"(?m)^From [^\n]*\n", path.read_bytes())
            items.extend((f"{path.name}#{i}", p) for i, p in enumerate(parts) if p.strip())
        else:
            items.append((str(path.relative_to(root)), path.read_bytes()))
    return items


def test_real_messages_sync_and_parse(mail_account: Account, dovecot: object, server_client: object,
                                      user_dirs: Path) -> None:
    items = corpus()
    folder = f"corpus-{uuid.uuid4().hex[:6]}"
    server_client.create_folder(folder)  # type: ignore[attr-defined]
    refused: dict[str, str] = {}
    for name, raw in items:
        try:
            server_client.append(folder, raw)  # type: ignore[attr-defined]
        except imapclient.exceptions.IMAPClientError as exc:
            refused[name] = str(exc)
    account = dataclasses.replace(mail_account, folders=(folder,))
    cache = MailCache()
    with ImapSource(account, dovecot.password) as source:  # type: ignore[attr-defined]
        result = sync_folder(source, cache, folder, batch_size=100)
    assert len(result.new_uids) == len(items) - len(refused) > 300
    parsed = with_body = with_defects = docs = skipped = 0
    for ref in cache.refs("test"):
        raw = cache.get(ref)
        assert raw is not None
        message = parse_message(raw)
        parsed += 1
        with_body += bool(message.body.strip())
        with_defects += bool(message.defects)
        d, s = attachment_documents(message, ref.id)
        docs += len(d)
        skipped += len(s)
        assert all(x.reason for x in s)
    assert parsed == len(result.new_uids)
    assert with_body > parsed * 0.8
    print(f"{len(items)} messages, {len(refused)} refused by the server, {parsed} parsed, "
          f"{with_defects} with defects, {docs} attachments read, {skipped} listed with a reason")
