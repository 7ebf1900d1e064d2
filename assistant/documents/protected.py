"""Password-protected Office files opened in memory with the password the person gave (msoffcrypto-tool).

Office stores a password-protected .docx/.xlsx/.pptx as an OLE compound file (MS-CFB) holding an
``EncryptionInfo`` stream and the ``EncryptedPackage`` (ECMA-376 Standard or Agile encryption, MS-OFFCRYPTO
2.3.4); Word 97-2003 uses RC4 or RC4 CryptoAPI inside the ``WordDocument`` stream (MS-OFFCRYPTO 2.3.6).
:func:`decrypted_office` gives the decrypted file as bytes in memory, for the format's own reader. The
password comes from :func:`assistant.documents.base.current_password` and never appears in a message.
"""

from __future__ import annotations

import io
from pathlib import Path

from assistant.documents.base import current_password
from assistant.errors import InputError, PasswordRequired

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def is_ole(path: Path) -> bool:
    """True when ``path`` is an OLE compound file (MS-CFB): legacy Office, or a protected .docx/.xlsx/.pptx."""
    with path.open("rb") as f:
        return f.read(8) == OLE_MAGIC


def decrypted_office(path: Path, kind: str) -> bytes | None:
    """The decrypted file when ``path`` is a password-protected Office file, else None (read it as it is).

    Args:
        path: the file (any Office format msoffcrypto-tool knows: OOXML, .doc, .xls, .ppt).
        kind: the format as a person names it ("Word document"), for messages.

    Returns:
        The decrypted file's bytes (an OOXML zip package, or the legacy OLE file), or None when the file
        is not encrypted.

    Raises:
        PasswordRequired: encrypted and no password was given (``wrong`` False), or it was refused.
        InputError: an OLE file that is not an Office file, or an encryption msoffcrypto cannot undo.
    """
    import msoffcrypto
    from msoffcrypto import exceptions

    with path.open("rb") as f:
        try:
            office = msoffcrypto.OfficeFile(f)
            encrypted = office.is_encrypted()
        except (exceptions.FileFormatError, exceptions.ParseError, OSError, ValueError) as exc:
            article = "an" if kind[0] in "AEIOU" else "a"
            raise InputError(str(path), f"corrupt or not {article} {kind} ({exc})") from exc
        if not encrypted:
            return None
        password = current_password()
        if not password:
            raise PasswordRequired(str(path), kind, wrong=password is not None)
        out = io.BytesIO()
        try:
            if office.format == "ooxml":  # the legacy formats verify the password in load_key always
                office.load_key(password=password, verify_password=True)
            else:
                office.load_key(password=password)
            office.decrypt(out)
        except exceptions.InvalidKeyError:
            raise PasswordRequired(str(path), kind, wrong=True) from None  # no library text: it may echo input
        except (exceptions.DecryptionError, exceptions.ParseError, NotImplementedError) as exc:
            raise InputError(str(path), f"password-protected {kind} with an encryption that cannot be "
                                        f"opened here ({type(exc).__name__})") from None
    return out.getvalue()
