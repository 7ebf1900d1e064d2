# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""Schedule 8 (Correspondence): letters exchanged under the Agreement."""

import datetime as dt

from . import vocab
from .minutes import FM_DATE, _ordered_pick
from .records import random_date

OPENINGS = [
    "We refer to the Agreement and to our telephone conversation of {prev}.",
    "Thank you for your letter of {prev}, which we have reviewed carefully.",
    "Further to the discussion at the last operational review, we write to confirm our position.",
    "We write in connection with the Agreement and the matter set out below.",
]
CLOSINGS = [
    "Please do not hesitate to contact me if you require further information.",
    "We would be grateful for your written confirmation by {due}.",
    "We look forward to discussing this at the next meeting of the Joint Steering Committee.",
    "This letter is without prejudice to our rights under the Agreement.",
]
# (sender side, subject, body sentences)
TOPICS = [
    ("supplier", "Annual price review proposal", [
        "In accordance with Article 5, we submit our proposal for the annual price review, together with the supporting cost breakdown.",
        "Labour costs at our Dunfermline site increased by {x} percent over the last twelve months, while energy costs have stabilised.",
        "We propose to offset part of the increase through productivity measures on the {family} family.",
        "We would welcome a meeting in the coming weeks to agree the new prices."]),
    ("buyer", "Late deliveries in {month}", [
        "During {month}, {k} order lines for the {site} were delivered after the agreed Delivery Date.",
        "We reserve the right to claim liquidated damages in accordance with Article 9 for the affected Purchase Orders.",
        "Please provide a recovery plan showing how the backlog will be cleared within the next four weeks.",
        "We note that the delays concern mainly part number {pn}, for which no capacity constraint had been announced."]),
    ("buyer", "Scheduling of the quality audit", [
        "We intend to carry out a scheduled process audit at the {ssite} in the week starting {due}.",
        "The audit will focus on process validation, cleanliness control and the handling of nonconforming product.",
        "Please make the responsible process engineers and the quality manager available during the audit.",
        "An agenda will be sent to you at least two weeks before the audit."]),
    ("supplier", "Renewal of insurance certificates", [
        "Please find enclosed the renewed certificates of insurance for the coming policy year.",
        "The cover has been renewed on unchanged terms with our existing insurers.",
        "We confirm that the Buyer remains named as additional insured under the product liability policy."]),
    ("supplier", "Change of contact person", [
        "We would like to inform you that {sname} has been appointed as {srole} with immediate effect.",
        "{sname} will take over all operational matters relating to the Agreement and will attend the monthly operational reviews.",
        "The contact details in the supplier portal have been updated accordingly."]),
    ("buyer", "Forecast increase for the {family} family", [
        "Our updated Forecast shows an increase of {x} percent in demand for the {family} family from next quarter.",
        "Please confirm whether this additional volume can be supplied within the agreed Lead Times.",
        "If additional tooling is required, please submit a quotation so that we can approve it promptly."]),
    ("supplier", "Request for deviation on {pn}", [
        "We request a Deviation Permit for {n} pieces of {pn} from Batch {batch}, in which the {feature} is at the upper tolerance limit.",
        "Our analysis shows no impact on fit or function, and the full measurement data are enclosed.",
        "We have corrected the tool offset and all subsequent Batches are fully within tolerance."]),
    ("buyer", "Disputed invoice", [
        "We dispute invoice number {inv} in part, as it includes a packaging charge that was not agreed.",
        "We will pay the undisputed amount in accordance with the Agreement.",
        "Please issue a credit note for the disputed amount of EUR {amt} or provide evidence of the agreement relied on."]),
    ("buyer", "Sustainability questionnaire", [
        "As every year, we ask you to complete our sustainability questionnaire in the supplier portal.",
        "This year the questionnaire includes additional questions on Scope 3 emissions and on water consumption.",
        "The results will be discussed at the Joint Steering Committee."]),
    ("supplier", "Complaint {cmp} - investigation report", [
        "Please find enclosed our investigation report on complaint {cmp} concerning part number {pn}.",
        "The root cause was identified as a worn insert on the finishing operation, which has been replaced.",
        "As a preventive measure, tool life monitoring has been introduced on all comparable machines."]),
]
FIXED = {
    FM_DATE: ("supplier", "Force Majeure Notice - flooding at the Telford Finishing Centre", [
        "This letter constitutes a Force Majeure Notice under Section 24.2 of the Agreement.",
        "Following severe flooding on the Halesfield industrial estate, our Telford Finishing Centre has been closed since yesterday evening.",
        "We expect finishing operations to be interrupted for at least six weeks and are transferring critical passivation work to Dunfermline.",
        "We will update this notice weekly and allocate available capacity in accordance with Section 24.3."]),
    dt.date(2026, 2, 2): ("buyer", "Acknowledgement of force majeure", [
        "We acknowledge receipt of your letter of {fm} and take note of the flooding at your Telford site.",
        "We ask you to prioritise the part numbers listed in the enclosure, which are critical for our trauma product lines.",
        "Please send us the weekly updates to the notice on each Monday until operations resume."]),
    dt.date(2027, 2, 8): ("supplier", "Second machining plant", ["LIVINGSTON",
        "The new site will initially house ten five-axis machining centres and a validated cleaning line.",
        "We will submit Change Requests for the transfer of the relevant part numbers in good time, and no part will be transferred before the Buyer's approval.",
        "We would be pleased to welcome your team to the site before the start of production."]),
}


def schedule8(rng, book, people):
    blocks = ["## Schedule 8 - Correspondence",
              "This Schedule contains copies of the principal letters exchanged between the Parties under the "
              "Agreement, in chronological order. Enclosures are held in the contract file and are not reproduced."]
    dates = set(FIXED)
    while len(dates) < 46:
        dates.add(random_date(rng, dt.date(2025, 4, 15), dt.date(2027, 3, 28)))
    order = rng.sample(TOPICS * 5, len(TOPICS) * 5)
    prev, prev_side = dt.date(2025, 4, 1), "buyer"
    for idx, d in enumerate(sorted(dates), start=1):
        side, subject, sents = FIXED[d] if d in FIXED else order.pop()
        b, s = rng.choice(people["buyer"]), rng.choice(people["supplier"])
        snd, rcp = (s, b) if side == "supplier" else (b, s)
        scomp, rcomp = (vocab.SUPPLIER, vocab.BUYER) if side == "supplier" else (vocab.BUYER, vocab.SUPPLIER)
        new = rng.choice(people["supplier"])
        vals = dict(prev=vocab.fmt_date(prev), due=vocab.fmt_date(random_date(rng, d + dt.timedelta(days=7), d + dt.timedelta(days=30))),
                    x=rng.randint(3, 14), family=rng.choice(vocab.PRODUCT_FAMILIES)[1].lower(),
                    month=vocab.MONTHS[(d.month - 2) % 12], k=rng.randint(3, 17), site=rng.choice(vocab.BUYER_SITES)[0],
                    pn=f"CPC-{rng.randint(1, 7)}{rng.randint(0, 9999):04d}-{rng.choice('ACEHMRW')}",
                    ssite=rng.choice(vocab.SUPPLIER_SITES)[0], sname=new[0], srole=new[1], n=rng.choice([200, 350, 600]),
                    batch=f"B{rng.randint(250000, 279999)}", feature=rng.choice(vocab.FEATURES),
                    inv=f"INV-{d.year}-{rng.randint(1000, 9999)}", amt=f"{rng.uniform(300, 9000):,.2f}",
                    cmp=f"QN-{rng.randint(4000, 4999)}", fm=vocab.fmt_date(FM_DATE))
        if d in FIXED:
            body = [t if t != "LIVINGSTON" else book.take1("s8:livingston") for t in sents]
            paras = [" ".join(body[:2]).format(**vals), " ".join(body[2:]).format(**vals)]
        else:
            picks = [sents[0]] + _ordered_pick(rng, sents[1:], min(len(sents) - 1, rng.randint(1, 3)))
            openings = OPENINGS if side != prev_side else [o for o in OPENINGS if "your letter" not in o]
            paras = [rng.choice(openings).format(**vals) + " " + " ".join(picks).format(**vals)]
        paras.append(rng.choice(CLOSINGS).format(**vals))
        blocks.append(f"### S8.{idx} Letter of {vocab.fmt_date(d)} - {subject.format(**vals)}")
        blocks.append(f"From: {snd[0]}, {snd[1]}, {scomp}\n\nTo: {rcp[0]}, {rcp[1]}, {rcomp}\n\n"
                      f"Reference: {vocab.AGREEMENT_NO}/L{idx:03d}")
        blocks.append(f"Dear {rcp[0]},")
        blocks += paras
        blocks.append(f"Yours sincerely,\n\n{snd[0]}\n\n{snd[1]}")
        prev, prev_side = d, side
    return blocks
