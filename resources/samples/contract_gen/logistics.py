# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""Schedule 2 (Forecasts and Delivery) and Schedule 3 (Services and Service Levels)."""

from . import vocab
from .catalogue import _table
from .prose import Composer

QUARTERS = [(2025, 2), (2025, 3), (2025, 4), (2026, 1), (2026, 2), (2026, 3), (2026, 4), (2027, 1)]

ROUTING = [
    "Deliveries for this period are routed via {c} with a fixed weekly pick-up on {d}.",
    "Call-offs against these quantities are released weekly through the supplier portal; {c} handles the line haul.",
    "The quantities below reflect the Forecast issued in the last month of the preceding quarter and are shipped by {c}.",
    "Consignment stock replenishment for this period is triggered by the kanban signals of the site; transport by {c}.",
    "Two consolidated shipments per week are planned with {c}, on {d} and Thursday.",
]
DAYS = ["Monday", "Tuesday", "Wednesday"]


def schedule2(rng, book, parts):
    comp = Composer(rng)
    nouns = ["delivery schedules", "call-offs", "the rolling forecast", "consignment stock levels",
             "transport arrangements", "delivery documentation"]
    blocks = ["## Schedule 2 - Forecasts and Delivery", "### S2.1 Planning Principles"]
    blocks += comp.section("S2.1", "the planning and call-off process", nouns, n_paras=3)
    blocks.append("### S2.2 Delivery Addresses")
    site_lines = [f"- **{name}**, {street}, {city}, Germany; goods receiving Monday to Friday, {hours}."
                  for name, street, city, hours in vocab.BUYER_SITES]
    blocks.append("Unless a Purchase Order states otherwise, the Products shall be delivered to the following "
                  "sites of the Buyer:\n\n" + "\n".join(site_lines))
    blocks.append(book.take1("s2:address") + " Dock 3 accepts deliveries Monday to Friday between 07:00 and 12:00 "
                  "only, and each delivery must be pre-advised by e-mail at least 24 hours in advance.")
    blocks += comp.section("S2.2", "delivery windows and site access", nouns, n_paras=2)
    blocks.append("### S2.3 Indicative Delivery Schedules")
    blocks.append("The tables below set out the indicative monthly delivery quantities per site and quarter. "
                  "They are derived from the Forecast and are updated by the monthly call-off; they do not "
                  "constitute Purchase Orders.")
    for year, q in QUARTERS:
        for name, _, _, _ in vocab.BUYER_SITES:
            months = vocab.MONTHS[(q - 1) * 3:(q - 1) * 3 + 3]
            blocks.append(f"#### {name} - Q{q} {year}")
            blocks.append(rng.choice(ROUTING).format(c=rng.choice(vocab.CARRIERS), d=rng.choice(DAYS)))
            rows = []
            for p in sorted(rng.sample(parts, 9), key=lambda p: p["pn"]):
                qty = [rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10, 12]) * p["moq"] for _ in months]
                rows.append([p["pn"], p["desc"]] + qty + [sum(qty)])
            blocks.append(_table(["Part No.", "Description"] + [f"{m[:3]} {year}" for m in months] + ["Quarter total"],
                                 rows))
    blocks.append("### S2.4 Packaging and Labelling")
    blocks += comp.section("S2.4", "packaging, labelling and returnable containers",
                           ["packaging", "labels", "returnable containers", "cleanroom bags", "pallet heights"], n_paras=3)
    return blocks


SERVICES = [
    ("Design for manufacturing review", "per drawing", 145), ("First article inspection", "per part number", 380),
    ("Process validation (IQ/OQ/PQ) support", "per day", 1150), ("Measurement system analysis", "per gauge", 420),
    ("Calibration of test fixtures", "per fixture", 95), ("Failure analysis of returned parts", "per case", 640),
    ("On-site engineering support", "per day", 1280), ("Training of Buyer personnel", "per session", 890),
    ("Repair of test rigs", "per hour", 118), ("Sterilisation load mapping support", "per study", 2350),
    ("Packaging validation testing", "per configuration", 1780), ("Expedited sample production", "per lot", 560),
]
KPIS = [
    ("Quality - external", "Rejected parts per million delivered", "below 150 ppm"),
    ("Responsiveness", "Corrective action reports answered within ten Business Days", "95.0%"),
    ("Documentation", "Batches delivered with complete Certificates of Conformity", "100%"),
    ("Forecast confirmation", "Order acknowledgements within two Business Days", "97.0%"),
    ("Service delivery", "Service requests closed within the agreed time", "92.0%"),
]


def _pct(rng, lo, hi):
    while True:
        v = f"{rng.uniform(lo, hi):.1f}%"
        if v != "98.5%":
            return v


def schedule3(rng, book):
    comp = Composer(rng)
    nouns = ["the Services", "service requests", "the service levels", "service credits", "field support",
             "the KPI report"]
    blocks = ["## Schedule 3 - Services and Service Levels", "### S3.1 Service Catalogue"]
    blocks += comp.section("S3.1", "the engineering and support services", nouns, n_paras=2)
    rows = [[f"SV-{i + 1:02d}", name, unit, f"{rate:,}"] for i, (name, unit, rate) in enumerate(SERVICES)]
    blocks.append(_table(["Code", "Service", "Charging unit", "Rate (EUR)"], rows))
    for i, (name, unit, _) in enumerate(SERVICES, start=1):
        used = set()
        blocks.append(f"#### SV-{i:02d} {name}")
        blocks.append(f"The service \"{name.lower()}\" is charged {unit} at the rate shown above. "
                      + comp.paragraph([name.lower(), "the service request", "the service report"], used, k=3))
    blocks.append("### S3.2 Key Performance Indicators")
    blocks.append(book.take1("s3:sla") + " Deliveries count as on time if they arrive no more than two Business "
                  "Days early and not later than the Delivery Date, and as in full if the complete quantity arrives.")
    blocks.append(_table(["KPI", "Definition", "Target"],
                         [["On-time-in-full", "Order lines delivered on time and in full", "as stated above"]] +
                         [list(k) for k in KPIS]))
    blocks += comp.section("S3.2", "the measurement and reporting of the KPIs", nouns, n_paras=2)
    blocks.append("### S3.3 Support Response Times")
    blocks.append(book.take1("s3:response") + " A critical field failure is any failure of a Product in a finished "
                  "device in clinical use or any failure that stops a production line of the Buyer.")
    blocks.append(_table(["Severity", "Example", "Response", "Resolution target"], [
        ["2 - major", "Line stop risk within one week", "1 Business Day", "5 Business Days"],
        ["3 - minor", "Documentation error without product impact", "3 Business Days", "15 Business Days"],
        ["4 - request", "Request for information or quotation", "5 Business Days", "as agreed"]]))
    blocks += comp.section("S3.3", "escalation of support requests", nouns, n_paras=2)
    blocks.append("### S3.4 Service Credits")
    blocks += comp.section("S3.4", "service credits", nouns, n_paras=3)
    blocks.append("### S3.5 KPI Results Register")
    blocks.append("The monthly KPI results agreed at the operational reviews are recorded below.")
    for year, q in QUARTERS:
        rows = []
        for m in vocab.MONTHS[(q - 1) * 3:(q - 1) * 3 + 3]:
            rows.append([f"{m} {year}", _pct(rng, 94.0, 99.9), f"{rng.randint(40, 260)} ppm",
                         _pct(rng, 85.0, 100.0), _pct(rng, 90.0, 100.0), _pct(rng, 80.0, 99.0)])
        blocks.append(_table(["Month", "OTIF", "External ppm", "CAR on time", "Acknowledgement", "Service closure"], rows))
        if rng.random() < 0.6:
            blocks.append(comp.sentence(rng.choice([
                "Results for this quarter were discussed at the operational review and {Pc} presented an improvement plan.",
                "The dip in on-time delivery during this quarter was attributed to the annual maintenance shutdown.",
                "No service credits were claimed for this quarter.",
                "The Buyer reserved its right to claim service credits for this quarter pending the root cause analysis.",
            ]), nouns))
    blocks.append("### S3.6 Software Escrow")
    blocks.append(book.take1("s3:escrow") + " The deposit shall be updated within thirty days of each new software "
                  "release, and the Buyer may request a verification of the deposit once per Contract Year.")
    blocks += comp.section("S3.6", "the release conditions of the escrow deposit",
                           ["the escrow deposit", "release events", "verification of deposits", "the escrow agent"],
                           n_paras=2)
    return blocks
