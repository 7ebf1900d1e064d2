"""What is asked to be summarised: the focus, the length and the form, read from the question."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Form = Literal["bullets", "sentences"]


@dataclass(frozen=True)
class SummaryRequest:
    """What the person asked for: ``focus`` (a topic, '' for the whole document), ``detail`` (more than
    the 3-bullet gist), ``form`` (``bullets``, or ``sentences`` for the draft panel) and ``document``
    (the words that name the document asked about: a file name, or a kind of document such as
    "agreement", "minutes" or "government report"; '' when the request names none)."""

    focus: str = ""
    detail: bool = False
    form: Form = "bullets"
    document: str = ""


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
# the kinds of document a request may name ("summarize the minutes", "this agreement", "the attached report")
DOCUMENT_NOUNS = ("agreement", "contract", "minutes", "meeting", "transcript", "report", "paper", "article", "story",
                  "patent", "memo", "letter", "invoice", "proposal", "policy", "handbook", "manual", "presentation",
                  "deck", "spreadsheet", "sheet", "workbook", "thread", "email", "e-mail", "mail", "message",
                  "notes", "newsletter", "brochure", "statement", "filing")
_NOUN = "|".join(DOCUMENT_NOUNS)
_FILE_NAME = re.compile(r"(?<![\w/.-])([\w][\w.-]*\.(?:txt|md|pdf|docx?|xlsx?|xlsm|csv|tsv|pptx?|eml|mbox|msg|html?|"
                        r"rtf|odt|ods|odp|json|xml|ics|zip))\b", re.I)
_NAMED = re.compile(rf"\b(?:this|the|that|these|those|my|our|attached)\s+(?:attached\s+)?((?:[a-z][\w-]*\s+){{0,2}}?"
                    rf"(?:{_NOUN})s?)\b", re.I)
_ONLY_NAMES = re.compile(rf"^(?:(?:the|this|that|attached|whole|entire|full|[a-z][\w-]*)\s+){{0,3}}(?:{_NOUN})s?$",
                         re.I)
_ALL = re.compile(r"^(?:(?:all|both)(?: of)? )?(?:these|those|them|both|all|everything|each)(?: (?:documents|files|"
                  r"attachments|ones|two|three))?$", re.I)  # "summarize these", "both of them"
_NOUN_ON = re.compile(rf"^(?:{_NOUN})s?\s+(?:on|about|of|regarding)\s+", re.I)  # "the report on data protection"
_TRAIL = re.compile(r"\b(?:in (?:\w+ )?(?:bullets?|bullet points|sentences|detail|depth)|in (?:one|two|three|"
                    r"four|five|\d+) \w+|please|for me|briefly|of (?:this|the|that) (?:document|attachment|"
                    r"file|agreement|contract|report|paper|email|thread)|(?:of |in )?(?:this|the) (?:attached )?"
                    r"(?:document|attachment|file|agreement|contract|report|paper|email|thread)|"
                    r"as (?:a )?(?:plain )?(?:text|paragraph|prose)|detailed|thorough\w*)\b", re.I)


def named_document(question: str) -> str:
    """The words of ``question`` that name one document: a file name ("notes.txt"), else a kind of document
    with up to two words before it ("this agreement", "the school board minutes" -> "school board
    minutes"); '' when it names none (or only "the document", "this file")."""
    m = _FILE_NAME.search(question)
    if m:
        return m.group(1)
    m = _NAMED.search(question)
    return re.sub(r"\s+", " ", m.group(1)).strip().lower() if m else ""


def parse_request(question: str, target: str = "") -> SummaryRequest:
    """The focus, length, form and the document named of a summary request.

    ``target`` is the router's target when it gave one. A focus that only names the document ("this
    agreement", "the attached PDF", "notes.txt", "the minutes") is no focus: it is the ``document``.
    Examples: "Summarize this agreement" -> whole document, gist, document "agreement"; "Summarize the
    termination provisions in detail" -> focus "termination provisions", detail.
    """
    focus = ""
    for pattern in _FOCUS:
        m = pattern.search(question)
        if m:
            focus = m.group("f")
            break
    if not focus and target:
        focus = target
    document = named_document(question)
    if document and document.lower() in focus.lower() and _FILE_NAME.search(document):
        focus = focus.replace(document, " ")
    focus = _TRAIL.sub(" ", focus)
    focus = re.sub(r"[\s?.!,;:]+$", "", re.sub(r"\s+", " ", focus)).strip()
    focus = re.sub(r"^(?:(?:the|this|that|its|their|of|on|about)\b\s*)+", "", focus, flags=re.I).strip()
    focus = _NOUN_ON.sub("", focus)
    if _WHOLE.match(focus) or _ONLY_NAMES.match(focus) or _ALL.match(focus) or len(focus) < 3:
        focus = ""
    form: Form = "sentences" if _SENTENCES.search(question) else "bullets"
    return SummaryRequest(focus=focus, detail=bool(_DETAIL.search(question)), form=form, document=document)
