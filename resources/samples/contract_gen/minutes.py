# ruff: noqa: E501  (long template and data strings read better unwrapped)
"""People roster and Schedule 7 (Meeting Minutes)."""

import datetime as dt

from . import vocab
from .records import random_date

JSC_DATES = [dt.date(2025, 6, 12), dt.date(2025, 9, 18), dt.date(2025, 12, 11), dt.date(2026, 3, 19),
             dt.date(2026, 6, 18), dt.date(2026, 10, 22), dt.date(2027, 1, 21)]
EXTRA_DATE = dt.date(2027, 3, 3)
FM_DATE = dt.date(2026, 1, 27)  # the Supplier's Force Majeure Notice (see letters.py)


def make_people(rng, n=9):
    names = set()
    people = {"buyer": [], "supplier": []}
    for side, roles in (("buyer", vocab.BUYER_ROLES), ("supplier", vocab.SUPPLIER_ROLES)):
        for role in rng.sample(roles, n):
            while True:
                name = f"{rng.choice(vocab.FIRST_NAMES)} {rng.choice(vocab.LAST_NAMES)}"
                if name not in names:
                    names.add(name)
                    break
            people[side].append((name, role))
    return people


ITEMS = [
    ("KPI review", [
        "{S} presented the KPI report for {month}: on-time-in-full delivery reached {pct} and external quality stood at {ppm} ppm.",
        "{B} noted that the delivery performance to the {site} had improved but remained below target in two weeks of the month.",
        "The Parties agreed that the KPI dashboard will in future also show the backlog of overdue order lines.",
        "{S} explained that {k} order lines had been delivered late because of a tooling breakdown on the {family} cell."]),
    ("Open corrective actions", [
        "There were {k} open corrective action reports at the date of the meeting, {k2} of them overdue.",
        "The 8D report on burr formation on {pn} was accepted; the effectiveness check is scheduled for the next quarter.",
        "{B} asked for the root cause analysis on the thread damage found on {pn} to be completed before the next review.",
        "The Supplier confirmed that containment at its Telford site had been extended to include visual inspection at 10x magnification."]),
    ("Forecast and capacity", [
        "{B} presented the updated Forecast, which shows an increase of {x} percent for the {family} family over the next two quarters.",
        "{S} confirmed that capacity on the five-axis machining cells is sufficient until the end of the following quarter.",
        "A third shift at Dunfermline will be staffed from {month} if the Forecast is confirmed.",
        "The Parties discussed the impact of the new trauma plate launch on the demand for {pn}."]),
    ("Change requests", [
        "The meeting reviewed {k} open Change Requests, two of which are waiting for validation data.",
        "{S} requested a Deviation Permit for {n} pieces of {pn} with a flatness at the upper tolerance limit; the Buyer approved it for a single Batch.",
        "The change of the passivation sub-supplier was approved subject to a successful first article inspection.",
        "{B} reminded the Supplier that no change may be implemented before written approval has been given."]),
    ("Quality matters", [
        "A Quarantine Hold was placed on Batch {batch} of {pn} after a dimensional deviation was detected at incoming inspection.",
        "The Quarantine Hold on Batch {batch} was lifted after sorting, with {k} parts scrapped.",
        "{S} reported that the annual surveillance audit by the notified body had been completed without major findings.",
        "The particulate cleanliness results for {pn} have been stable for three months and sampling will be reduced."]),
    ("Logistics", [
        "A total of {k} deliveries to the {site} arrived outside the receiving window; {carrier} has been asked to adjust its route.",
        "The Parties agreed to test a milk-run between Dunfermline and the German sites in the coming quarter.",
        "{B} raised concerns about damaged cartons and asked for corner protectors on all pallets.",
        "The consignment stock at the {site} was counted on the last Business Day of the month without differences."]),
    ("Costs and prices", [
        "The titanium surcharge for the next quarter was calculated at EUR {ti} per kilogram of bar stock.",
        "{S} presented productivity proposals worth approximately EUR {sav} per year, mainly from cycle-time reductions.",
        "{B} confirmed that the credit note for the rejected Batch {batch} had been received and booked.",
        "The Parties agreed to review the packaging cost for the {family} family at the next meeting."]),
    ("Sustainability", [
        "{S} presented the energy consumption of the Dunfermline site, which fell by {x} percent compared with the previous year.",
        "The Supplier confirmed that its conflict minerals report had been uploaded to the supplier portal.",
        "{B} asked for a proposal on reducing single-use plastic in the inner packaging."]),
]
LOCATIONS = ["Bremen, Buyer's offices", "Dunfermline, Supplier's offices", "video conference", "video conference",
             "Telford Finishing Centre"]


def _fill(rng, t, people, parts, date):
    b, s = rng.choice(people["buyer"]), rng.choice(people["supplier"])
    return t.format(
        S=s[0], B=b[0], month=vocab.MONTHS[(date.month - 2) % 12], pct=f"{rng.uniform(93.0, 98.4):.1f}%",
        ppm=rng.randint(40, 260), site=rng.choice(vocab.BUYER_SITES)[0], k=rng.randint(2, 9), k2=rng.randint(1, 3),
        family=rng.choice(vocab.PRODUCT_FAMILIES)[1].lower(), pn=rng.choice(parts)["pn"], x=rng.randint(3, 18),
        n=rng.choice([150, 300, 450, 900]), batch=f"B{rng.randint(250000, 279999)}", carrier=rng.choice(vocab.CARRIERS),
        ti=f"{rng.uniform(21.0, 29.0):.2f}", sav=f"{rng.randint(40, 220) * 1000:,}")


def _ordered_pick(rng, items, k):
    """k items in their original order (keeps the narrative logical)."""
    return [items[i] for i in sorted(rng.sample(range(len(items)), k))]


def _meeting(rng, idx, date, kind, people, parts, fixed):
    title = {"jsc": "Joint Steering Committee Meeting", "ops": "Operational Review",
             "extra": "Extraordinary Joint Steering Committee Meeting"}[kind]
    bs = rng.sample(people["buyer"], 3 if kind != "ops" else 2)
    ss = rng.sample(people["supplier"], 3 if kind != "ops" else 2)
    blocks = [f"### S7.{idx} {title} - {vocab.fmt_date(date)}",
              f"Location: {rng.choice(LOCATIONS)}\n\nAttendees for the Buyer: " + "; ".join(f"{n} ({r})" for n, r in bs) +
              "\n\nAttendees for the Supplier: " + "; ".join(f"{n} ({r})" for n, r in ss) +
              f"\n\nMinutes taken by: {bs[-1][0]}"]
    items = rng.sample(ITEMS, {"jsc": rng.randint(4, 6), "ops": rng.randint(3, 4), "extra": 1}[kind])
    if kind == "extra":  # the reason for an extraordinary meeting comes first
        items = [(topic, None, text) for topic, text in fixed] + [(t, s, None) for t, s in items]
        fixed = []
    else:
        items = [(t, s, None) for t, s in items]
    for i, (topic, sents, text) in enumerate(items, start=1):
        text = text or " ".join(_fill(rng, t, {"buyer": bs, "supplier": ss}, parts, date)
                        for t in _ordered_pick(rng, sents, rng.randint(2, len(sents))))
        blocks.append(f"**{i}. {topic}** - {text}")
    for i, (topic, text) in enumerate(fixed, start=len(items) + 1):
        blocks.append(f"**{i}. {topic}** - {text}")
    owner = rng.choice(ss + bs)[0]
    due = random_date(rng, date + dt.timedelta(days=10), date + dt.timedelta(days=40))
    blocks.append(f"Action: {owner} to circulate the updated action list by {vocab.fmt_date(due)}. "
                  f"The next meeting will be held {rng.choice(['by video conference', 'in Bremen', 'in Dunfermline'])}.")
    return blocks


def schedule7(rng, book, people, parts):
    blocks = ["## Schedule 7 - Meeting Minutes",
              "This Schedule records the approved minutes of the Joint Steering Committee and of the monthly "
              "operational reviews held under Article 28. Minutes are added in chronological order once approved."]
    meetings = [(d, "jsc") for d in JSC_DATES] + [(EXTRA_DATE, "extra")]
    taken = {vocab.fmt_date(d) for d, _ in meetings}
    for y, m in [(2025 + (k + 4) // 12, (k + 4) % 12 + 1) for k in range(21)]:
        start = dt.date(y, m, 1)
        while True:
            d = random_date(rng, start, start + dt.timedelta(days=27))
            if vocab.fmt_date(d) not in taken:
                break
        if all(abs((d - j).days) > 6 for j in JSC_DATES):
            meetings.append((d, "ops"))
    meetings.sort()
    for idx, (date, kind) in enumerate(meetings, start=1):
        fixed = []
        if date == dt.date(2026, 3, 19):
            fixed.append(("Force majeure", f"The Supplier reported that full production at Telford had resumed and formally "
                          f"withdrew its Force Majeure Notice of {vocab.fmt_date(FM_DATE)}. No allocation of capacity is "
                          "required any longer."))
        if date == dt.date(2026, 6, 18):
            fixed.append(("Safety stock", "Following the supply interruption earlier in the year, the Parties discussed the "
                          "consignment stock levels. " + book.take1("s7:safety")))
        if date == dt.date(2026, 10, 22):
            fixed.append(("Packaging", book.take1("s7:crates") + " The Supplier will purchase the initial crate pool and "
                          "recover the cost through a packaging charge over twenty-four months."))
        if kind == "extra":
            fixed.append(("Furnace failure", book.take1("s7:extra") + " The Supplier explained that heat treatment would be "
                          "subcontracted to a qualified sub-supplier for up to eight weeks. The Buyer decided not to "
                          "require a Force Majeure Notice, as the failure was within the Supplier's control, and asked "
                          "for daily status reports until the furnace is requalified."))
        blocks += _meeting(rng, idx, date, kind, people, parts, fixed)
    return blocks
