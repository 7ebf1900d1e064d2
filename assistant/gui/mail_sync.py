"""Mail sync as a background task: every account, then the drafts kept while offline; runs off the GUI thread."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from assistant.accounts import load_accounts
from assistant.errors import AssistantError, ServerUnreachable
from assistant.gui.tasks import Emit
from assistant.mail.cache import MailCache
from assistant.mail.connect import connector
from assistant.mail.pending import Delivered, PendingDrafts
from assistant.mail.sync import SyncResult, sync_account
from assistant.records import Progress


@dataclass
class SyncOutcome:
    """What a sync run did: results, accounts that could not be reached, other errors."""

    results: list[SyncResult] = field(default_factory=list)
    unreachable: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    delivered: list[Delivered] = field(default_factory=list)


def sync_all(cache: MailCache, emit: Emit, cancel: threading.Event,
             pending: PendingDrafts | None = None) -> SyncOutcome:
    """Sync every account, then save its drafts kept while offline (``pending``) to Drafts, each once; an
    unreachable server is noted and the others still sync. Runs off the GUI thread."""
    outcome = SyncOutcome()
    for account in load_accounts().values():
        emit(Progress("sync", 0, 0))
        try:
            with connector(account)() as source:
                outcome.results.extend(sync_account(source, cache, emit=emit, cancel=cancel))
                if pending is not None:
                    outcome.delivered.extend(pending.deliver(source))
        except ServerUnreachable as exc:
            outcome.unreachable.append(account.name)
            outcome.errors.append(str(exc))
        except AssistantError as exc:
            if cancel.is_set():
                raise
            outcome.errors.append(str(exc))
    return outcome
