"""Calendar invitations and contacts: iCalendar (RFC 5545: ``.ics``, ``text/calendar``) and vCard (RFC 6350:
``.vcf``) as plain lines (Event, Starts, Ends, Location, Organizer, Attendees; Name, Email, Phone), read with
the icalendar library, so the reader never sees raw ``DTSTART;TZID=...`` syntax. An invitation's section is
named after its event (``invitation: SUMMARY``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

from assistant.documents.base import Extractor, register
from assistant.documents.limits import ISOLATE_ABOVE_BYTES
from assistant.documents.text import decode
from assistant.errors import InputError
from assistant.records import Segment


def _value(prop: Any) -> str:
    """A property's text: structured values (``ORG``, ``N``, ``ADR``) joined; escapes already undone."""
    if prop is None:
        return ""
    if isinstance(prop, list):
        return ", ".join(v for v in (_value(p) for p in prop) if v)
    for attr in ("ical_value", "fields"):
        inner = getattr(prop, attr, None)
        if isinstance(inner, tuple | list):
            return " ".join(" ".join(str(x) for x in part) if isinstance(part, tuple | list) else str(part)
                            for part in inner if part).strip()
    if isinstance(prop, bytes):
        return prop.decode("utf-8", errors="replace")
    text = prop.to_ical().decode("utf-8", errors="replace") if hasattr(prop, "to_ical") and not isinstance(
        prop, str) else str(prop)
    return text.replace("\\n", "\n").replace("\\,", ",").replace("\\;", ";").strip()


def _person(prop: Any) -> str:
    """``Name <address>`` of an ORGANIZER/ATTENDEE (``mailto:`` dropped)."""
    address = re.sub(r"^mailto:", "", str(prop), flags=re.IGNORECASE)
    name = str(getattr(prop, "params", {}).get("CN", "")).strip()
    return f"{name} <{address}>" if name and address else name or address


def _when(prop: Any) -> str:
    """``Thursday 3 December 2026, 14:00 (W. Europe Standard Time)``: the time as written, with its zone's name."""
    if prop is None:
        return ""
    moment = getattr(prop, "dt", prop)
    zone = str(getattr(prop, "params", {}).get("TZID", "")).strip()
    if isinstance(moment, datetime):
        text = f"{moment:%A} {moment.day} {moment:%B %Y, %H:%M}"
        if not zone and moment.tzinfo is not None:
            zone = moment.tzname() or ""
        return f"{text} ({zone})" if zone else text
    if isinstance(moment, date):
        return f"{moment:%A} {moment.day} {moment:%B %Y} (all day)"
    return _value(prop)


def calendar_lines(component: Any, method: str) -> tuple[str, str]:
    """(section, text) of one VEVENT/VTODO/VCARD as plain lines."""
    name = (component.name or "").upper()
    if name == "VCARD":
        fields = [("Name", _value(component.get("FN")) or _value(component.get("N"))),
                  ("Email", _value(component.get("EMAIL"))), ("Phone", _value(component.get("TEL"))),
                  ("Organization", _value(component.get("ORG"))), ("Title", _value(component.get("TITLE"))),
                  ("Address", _value(component.get("ADR"))), ("Note", _value(component.get("NOTE")))]
        return f"contact: {fields[0][1] or '(no name)'}", "\n".join(f"{k}: {v}" for k, v in fields if v)
    summary = _value(component.get("SUMMARY")) or "(no title)"
    attendees = component.get("ATTENDEE")
    people = attendees if isinstance(attendees, list) else [attendees] if attendees is not None else []
    status = "cancelled" if method == "CANCEL" else _value(component.get("STATUS")).lower()
    fields = [("Event" if name == "VEVENT" else "Task", summary), ("Status", status),
              ("Starts", _when(component.get("DTSTART"))),
              ("Ends", _when(component.get("DTEND"))), ("Due", _when(component.get("DUE"))),
              ("Repeats", _value(component.get("RRULE"))), ("Location", _value(component.get("LOCATION"))),
              ("Organizer", _person(component.get("ORGANIZER")) if component.get("ORGANIZER") else ""),
              ("Attendees", ", ".join(_person(p) for p in people)),
              ("Description", _value(component.get("DESCRIPTION")))]
    label = "task" if name == "VTODO" else "invitation" if method in ("REQUEST", "PUBLISH", "ADD") else "event"
    return f"{label}: {summary}", "\n".join(f"{k}: {v}" for k, v in fields if v)


class CalendarExtractor(Extractor):
    """iCalendar (RFC 5545) and vCard (RFC 6350) files: one segment per event, task or contact, as plain
    lines (``Event:``, ``Starts:``, ``Location:`` ...; ``Name:``, ``Email:`` ...), never raw property syntax."""

    suffixes = (".ics", ".ical", ".ifb", ".vcs", ".vcf", ".vcard")
    isolate_above = ISOLATE_ABOVE_BYTES

    def segments(self, path: Path) -> Iterator[Segment]:
        import icalendar

        text = decode(path.read_bytes(), str(path)).lstrip("\ufeff")
        if not text.strip():
            raise InputError(str(path), "empty file")
        try:
            roots = icalendar.Component.from_ical(text, multiple=True)
        except Exception as exc:  # noqa: BLE001  (the parser raises ValueError and others on broken input)
            raise InputError(str(path), f"not a valid calendar or contact file ({exc})") from exc
        found = False
        for root in roots:
            method = _value(root.get("METHOD")).upper()
            for component in root.walk():
                if (component.name or "").upper() in ("VEVENT", "VTODO", "VCARD"):
                    section, body = calendar_lines(component, method)
                    found = True
                    yield Segment(text=body, section=section)
        if not found:
            raise InputError(str(path), "no events or contacts")


register(CalendarExtractor())
