"""Jurisdictions a text names: the country or state whose law a contract chooses.

A governing-law clause names a jurisdiction: "the laws of the State of New York", "the laws of the PRC",
"English law", "the substantive laws of the Netherlands". :func:`names_a_jurisdiction` tells whether a text names
one: a country or territory by its English name in the Unicode CLDR (read through Babel; "South Korea", "Hong
Kong SAR China", "Congo - Kinshasa" also as "Korea", "Hong Kong" and "Congo"), a state or province of the
federations whose contracts choose one (the United States, Canada, Australia), a nation of the United Kingdom,
a common short form ("PRC", "U.S.A.", "UK"), or a country's adjective before "law" ("Swiss law"). Names match
as capitalised or in capitals ("STATE OF DELAWARE"), accents and punctuation aside, so "Jordan" or "Georgia" in
a sentence counts and "georgia" does not.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

_US_STATES = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware", "Florida",
    "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine",
    "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada",
    "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio", "Oklahoma",
    "Oregon", "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah",
    "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming", "District of Columbia")
_PROVINCES = (  # Canada's provinces and territories, Australia's states and territories
    "Alberta", "British Columbia", "Manitoba", "New Brunswick", "Newfoundland and Labrador", "Newfoundland",
    "Nova Scotia", "Ontario", "Prince Edward Island", "Quebec", "Saskatchewan", "Northwest Territories", "Nunavut",
    "Yukon", "New South Wales", "Queensland", "South Australia", "Tasmania", "Victoria", "Western Australia",
    "Australian Capital Territory", "Northern Territory")
_NATIONS = ("England", "Scotland", "Wales", "Northern Ireland", "England and Wales")
_SHORT = ("PRC", "P.R.C.", "People's Republic of China", "USA", "U.S.A.", "U.S.", "United States of America",
          "America", "UK", "U.K.", "Great Britain", "Korea", "Republic of Korea", "Burma", "Ivory Coast")
# a country's law by its adjective: "English law governs", "governed by Swiss substantive law"
_ADJECTIVES = ("English", "Scottish", "British", "Irish", "American", "Canadian", "Australian", "German", "Swiss",
               "Austrian", "French", "Belgian", "Dutch", "Luxembourgish", "Italian", "Spanish", "Portuguese", "Swedish",
               "Danish", "Norwegian", "Finnish", "Polish", "Czech", "Greek", "Turkish", "Israeli", "Indian",
               "Chinese", "Japanese", "Korean", "Singaporean", "Malaysian", "Mexican", "Brazilian", "Argentine",
               "Chilean", "Russian", "South African")
_ADJECTIVE_LAW = re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(_ADJECTIVES) + r")\s+(?:(?:substantive|federal|"
                            r"statutory|common)\s+)?laws?\b", re.I)
# CLDR codes of no country: the world and its continents are numeric; these are groupings or placeholders
_NOT_A_COUNTRY = {"EU", "EZ", "UN", "QO", "XA", "XB", "ZZ"}


def _fold(text: str) -> str:
    """``text`` without accents and punctuation case kept ("Côte d’Ivoire": "Cote d Ivoire")."""
    text = unicodedata.normalize("NFKD", re.sub(r"[\W_]+", " ", text)).encode("ascii", "ignore").decode("ascii")
    return " ".join(text.split())


def _countries() -> set[str]:
    """CLDR's English names of countries and territories, each also without its qualifier ("Hong Kong SAR China"
    -> "Hong Kong", "Congo - Kinshasa" -> "Congo", "Myanmar (Burma)" -> "Myanmar", "Burma")."""
    from babel import Locale  # CLDR data, read once

    names: set[str] = set()
    for code, name in Locale("en").territories.items():
        if len(code) != 2 or not code.isalpha() or code in _NOT_A_COUNTRY:
            continue
        names.add(name)
        names.update(p.strip() for p in re.split(r" - |\(|\)| SAR China", name) if p.strip())
    return names


@cache
def _pattern() -> re.Pattern[str]:
    names = {_fold(n) for n in (*_countries(), *_US_STATES, *_PROVINCES, *_NATIONS, *_SHORT)} - {""}
    forms = sorted(names | {n.upper() for n in names}, key=len, reverse=True)  # longest first: "West Virginia"
    return re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(re.escape(f) for f in forms) + r")(?![A-Za-z0-9])")


def names_a_jurisdiction(text: str) -> bool:
    """Whether ``text`` names a country, territory, state or province (see the module docstring)."""
    return bool(_pattern().search(_fold(text)) or _ADJECTIVE_LAW.search(text))
