"""The desktop app as a person uses it: settings in plain words with tooltips, model files checked
before they are saved, a confirmed cache clear, keyboard focus, a file-only window, and wording and layout."""

from __future__ import annotations

import json
import os
from email.message import EmailMessage
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
pytest.importorskip("PySide6")

from conftest import ScriptedGenerator, scripted_store  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QAbstractButton,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMessageBox,
    QSpinBox,
    QWidget,
)
from pytestqt.qtbot import QtBot  # noqa: E402
from qtmodal import on_next_modal, press  # noqa: E402

from assistant.gui.open_files import plain_reason  # noqa: E402
from assistant.gui.passage_view import PassageView  # noqa: E402
from assistant.gui.settings_dialog import SettingsDialog  # noqa: E402
from assistant.gui.window import MainWindow  # noqa: E402
from assistant.models.base import GenerationRequest  # noqa: E402
from assistant.records import Document, Segment, Source  # noqa: E402
from assistant.service import ModelStore  # noqa: E402

PAYMENT = json.dumps({"found": True, "passage": 1, "short_answer": "45 days of the invoice date",
                      "answer": "Payment is due within 45 days of the invoice date."})
FACTS = "\n\n".join([f"Clause {i}. Warehouse {i} stores {i * 3} crates of tin." for i in range(30)] +
                    ["Clause 99. Payment is due within 45 days of the invoice date."])
ENGINEERS_WORDS = ("GGUF", "Test-Time RAG", "Conditional", "fused", "alone", "top-k", "rewrite", "re-rank",
                   "Advanced", "router", "MiniLM")
COST_WORDS = (" s ", "second", "memory", "longer", "faster", "slower", "cost", "disk", "downloads them again")


def script(request: GenerationRequest) -> str:
    if request.purpose == "route":
        return '{"route": "question_answering", "target": ""}'
    return PAYMENT


@pytest.fixture
def store(tokenizer: object, embedder: object, encoder: object) -> ModelStore:
    return scripted_store(ScriptedGenerator(script), tokenizer, embedder, encoder)


def new_window(qtbot: QtBot, store: ModelStore, size: tuple[int, int] = (1280, 800)) -> MainWindow:
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    window.activateWindow()
    qtbot.waitExposed(window)
    return window


# -- point 4: a person's words, every setting explained ---------------------------------------------------
def test_settings_use_plain_words_and_every_setting_says_what_it_changes_and_costs(qtbot: QtBot,
                                                                                   user_dirs: Path) -> None:
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    shown = [w.text() for w in dialog.findChildren(QLabel)] + [g.title() for g in dialog.findChildren(QGroupBox)]
    shown += [b.text() for b in dialog.findChildren(QAbstractButton)]
    for combo in dialog.findChildren(QComboBox):
        shown += [combo.itemText(i) for i in range(combo.count())]
    for word in ENGINEERS_WORDS:
        assert not any(word.lower() in text.lower() for text in shown), (word, shown)
    settings = [w for w in dialog.findChildren(QWidget) if isinstance(w, QComboBox | QSpinBox | QCheckBox | QLineEdit)
                and not isinstance(w.parentWidget(), QComboBox | QSpinBox)]
    assert len(settings) == 10  # model, model file, cores, passages, tries, ranking, exact compute, cache size,
    # telling of new mail with attachments, its gist
    for widget in [*settings, dialog.clear_button]:
        tip = widget.toolTip()
        assert tip, widget.accessibleName()
        assert any(w in tip for w in COST_WORDS), (widget.accessibleName(), tip)
    assert "GGUF" in dialog.gguf.toolTip() and "top-k" in dialog.top_k.toolTip()
    assert "query rewrite" in dialog.rewrites.toolTip()
    tips = [dialog.ce_mode.toolTip(), dialog.router.toolTip()]
    for combo in (dialog.model, dialog.ce_mode):  # each choice explains itself too
        for i in range(combo.count()):
            assert combo.itemData(i, Qt.ItemDataRole.ToolTipRole)
            tips.append(combo.itemData(i, Qt.ItemDataRole.ToolTipRole))
    for jargon in ("router", "re-rank", "fused, alone or off", "encoder", "BM25"):  # tooltips in plain words too
        assert not any(jargon in tip for tip in tips), (jargon, tips)
    assert [dialog.ce_mode.itemData(i) for i in range(dialog.ce_mode.count())] == ["fused", "alone", "off"]


# -- point 5: a model file is checked before it is saved; clearing the cache asks first ---------------------
def choose_model_file(dialog: SettingsDialog, path: Path) -> None:
    dialog.gguf.setText(str(path))  # set first: choosing "a file" with none set would open the file dialog
    dialog.model.setCurrentIndex(dialog.model.findData("file"))


def test_random_bytes_are_refused_as_the_model_at_once(qtbot: QtBot, user_dirs: Path, tmp_path: Path) -> None:
    junk = tmp_path / "weights.gguf"
    junk.write_bytes(os.urandom(4096))
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    choose_model_file(dialog, junk)
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted and dialog.saved is None
    assert not dialog.checking  # refused from its first bytes: no load was started
    message = dialog.error.text()
    assert "weights.gguf" in message and "not a model file" in message and "Not saved" in message
    assert not (user_dirs / "config" / "config.toml").exists()


def test_a_file_that_does_not_load_is_refused_after_the_load_test(qtbot: QtBot, user_dirs: Path,
                                                                  tmp_path: Path) -> None:
    broken = tmp_path / "truncated.gguf"
    broken.write_bytes(b"GGUF" + os.urandom(65536))  # the magic is right, the rest is not a model
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    choose_model_file(dialog, broken)
    dialog.accept()
    assert dialog.checking and "Checking that truncated.gguf loads" in dialog.error.text()
    qtbot.waitUntil(lambda: not dialog.checking, timeout=60000)
    assert "truncated.gguf cannot be used as the model" in dialog.error.text()
    assert "damaged, truncated or not a supported model" in dialog.error.text()
    assert dialog.saved is None and not (user_dirs / "config" / "config.toml").exists()


def test_a_real_model_file_loads_and_is_saved(qtbot: QtBot, user_dirs: Path) -> None:
    from assistant.models.locate import fast_llm_path

    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    choose_model_file(dialog, fast_llm_path())
    with qtbot.waitSignal(dialog.accepted, timeout=120000):
        dialog.accept()
    assert dialog.saved is not None and dialog.saved.models.llm == str(fast_llm_path())
    assert str(fast_llm_path()) in (user_dirs / "config" / "config.toml").read_text()


def test_clear_mail_cache_asks_before_removing(qtbot: QtBot, user_dirs: Path) -> None:
    from assistant.mail.cache import CachedRef, MailCache

    cache = MailCache()
    cache.put(CachedRef("acc", "INBOX", 7, 1), b"From: a@example.org\r\nSubject: Hello\r\n\r\nBody\r\n")
    size = cache.size()
    dialog = SettingsDialog(cache=cache)
    qtbot.addWidget(dialog)
    on_next_modal(QMessageBox, press("Cancel"))
    dialog.clear_button.click()
    assert cache.size() == size > 0 and not dialog.cleared  # said no: nothing removed
    on_next_modal(QMessageBox, press("Remove"))
    dialog.clear_button.click()
    assert cache.size() == 0 and dialog.cleared


# -- point 7: focus on the question after a file loads; every focus stop visible ---------------------------
def test_question_has_focus_after_a_file_loads_and_every_focus_stop_shows(qtbot: QtBot, user_dirs: Path,
                                                                          store: ModelStore, tmp_path: Path) -> None:
    window = new_window(qtbot, store)
    doc = tmp_path / "contract.md"
    doc.write_text(FACTS)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    assert QApplication.focusWidget() is window.ask_panel.question
    stops: list[QWidget] = []
    while (widget := QApplication.focusWidget()) is not None and widget not in stops and len(stops) < 40:
        stops.append(widget)
        focused = widget.grab().toImage()
        widget.clearFocus()
        plain = widget.grab().toImage()
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        assert focused != plain, f"no visible focus on {type(widget).__name__} {widget.accessibleName()!r}"
        QTest.keyClick(widget, Qt.Key.Key_Tab)
    names = [w.accessibleName() for w in stops]
    assert "Question" in names and "Ask the question" in names and "Answer" in names and "Open files" in names
    assert stops[0] is window.ask_panel.question and QApplication.focusWidget() is stops[0]  # Tab comes round


# -- point 8: no account, no empty mail panes; the status bar says what is true -----------------------------
def test_file_only_window_has_no_mail_panes_and_the_status_names_the_open_file(qtbot: QtBot, user_dirs: Path,
                                                                               store: ModelStore,
                                                                               tmp_path: Path) -> None:
    window = new_window(qtbot, store)
    assert not window.mail_side.isVisible() and not window.folders.isVisible()
    assert window.tabs.width() > window.width() * 0.9  # the Ask panel has the window to itself
    assert "No mail account yet" in window.notice.text()
    doc = tmp_path / "contract.md"
    doc.write_text(FACTS)
    window.open_files([doc])
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)
    status = window.notice.text()
    assert "No mail account" not in status
    assert status == f"Open: contract.md ({doc.stat().st_size / 1024:.0f} KB)"
    window.close_files([str(doc)])
    assert "No mail account yet" in window.notice.text()


def cache_demo_mail() -> None:
    from assistant.accounts import Account, add_account
    from assistant.mail.cache import CachedRef, FolderState, MailCache

    add_account(Account("work", "imap.example.org", "alice@example.org", folders=("INBOX",)))
    cache = MailCache()
    for uid, (sender, subject) in enumerate([
            ("Maria Keller <maria.keller@calder.example>", "Delivery schedule for Q3 and the late-delivery clause"),
            ("IT Service Desk <it@norhaven.example>", "Planned maintenance on Saturday morning")], start=1):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "alice@example.org", subject
        msg["Date"] = f"Tue, 0{uid} Jun 2025 09:12:00 +0200"
        msg.set_content("Hello")
        cache.put(CachedRef("work", "INBOX", 1, uid), msg.as_bytes())
    cache.set_state("work", "INBOX", FolderState(1, 2))


def test_mail_panes_with_an_account_and_columns_fit_at_1024x640(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                                                memory_keyring: object) -> None:
    cache_demo_mail()
    window = new_window(qtbot, store, (1024, 640))
    qtbot.waitUntil(lambda: window.messages.model.rowCount() == 2)
    assert window.mail_side.isVisible() and window.folders.isVisible()
    table = window.messages.table
    header = table.horizontalHeader()
    qtbot.waitUntil(lambda: table.horizontalScrollBar().maximum() == 0)  # nothing runs off to the right
    assert header.sectionSize(4) >= table.sizeHintForColumn(4)  # the whole date
    assert header.sectionSize(3) >= 100  # room for a subject
    assert window.ask_panel.question.width() >= 350  # room for a long question


# -- point 9: wording and layout slips -------------------------------------------------------------------
def test_a_failed_file_is_one_clear_sentence_naming_file_and_reason(qtbot: QtBot, user_dirs: Path,
                                                                    store: ModelStore, tmp_path: Path) -> None:
    window = new_window(qtbot, store)
    broken = tmp_path / "scan.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not really a pdf")
    window.open_files([broken])
    qtbot.waitUntil(lambda: "None of the files" in window.ask_panel.context_label.text(), timeout=30000)
    line = window.ask_panel.context_label.text().splitlines()[0]
    assert line.startswith("\u2716 Could not read scan.pdf: ") and line.endswith(".")
    assert line.count("(") <= 1 and ".)" not in line and "Failed to load" not in line
    item = window.ask_panel.files.list.item(0).text()
    assert "scan.pdf" in item and item.count("(") <= 1
    assert line == "\u2716 Could not read scan.pdf: a damaged or incomplete PDF file."  # not PDFium's words
    assert plain_reason("corrupt or not a Word document (File is not a zip file (bad magic number).)") == \
        "corrupt or not a Word document (bad magic number)"
    assert plain_reason("could not be read (ValueError: bad header)") == "ValueError: bad header"


def test_passage_view_starts_at_a_word_and_shows_headings_without_markers(qtbot: QtBot) -> None:
    prose = " ".join(f"word{i} is here." for i in range(200))
    text = f"### Payment terms\n{prose}\n\n## Late delivery\nLiquidated damages are 0.5% per week.\n{prose}"
    start = text.index("## Late delivery")
    end = text.index("per week.") + len("per week.")
    view = PassageView()
    qtbot.addWidget(view)
    assert not view.isVisible() or view.isHidden()  # no empty pane before a source is clicked
    document = Document("/tmp/contract.md", text, (Segment(text),), (0,))
    view.show_source(Source(1, "/tmp/contract.md", None, start, end, "0.5% per week", 0), document)
    shown = view.text.toPlainText()
    assert "#" not in shown and "Late delivery" in shown
    first = shown.split()[0]
    assert first.startswith("word") and f" {first} " in f" {text} "  # a whole word, not its tail
    assert not view.isHidden()


def test_file_dialog_reopens_the_last_folder(qtbot: QtBot, user_dirs: Path, store: ModelStore,
                                             tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    doc = folder / "contract.md"
    doc.write_text(FACTS)
    window = new_window(qtbot, store)
    seen: list[str] = []

    def pick(dialog: QWidget) -> None:
        assert isinstance(dialog, QFileDialog)
        seen.append(dialog.directory().absolutePath())
        name = dialog.findChild(QLineEdit, "fileNameEdit")  # typed, as a person would
        name.setText(str(doc))
        dialog.accept()

    on_next_modal(QFileDialog, pick)
    window.choose_files()
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=30000)

    def look(dialog: QWidget) -> None:
        assert isinstance(dialog, QFileDialog)
        seen.append(dialog.directory().absolutePath())
        dialog.reject()

    on_next_modal(QFileDialog, look)
    window.choose_files()
    assert seen[-1] == str(folder) and len(seen) == 2
    again = MainWindow(store)  # a restart remembers it too
    qtbot.addWidget(again)
    assert again.settings.value("files/last_dir") == str(folder)


def test_the_watched_folders_headers_are_read_whole(qtbot: QtBot, user_dirs: Path) -> None:
    """A newcomer read "ew mail is fetche" above the watched folders: each header is as wide as its words."""
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    dialog.resize(640, 600)
    dialog.show()
    qtbot.waitExposed(dialog)
    # no account yet: the empty list does not promise "every account's folders"
    assert dialog.watch.empty.isVisible() and dialog.watch.empty.text().startswith("No mail account yet: add one")
    header = dialog.watch.table.horizontalHeader()
    metrics = header.fontMetrics()
    for column in range(header.count()):
        label = dialog.watch.table.horizontalHeaderItem(column).text()
        assert header.sectionSize(column) >= metrics.horizontalAdvance(label), (label, header.sectionSize(column))
    # and so is each choice of a folder's row ("Every account", not "Every")
    dialog.watch.add_button.click()
    for column in range(1, header.count()):
        widget = dialog.watch.table.cellWidget(0, column)
        assert header.sectionSize(column) >= widget.sizeHint().width(), (column, header.sectionSize(column))
