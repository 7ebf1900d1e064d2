"""Which full stops end a sentence: not one after an abbreviation ("Acme Inc. and Beta Corp.", "No. 5", "P.L.
113-2"), an initial ("1600 E. St. Andrew Place", "Robert L. Erwin") or a list item's letter ("D. CONTINUING
EFFECT."); one after a letter that a label names ("set out in Schedule I.", "identified in Exhibit A.") does.

Shared by the passages the reader reads (:mod:`assistant.ttrag.passages`) and the sentences a summary quotes
(:func:`assistant.documents.chunk.whole_sentence_spans`), so that both read a sentence as a person does.
"""

from __future__ import annotations

import re

#: Abbreviations whose full stop ends no sentence: a company's legal form, a number's or a section's ("No. 5",
#: "Sec. 4"), a title, a citation's ("Vol.", "pp.", "et al.") and "U.S.", "e.g.". Matched in either case
#: ("ACME, INC.").
ABBREVIATIONS = ("Inc", "Corp", "Co", "Ltd", "Bros", "Assn", "No", "Nos", "Sec", "Secs", "Art", "Para", "Fig", "Mr",
                 "Mrs", "Ms", "Dr", "Jr", "Sr", "St", "vs", "U.S", "U.K", "N.A", "S.A", "L.P", "L.L.C", "L.L.P", "P.C",
                 "e.g", "i.e", "approx", "Ser", "Vol", "pp", "al")
#: Words that name a lettered thing, after which a capital letter and a full stop can end a sentence: of 434 single
#: capital letters before a full stop in the CUAD dev contracts' text, about 90 came after one of these ("Schedule
#: I.", "Exhibit A.", "Party B."), most of the rest were initials and list letters.
LABELS = ("Exhibit", "Exhibits", "Schedule", "Schedules", "Appendix", "Annex", "Attachment", "Addendum", "Rider",
          "Article", "Section", "Part", "Clause", "Paragraph", "Item", "Party", "Parties", "Segment", "Class",
          "Series", "Phase", "Tier", "Plan", "Option", "Group", "Type", "Grade", "Level", "Form", "Table", "Figure",
          "Chapter", "Title", "Division", "Category", "Stage", "Step", "Round", "Tranche", "Vitamin", "and", "or")

NOT_AFTER = "".join(rf"(?<!\b(?i:{re.escape(a)}))" for a in ABBREVIATIONS)
_AFTER_LABEL = "|".join(rf"(?<=\b(?i:{w})\s[A-Z])" for w in LABELS)
#: A mark that ends a sentence (a regular expression, no group): ``.``, ``!``, ``?`` or ``;``, not after an
#: abbreviation, and a full stop not after a capital letter standing alone unless a label names that letter.
STOP = rf"(?:{NOT_AFTER}(?:(?<!\b[A-Z])\.|[!?;])|(?:{_AFTER_LABEL})\.)"
_CLOSERS = "[\"'\u201d\u2019)\\]]*"  # closing quotes and brackets after a mark
_FULL_STOP = re.compile(rf"\.{_CLOSERS}$")
_STOP_END = re.compile(rf"{STOP}{_CLOSERS}$")


def stops_a_sentence(text: str) -> bool:
    """Whether the full stop that ``text`` ends with (closing quotes or brackets after it allowed) ends a sentence;
    True too for text that does not end in a full stop ("?", "!", a line's end decide elsewhere)."""
    text = text.rstrip()
    return not _FULL_STOP.search(text) or bool(_STOP_END.search(text))
