"""The command that installs an optional reader (the copyleft ``msg`` and ``tnef`` extras) into this very install.

The app runs from the checkout's ``.venv`` (``packaging/install.sh``): a bare ``pip`` is another Python's, and
``assistant`` on the package index is an unrelated project. So the command names this install's own
programs: the install script's switch and the environment's pip on the checkout, or, for an install that is
not a checkout, this Python's pip with the extra's requirement itself.
"""

from __future__ import annotations

import importlib.metadata
import re
import shlex
import sys
from pathlib import Path

#: The distribution whose extras these are (see ``pyproject.toml``).
DISTRIBUTION = "assistant"


def checkout_root() -> Path | None:
    """The source checkout this package runs from (it holds ``packaging/install.sh``), or None."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "packaging" / "install.sh").is_file() and (root / "pyproject.toml").is_file() else None


def _pip() -> str:
    """This environment's pip: ``VENV/bin/pip`` where it is there, else ``PYTHON -m pip``."""
    scripts = Path(sys.prefix) / ("Scripts" if sys.platform == "win32" else "bin")
    pip = scripts / ("pip.exe" if sys.platform == "win32" else "pip")
    return shlex.quote(str(pip)) if pip.is_file() else f"{shlex.quote(sys.executable)} -m pip"


def _requirements(extra: str) -> list[str]:
    """The requirements the installed metadata lists for ``extra`` (``extract-msg>=0.48``)."""
    try:
        requires = importlib.metadata.requires(DISTRIBUTION) or []
    except importlib.metadata.PackageNotFoundError:
        return []
    marker = re.compile(rf"""extra\s*==\s*["']{re.escape(extra)}["']""")
    return [r.split(";", 1)[0].strip() for r in requires if ";" in r and marker.search(r.split(";", 1)[1])]


def install_command(extra: str, library: str) -> str:
    """The command that installs ``extra`` (which brings ``library``) here, e.g. ``bash
    /home/me/assistant/packaging/install.sh --with msg  (or  /home/me/assistant/.venv/bin/pip install -e
    '/home/me/assistant[msg]')``."""
    root = checkout_root()
    if root is not None:
        script = shlex.quote(str(root / "packaging" / "install.sh"))
        return f"bash {script} --with {extra}  (or  {_pip()} install -e {shlex.quote(f'{root}[{extra}]')})"
    wanted = _requirements(extra) or [library]
    return f"{_pip()} install {' '.join(shlex.quote(r) for r in wanted)}"


def missing_extra(what: str, extra: str, library: str, licence: str) -> str:
    """The reason a file needs an extra that is not installed, with the command that installs it here."""
    return (f"{what} need the optional {extra} extra ({library}, {licence}): install it with  "
            f"{install_command(extra, library)}")
