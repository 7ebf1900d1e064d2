"""What the ``draft`` command does: a reply grounded in a message's attachments, to a synced message
(``ACCOUNT:FOLDER:UID``, saved to that account's Drafts) or to a saved one (``FILE.eml``, ``FILE.msg``: written
as an ``.eml`` file beside it, or to an account's Drafts with ``--account``). Never sent."""

from __future__ import annotations

import argparse
import sys
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING

from assistant import netguard
from assistant.accounts import Account, get_account, load_accounts
from assistant.cli.mail_commands import load_message
from assistant.errors import ServerUnreachable
from assistant.mail.cache import MailCache
from assistant.mail.connect import connector
from assistant.mail.pending import PendingDrafts
from assistant.records import Message

if TYPE_CHECKING:
    from assistant.ttrag.compute.draft import Draft, Point


def draft(args: argparse.Namespace) -> int:
    from assistant.documents.email_files import is_mail_file
    from assistant.mail.drafts import build_reply
    from assistant.mail.reply_file import replying_as

    if is_mail_file(args.id):
        return draft_file(args)
    ref, original = load_message(args.id)
    account = get_account(ref.account)
    points: tuple[Point, ...] = ()
    if args.text is not None:
        text = args.text
    else:
        made = grounded_reply(ref.id, original, account.signer, args)
        text, points = made.body, made.points
    message = build_reply(original, text, me=replying_as(original, account)[0], name=account.display_name,
                          reply_all=args.reply_all)
    if args.print:
        print_draft(message, points)
        return 0
    return save_to_drafts(account, message)


def print_draft(message: EmailMessage, points: tuple[Point, ...]) -> None:
    """``--print``: the draft as a person reads it, then the points answered with their sources."""
    from assistant.mail.drafts import draft_text

    print(draft_text(message))
    if points:
        print("\n".join(["-" * 60, "Points answered (for your review; not part of the mail):",
                          *point_lines(points)]))


def save_to_drafts(account: Account, message: EmailMessage) -> int:
    """APPEND the draft to ``account``'s Drafts; kept on this computer when the server cannot be reached."""
    from assistant.mail.drafts import save_draft

    try:
        with netguard.purpose("saving a draft"), connector(account)() as source:
            folder, uid = save_draft(source, message)
    except ServerUnreachable as exc:
        kept = PendingDrafts().keep(account.name, message)
        print(f"{exc}.\nThe draft is kept on this computer ({kept.path.name}) and will be saved to Drafts "
              "at the next `assistant mail sync`; `assistant mail pending` lists it.", file=sys.stderr)
        return 0
    print(f"Draft saved to {folder}" + (f" (UID {uid})" if uid else "") + "; review and send it from your "
          "mail program.")
    return 0


def point_lines(points: tuple[Point, ...]) -> list[str]:
    """One line per answered point, then its sources (file, page, quote); not-found points say so."""
    lines = []
    for n, p in enumerate(points, 1):
        if not p.answer.found:
            lines.append(f"{n}. {p.request}\n   not stated in the documents")
            continue
        lines.append(f"{n}. {p.request}\n   {p.answer.text}")
        for s in p.answer.sources:
            if s.n in p.answer.supported_by:
                where = s.source + (f", p. {s.page}" if s.page else "")
                lines.append(f"   [{s.n}] {where}: \"{s.snippet}\"")
    return lines


def grounded_reply(message_id: str, original: Message, signer: str, args: argparse.Namespace, *,
                   use_cache: bool = True) -> Draft:
    """The reply drafted from ``original``'s attachments (and, with ``use_cache``, its thread's earlier
    messages in the mail cache), the progress on stderr; unread attachments noted there too."""
    import dataclasses

    from assistant.config import ModelSettings, load_settings
    from assistant.progress import TerminalRenderer
    from assistant.service import ModelStore, draft_reply

    settings = load_settings()
    if args.fast:
        settings = dataclasses.replace(settings, models=ModelSettings(llm="fast"))
    renderer = TerminalRenderer(stream_tokens=False)
    try:
        made = draft_reply(ModelStore(settings), original, message_id, signer=signer,
                           instructions=args.instructions, emit=renderer,
                           cache=MailCache(max_bytes=settings.mail.cache_mb * 1024**2) if use_cache else None)
    finally:
        renderer.close()
    for line in made.skipped:
        print(f"note: {message_id}/{line}", file=sys.stderr)
    return made.draft


def draft_file(args: argparse.Namespace) -> int:
    """``assistant draft FILE.eml``: the reply to a saved message, grounded in its attachments as for synced
    mail; written as an ``.eml`` file (``--out FILE``, else ``NAME-reply.eml`` beside the original), or to the
    Drafts of ``--account NAME``."""
    from assistant.documents.email_files import read_mail_file
    from assistant.mail.drafts import build_reply
    from assistant.mail.reply_file import default_reply_path, replying_as, write_reply

    path = Path(args.id).expanduser()
    original = read_mail_file(path)
    account = get_account(args.account) if args.account else None
    me, signer = replying_as(original, account)
    points: tuple[Point, ...] = ()
    if args.text is not None:
        text = args.text
    else:
        made = grounded_reply(str(path), original, signer, args, use_cache=False)
        text, points = made.body, made.points
    message = build_reply(original, text, me=me, name=account.display_name if account is not None else "",
                          reply_all=args.reply_all)
    if args.print:
        print_draft(message, points)
        return 0
    if account is not None:
        return save_to_drafts(account, message)
    out = write_reply(message, Path(args.out).expanduser() if args.out else default_reply_path(path))
    print(f"Reply written to {out}; open it in your mail program to review and send it.")
    if not args.account and load_accounts():
        print("To save it to an account's Drafts instead, add --account NAME.", file=sys.stderr)
    return 0
