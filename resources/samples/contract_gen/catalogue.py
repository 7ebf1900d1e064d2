# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""The parts catalogue, Schedule 1 (Products and Prices) and Schedule 4 (Technical Specifications)."""

from . import vocab
from .facts import RESERVED_PARTS
from .prose import Composer

POLYMERS = [m for m in vocab.MATERIALS if "PEEK" in m or "PPSU" in m]
METALS = [m for m in vocab.MATERIALS if m not in POLYMERS]
# reserved part number -> (family index, item noun)
FIXED = {"CPC-20417-T": (1, "screw housing"), "CPC-31852-B": (2, "bored handle insert"),
         "CPC-60733-K": (5, "handle overmould")}
ROWS_PER_TABLE = 20


def make_parts(rng, per_family=44):
    seen = set(RESERVED_PARTS)
    parts = []
    for fi, (digit, _family, nouns) in enumerate(vocab.PRODUCT_FAMILIES):
        numbers = [pn for pn, (f, _) in FIXED.items() if f == fi]
        while len(numbers) < per_family:
            pn = f"CPC-{digit}{rng.randint(0, 9999):04d}-{rng.choice('ABCDEFGHJKLMNPRSTVWXZ')}"
            if pn not in seen:
                seen.add(pn)
                numbers.append(pn)
        for pn in sorted(numbers):
            noun = FIXED[pn][1] if pn in FIXED else rng.choice(nouns)
            mats = POLYMERS if fi == 5 else METALS
            if pn == "CPC-20417-T":  # the planted price fact calls it a titanium housing
                mats = ["Ti-6Al-4V ELI (ASTM F136)"]
            price = round(rng.uniform(1.2, 9.0) if fi == 3 else rng.uniform(4.5, 240.0), 2)
            parts.append({
                "pn": pn, "family": fi, "desc": f"{rng.choice(vocab.QUALIFIERS)} {noun}".capitalize(),
                "material": rng.choice(mats), "finish": rng.choice(vocab.FINISHES[:2] if fi == 5 else vocab.FINISHES),
                "price": price, "tier2": round(price * rng.uniform(0.86, 0.95), 2),
                "moq": rng.choice([50, 100, 200, 250, 500, 1000]), "lead": rng.choice([4, 6, 8, 10, 12, 14]),
                "drawing": f"DRW-{rng.randint(10000, 99999)}", "rev": rng.choice("BCDEFG"),
            })
    return parts


def _table(header, rows):
    head = "| " + " | ".join(header) + " |\n|" + "|".join("---" for _ in header) + "|"
    return head + "\n" + "\n".join("| " + " | ".join(str(c) for c in r) + " |" for r in rows)


def schedule1(rng, book, parts):
    comp = Composer(rng, vocab.GENERAL_REFS)
    nouns = ["the prices", "tier pricing", "minimum order quantities", "lead times", "price validity"]
    blocks = ["## Schedule 1 - Products and Prices", "### S1.1 General Pricing Rules"]
    blocks += comp.section("S1.1", "the application of the price list", nouns,
                           ["Tier 2 prices apply automatically once cumulative call-offs of a part number exceed 10,000 pieces in a Contract Year."],
                           n_paras=3)
    for fi, (_, family, _) in enumerate(vocab.PRODUCT_FAMILIES):
        fam = [p for p in parts if p["family"] == fi]
        blocks.append(f"### S1.{fi + 2} {family}")
        blocks.append(f"The following {len(fam)} part numbers of the {family.lower()} family are supplied under this "
                      f"Agreement. {comp.sentence(rng.choice(PRICE_NOTES), nouns)}")
        for start in range(0, len(fam), ROWS_PER_TABLE):
            rows = []
            for p in fam[start:start + ROWS_PER_TABLE]:
                special = p["pn"] == "CPC-20417-T"
                rows.append([p["pn"], p["desc"], p["material"], p["moq"], p["lead"],
                             "see Note 2" if special else f"{p['price']:.2f}",
                             "see Note 2" if special else f"{p['tier2']:.2f}"])
            if start:
                blocks.append(f"*{family} (continued)*")
            blocks.append(_table(["Part No.", "Description", "Material", "MOQ (pcs)", "Lead time (weeks)",
                                  "Tier 1 price (EUR)", "Tier 2 price (EUR)"], rows))
        notes = [f"Note 1: Lead times for the {family.lower()} family assume forecast accuracy within the tolerance agreed in Article 4.",
                 "Note 2: " + (book.take1("s1:note") if fi == 1 else comp.sentence(rng.choice(PRICE_NOTES), nouns)),
                 "Note 3: " + comp.sentence(rng.choice(PRICE_NOTES), nouns)]
        blocks.append("\n\n".join(notes))
    return blocks


PRICE_NOTES = [
    "Prices include standard packaging as described in the Logistics Manual but exclude special cleanroom packaging.",
    "Prices are based on the material costs of the fourth quarter of 2024 and are subject to the surcharge mechanism in Article 5.",
    "Quantities below the minimum order quantity may be ordered against a small-lot surcharge of twelve percent.",
    "The prices for this family were last reviewed during the annual price review and remain firm until the next review.",
    "Where a part number is replaced by a successor revision, the price of the predecessor applies until the Parties agree otherwise.",
    "{Pc} shall notify {O} {A} if it expects a lead time to increase by more than two weeks.",
    "Prices include a material certificate according to EN 10204 type 3.1 for each Batch.",
    "Express manufacturing at reduced lead time may be requested against an agreed premium.",
]

SPEC_NOTES = [
    "Burrs are not permitted on any functional edge; sharp edges shall be broken to 0.05 to 0.10 mm.",
    "Each part shall be laser-marked with the part number, Batch number and the Buyer's logo in the position shown on the drawing.",
    "Residual particulate contamination shall not exceed {c} mg per part, tested according to the cleanliness procedure in Schedule 5.",
    "Parts shall be packed individually in sealed polyethylene bags, {q} bags per carton, with the label facing outward.",
    "A material certificate according to EN 10204 type 3.1 shall accompany each Batch.",
    "Characteristics marked CC on the drawing are critical to quality and require a process capability index Cpk of at least {k}.",
    "The first article inspection report shall contain a full dimensional report on {s} consecutive samples.",
    "Surface defects such as scratches, pits or tool marks visible without magnification are not acceptable on the outer surfaces.",
    "Cleaning agents must be free of silicone and shall be approved by the Buyer before first use.",
    "The part shall withstand {cyc} sterilisation cycles in steam at 134 °C without measurable change in the critical dimensions.",
    "Retained samples of {s} parts from each Batch shall be kept by the Supplier for the lifetime of the Product.",
    "Rework of this part is not permitted without a written disposition from the Buyer's Supplier Quality Engineer.",
]
METAL_NOTES = ["Hardness shall be between {h1} and {h2} HRC, verified on one sample per heat treatment lot.",
               "Passivation shall be verified by a copper sulphate test on one sample per Batch.",
               "Threads shall be verified with calibrated go/no-go gauges traceable to national standards."]
POLY_NOTES = ["Moulding parameters shall be recorded for each shot and retained as part of the batch record.",
              "Regrind material is not permitted; only virgin material from the approved lot may be used.",
              "Parts shall be dried and conditioned in accordance with the resin manufacturer's instructions before inspection."]


def _spec(rng, p, idx, extra):
    metal = p["family"] != 5
    feats = rng.sample(vocab.FEATURES, rng.randint(4, 6))
    rows = []
    for f in feats:
        nominal = f"{rng.uniform(0.8, 12.0) if f in ('slot width', 'wall thickness', 'chamfer length', 'hex socket width') else rng.uniform(2.0, 140.0):.3f}"
        tol = "0.020" if f in ("flatness", "concentricity") else rng.choice(vocab.TOLERANCES)
        rows.append([f.capitalize(), "-" if f in ("flatness", "concentricity") else nominal,
                     f"± {tol}" if f not in ("flatness", "concentricity") else tol, rng.choice(vocab.INSPECTION)])
    notes = rng.sample(SPEC_NOTES, 2) + rng.sample(METAL_NOTES if metal else POLY_NOTES, 1)
    vals = {"c": rng.choice(["0.5", "1.0", "1.5", "2.0"]), "q": rng.choice([10, 20, 25, 50]),
            "k": rng.choice(["1.33", "1.67"]), "s": rng.choice([3, 5, 10]), "cyc": rng.choice([200, 500, 1000]),
            "h1": rng.randint(28, 34), "h2": rng.randint(36, 42)}
    text = " ".join(n.format(**vals) for n in notes + extra)
    return [
        f"### S4.{idx} {p['pn']} - {p['desc']}",
        f"- Drawing: {p['drawing']}, revision {p['rev']}\n- Material: {p['material']}\n- Surface finish: {p['finish']}\n"
        f"- Manufacturing site: {rng.choice(vocab.SUPPLIER_SITES)[0]}",
        _table(["Feature", "Nominal (mm)", "Tolerance (mm)", "Inspection"], rows),
        text,
    ]


def schedule4(rng, book, parts, share=0.6):
    comp = Composer(rng)
    nouns = ["the Specifications", "drawing revisions", "dimensional inspection", "first article inspection",
             "critical-to-quality characteristics", "measurement system analysis"]
    blocks = ["## Schedule 4 - Technical Specifications", "### S4.0 General Requirements"]
    blocks += comp.section("S4.0", "the technical specifications of the Products", nouns, n_paras=4)
    blocks += comp.section("S4.0", "general tolerances and measurement", nouns, n_paras=3)
    chosen = [p for p in parts if p["pn"] in FIXED or rng.random() < share]
    for idx, p in enumerate(chosen, start=1):
        extra = []
        if p["pn"] == "CPC-31852-B":
            extra = [book.take1("s4:tolerance")]
        elif p["pn"] == "CPC-60733-K":
            extra = [book.take1("s4:tooling")]
        blocks += _spec(rng, p, idx, extra)
    return blocks
