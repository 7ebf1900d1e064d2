"""The ``assistant account ...`` and ``assistant mail ...`` commands (registered by :mod:`assistant.cli.main`).

Passwords are read with ``getpass`` (or one line of standard input with ``--password-stdin``) and go
straight to the OS keyring; they are never echoed, logged or written to a file.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.documents import PasswordPrompt
    from assistant.records import Document

MAIL_COMMANDS = ("account", "mail", "draft")


def add_mail_commands(sub: argparse._SubParsersAction) -> None:
    """Register ``account``, ``mail`` and ``draft`` on the main parser's subcommands."""
    account = sub.add_parser("account", help="add, list, remove or test mail accounts (IMAP)")
    acc = account.add_subparsers(dest="account_action", metavar="ACTION", required=True)
    add = acc.add_parser("add", help="add or replace an account from the e-mail address alone (the server is "
                                     "found); the password or sign-in token goes to the OS keyring")
    _add_account_arguments(add)
    lst = acc.add_parser("list", help="show the accounts (never passwords)")
    lst.add_argument("--json", action="store_true")
    rm = acc.add_parser("remove", help="remove an account and its password (cached mail stays until "
                                       "`assistant mail clear`)")
    rm.add_argument("name")
    test = acc.add_parser("test", help="log in and list the folders")
    test.add_argument("name", nargs="?", help="account (default: the first)")

    mail = sub.add_parser("mail", help="sync, list and show email (read-only: nothing is sent, moved or "
                                       "marked read)")
    m = mail.add_subparsers(dest="mail_action", metavar="ACTION", required=True)
    _add_account_arguments(m.add_parser("add", help="add a mail account from the e-mail address alone (the same as "
                                                    "`assistant account add`)"))
    sync = m.add_parser("sync", help="fetch new messages into the local cache")
    sync.add_argument("--account", help="only this account (default: all)")
    sync.add_argument("--watch", action="store_true", help="keep running, fetch new mail as it arrives and print "
                                                           "one line per new message (IDLE, else polling); "
                                                           "Ctrl-C stops")
    sync.add_argument("--folder", action="append", dest="folders", default=[], metavar="FOLDER",
                      help="only this folder (repeat for several; default: the watched folders in the settings, "
                           "else the account's folders); each is watched on its own connection")
    sync.add_argument("--poll", type=float, metavar="SECONDS", default=None,
                      help="with --watch: ask the server every SECONDS instead of waiting for it to tell (IDLE)")
    sync.add_argument("--no-gist", action="store_true",
                      help="with --watch: do not read the attachments of new messages (by default, when the "
                           "setting mail.gist is on, each gets a one-line gist in the background, kept beside "
                           "the message and shown by `mail list` and `mail show`)")
    ls = m.add_parser("list", help="list cached messages, newest last")
    ls.add_argument("--account")
    ls.add_argument("--new", action="store_true", help="only messages fetched by the latest sync")
    ls.add_argument("--limit", type=int, default=50, help="at most this many (default 50; 0 = all)")
    ls.add_argument("--json", action="store_true")
    ls.add_argument("--threads", action="store_true", help="group by conversation (References / In-Reply-To): "
                                                           "each conversation's replies indented under its first "
                                                           "message")
    show = m.add_parser("show", help="show one message: headers, text, attachments")
    show.add_argument("id", metavar="ID", help="message ID as listed (ACCOUNT:FOLDER:UID)")
    from assistant.cli.todo import add_todo_command

    add_todo_command(m)
    pend = m.add_parser("pending", help="list drafts kept on this computer because the server could not be "
                                        "reached (the next sync saves them to Drafts)")
    pend.add_argument("--account")
    clear = m.add_parser("clear", help="delete the local mail cache")
    clear.add_argument("--account")

    draft = sub.add_parser("draft", help="write a reply grounded in the message's attachments and save it to "
                                         "Drafts, or beside a saved message (never sent)",
                           description="Lists what the email asks, answers each point from the attachments and "
                                       "the quoted thread with the question-answering pipeline, then writes the "
                                       "reply from those answers only. A synced message's reply goes to its "
                                       "account's Drafts; a saved message's (.eml from webmail, Outlook .msg) to "
                                       "an .eml file beside it (--out FILE to choose) or to --account NAME's "
                                       "Drafts. --print shows the draft and, after it, each point with its "
                                       "sources.")
    draft.add_argument("id", metavar="ID|FILE", help="message to reply to: ACCOUNT:FOLDER:UID as `assistant mail "
                                                     "list` shows, or a saved message (FILE.eml, FILE.msg)")
    draft.add_argument("--instructions", default="", help="what the reply should say")
    draft.add_argument("--text", help="use this reply text instead of asking the LLM")
    draft.add_argument("--reply-all", action="store_true", help="also address the original To and Cc")
    draft.add_argument("--print", action="store_true", help="print the draft instead of saving it")
    draft.add_argument("--out", metavar="FILE", help="for a saved message: write the reply here (default: "
                                                     "NAME-reply.eml beside it)")
    draft.add_argument("--account", metavar="NAME", help="for a saved message: save the reply to this account's "
                                                         "Drafts instead of a file")
    draft.add_argument("--fast", action="store_true", help="use the small 135M model")


def _add_account_arguments(add: argparse.ArgumentParser) -> None:
    add.add_argument("name", help="your e-mail address (the server is found from it), or a short name for the "
                                  "account with --host/--user (letters, digits, . _ @ + -)")
    add.add_argument("--host", help="IMAP server, e.g. imap.example.org (default: found from the address)")
    add.add_argument("--user", help="login name (default: the address)")
    add.add_argument("--security", choices=["ssl", "starttls", "plain"], default=None,
                     help="ssl (port 993), starttls (port 143), plain (localhost only); default: as found, else ssl")
    add.add_argument("--port", type=int, default=0, help="port (default: as found, else 993 for ssl, 143 otherwise)")
    add.add_argument("--folder", action="append", dest="folders", metavar="FOLDER",
                     help="folder to sync and watch (repeat; default INBOX)")
    add.add_argument("--drafts-folder", help="where drafts go (default: the server's \\Drafts folder)")
    add.add_argument("--ca-file", help="PEM certificate to trust for this server (self-signed servers)")
    add.add_argument("--display-name", default="", help="your name, to sign drafted replies (default: from the "
                                                        "address)")
    add.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    add.add_argument("--oauth", metavar="PROVIDER", help="sign in in the browser (OAuth 2.0) instead of a password: "
                                                         "google or microsoft")
    add.add_argument("--client-id", default="", help="the OAuth client id you or your organisation registered "
                                                     "(see docs/mail.md)")
    add.add_argument("--client-secret", default="", help="only for Google \"Desktop app\" clients: the secret "
                                                         "shown with the client id (kept in the OS keyring)")
    add.add_argument("--sasl", choices=["XOAUTH2", "OAUTHBEARER"], default="",
                     help="SASL mechanism for OAuth (default: the provider's, XOAUTH2)")


def run_mail_command(args: argparse.Namespace) -> int:
    """Run a command registered by :func:`add_mail_commands`; returns the exit status.

    Raises:
        AssistantError: any failure, with a message saying what to do.
    """
    from assistant.cli import mail_commands

    if args.command == "account":
        return int(getattr(mail_commands, f"account_{args.account_action}")(args))
    if args.command == "mail" and args.mail_action == "todo":
        from assistant.cli.todo import mail_todo

        return mail_todo(args)
    if args.command == "mail":
        return int(getattr(mail_commands, f"mail_{args.mail_action}")(args))
    from assistant.cli.draft import draft

    return int(draft(args))




def add_mail_option(ask: argparse.ArgumentParser) -> None:
    """``ask --mail ID``: read a cached message and its attachments as documents."""
    ask.add_argument("--mail", metavar="ID", action="append", default=[],
                     help="also read this cached message and its attachments (ACCOUNT:FOLDER:UID)")


def mail_documents(ids: list[str], passwords: PasswordPrompt | None = None) -> tuple[list[Document], list[str]]:
    """Documents for ``ask --mail``: each message's text, then its supported attachments (``passwords`` is
    asked for a password-protected one).

    Returns:
        The documents, and one line per attachment that could not be read (name and reason).

    Raises:
        ConfigError: an ID is malformed or not in the cache.
    """
    from assistant.cli.mail_commands import load_message
    from assistant.documents.mime.attachments import attachment_documents, evidence_documents

    documents: list[Document] = []
    skipped: list[str] = []
    for message_id in ids:
        ref, message = load_message(message_id)
        documents.extend(evidence_documents(message, ref.id))
        docs, rest = attachment_documents(message, ref.id, passwords=passwords)
        documents.extend(docs)
        skipped.extend(f"{ref.id}/{s.attachment.filename}: {s.reason}" for s in rest)
    return documents, skipped
