# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""Planted facts: the sentence that states each one, its question and gold answer.

Each fact has a ``slot`` naming where the generator places its sentence
(``art:7.2`` = Article 7, Section 7.2; ``s3:escrow`` = a spot in Schedule 3).
Count facts name a phrase; their answer is computed from the finished text.
"""

import re

# (slot, kind, target, question, answer, sentence)
FACTS = [
    ("preamble", "qa", "", "What is the registered office address of Norhaven Medical Devices GmbH?",
     "Hafenstrasse 112, 28217 Bremen",
     "Norhaven Medical Devices GmbH, a limited liability company incorporated under the laws of Germany with its registered office at Hafenstrasse 112, 28217 Bremen, Germany"),
    ("art:3.1", "qa", "", "How long is the initial term of the supply agreement?", "five (5) years",
     "The initial term of this Agreement is five (5) years from the Effective Date."),
    ("art:4.2", "qa", "", "How long is the frozen period before a requested delivery date?", "eight (8) weeks",
     "Quantities falling within the frozen period of eight (8) weeks before the requested Delivery Date may not be changed or cancelled by the Buyer without the Supplier's consent."),
    ("art:4.4", "needle", "VN-5520-HX", "What vendor number does Calder have in Norhaven's supplier portal?", "VN-5520-HX",
     "The vendor number assigned to the Supplier in the Buyer's supplier portal is VN-5520-HX."),
    ("art:5.3", "qa", "", "What is the maximum annual price adjustment allowed in the price review?", "2.8 percent",
     "Any adjustment agreed in the annual price review shall not exceed 2.8 percent of the prices in force during the preceding Contract Year."),
    ("art:7.2", "qa", "", "What are the payment terms for invoices?", "45 days from receipt of a valid invoice",
     "The Buyer shall pay each undisputed invoice net 45 days from receipt of a valid invoice."),
    ("art:7.3", "qa", "", "What interest is charged on late payments?", "3.25 percentage points above the main refinancing rate",
     "Overdue amounts bear interest at 3.25 percentage points above the main refinancing rate of the European Central Bank."),
    ("art:9.2", "qa", "", "What is the penalty for late delivery?", "0.5% of the order value per calendar day",
     "If the Supplier fails to deliver by the agreed Delivery Date, the Buyer is entitled to liquidated damages of 0.5% of the order value per calendar day of delay."),
    ("art:9.3", "qa", "", "What is the maximum amount of liquidated damages for late delivery?", "7.5% of the order value",
     "The total liquidated damages for late delivery under any single Purchase Order are capped at 7.5% of the order value."),
    ("art:16.1", "qa", "", "How long is the warranty period for the products?", "36 months from the date of delivery",
     "The warranty period for the Products is 36 months from the date of delivery to the Buyer."),
    ("art:19.5", "qa", "", "How long do the confidentiality obligations survive after the agreement ends?",
     "seven (7) years after the expiry or termination",
     "The confidentiality obligations under this Article survive for seven (7) years after the expiry or termination of this Agreement."),
    ("art:21.1", "qa", "", "How much product liability insurance must the supplier carry?", "EUR 10,000,000 per occurrence",
     "The Supplier shall maintain product liability insurance with a minimum cover of EUR 10,000,000 per occurrence."),
    ("art:22.2", "qa", "", "What is the cap on each party's aggregate liability?", "EUR 4,750,000",
     "Except as set out in Section 22.1, the aggregate liability of each Party under this Agreement is limited to EUR 4,750,000."),
    ("art:26.2", "qa", "", "How many scheduled quality audits per year may the buyer carry out?",
     "two (2) scheduled quality audits per calendar year",
     "The Buyer may carry out up to two (2) scheduled quality audits per calendar year at the Supplier's manufacturing sites."),
    ("art:28.1", "qa", "", "Who is Calder's contract manager for this agreement?", "Imogen Tallis",
     "The Supplier's contract manager is Imogen Tallis, Key Account Manager for medical customers."),
    ("art:28.1", "qa", "", "Who is Norhaven's contract manager and what is her role?",
     "Henrike Vosskamp, Head of Strategic Procurement",
     "The Buyer's contract manager is Henrike Vosskamp, Head of Strategic Procurement."),
    ("art:29.1", "qa", "", "How much notice is needed to terminate the agreement for convenience?",
     "180 days' prior written notice",
     "Either Party may terminate this Agreement for convenience by giving 180 days' prior written notice to the other Party."),
    ("art:30.3", "qa", "", "Which court has jurisdiction over disputes under the agreement?", "District Court of Rotterdam",
     "The District Court of Rotterdam has exclusive jurisdiction over all disputes arising out of or in connection with this Agreement."),
    ("art:31.1", "qa", "", "Which law governs the supply agreement?", "substantive laws of the Netherlands",
     "This Agreement is governed by the substantive laws of the Netherlands."),
    ("signature", "qa", "", "On what date was the supply agreement signed?", "14 March 2025",
     "IN WITNESS WHEREOF, the Parties have signed this Agreement on 14 March 2025."),
    ("s1:note", "qa", "", "What is the unit price of part CPC-20417-T?", "EUR 18.64",
     "For the titanium screw housing CPC-20417-T, the agreed unit price is EUR 18.64 per piece for quarterly volumes of up to 5,000 pieces."),
    ("s2:address", "qa", "", "Where must sterile-barrier components be delivered?", "Industriepark Nord 7, 49086 Osnabrueck",
     "All deliveries of sterile-barrier components shall be made to the Central Receiving Dock 3 of the Buyer at Industriepark Nord 7, 49086 Osnabrueck, Germany."),
    ("s3:sla", "qa", "", "What is the on-time-in-full delivery target?", "98.5%",
     "The on-time-in-full delivery target is 98.5%, measured monthly across all part numbers."),
    ("s3:response", "qa", "", "How quickly must Calder's technical support respond to a critical field failure?",
     "4 business hours",
     "For a critical field failure, the Supplier's technical support team shall respond within 4 business hours of the Buyer's call."),
    ("s3:escrow", "needle", "ESC-4471-QZ", "What is the escrow reference for the test-rig control software source code?",
     "ESC-4471-QZ",
     "The source code of the test-rig control software is deposited with Ledgerline Escrow Services B.V. under escrow reference ESC-4471-QZ."),
    ("s4:tolerance", "qa", "", "What is the bore diameter and tolerance for part CPC-31852-B?", "4.200 mm ± 0.008 mm",
     "The bore diameter of CPC-31852-B shall be 4.200 mm ± 0.008 mm, measured at 20 °C after passivation."),
    ("s4:tooling", "needle", "TR-88K-2093", "Under which number is the injection mould for part CPC-60733-K recorded in the tooling register?",
     "TR-88K-2093",
     "The two-cavity injection mould for this part is recorded in the Buyer's master tooling register under number TR-88K-2093."),
    ("s5:svp", "needle", "SVP-0913-LM", "Which protocol validates the ethylene oxide sterilisation of packaged kits?", "SVP-0913-LM",
     "The ethylene oxide sterilisation of packaged kits is validated under protocol SVP-0913-LM, which shall be referenced on every sterilisation certificate."),
    ("s7:safety", "qa", "", "How far did the Joint Steering Committee decide to raise the consignment safety stock?",
     "from four to six weeks",
     "The Committee decided to raise the consignment safety stock for all screw components from four to six weeks of average demand."),
    ("s7:crates", "qa", "", "What did the Joint Steering Committee approve for transport packaging at its meeting on 22 October 2026?",
     "returnable transport crates",
     "The Committee approved the switch to returnable transport crates for all deliveries to the Bremen Assembly Plant from 1 January 2027."),
    ("s7:extra", "qa", "", "On what date was the extraordinary Joint Steering Committee meeting about the Telford furnace failure held?",
     "3 March 2027",
     "An extraordinary meeting of the Joint Steering Committee was convened on 3 March 2027 following the vacuum furnace failure at the Telford Finishing Centre."),
    ("s8:livingston", "qa", "", "Where will Calder's second machining plant be located?", "Livingston, West Lothian",
     "Calder will open its second machining plant in Livingston, West Lothian, with series production planned to start in the third quarter of 2027."),
    ("s9:hotline", "qa", "", "What is the phone number of Calder's 24-hour crisis hotline?", "+44 1383 555 0172",
     "Outside the escalation levels below, the Supplier's crisis team can be reached around the clock on the crisis hotline +44 1383 555 0172."),
]

COUNTS = [
    ("Force Majeure Notice", "How many times does the phrase \"Force Majeure Notice\" appear in the supply agreement?"),
    ("Quarantine Hold", "How many times is the term \"Quarantine Hold\" used in the supply agreement?"),
    ("Deviation Permit", "How many times does the phrase \"Deviation Permit\" occur in the supply agreement?"),
]

# Dates, part numbers and names the random generators must not reuse.
RESERVED_DATES = {"14 March 2025", "22 October 2026", "3 March 2027"}
RESERVED_PARTS = {"CPC-20417-T", "CPC-31852-B", "CPC-60733-K"}

PAGE_RE = re.compile(r"^<!-- page (\d+) -->$", re.MULTILINE)
HEAD_RE = re.compile(r"^#{2,4} (.+)$", re.MULTILINE)


class FactBook:
    def __init__(self):
        self.taken = set()

    def take(self, slot):
        """Sentences planted at ``slot`` (each may be taken once)."""
        assert slot not in self.taken, f"slot {slot} used twice"
        self.taken.add(slot)
        return [f[5] for f in FACTS if f[0] == slot]

    def take1(self, slot):
        (s,) = self.take(slot)
        return s

    def has(self, slot):
        return any(f[0] == slot for f in FACTS)


def count_phrase(text, phrase):
    return len(re.findall(r"\b" + re.escape(phrase) + r"\b", text, re.IGNORECASE))


def _locate(text, pos):
    page = section = None
    for m in PAGE_RE.finditer(text, 0, pos):
        page = int(m.group(1))
    for m in HEAD_RE.finditer(text, 0, pos):
        section = m.group(1).strip()
    return page, section


def build_records(text, book):
    """Verify every fact against ``text`` and return the JSON records."""
    missing = {f[0] for f in FACTS} - book.taken
    assert not missing, f"facts never placed: {missing}"
    out = []
    for slot, kind, target, question, answer, sentence in FACTS:
        assert answer in sentence, (slot, answer)
        assert text.count(sentence) == 1, f"sentence for {slot} occurs {text.count(sentence)} times"
        n = text.count(answer)
        if kind == "qa":
            assert n <= 2, f"qa answer {answer!r} occurs {n} times"
        else:
            assert n == 1 and text.count(target) == 1, f"needle {target!r} occurs {n} times"
        page, section = _locate(text, text.index(sentence))
        out.append({"question": question, "answer": answer, "page": page, "section": section,
                    "kind": kind, "target": target})
    for phrase, question in COUNTS:
        n = count_phrase(text, phrase)
        plural = len(re.findall(re.escape(phrase) + r"s\b", text, re.IGNORECASE))
        assert n >= 3 and plural == 0, (phrase, n, plural)
        first = re.search(r"\b" + re.escape(phrase) + r"\b", text, re.IGNORECASE).start()
        page, section = _locate(text, first)
        assert str(n) in text
        out.append({"question": question, "answer": str(n), "page": page, "section": section,
                    "kind": "count", "target": phrase})
    return out
