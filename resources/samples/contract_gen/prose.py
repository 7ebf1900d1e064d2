# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""Sentence templates and a small paragraph composer for contract prose.

Slots: {P}/{Pc} acting party (lower/capitalised), {O}/{Oc} other party, {n}/{m}
topic nouns, {T} timeframe, {S} standard, {D} document reference, {A} adverb.
"""

from . import vocab

SENTENCES = [
    "{Pc} shall {A} notify {O} of any matter relating to {n} that could reasonably be expected to affect the supply of the Products.",
    "{Pc} shall maintain complete and accurate records of {n} and shall make those records available to {O} within {T} of a written request.",
    "Any aspect of {n} not expressly addressed in this Section shall be handled in accordance with {D}.",
    "Where {P} becomes aware of a circumstance affecting {n}, it shall inform {O} within {T} and propose appropriate corrective measures.",
    "Nothing in this Section shall relieve {P} of its obligations in respect of {m}.",
    "The Parties acknowledge the material importance of {n} for the safety and regulatory compliance of the Products.",
    "{Pc} shall not unreasonably withhold, condition or delay its consent to any reasonable proposal concerning {n}.",
    "To the extent that performance in respect of {n} depends on information to be supplied by {O}, {P} shall not be responsible for delays caused by the late provision of that information.",
    "Unless the Parties agree otherwise in writing, all costs associated with {n} shall be borne by {P}.",
    "{Pc} shall ensure that all personnel involved in {n} are appropriately qualified, trained and supervised.",
    "Each Party shall designate a competent representative responsible for {n} and communicate that person's contact details to the other Party.",
    "If the Parties cannot agree on {n} within {T}, either Party may refer the matter to the escalation procedure.",
    "{Pc} shall comply with {S}, to the extent applicable, in all activities relating to {n}.",
    "Documentation concerning {n} shall be retained for the period required by Applicable Law and in any event for not less than the expected lifetime of the relevant Product plus two years.",
    "The obligations in this Section apply equally to any Affiliate or subcontractor engaged by {P} in connection with {n}.",
    "Requests relating to {n} shall be submitted through the supplier portal or, where the portal is unavailable, by e-mail to the designated contract manager.",
    "{Pc} shall bear the burden of demonstrating that its performance in respect of {n} conforms to the requirements of this Agreement.",
    "For the avoidance of doubt, acceptance of {n} shall not be construed as a waiver of any right or remedy of {O}.",
    "In assessing {n}, the Parties shall have regard to good industry practice in the medical device sector.",
    "{Pc} shall provide {O} with a written summary of {n} within {T} after the end of each calendar quarter.",
    "Any change affecting {n} requires the prior written approval of {O} under the change control procedure.",
    "The Parties intend that {n} be managed in a transparent, cooperative and proportionate manner.",
    "{Pc} shall use commercially reasonable efforts to minimise the impact of {n} on the production schedules of {O}.",
    "{Pc} shall not rely on any oral statement concerning {n} unless it has been confirmed in writing by an authorised representative of {O}.",
    "The Parties shall cooperate {A} to resolve any discrepancy concerning {n}.",
    "If {P} fails to perform its obligations regarding {n}, {O} may, after written notice and a cure period of {T}, perform or procure the performance of those obligations at the cost of {P}.",
    "{Pc} shall inform {O} {A} of any planned change in its organisation that could affect {n}.",
    "Records of {n} may be kept in electronic form, provided that their integrity, legibility and traceability are ensured.",
    "The requirements of {S} shall serve as the reference point for resolving any ambiguity concerning {n}.",
    "Neither Party may suspend performance on the ground of a dispute concerning {n}, except where this Agreement expressly permits it.",
    "{Oc} acknowledges that it relies on the expertise of {P} with respect to {n}.",
    "Each report on {n} shall identify the affected Products by part number, batch number and quantity.",
    "Without prejudice to the foregoing, {P} shall take into account any reasonable comments of {O} regarding {n}.",
    "{Pc} shall keep {m} under continuous review and update the relevant procedures whenever a material deficiency is identified.",
    "Any disagreement concerning {n} shall first be discussed between the contract managers of the Parties.",
    "{D} supplements this Section with operational detail on {n}; in case of conflict, the main body of this Agreement prevails.",
    "{Pc} shall not subcontract any activity relating to {n} without the prior written consent of {O}, which shall not be unreasonably withheld.",
    "Until a change to {n} has been confirmed in writing, {P} shall continue to perform in accordance with the last agreed version.",
    "Each Party shall bear its own costs in connection with {n}, save as otherwise expressly provided in this Agreement.",
    "{Pc} shall provide such information and assistance concerning {n} as {O} may reasonably require to meet its obligations towards Competent Authorities.",
    "Where practicable, {n} shall be aligned with the rolling forecast and the planning cycles of {O}.",
    "A failure by {P} to comply with this Section in relation to {n} shall constitute a material breach if it is not remedied within {T}.",
    "{Pc} shall report any near miss concerning {n} so that preventive action can be considered before an actual nonconformity occurs.",
    "Both Parties shall treat information exchanged about {n} as Confidential Information.",
    "The contract managers shall agree a simple tracking sheet for {n} and review it at each operational review.",
    "Where a matter concerning {n} affects more than one product family, {P} shall assess each product family separately.",
    "{Pc} may request a meeting to discuss {n} at any time, and {O} shall make suitable personnel available within {T}.",
    "Experience gained with {n} during the first year of the Term shall be evaluated jointly and reflected in {D}.",
    "{Pc} shall keep {O} informed of the progress of any measures taken with respect to {n}.",
    "The rights of {O} under this Section are in addition to, and not in substitution for, its rights in respect of {m}.",
]

# Openers for descriptive (lower-case) topics, e.g. "the planning and call-off process".
OPENERS = [
    "This Section {num} governs {t}.",
    "The following provisions apply to {t}.",
    "With respect to {t}, the Parties agree as follows.",
    "This Section {num} sets out the arrangements for {t} that apply throughout the Term.",
    "The Parties have agreed the following principles on {t}.",
]
# Openers for section titles, e.g. "Late Payment Interest".
TITLED_OPENERS = [
    "This Section {num} ({T}) applies throughout the Term.",
    "The Parties agree the following arrangements under this Section {num} ({T}).",
    "The provisions of this Section {num} ({T}) supplement the general obligations of the Parties.",
    "Under this Section {num} ({T}), the Parties agree as follows.",
    "This Section {num} ({T}) applies in addition to the general provisions of this Agreement.",
]

LIST_LEADS = [
    "{Pc} shall in particular:",
    "Without limiting the generality of the foregoing, {P} shall:",
    "For these purposes {P} undertakes to:",
    "The obligations of {P} under this Section include the obligation to:",
]
LIST_ITEMS = [
    "establish and maintain a documented procedure for {n}",
    "appoint a named person responsible for {n}",
    "review {n} at planned intervals and record the outcome",
    "notify {O} of any material change to {n}",
    "retain objective evidence of {n} for inspection by {O}",
    "train the relevant personnel in {n} and keep training records",
    "ensure that its handling of {n} complies with {S}",
    "provide a monthly report on {n} in the agreed format",
    "identify and assess risks associated with {n}",
    "make available on request all documents relating to {n}",
    "implement without undue delay any reasonable recommendation of {O} concerning {n}",
]


class Composer:
    """Builds paragraphs for a topic with a shared random generator."""

    def __init__(self, rng, standards=None):
        self.rng = rng
        self.standards = standards or vocab.STANDARDS

    def _slots(self, nouns, supplier_first):
        r = self.rng
        p, o = ("the Supplier", "the Buyer") if supplier_first else ("the Buyer", "the Supplier")
        n, m = r.sample(nouns, 2) if len(nouns) > 1 else (nouns[0], nouns[0])
        return {"P": p, "Pc": p[0].upper() + p[1:], "O": o, "Oc": o[0].upper() + o[1:], "n": n, "m": m,
                "T": r.choice(vocab.TIMEFRAMES), "S": r.choice(self.standards),
                "D": r.choice(vocab.DOC_REFS), "A": r.choice(vocab.ADVERBS)}

    def sentence(self, template, nouns):
        s = template.format(**self._slots(nouns, self.rng.random() < 0.7))
        return s[0].upper() + s[1:]

    def paragraph(self, nouns, used, k=None):
        """A paragraph of k sentences drawn from templates not yet in ``used``."""
        r = self.rng
        k = k or r.randint(3, 5)
        free = [t for t in SENTENCES if t not in used] or SENTENCES
        picks = r.sample(free, min(k, len(free)))
        used.update(picks)
        return " ".join(self.sentence(t, nouns) for t in picks)

    def opener(self, num, title):
        if title[0].islower():
            return self.rng.choice(OPENERS).format(num=num, t=title)
        return self.rng.choice(TITLED_OPENERS).format(num=num, T=title)

    def bullet_list(self, nouns):
        r = self.rng
        slots = self._slots(nouns, r.random() < 0.7)
        lead = r.choice(LIST_LEADS).format(**slots)
        items = r.sample(LIST_ITEMS, r.randint(3, 5))
        lines = []
        for i, it in enumerate(items):
            sl = self._slots(nouns, slots["P"] == "the Supplier")
            sl["O"] = slots["O"]
            end = "; and" if i == len(items) - 2 else ("." if i == len(items) - 1 else ";")
            lines.append(f"({chr(97 + i)}) {it.format(**sl)}{end}")
        return lead + "\n\n" + "\n".join(lines)

    def section(self, num, title, nouns, extras=(), n_paras=None):
        """Blocks for one section: opener + prose, optional list, with ``extras`` woven in."""
        r = self.rng
        used = set()
        n_paras = n_paras or r.randint(2, 4)
        paras = [self.paragraph(nouns, used) for _ in range(n_paras)]
        paras[0] = self.opener(num, title) + " " + paras[0]
        for i, extra in enumerate(extras):
            idx = (i + 1) % len(paras) if len(paras) > 1 else 0
            sents = paras[idx].split(". ")
            pos = r.randint(1, max(1, len(sents) - 1))
            sents.insert(pos, extra.rstrip("."))
            paras[idx] = ". ".join(sents)
            if not paras[idx].endswith("."):
                paras[idx] += "."
        if r.random() < 0.4:
            paras.insert(r.randint(1, len(paras)), self.bullet_list(nouns))
        return paras
