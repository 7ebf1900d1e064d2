"""What is asked to be summarised: the focus, the length and the form, read from the question."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Form = Literal["bullets", "sentences"]


@dataclass(frozen=True)
class SummaryRequest:
    """What the person asked for: ``focus`` (a topic, '' for the whole document), ``detail`` (more than
    the 3-bullet gist) and ``form`` (``bullets``, or ``sentences`` for the draft panel)."""

    focus: str = ""
    detail: bool = False
    form: Form = "bullets"


_DETAIL = re.compile(r"\b(in (more |full |great(er)? )?detail|detailed|in depth|thorough\w*|full summary|"
                     r"long(er)? summary|all the (main|key) points)\b", re.I)
_SENTENCES = re.compile(r"\b(in (plain |full |a few )?sentences|as (a )?(plain )?(text|paragraph|prose)|"
                        r"no bullets|without bullets)\b", re.I)
# "summarize the termination provisions", "what does it say about data protection", "overview of X"
_FOCUS = [
    re.compile(r"\bwhat (?:does|do) (?:it|this|that|they|the \w+(?: \w+)?) (?:say|state|provide|cover)s? "
               r"(?:about|on|regarding|concerning) (?P<f>.+)", re.I),
    re.compile(r"\b(?:summar\w+|overview|gist|main points|key points|outline|tl;?dr)\b(?: of| on| for| about)?"
               r"(?: the| this| that| its)? (?P<f>.+)", re.I),
]
_WHOLE = re.compile(r"^(?:(?:the |this |that |attached |whole |entire |full |)+(?:document|attachment|file|report|"
                    r"email|e-mail|mail|message|thread|email thread|mailbox|inbox|mail folder|conversation|agreement|"
                    r"contract|paper|pdf|handbook|"
                    r"spreadsheet|sheet|workbook|text|deck|presentation|memo|letter|it)s?)?$", re.I)
_TRAIL = re.compile(r"\b(?:in (?:\w+ )?(?:bullets?|bullet points|sentences|detail|depth)|in (?:one|two|three|"
                    r"four|five|\d+) \w+|please|for me|briefly|of (?:this|the|that) (?:document|attachment|"
                    r"file|agreement|contract|report|paper|email|thread)|(?:of |in )?(?:this|the) (?:attached )?"
                    r"(?:document|attachment|file|agreement|contract|report|paper|email|thread)|"
                    r"as (?:a )?(?:plain )?(?:text|paragraph|prose)|detailed|thorough\w*)\b", re.I)


def parse_request(question: str, target: str = "") -> SummaryRequest:
    """The focus, length and form of a summary request.

    ``target`` is the router's target when it gave one. A focus that only names the document ("this
    agreement", "the attached PDF") is no focus. Examples: "Summarize this agreement" -> whole document,
    gist; "Summarize the termination provisions in detail" -> focus "termination provisions", detail.
    """
    focus = ""
    for pattern in _FOCUS:
        m = pattern.search(question)
        if m:
            focus = m.group("f")
            break
    if not focus and target:
        focus = target
    focus = _TRAIL.sub(" ", focus)
    focus = re.sub(r"[\s?.!,;:]+$", "", re.sub(r"\s+", " ", focus)).strip()
    focus = re.sub(r"^(?:(?:the|this|that|its|their|of|on|about)\b\s*)+", "", focus, flags=re.I).strip()
    if _WHOLE.match(focus) or len(focus) < 3:
        focus = ""
    form: Form = "sentences" if _SENTENCES.search(question) else "bullets"
    return SummaryRequest(focus=focus, detail=bool(_DETAIL.search(question)), form=form)
