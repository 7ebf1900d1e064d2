# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""Title page, preamble, the numbered articles and the signature page."""

from . import vocab
from .articles import ARTICLES
from .definitions import article_one
from .prose import Composer

FMN = "Force Majeure Notice"

# Extra (non-fact) sentences woven into particular sections.
EXTRAS = {
    "11.5": ["Any Batch suspected of nonconformity shall immediately be placed on Quarantine Hold and segregated from released stock.",
             "A Quarantine Hold may only be lifted by the Supplier's Quality Manager after the Buyer has agreed the disposition in writing."],
    "11.3": ["Products placed on Quarantine Hold at the Buyer's premises shall be collected by the Supplier at its own cost within ten Business Days."],
    "13.3": ["A temporary departure from the Specifications for a defined quantity or period requires a Deviation Permit signed by the Buyer's Supplier Quality Engineer.",
             "Each Deviation Permit shall state the affected part numbers, Batches, the justification and the expiry date."],
    "13.4": ["Products shipped under a Deviation Permit shall be identified as such on the delivery note."],
    "24.2": [f"The affected Party shall give the other Party a {FMN} within three Business Days after becoming aware of the force majeure event.",
             f"The {FMN} shall describe the event, its expected duration and the measures taken to mitigate its effects."],
    "24.3": [f"Following a {FMN}, the Supplier shall allocate its available capacity to the Buyer at least pro rata to the volumes of the preceding six months."],
    "24.4": [f"If the force majeure event continues for more than ninety days after the {FMN}, either Party may terminate the affected Purchase Orders."],
    "28.2": ["The Joint Steering Committee consists of three senior representatives of each Party and is chaired alternately by each Party for a Contract Year."],
    "32.2": ["Notices to the Buyer shall be addressed to its Legal Department at its registered office, and notices to the Supplier to its Company Secretary at its registered office."],
}


def title_page():
    return [
        "# Master Supply and Services Agreement",
        f"**between**\n\n**{vocab.BUYER}**\n(the \"Buyer\")\n\n**and**\n\n**{vocab.SUPPLIER}**\n(the \"Supplier\")",
        f"Agreement number: {vocab.AGREEMENT_NO}\n\nExecution version - CONFIDENTIAL\n\n"
        "Supply of precision metal and polymer components for orthopaedic implants and surgical "
        "instruments, together with related engineering, calibration and support services.",
    ]


def preamble(book):
    buyer = book.take1("preamble")
    return [
        "## Parties and Recitals",
        "This Master Supply and Services Agreement is made between:",
        f"(1) {buyer} (the \"Buyer\"); and\n\n"
        f"(2) {vocab.SUPPLIER}, a private limited company incorporated in Scotland under company number "
        "SC291746 whose registered office is at Unit 3, Pitreavie Business Park, Dunfermline KY11 8UU, "
        "Scotland (the \"Supplier\"),",
        "each a \"Party\" and together the \"Parties\".",
        "**Recitals**",
        "(A) The Buyer designs, manufactures and distributes orthopaedic implants, trauma systems and "
        "surgical instruments and is the legal manufacturer of these devices within the European Union.\n\n"
        "(B) The Supplier manufactures precision machined, finished and moulded components for medical "
        "device manufacturers at its sites in Dunfermline and Telford and holds certification to ISO 13485:2016.\n\n"
        "(C) Following a competitive tender conducted by the Buyer in the second half of 2024, the Buyer "
        "selected the Supplier as a strategic supplier of the components listed in Schedule 1.\n\n"
        "(D) The Parties wish to set out the terms on which the Supplier will supply Products and perform "
        "Services for the Buyer and its Affiliates.",
        "NOW, THEREFORE, the Parties agree as follows:",
    ]


def articles(rng, book):
    """All numbered articles; returns (blocks, [(level-2 heading), ...])."""
    comp = Composer(rng)
    technical = {8, 10, 11, 12, 13, 14, 15, 16, 17, 25, 26, 27}
    blocks = article_one()
    for idx, (title, sec_titles, nouns, specific) in enumerate(ARTICLES):
        num = idx + 2
        comp.standards = vocab.STANDARDS if num in technical else vocab.GENERAL_REFS
        blocks.append(f"## Article {num} - {title}")
        specific = list(specific)
        rng.shuffle(specific)
        for s_idx, st in enumerate(sec_titles):
            key = f"{num}.{s_idx + 1}"
            blocks.append(f"### {key} {st}")
            extras = []
            if book.has(f"art:{key}"):
                extras += book.take(f"art:{key}")
            extras += EXTRAS.get(key, [])
            if specific and (s_idx == 0 or rng.random() < 0.5):
                extras.append(specific.pop())
            blocks.extend(comp.section(key, st, nouns, extras))
        for s in specific:  # anything left over closes the article
            blocks.append(s)
    return blocks


def signature(book):
    sig = book.take1("signature")
    lines = [
        "## Signatures",
        sig + " Each Party has signed two originals, one of which has been delivered to each Party.",
    ]
    for company, name, role, place in [
        (vocab.BUYER, "Matthias Oberdorf", "Managing Director", "Bremen"),
        (vocab.BUYER, "Clara Wendtland", "Chief Financial Officer", "Bremen"),
        (vocab.SUPPLIER, "Duncan Rennie", "Chief Executive Officer", "Dunfermline"),
        (vocab.SUPPLIER, "Morag Lindsay", "Director of Finance", "Dunfermline"),
    ]:
        lines.append(f"For and on behalf of **{company}**\n\nPlace: {place}\n\n"
                     f"Signature: ______________________\n\nName: {name}\n\nTitle: {role}")
    return lines
