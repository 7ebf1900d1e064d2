"""Names, places and word lists for the fictional supply agreement.

Every company, person, address, part number and code here is invented.
Names used by planted facts (see ``facts.py``) are deliberately absent from
these lists so that the generator never repeats them by accident.
"""

import datetime as _dt

BUYER = "Norhaven Medical Devices GmbH"
BUYER_SHORT = "Norhaven"
SUPPLIER = "Calder Precision Components Ltd."
SUPPLIER_SHORT = "Calder"
AGREEMENT_NO = "NMD-CPC-MSSA-2025-014"

MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]


def fmt_date(d: _dt.date) -> str:
    """Format a date like ``14 March 2025`` (locale independent)."""
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


FIRST_NAMES = [
    "Annika", "Benedikt", "Carys", "Dorian", "Elspeth", "Florian", "Greta",
    "Hamish", "Ingrid", "Jasper", "Katrin", "Lachlan", "Maren", "Niall",
    "Oona", "Piers", "Rosalind", "Sebastian", "Tilda", "Ulrich", "Verity",
    "Wendelin", "Yvonne", "Alistair", "Birte", "Callum", "Dagmar", "Euan",
    "Freya", "Gideon", "Hanne", "Isla", "Jonas", "Kirsty", "Lorenz", "Moira",
]
LAST_NAMES = [
    "Ashworth", "Brenninger", "Crombie", "Drechsler", "Ellery", "Fairbairn",
    "Gottwald", "Halloran", "Imhoff", "Jardine", "Kessler", "Lindqvist",
    "Macready", "Neubauer", "Orrell", "Pfisterer", "Quayle", "Rademacher",
    "Strachan", "Tennant", "Uhlig", "Varley", "Wachsmuth", "Yeoman",
    "Zeitler", "Abernethy", "Birkenstock", "Cairncross", "Dunmore", "Ebeling",
]
BUYER_ROLES = [
    "Category Manager, Metal Components", "Supplier Quality Engineer",
    "Director of Operations", "Materials Planner", "Regulatory Affairs Manager",
    "Head of Logistics", "Senior Buyer", "Finance Controller",
    "Manufacturing Engineering Lead", "Legal Counsel",
]
SUPPLIER_ROLES = [
    "Quality Manager", "Operations Director", "Customer Service Lead",
    "Production Planner", "Commercial Director", "Process Engineer",
    "Logistics Coordinator", "Finance Manager", "Technical Sales Engineer",
    "Head of Compliance",
]

BUYER_SITES = [
    # (site name, street, postcode + city, receiving hours)
    ("Bremen Assembly Plant", "Hafenrandweg 41", "28197 Bremen", "06:00 to 14:00"),
    ("Leer Sterile Packaging Centre", "Am Emsdeich 9", "26789 Leer", "07:00 to 15:30"),
    ("Rheine Service Hub", "Gewerbering Sued 23", "48432 Rheine", "06:30 to 13:30"),
]
SUPPLIER_SITES = [
    ("Dunfermline Machining Works", "Carnegie Campus, Unit 14, Dunfermline KY11 8PY"),
    ("Telford Finishing Centre", "Halesfield 22, Telford TF7 4QX"),
]
CARRIERS = ["Brightwater Freight", "Kestrel Logistics", "Nordlicht Spedition",
            "Halyard Transport Services", "Merrow Express"]

PRODUCT_FAMILIES = [
    # (part prefix digit, family name, item nouns)
    ("1", "Orthopaedic Screw Components", ["bone-screw blank", "cannulated screw shaft",
     "locking screw head", "cortical screw core", "headless compression screw"]),
    ("2", "Implant Housings and Sleeves", ["screw housing", "guide sleeve",
     "drill sleeve", "reamer housing", "tapered adaptor sleeve"]),
    ("3", "Instrument Shafts and Bores", ["instrument shaft", "bored handle insert",
     "torque limiter spindle", "cannulated driver shaft", "flexible shaft coupling"]),
    ("4", "Precision Springs and Clips", ["retention clip", "compression spring",
     "leaf spring", "latch spring", "wave washer"]),
    ("5", "Machined Plates and Brackets", ["trauma plate blank", "mounting bracket",
     "locking plate insert", "calibration plate", "fixture base plate"]),
    ("6", "Polymer and Composite Parts", ["PEEK spacer", "handle overmould",
     "sterilisation tray clip", "insulating bushing", "radiolucent guide block"]),
    ("7", "Test and Calibration Hardware", ["torque test adaptor", "gauge pin set",
     "calibration master", "fatigue test fixture", "go/no-go thread gauge"]),
]
QUALIFIERS = ["short", "long", "standard", "paediatric", "large", "narrow",
              "reinforced", "low-profile", "extended", "compact"]
MATERIALS = [
    "Ti-6Al-4V ELI (ASTM F136)", "316LVM stainless steel (ASTM F138)",
    "CoCrMo alloy (ASTM F1537)", "17-4 PH stainless steel", "PEEK-OPTIMA grade LT1",
    "commercially pure titanium grade 4", "Nitinol (ASTM F2063)",
    "PPSU (medical grade)", "440C stainless steel", "aluminium 7075-T6 (anodised)",
]
FINISHES = [
    "electropolished to Ra 0.4 um", "bead-blasted, Ra 1.6 um",
    "passivated per ASTM A967", "type II anodised, colour code gold",
    "type III anodised, colour code blue", "laser-marked and passivated",
    "vibratory finished, edges broken 0.1 mm", "as machined, Ra 0.8 um",
]
INSPECTION = [
    "100% optical measurement", "CMM on first-off and every 50th part",
    "statistical sampling per ISO 2859-1, AQL 0.65", "100% thread gauging",
    "hardness test per batch", "dye penetrant test per batch",
    "visual inspection under 10x magnification", "surface roughness check per shift",
]
FEATURES = ["outer diameter", "overall length", "thread pitch diameter",
            "shoulder height", "slot width", "wall thickness", "hex socket width",
            "chamfer length", "flatness", "concentricity", "bore depth"]
# 0.008 mm is reserved for the planted tolerance fact.
TOLERANCES = ["0.005", "0.010", "0.012", "0.015", "0.020", "0.025", "0.030", "0.050"]

STANDARDS = [
    "ISO 13485:2016", "ISO 14971:2019", "ISO 2768-mK", "ISO 10993-1",
    "ISO 11607-1", "ISO 11135", "EN 10204 type 3.1", "ISO 2859-1",
    "ISO 9001:2015", "ISO 14001:2015", "IEC 62366-1",
]
# References used instead of technical standards in commercial and legal articles.
GENERAL_REFS = [
    "Applicable Law", "the Supplier Handbook", "the Governance Charter", "the Buyer's procurement policy",
    "the Buyer's code of conduct for suppliers", "the agreed contract management procedures",
]
TIMEFRAMES = [
    "five (5) Business Days", "ten (10) Business Days", "three (3) Business Days",
    "fourteen (14) days", "thirty (30) days", "sixty (60) days",
    "two (2) Business Days", "twenty (20) Business Days", "forty-eight (48) hours",
    "twenty-four (24) hours", "one (1) calendar month", "ninety (90) days",
]
DOC_REFS = [
    "Schedule 5 (Quality Requirements)", "Schedule 3 (Services and Service Levels)",
    "Schedule 1 (Products and Prices)", "Schedule 2 (Forecasts and Delivery)",
    "Schedule 6 (Change Control Log)", "the Quality Agreement",
    "the Logistics Manual", "the Supplier Handbook", "the Governance Charter",
]
ADVERBS = ["promptly", "without undue delay", "in good faith", "diligently",
           "at its own cost", "in writing", "in a timely manner",
           "with reasonable skill and care"]
