"""What ``assistant mail todo`` does: the recent cached messages that ask something of you, each with what is
asked, by whom, any date given, the message's ID and the sentence it comes from."""

from __future__ import annotations

import argparse
import dataclasses
import json

from assistant.mail.cache import MailCache
from assistant.mail.todo import DEFAULT_DAYS, CachedMessage, bulk_reason, recent_messages
from assistant.records import Message
from assistant.text.plural import count_of
from assistant.ttrag.compute.requests import Reading, Request, find_requests


def add_todo_command(m: argparse._SubParsersAction) -> None:
    """Register ``mail todo`` on the ``mail`` command's actions."""
    todo = m.add_parser("todo", help="list the recent messages that ask something of you (what, by whom, any "
                                     "date, the sentence it comes from)",
                        description="Reads each recent message's own text (not its attachments) with the LLM "
                                    "and lists those that ask you to do, answer, decide or send something. "
                                    "Recent: fetched by the latest sync or dated within the last --days. "
                                    "--skip-lists leaves out mailing-list mail, newsletters and automatic "
                                    "notifications by their headers, without reading them.")
    todo.add_argument("--account", help="only this account (default: all)")
    todo.add_argument("--folder", help="only this folder")
    todo.add_argument("--days", type=int, default=DEFAULT_DAYS,
                      help=f"look back this many days (default {DEFAULT_DAYS})")
    todo.add_argument("--all", action="store_true", help="every cached message, however old")
    todo.add_argument("--limit", type=int, default=50, help="at most this many messages, the newest (default 50; "
                                                            "0 = all)")
    todo.add_argument("--skip-lists", action="store_true",
                      help="leave out mailing-list mail, newsletters and automatic notifications by their headers "
                           "without reading them (faster; a request sent through a list is missed)")
    todo.add_argument("--json", action="store_true",
                      help="print a JSON list: one object per message that asks something")
    todo.add_argument("--fast", action="store_true", help="use the small 135M model")


def mail_todo(args: argparse.Namespace) -> int:
    from assistant.accounts import load_accounts
    from assistant.config import ModelSettings, load_settings
    from assistant.progress import TerminalRenderer
    from assistant.service import ModelStore

    settings = load_settings()
    if args.fast:
        settings = dataclasses.replace(settings, models=ModelSettings(llm="fast"))
    cache = MailCache(max_bytes=settings.mail.cache_mb * 1024**2)
    found = recent_messages(cache, account=args.account, folder=args.folder, days=None if args.all else args.days,
                            limit=args.limit)
    if not found:
        if not load_accounts():
            print("No mail account is set up: add one with `assistant mail add ADDRESS`, then fetch your mail "
                  "with `assistant mail sync`.")
        else:
            print("No recent messages in the local cache. Fetch mail with `assistant mail sync`, or look further "
                  "back with --days N or --all.")
        return 0
    renderer = TerminalRenderer(stream_tokens=False)
    try:
        readings = find_requests(ModelStore(settings).generator(), _to_read(found, skip_lists=args.skip_lists),
                                 emit=renderer)
    finally:
        renderer.close()
    requests = [r.request for r in readings if r.request is not None]
    by_id = {m.ref.id: m for m in found}
    if args.json:
        print(json.dumps([request_record(r, by_id[r.message_id]) for r in requests], indent=2, ensure_ascii=False))
        return 0
    print(todo_text(requests, readings, by_id))
    return 0


def _to_read(found: list[CachedMessage], *, skip_lists: bool) -> list[tuple[str, Message, str]]:
    """``(ID, message, why it is skipped)``: with ``skip_lists``, lists and notifications skipped by their
    headers."""
    return [(m.ref.id, m.message, bulk_reason(m.message.raw) if skip_lists else "") for m in found]


def request_record(request: Request, found: CachedMessage) -> dict[str, object]:
    """``--json``: one message's request as a JSON object (``quote`` null when not cited)."""
    m = found.message
    return {"id": request.message_id, "from": request.sender, "subject": request.subject,
            "date": m.date.isoformat() if m.date else None, "what": request.what,
            "quote": request.quote or None, "due": request.due or None, "probability": request.probability}


def todo_text(requests: list[Request], readings: list[Reading], by_id: dict[str, CachedMessage]) -> str:
    """The list as a person reads it: a count line, then per request what, who, when, the cited sentence,
    the ID and how to draft the reply."""
    skipped = sum(1 for r in readings if r.skipped)
    kinds = count_of(skipped, "list or notification", "lists or notifications")
    aside = f" ({kinds} skipped by their headers)" if skipped else ""
    verb = "asks" if len(requests) == 1 else "ask"
    lines = [f"{count_of(len(requests), 'message')} of {len(readings)} {verb} something of you{aside}."]
    for n, r in enumerate(requests, 1):
        m = by_id[r.message_id].message
        due = f" \u2014 by {r.due}" if r.due else ""
        when = f", {m.date:%Y-%m-%d}" if m.date else ""
        lines += ["", f"{n}. {r.what or '(see the message)'}{due}",
                  f"   from {r.sender}{when}: \u201c{r.subject}\u201d",
                  f"   \u201c{r.quote}\u201d" if r.quote else "   (not cited: the model's quote is not in the text)",
                  f"   {r.message_id}   reply: assistant draft {r.message_id}"]
    return "\n".join(lines)

