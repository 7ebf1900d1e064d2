# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""Schedule 9 (Business Continuity Plan): risk register, recovery objectives, contacts, plan tests."""

import datetime as dt

from . import vocab
from .catalogue import _table
from .prose import Composer
from .records import random_date

RISKS = [
    "Fire at the {ssite}", "Flooding of the {ssite}", "Extended power outage at the {ssite}",
    "Breakdown of a five-axis machining centre at the {ssite}", "Failure of the passivation line at the {ssite}",
    "Insolvency of the sole sub-supplier of {mat}", "Allocation or shortage of {mat}",
    "Ransomware attack on the Supplier's ERP system", "Loss of the Supplier's quality records server",
    "Strike in road haulage between Scotland and Germany", "Closure of the North Sea ferry routes",
    "Pandemic-related absenteeism above twenty percent", "Departure of the Supplier's {srole}",
    "Suspension of the Supplier's ISO 13485 certificate", "Quality escape requiring containment at the {bsite}",
    "Customs delays at the UK-EU border", "Loss of a critical gauge or test fixture",
    "Damage to Buyer-owned tooling for the {family} family",
]
LEVELS = ["low", "medium", "high"]
MITIGATIONS = [
    "safety stock of finished parts and documented transfer to the second Supplier site",
    "qualified backup sub-supplier and three months of raw material on hand",
    "daily off-site backups and a tested restore procedure",
    "alternative carrier under framework contract and pre-cleared customs data",
    "cross-training of deputies and documented work instructions",
    "spare critical components held on site and a service contract with four-hour response",
    "consignment stock at the Buyer's sites and priority allocation under Article 24",
    "duplicate gauges held in the metrology laboratory",
]
TESTS = [
    "Tabletop exercise: loss of the Telford site", "Restore test of the ERP backup",
    "Simulated recall traceability drill", "Switch to the alternative carrier for one week",
    "Tabletop exercise: cyber attack on the ERP system", "Transfer of a part number to the second site",
    "Unannounced stock count at the consignment store", "Call-tree test of the escalation contacts",
]
RESULTS = ["passed", "passed with minor findings", "passed with observations", "partially passed - repeat scheduled"]

PROSE_SECTIONS = [
    ("Purpose and Scope of the Plan", ["the business continuity plan", "the risk register", "recovery strategies"]),
    ("Crisis Organisation", ["the crisis team", "crisis communications", "decision authorities"]),
    ("Alternative Sources and Site Transfer", ["the transfer of part numbers", "second-site qualification",
                                               "alternative sub-suppliers"]),
    ("Inventory Strategy", ["the safety stock", "consignment stock levels", "raw material buffers"]),
    ("Information Technology Recovery", ["IT recovery", "data backups", "access to quality records"]),
    ("Maintenance of the Plan", ["updates of the plan", "lessons learned", "the annual review of the plan"]),
]


def schedule9(rng, book, people, n_risks=44):
    comp = Composer(rng, vocab.GENERAL_REFS)
    blocks = ["## Schedule 9 - Business Continuity Plan",
              "This Schedule summarises the business continuity plan that the Supplier maintains under Article 25. "
              "The full plan is held by the Supplier and may be inspected by the Buyer at any time."]
    for i, (title, nouns) in enumerate(PROSE_SECTIONS[:3], start=1):
        blocks.append(f"### S9.{i} {title}")
        blocks += comp.section(f"S9.{i}", title, nouns, n_paras=rng.randint(3, 4))
    blocks.append("### S9.4 Risk Register")
    blocks.append("The risk register below is reviewed at least twice a year by the Joint Steering Committee. "
                  "Likelihood and impact are rated on a three-level scale.")
    rows = []
    for i in range(1, n_risks + 1):
        risk = rng.choice(RISKS).format(ssite=rng.choice(vocab.SUPPLIER_SITES)[0], mat=rng.choice(vocab.MATERIALS),
                                        srole=rng.choice(vocab.SUPPLIER_ROLES), bsite=rng.choice(vocab.BUYER_SITES)[0],
                                        family=rng.choice(vocab.PRODUCT_FAMILIES)[1].lower())
        owner = rng.choice(people["supplier"])
        rows.append([f"BCP-R{i:02d}", risk, rng.choice(LEVELS), rng.choice(LEVELS), rng.choice(MITIGATIONS),
                     f"{owner[0]} ({owner[1]})"])
        if len(rows) == 15 or i == n_risks:
            blocks.append(_table(["Risk ID", "Risk", "Likelihood", "Impact", "Mitigation", "Owner"], rows))
            rows = []
    blocks.append("### S9.5 Recovery Time Objectives")
    rows = [[fam, f"{rng.choice([2, 3, 4, 6])} weeks", f"{rng.choice([6, 8, 10, 12])} weeks", rng.choice(vocab.SUPPLIER_SITES)[0]]
            for _, fam, _ in vocab.PRODUCT_FAMILIES]
    blocks.append(_table(["Product family", "Stock coverage", "Recovery time objective", "Backup site"], rows))
    blocks += comp.section("S9.5", "recovery time objectives", ["recovery time objectives", "stock coverage"], n_paras=2)
    blocks.append("### S9.6 Escalation Contacts")
    blocks.append(book.take1("s9:hotline") + " The hotline is staffed by the duty manager of the Dunfermline site, "
                  "who will call back within thirty minutes if the call cannot be answered immediately.")
    lines = []
    for level, (b, s) in enumerate(zip(rng.sample(people["buyer"], 4), rng.sample(people["supplier"], 4), strict=True), 1):
        lines.append([f"Level {level}", f"{b[0]}, {b[1]}", f"{s[0]}, {s[1]}",
                      ["4 hours", "1 Business Day", "2 Business Days", "5 Business Days"][level - 1]])
    blocks.append(_table(["Escalation level", "Buyer contact", "Supplier contact", "Time to escalate"], lines))
    blocks.append("### S9.7 Tests of the Plan")
    rows = []
    for _ in range(14):
        d = random_date(rng, dt.date(2025, 5, 1), dt.date(2027, 3, 20))
        rows.append([d, rng.choice(TESTS), rng.choice(RESULTS), rng.randint(0, 6)])
    rows = [[vocab.fmt_date(d), t, r, f] for d, t, r, f in sorted(rows)]
    blocks.append(_table(["Date", "Scenario", "Result", "Findings"], rows))
    blocks += comp.section("S9.7", "the follow-up of test findings", ["test findings", "lessons learned"], n_paras=2)
    for i, (title, nouns) in enumerate(PROSE_SECTIONS[3:], start=8):
        blocks.append(f"### S9.{i} {title}")
        blocks += comp.section(f"S9.{i}", title, nouns, n_paras=rng.randint(3, 4))
    return blocks
