"""``assistant privacy log|clear|offline``: the connection log and offline mode (see :mod:`assistant.netguard`)."""

from __future__ import annotations

import argparse
import dataclasses
import json

OFFLINE_HELP = ("refuse every connection to another machine for this command (mail, model downloads, sign-in, a "
                "reader server elsewhere); reading files, asking, summaries and drafts keep working. "
                "`assistant privacy offline on` keeps it on")


def add_privacy_command(sub: argparse._SubParsersAction) -> None:
    """Register ``privacy`` on the main parser's subcommands."""
    privacy = sub.add_parser("privacy", help="the log of every connection this program made; offline mode",
                             description="Every connection the assistant makes (mail server, model downloads, "
                                         "sign-in, server look-ups, a reader server) is logged with its time, host, "
                                         "port, purpose and bytes sent and received; never content or passwords. "
                                         "Connections to this computer (loopback) are logged too, marked "
                                         "[this computer].")
    p = privacy.add_subparsers(dest="privacy_action", metavar="ACTION", required=True)
    show = p.add_parser("log", help="print the connection log, oldest first")
    show.add_argument("--limit", type=int, default=100, help="only the newest N connections (default 100; 0 = all)")
    show.add_argument("--json", action="store_true", help="one JSON object per connection")
    p.add_parser("clear", help="delete the connection log")
    off = p.add_parser("offline", help="show, or turn on or off, offline mode (kept in the settings)")
    off.add_argument("state", nargs="?", choices=["on", "off"])


def run_privacy(args: argparse.Namespace) -> int:
    """Run ``privacy ACTION``; returns the exit status.

    Raises:
        ConfigError: the settings file is invalid.
    """
    from assistant import netguard
    from assistant.config import load_settings, update_settings_file
    from assistant.netlog import describe

    log = netguard.log()
    if args.privacy_action == "clear":
        n = log.clear()
        print(f"Connection log cleared ({n} connection(s) removed): {log.path}")
        return 0
    if args.privacy_action == "offline":
        if args.state is not None:
            update_settings_file({"privacy": {"offline": args.state == "on"}})
        on = load_settings().privacy.offline
        print(f"Offline mode is {'on' if on else 'off'}" + (": connections to other machines are refused." if on
                                                            else " (`assistant privacy offline on` turns it on)."))
        return 0
    entries = log.entries()
    shown = entries[-args.limit:] if args.limit > 0 else entries
    if args.json:
        for entry in shown:
            print(json.dumps(dataclasses.asdict(entry), ensure_ascii=False))
        return 0
    settings = load_settings().privacy
    print(f"Offline mode: {'on' if netguard.is_offline() else 'off'}. Log: {log.path} (the last {settings.log_days} "
          f"days, at most {settings.log_kb} KB; `assistant privacy clear` deletes it).")
    if not entries:
        print("No connections recorded.")
        return 0
    outside = sum(not e.loopback for e in entries)
    print(f"{len(entries)} connection(s), {outside} to other machines" +
          (f"; the newest {len(shown)} below" if len(shown) < len(entries) else "") + ":")
    for entry in shown:
        print(describe(entry))
    return 0
