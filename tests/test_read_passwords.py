"""Password-protected PDFs and Office files: opened with the password a person gives (command line, app,
mail attachments); none or a wrong one says so, naming the file; the password is in no message or log."""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import shared_data

from assistant.cli.main import main
from assistant.documents import extract, read_many
from assistant.documents.mime.attachments import attachment_documents
from assistant.documents.mime.parse import parse_message
from assistant.errors import InputError, PasswordRequired

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from assistant.gui.window import MainWindow
    from assistant.service import ModelStore

PASSWORD = "Tr0ub4dor&3-horse"
WRONG = "battery-staple-42"
FACT = "The vault code of the Lisbon office is 4471"


def _encrypt_office(plain: bytes, password: str) -> bytes:
    """Office's own password protection (ECMA-376 Agile encryption) with msoffcrypto-tool."""
    from msoffcrypto.format.ooxml import OOXMLFile

    out = io.BytesIO()
    OOXMLFile(io.BytesIO(plain)).encrypt(password, out)
    return out.getvalue()


def _docx() -> bytes:
    import docx

    document = docx.Document()
    document.add_paragraph(FACT + ".")
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def _xlsx() -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Office", "Vault code"])
    sheet.append(["Lisbon", 4471])
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _pptx() -> bytes:
    import pptx

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Security"
    slide.placeholders[1].text = FACT
    buf = io.BytesIO()
    deck.save(buf)
    return buf.getvalue()


def _pdf(path: Path, password: str) -> Path:
    """A one-line text PDF (pypdfium2) protected with a user password (pypdf, AES-256, ISO 32000-2 7.6.4)."""
    pypdf = pytest.importorskip("pypdf")
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    plain = path.with_suffix(".plain.pdf")
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(612, 792)
    obj = raw.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", ctypes.c_float(12))
    data = (FACT + ".\0").encode("utf-16-le")
    buf = ctypes.create_string_buffer(data, len(data))
    raw.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR)))
    raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 72, 700)
    raw.FPDFPage_InsertObject(page.raw, obj)
    raw.FPDFPage_GenerateContent(page.raw)
    page.close()
    pdf.save(str(plain))
    pdf.close()
    writer = pypdf.PdfWriter(clone_from=str(plain))
    writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="AES-256")
    writer.write(str(path))
    plain.unlink()
    return path


@pytest.fixture(scope="module")
def locked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One password-protected file per format, all with PASSWORD."""
    folder = tmp_path_factory.mktemp("locked")
    files = {"pdf": _pdf(folder / "minutes.pdf", PASSWORD)}
    for suffix, make in (("docx", _docx), ("xlsx", _xlsx), ("pptx", _pptx)):
        path = folder / f"budget.{suffix}"
        path.write_bytes(_encrypt_office(make(), PASSWORD))
        files[suffix] = path
    return files


class Prompt:
    """A scripted :data:`PasswordPrompt`: the answers in order, recording each question."""

    def __init__(self, *answers: str | None) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, bool]] = []

    def __call__(self, name: str, wrong: bool) -> str | None:
        self.asked.append((name, wrong))
        return self.answers.pop(0) if self.answers else None


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    while exc is not None:
        yield exc
        exc = exc.__cause__ or exc.__context__


FORMATS = ["pdf", "docx", "xlsx", "pptx"]


@pytest.mark.parametrize("kind", FORMATS)
def test_right_password_reads_the_text(locked: dict[str, Path], kind: str) -> None:
    prompt = Prompt(PASSWORD)
    doc = extract(locked[kind], passwords=prompt)
    assert "4471" in doc.text and "Lisbon" in doc.text
    assert prompt.asked == [(str(locked[kind]), False)]  # asked once, naming the file


@pytest.mark.parametrize("kind", FORMATS)
def test_no_password_names_the_file_and_says_protected(locked: dict[str, Path], kind: str) -> None:
    with pytest.raises(PasswordRequired) as info:
        extract(locked[kind])
    exc = info.value
    assert isinstance(exc, InputError) and not exc.wrong
    assert exc.source == str(locked[kind])
    assert "password-protected" in str(exc) and locked[kind].name in str(exc)


@pytest.mark.parametrize("kind", FORMATS)
def test_wrong_password_says_wrong_and_never_shows_it(locked: dict[str, Path], kind: str,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    prompt = Prompt(WRONG, WRONG + "2")  # then None: give up
    with pytest.raises(PasswordRequired) as info:
        extract(locked[kind], passwords=prompt)
    assert info.value.wrong and "wrong password" in str(info.value) and locked[kind].name in str(info.value)
    assert prompt.asked == [(str(locked[kind]), False), (str(locked[kind]), True), (str(locked[kind]), True)]
    texts = [str(e) for e in _chain(info.value)] + [r.getMessage() for r in caplog.records]
    assert not any(WRONG in text or PASSWORD in text for text in texts)


def test_a_wrong_then_right_password_reads(locked: dict[str, Path]) -> None:
    prompt = Prompt(WRONG, PASSWORD)
    result = read_many([locked["docx"], locked["pdf"]], passwords=Prompt(PASSWORD, PASSWORD))
    assert len(result.documents) == 2 and not result.failures
    doc = extract(locked["xlsx"], passwords=prompt)
    assert "4471" in doc.text and [wrong for _, wrong in prompt.asked] == [False, True]


def test_read_many_lists_a_locked_file_among_the_failures(locked: dict[str, Path], tmp_path: Path) -> None:
    plain = tmp_path / "notes.txt"
    plain.write_text("Nothing secret here.")
    result = read_many([plain, locked["pptx"]])
    assert [d.source for d in result.documents] == [str(plain)]
    [failure] = result.failures
    assert isinstance(failure, PasswordRequired) and failure.kind == "PowerPoint file"


def test_the_password_is_never_given_to_a_part_inside_the_file(locked: dict[str, Path], tmp_path: Path) -> None:
    """An archive's own password is not its members': a protected member is reported, not asked about."""
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("readme.txt", "The bundle holds the minutes.")
        zf.write(locked["pdf"], "minutes.pdf")
    prompt = Prompt(PASSWORD)
    doc = extract(archive, passwords=prompt)
    assert prompt.asked == []  # the zip itself is not protected
    assert any("minutes.pdf" in p and "password-protected PDF" in p for p in doc.problems)
    assert "4471" not in doc.text


def test_real_aes256_pdf_from_pdfminer() -> None:
    path = shared_data() / "docs" / "pdfminer" / "aes-256.pdf"
    if not path.exists():
        pytest.skip(f"shared data not present at {path}")
    with pytest.raises(PasswordRequired):
        extract(path)
    assert extract(path, passwords=Prompt("foo")).text.strip()  # pdfminer.six's test password


def test_an_unencrypted_ole_file_named_docx_is_not_called_protected(tmp_path: Path) -> None:
    path = tmp_path / "odd.docx"  # an OLE compound file header, but no Office document inside
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    with pytest.raises(InputError) as info:
        extract(path)
    assert not isinstance(info.value, PasswordRequired) and "password" not in str(info.value)


# -- mail attachments ---------------------------------------------------------------------------------

def test_a_protected_attachment_is_asked_for_by_its_name(locked: dict[str, Path]) -> None:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "ana@example.org", "bo@example.org", "Minutes"
    mail.set_content("The minutes are attached; the password follows in another mail.")
    mail.add_attachment(locked["pdf"].read_bytes(), maintype="application", subtype="pdf",
                        filename="minutes.pdf")
    message = parse_message(mail.as_bytes())
    docs, skipped = attachment_documents(message, "work:INBOX:7")
    assert not docs and "password-protected PDF" in skipped[0].reason
    prompt = Prompt(WRONG, PASSWORD)
    docs, skipped = attachment_documents(message, "work:INBOX:7", passwords=prompt)
    assert not skipped and "4471" in docs[0].text
    assert prompt.asked == [("work:INBOX:7/minutes.pdf", False), ("work:INBOX:7/minutes.pdf", True)]


# -- command line ---------------------------------------------------------------------------------------

class Terminal:
    """Stands in for the terminal behind :func:`getpass.getpass`: typed answers, prompts recorded."""

    def __init__(self, *typed: str) -> None:
        self.typed = list(typed)
        self.prompts: list[str] = []

    def getpass(self, prompt: str = "Password: ", stream: object = None) -> str:
        self.prompts.append(prompt)
        if not self.typed:
            raise EOFError
        return self.typed.pop(0)


def test_cli_extract_asks_with_getpass_naming_the_file(locked: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import getpass

    terminal = Terminal(WRONG, PASSWORD)
    monkeypatch.setattr(getpass, "getpass", terminal.getpass)
    assert main(["extract", "--password", str(locked["docx"])]) == 0
    captured = capsys.readouterr()
    assert "4471" in captured.out
    assert len(terminal.prompts) == 2 and all(str(locked["docx"]) in p for p in terminal.prompts)
    assert f"Wrong password for {locked['docx']}" in captured.err
    assert PASSWORD not in captured.out + captured.err and WRONG not in captured.out + captured.err


def test_cli_gives_up_after_three_wrong_passwords(locked: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import getpass

    terminal = Terminal(*[WRONG] * 10)
    monkeypatch.setattr(getpass, "getpass", terminal.getpass)
    assert main(["extract", "--password", str(locked["pdf"])]) == 1
    out = capsys.readouterr().out
    assert len(terminal.prompts) == 3
    assert f"not read: {locked['pdf']}: wrong password for this password-protected PDF" in out


def test_cli_without_password_says_how_to_give_it(locked: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import getpass

    terminal = Terminal(PASSWORD)
    monkeypatch.setattr(getpass, "getpass", terminal.getpass)
    assert main(["ask", "--fast", str(locked["xlsx"]), "What is the vault code?"]) == 1
    err = capsys.readouterr().err
    assert f"{locked['xlsx']}: password-protected Excel workbook: give its password with --password" in err
    assert terminal.prompts == []  # not asked without --password


# -- the app ------------------------------------------------------------------------------------------------

def _window(qtbot: QtBot, store: ModelStore) -> MainWindow:
    from assistant.gui.window import MainWindow

    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.fixture
def app_store(tokenizer: Any, embedder: Any, encoder: Any) -> ModelStore:
    pytest.importorskip("PySide6")
    from conftest import ScriptedGenerator

    from assistant.config import Settings
    from assistant.service import ModelStore

    store = ModelStore(Settings())
    store._tokenizer, store._embedder, store._encoder = tokenizer, embedder, encoder
    store._generator = ScriptedGenerator(lambda request: '{"route": "question_answering", "target": ""}')
    return store


def _type_and_accept(text: str, labels: list[str], then: Callable[[], None] | None = None) -> Callable[[], None]:
    from PySide6.QtWidgets import QInputDialog, QLineEdit
    from qtmodal import on_next_modal

    def act(dialog: object) -> None:
        assert isinstance(dialog, QInputDialog)
        labels.append(dialog.labelText())
        assert dialog.textEchoMode() == QLineEdit.EchoMode.Password  # typing is hidden
        if then is not None:
            then()  # the next dialog is watched for before this one closes
        dialog.setTextValue(text)
        dialog.accept()

    return lambda: on_next_modal(QInputDialog, act)


def test_app_asks_for_the_password_again_after_a_wrong_one(qtbot: QtBot, user_dirs: Path, app_store: ModelStore,
                                                          locked: dict[str, Path]) -> None:
    path = str(locked["pdf"])
    labels: list[str] = []
    second = _type_and_accept(PASSWORD, labels)
    first = _type_and_accept(WRONG, labels, then=second)
    window = _window(qtbot, app_store)
    first()
    window.open_files([path])
    qtbot.waitUntil(lambda: path in window.open_docs, timeout=60000)
    assert "minutes.pdf is password-protected" in labels[0]
    assert "Wrong password for minutes.pdf" in labels[1]
    assert "4471" in window.open_docs[path].text
    assert path not in window.open_failures
    qtbot.waitUntil(lambda: window.ask_panel.session is not None, timeout=60000)


def test_app_cancel_leaves_the_file_listed_with_the_reason(qtbot: QtBot, user_dirs: Path, app_store: ModelStore,
                                                          locked: dict[str, Path]) -> None:
    from PySide6.QtWidgets import QInputDialog
    from qtmodal import on_next_modal

    asked: list[str] = []

    def cancel(dialog: object) -> None:
        assert isinstance(dialog, QInputDialog)
        asked.append(dialog.labelText())
        dialog.reject()

    path = str(locked["docx"])
    window = _window(qtbot, app_store)
    on_next_modal(QInputDialog, cancel)
    window.open_files([path])
    qtbot.waitUntil(lambda: bool(asked), timeout=60000)
    assert "budget.docx is password-protected" in asked[0]
    qtbot.waitUntil(lambda: window.progress.idle, timeout=10000)
    assert window.open_failures[path] == "password-protected Word document (no password given)"
    assert path not in window.open_docs
    rows = [window.ask_panel.files.list.item(i).text() for i in range(window.ask_panel.files.list.count())]
    assert any("budget.docx" in row and "password-protected" in row for row in rows)
