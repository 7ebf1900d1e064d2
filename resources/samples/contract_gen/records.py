# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""Schedule 5 (Quality Requirements) and Schedule 6 (Change Control Log)."""

import datetime as dt

from . import vocab
from .catalogue import _table
from .facts import RESERVED_DATES
from .prose import Composer

QUALITY_SECTIONS = [
    ("Scope of the Quality Agreement", ["the Quality Agreement", "quality responsibilities", "the quality manual"], []),
    ("Responsibilities Matrix", ["the responsibilities matrix", "quality responsibilities", "approval authorities"], []),
    ("Supplier Qualification and Sub-suppliers", ["sub-supplier qualification", "the approved supplier list", "sub-supplier audits"], []),
    ("Incoming Material Control", ["incoming raw material", "material certificates", "heat numbers"], []),
    ("Process Validation", ["process validation", "IQ, OQ and PQ protocols", "revalidation triggers"], []),
    ("Cleanliness and Particulate Control", ["part cleanliness", "particulate limits", "cleaning validation"], []),
    ("Sterilisation and Sterile Barrier Systems", ["sterilisation", "sterile barrier systems", "bioburden monitoring"], ["svp"]),
    ("Identification and Traceability", ["traceability", "batch numbering", "UDI carriers"], []),
    ("Control of Nonconforming Product", ["nonconforming product", "segregation areas", "disposition decisions"],
     ["Nonconforming material shall be labelled with a red Quarantine Hold tag showing the nonconformity report number.",
      "The Supplier shall report every Quarantine Hold affecting shipped Product to the Buyer within one Business Day."]),
    ("Corrective and Preventive Action", ["corrective actions", "8D reports", "effectiveness checks"], []),
    ("Measurement and Monitoring Equipment", ["calibration", "gauge control", "measurement system analysis"], []),
    ("Complaint Handling", ["complaints", "returned parts", "failure investigations"],
     ["Returned parts under investigation remain on Quarantine Hold until the investigation report is approved."]),
    ("Document and Record Control", ["controlled documents", "batch records", "record retention"], []),
    ("Quality Reporting and Reviews", ["quality reports", "management reviews", "the quality scorecard"], []),
    ("Personnel and Training", ["training", "qualification of operators", "cleanroom behaviour"], []),
]


def schedule5(rng, book):
    comp = Composer(rng)
    blocks = ["## Schedule 5 - Quality Requirements",
              "This Schedule constitutes the Quality Agreement between the Parties. It implements the requirements "
              "of ISO 13485:2016 and the Medical Device Regulation for the outsourced processes performed by the Supplier."]
    for i, (title, nouns, extras) in enumerate(QUALITY_SECTIONS, start=1):
        key = f"S5.{i}"
        blocks.append(f"### {key} {title}")
        ex = [book.take1("s5:svp") if e == "svp" else e for e in extras]
        blocks += comp.section(key, title, nouns + ["the quality management system"], ex, n_paras=rng.randint(3, 4))
        if rng.random() < 0.5:
            blocks += comp.section(key, "the associated records and documentation", nouns, n_paras=2)
    return blocks


CHANGE_TYPES = ["Engineering Change", "Process Change", "Deviation Permit", "Sub-supplier Change",
                "Document Update", "Packaging Change"]
CHANGE_WHAT = {
    "Engineering Change": ["tolerance on {f} tightened following capability study",
                           "drawing updated to revision {r} to add a chamfer", "new laser-marking position",
                           "thread relief modified to reduce burr formation"],
    "Process Change": ["transfer of finishing from Dunfermline to Telford", "new five-axis machining centre qualified",
                       "passivation bath chemistry changed", "inspection frequency reduced after stable Cpk"],
    "Deviation Permit": ["{n} pieces released with {f} at upper tolerance limit",
                         "use of alternative packaging bag for {n} pieces", "temporary use of backup gauge for {f}",
                         "one Batch accepted with cosmetic marks on non-functional surface"],
    "Sub-supplier Change": ["second source for titanium bar stock qualified", "new heat treatment sub-supplier",
                            "change of passivation sub-supplier", "new supplier of cleanroom bags"],
    "Document Update": ["inspection plan revised", "control plan aligned with new PFMEA",
                        "packaging instruction updated", "first article report template updated"],
    "Packaging Change": ["carton size reduced", "change to recyclable inner bags", "pallet label format updated",
                         "blister tray redesigned"],
}
STATUSES = ["Approved", "Implemented", "Closed", "Rejected", "Withdrawn", "Approved with conditions"]


def random_date(rng, start, end):
    while True:
        d = start + dt.timedelta(days=rng.randint(0, (end - start).days))
        if d.weekday() < 5 and not any(r in vocab.fmt_date(d) for r in RESERVED_DATES):  # '3 March' in '13 March'
            return d


def schedule6(rng, parts, n=150):
    comp = Composer(rng)
    nouns = ["the change control log", "Change Requests", "change approvals", "the implementation of changes"]
    blocks = ["## Schedule 6 - Change Control Log", "### S6.1 Maintenance of the Log"]
    blocks += comp.section("S6.1", "the change control log", nouns,
                           ["Every Deviation Permit granted by the Buyer is also recorded in this log."], n_paras=2)
    blocks.append("### S6.2 Log Entries")
    dates = sorted(random_date(rng, dt.date(2025, 4, 1), dt.date(2027, 3, 31)) for _ in range(n))
    rows = []
    for i, d in enumerate(dates, start=1):
        ctype = rng.choices(CHANGE_TYPES, weights=[5, 4, 2, 3, 4, 2])[0]
        what = rng.choice(CHANGE_WHAT[ctype]).format(f=rng.choice(vocab.FEATURES), r=rng.choice("DEFGH"),
                                                     n=rng.choice([120, 250, 400, 800, 1500]))
        rows.append([f"CR-{d.year}-{i:03d}", vocab.fmt_date(d), rng.choice(parts)["pn"], ctype,
                     what[0].upper() + what[1:], rng.choice(STATUSES)])
        if len(rows) == 20 or i == n:
            blocks.append(_table(["CR No.", "Date", "Part No.", "Type", "Description", "Status"], rows))
            rows = []
    blocks.append("### S6.3 Review of Open Change Requests")
    blocks += comp.section("S6.3", "the review of open Change Requests", nouns, n_paras=2)
    return blocks
