"""WordprocessingML names and element look-ups shared by the DOCX reader and its list numbering.

Transitional and Strict Open XML use different namespaces for the same elements, so elements are
matched by local name within either namespace.
"""

from __future__ import annotations

from typing import Any

W_TRANSITIONAL = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W_STRICT = "http://purl.oclc.org/ooxml/wordprocessingml/main"
W_NAMESPACES = (W_TRANSITIONAL, W_STRICT)


def local(tag: Any) -> str:
    """The local name of an element's tag ('' for comments and processing instructions)."""
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def namespace(tag: Any) -> str:
    """The namespace URI of an element's tag ('' when it has none)."""
    return tag[1:].partition("}")[0] if isinstance(tag, str) and tag.startswith("{") else ""


def attr(el: Any, name: str) -> str | None:
    """The ``w:NAME`` attribute of ``el`` in either namespace, or None."""
    for ns in W_NAMESPACES:
        value = el.get(f"{{{ns}}}{name}")
        if value is not None:
            return str(value)
    return None


def child(el: Any, name: str) -> Any:
    """The first ``w:NAME`` child of ``el``, or None."""
    for sub in el:
        if local(sub.tag) == name and namespace(sub.tag) in W_NAMESPACES:
            return sub
    return None


def children(el: Any, name: str) -> list[Any]:
    """Every ``w:NAME`` child of ``el``, in order."""
    return [sub for sub in el if local(sub.tag) == name and namespace(sub.tag) in W_NAMESPACES]


def val(el: Any, name: str) -> str | None:
    """The ``w:val`` of the ``w:NAME`` child of ``el`` (``<w:start w:val="3"/>`` -> "3"), or None."""
    sub = child(el, name) if el is not None else None
    return attr(sub, "val") if sub is not None else None
