"""The ``assistant`` command line: ask about files, chat, set up the bundled models."""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import sys
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from assistant import netguard
from assistant.cli.evaluate import add_eval_command
from assistant.cli.extract import add_extract_command
from assistant.cli.mail import MAIL_COMMANDS, add_mail_commands, add_mail_option, run_mail_command
from assistant.cli.passwords import add_password_option, terminal_passwords
from assistant.cli.privacy import OFFLINE_HELP, add_privacy_command
from assistant.cli.problems import add_problems_option, problem_lines
from assistant.cli.source_page import add_source_page_options, check_source_page_options, write_source_page
from assistant.config import PipelineOptions, Settings, load_settings
from assistant.errors import AssistantError, Cancelled
from assistant.progress import ROUTE_NOTES, TerminalRenderer
from assistant.records import Answer, Source
from assistant.text.plural import count_of

DESCRIPTION = """\
Private, on-device assistant for your documents and email. Nothing you read leaves this machine.

Examples:
  assistant ask report.pdf "What are the payment terms?"
  assistant ask --fast notes.md contract.docx "Who signed the contract?"
  assistant ask report.pdf "Who pays?" --show-source 1 --png page.png   (source 1's page, highlighted)
  assistant chat report.pdf               (ask follow-up questions; the file is read once)
  assistant models setup                  (assemble and verify the bundled 1.5B model once)
  assistant gui                           (the desktop app)
  assistant --offline ask report.pdf "..."  (refuse every connection to another machine)
  assistant privacy log                   (every connection the assistant made, and what for)
"""


def _add_model_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("models")
    g.add_argument("--fast", action="store_true",
                   help="use the small 135M model (quick, low memory, much weaker answers)")
    g.add_argument("--llm", metavar="GGUF", help="use this GGUF model file instead of the bundled one")
    g.add_argument("--encoder", metavar="DIR", help="BERT-family encoder folder for conditional embeddings")
    g.add_argument("--threads", type=int, metavar="N", help="CPU threads (default: all cores)")
    h = p.add_argument_group("method (Test-Time RAG hyperparameters; defaults from settings)")
    h.add_argument("--top-k", type=int, metavar="K", help="chunks passed to the reader (paper: 3)")
    h.add_argument("--max-rewrites", type=int, metavar="N", help="query rewrites before falling back (paper: 3)")
    h.add_argument("--ce-mode", choices=["alone", "fused", "off"],
                   help="how conditional embeddings rank candidates")
    h.add_argument("--no-router", action="store_true", help="skip the LLM router (always answer the question)")


def _settings(args: argparse.Namespace) -> Settings:
    s = load_settings()
    m, p = s.models, s.pipeline
    if args.fast:
        m = dataclasses.replace(m, llm="fast")
    if args.llm:
        m = dataclasses.replace(m, llm=args.llm)
    if args.encoder:
        m = dataclasses.replace(m, encoder_dir=args.encoder)
    if args.threads:
        m = dataclasses.replace(m, threads=args.threads)
    changes: dict[str, Any] = {}
    if args.top_k:
        changes["ce_top_k"] = args.top_k
    if args.max_rewrites is not None:
        changes["max_rewrites"] = args.max_rewrites
    if args.ce_mode:
        changes["ce_mode"] = args.ce_mode
    if args.no_router:
        changes["router"] = False
    p = dataclasses.replace(p, **changes) if changes else p
    return Settings(models=m, pipeline=PipelineOptions(**dataclasses.asdict(p)), documents=s.documents)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="assistant", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--offline", action="store_true", help=OFFLINE_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    ask = sub.add_parser("ask", help="answer one question about one or more files",
                         description="Read the files (nothing is indexed or saved), find the passages that "
                                     "answer the question, and stream an answer with its sources.")
    ask.add_argument("files", nargs="*", metavar="FILE", help="files to read (documents, email, archives)")
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument("--json", action="store_true", help="print the whole answer record as JSON")
    ask.add_argument("--trace", action="store_true", help="show each stage: candidates, scores, rewrites")
    add_password_option(ask)
    add_problems_option(ask)
    add_mail_option(ask)
    add_source_page_options(ask)
    _add_model_options(ask)
    chat = sub.add_parser("chat", help="ask several questions about the same files",
                          description="Read the files once, then answer questions until an empty line "
                                      "or Ctrl-D.")
    chat.add_argument("files", nargs="+", metavar="FILE")
    chat.add_argument("--trace", action="store_true", help="show each stage: candidates, scores, rewrites")
    add_password_option(chat)
    add_problems_option(chat)
    _add_model_options(chat)
    from assistant.cli.models import add_models_command

    add_models_command(sub)
    add_mail_commands(sub)
    add_extract_command(sub)
    add_eval_command(sub)
    add_privacy_command(sub)
    gui = sub.add_parser("gui", help="open the desktop app", description="Open the desktop window.")
    gui.add_argument("files", nargs="*", metavar="FILE", help="files to open at start")
    return parser


def _unrecognized(parser: argparse.ArgumentParser, command: str | None, extra: Sequence[str]) -> None:
    """Exit (status 2) with the usage of ``command`` (the top level's when None), naming the arguments not
    recognised and, for a mistyped option, the nearest it has ("--jsn": did you mean --json?)."""
    subs = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    own = subs.choices.get(command, parser) if subs is not None and command else parser
    options = [o for a in own._actions for o in a.option_strings]
    near = [m[0] for x in extra if x.startswith("-")
            if (m := difflib.get_close_matches(x.split("=", 1)[0], options, n=1, cutoff=0.6))]
    hint = f" (did you mean {' or '.join(dict.fromkeys(near))}?)" if near else ""
    own.error(f"unrecognized arguments: {' '.join(extra)}{hint}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``assistant`` command; returns the exit status."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # "--jsn": the command's own usage, and the option meant
        _unrecognized(parser, args.command, extra)
    if args.command is None:
        parser.print_help()
        return 2
    was_offline = netguard.is_offline()
    try:
        netguard.apply(load_settings().privacy, offline=args.offline)
        return _run(args, parser)
    except Cancelled:
        print("\ncancelled", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except AssistantError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        netguard.set_offline(was_offline)  # main() called again in this process starts from the settings


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.command == "models":
        from assistant.cli.models import run_models

        return run_models(args.action, args.name)
    if args.command in MAIL_COMMANDS:
        return run_mail_command(args)
    if args.command == "privacy":
        from assistant.cli.privacy import run_privacy

        return run_privacy(args)
    if args.command == "extract":
        from assistant.cli.extract import run_extract

        return run_extract(args)
    if args.command == "gui":
        return _gui(args)
    if args.command == "eval":
        from assistant.cli.evaluate import run_eval

        return run_eval(args)
    if args.command == "ask":
        check_source_page_options(parser, args)
        return _ask(args)
    return _chat(args)


def _gui(args: argparse.Namespace) -> int:
    try:
        from assistant.gui.app import run_gui
    except ImportError as exc:
        raise AssistantError("the desktop app needs PySide6; install it with `pip install 'assistant[gui]'`") from exc
    return run_gui(files=args.files)


def _open(args: argparse.Namespace, renderer: TerminalRenderer) -> object:
    from assistant.service import ModelStore, Session, read_files

    store = ModelStore(_settings(args))
    if not args.files and not getattr(args, "mail", None):
        raise AssistantError("name at least one FILE (or --mail ID) to read")
    store.preload()  # the torch models load while the files are read and chunked
    asked = bool(getattr(args, "password", False))
    result = read_files(args.files, emit=renderer, passwords=terminal_passwords(renderer.close) if asked else None)
    renderer.close()
    if getattr(args, "mail", None):
        from assistant.cli.mail import mail_documents

        documents, skipped = mail_documents(args.mail, terminal_passwords(renderer.close) if asked else None)
        result.documents.extend(documents)
        for line in skipped:
            print(f"warning: skipped attachment {line}", file=sys.stderr)
    for line in problem_lines(result.failures, asked=asked, every=getattr(args, "all_problems", False),
                              lead="warning: skipped "):
        print(line, file=sys.stderr)
    if not result.documents:
        raise AssistantError("none of the files could be read (see the reasons above)")
    return Session(store, result.documents, emit=renderer)


def _ask(args: argparse.Namespace) -> int:
    renderer = TerminalRenderer(trace=args.trace, stream_tokens=not args.json)
    session = _open(args, renderer)
    from assistant.service import Session

    assert isinstance(session, Session)
    answer = session.ask(args.question, emit=renderer, cancel=threading.Event())
    renderer.end_answer()
    if args.json:
        print(json.dumps(answer_record(answer, session), indent=2, ensure_ascii=False))
    else:
        print_sources(answer)
    if args.show_source is not None:
        passwords = terminal_passwords() if args.password else None
        if write_source_page(answer, session.context.documents, args.show_source, args.png, scale=args.scale,
                             passwords=passwords):
            return 1
    return 0 if answer.found else 3


CHAT_HELP = """Commands: /new starts a new conversation; /export FILE saves this conversation (Markdown with
sources); /help shows this. An empty line or Ctrl-D quits. Nothing is written to disk unless you export."""


def _chat(args: argparse.Namespace) -> int:
    renderer = TerminalRenderer(trace=args.trace)
    session = _open(args, renderer)
    from assistant.service import Session
    from assistant.ttrag.conversation import Conversation

    assert isinstance(session, Session)
    ctx = session.context
    conversation = Conversation()
    print(f"Read {count_of(len(ctx.documents), 'file')}: {len(ctx.chunks)} chunks, {ctx.n_tokens:,} tokens. "
          "Ask a question; follow-ups may refer to earlier answers (/help for commands, empty line or "
          "Ctrl-D to quit).", file=sys.stderr)
    while True:
        try:
            question = input("> ").strip()
        except EOFError:
            break
        if not question:
            break
        if question.startswith("/"):
            _chat_command(question, conversation, session)
            continue
        try:
            turn = session.ask_followup(conversation, question, emit=renderer)
        except KeyboardInterrupt:
            renderer.end_answer()
            print("(cancelled)", file=sys.stderr)
            continue
        renderer.end_answer()
        conversation.add(turn)
        if args.trace:
            print(f"[trace] you asked: {turn.question!r}; answered as: {turn.standalone!r}", file=sys.stderr)
        elif turn.standalone != turn.question:
            print(f"(understood as: {turn.standalone})", file=sys.stderr)
        print_sources(turn.answer)
        dropped = conversation.dropped_turns(session.store.generator().count_tokens)
        if dropped:
            from assistant.text.tokens import history_note

            print(f"({history_note(dropped, conversation.max_history_tokens, restart='/new starts afresh')})",
                  file=sys.stderr)
    return 0


def _chat_command(line: str, conversation: object, session: object) -> None:
    """``/new``, ``/export FILE`` and ``/help`` in ``assistant chat``."""
    from pathlib import Path

    from assistant.service import Session
    from assistant.ttrag.conversation import Conversation

    assert isinstance(conversation, Conversation) and isinstance(session, Session)
    command, _, rest = line.partition(" ")
    if command == "/new":
        conversation.clear()
        print("New conversation: earlier questions are forgotten.", file=sys.stderr)
    elif command == "/export":
        if not rest.strip():
            print("usage: /export FILE.md", file=sys.stderr)
            return
        if not conversation.turns:
            print("nothing to export yet: ask a question first", file=sys.stderr)
            return
        path = Path(rest.strip()).expanduser()
        try:
            path.write_text(conversation.to_markdown(about=[d.source for d in session.context.documents]),
                            encoding="utf-8")
        except OSError as exc:
            print(f"error: could not write {path}: {exc.strerror or exc}", file=sys.stderr)
            return
        print(f"Exported {count_of(len(conversation.turns), 'question')} to {path}", file=sys.stderr)
    else:
        print(CHAT_HELP, file=sys.stderr)


def print_sources(answer: Answer) -> None:
    """The sources block after a streamed answer: the queries searched again (rewrites), the passages the answer
    cites, then the other passages read under their own heading, each under its number (the one
    ``--show-source N`` takes); for a "not found", the passages read."""
    route = "" if answer.route == "question_answering" else \
        f" ({ROUTE_NOTES.get(answer.route, answer.route.replace('_', ' ')).lower()})"
    print()
    if answer.rewrites:
        print(f"Searched again as: {' | '.join(answer.rewrites)}")
    heading = "Sources" if answer.found else "Passages read (no answer found in them)"  # as the app says it
    print(f"{heading}{route}:")
    cited = answer.cited if answer.found else answer.sources
    _print_source_lines(cited)
    others = [s for s in answer.sources if s not in cited]
    if others:
        print("Other passages read:")
        _print_source_lines(others)


def _print_source_lines(sources: Iterable[Source]) -> None:
    for s in sources:
        page = f", p. {s.page}" if s.page else ""
        print(f"  [{s.n}] {s.source}{page}{s.section_note()}: \"{s.snippet}\"")


def answer_record(answer: Answer, session: object) -> dict[str, object]:
    """The answer as a JSON-ready dict, with the context's size and model load times."""
    from assistant.service import Session

    record = dataclasses.asdict(answer)
    if isinstance(session, Session):
        record["context"] = {"files": [d.source for d in session.context.documents],
                             "chunks": len(session.context.chunks), "tokens": session.context.n_tokens,
                             "build_s": round(session.build_seconds, 3)}
        record["model_load_s"] = session.store.load_seconds
    return record


if __name__ == "__main__":
    sys.exit(main())
