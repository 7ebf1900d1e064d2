"""The answer a person reads of a computation over a table (:mod:`assistant.ttrag.compute.table`): what was
computed, over how many rows, which rows hold it (as the sheet numbers them: the header is row 1), in the
question's language (English, German or French; others read English) and with its figures written as that
language writes them ("2,875.93", "2.875,93", "2 875,93")."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.ttrag.compute.cells import SYMBOLS
from assistant.ttrag.compute.table import Computed, Filter, Query, Row, Table

LISTED = 25  # rows a list names before "and N more"
SHOWN_ROWS = 12  # row numbers a count or a total names before "and N more"

# Each language's wording; {..} fields are filled by answer_text. "one"/"many" pick the singular or plural.
_SAY: dict[str, dict[str, str]] = {
    "en": {
        "over": "of the {total} rows of {name}", "has.one": "has", "has.many": "have",
        "count": "{n} {over} {has} {kept} (every row counted{rows}).",
        "list": "{n} {over} {has} {kept} (every row read); {its} {column}:", "its.one": "its", "its.many": "their",
        "list.rows": "{n} {over} {has} {kept} (every row read):", "colon": ": ",
        "more": "- and {k} more: {rows}", "row.one": "row", "row.many": "rows", "and_more": " and {k} more",
        "value.one": "{column}{where} is {value} ({which}).", "empty": "(empty)",
        "value.many": "{column} of the {n} rows{where}:", "where": " with {kept}",
        "sum": "The total {column} of the {n} {row}{where} is {value} ({rows}; {read}{skipped}).",
        "average": "The average {column} of the {n} {row}{where} is {value} ({rows}; {read}{skipped}).",
        "read": "every row of {name} read, {total} rows", "skipped": "; {k} without a number left out",
        "max": "The highest {column}{among} is {value}, in {holders} ({read}{skipped}).",
        "min": "The lowest {column}{among} is {value}, in {holders} ({read}{skipped}).",
        "among": " among the {n} rows{where}", "and": " and ", "quote": "\u201c{}\u201d",
        "filled": "a {column} (a filled cell, not \u201cNo\u201d)", "in": "in",
    },
    "de": {
        "over": "der {total} Zeilen von {name}", "has.one": "hat", "has.many": "haben",
        "count": "{n} {over} {has} {kept} (jede Zeile gez\u00e4hlt{rows}).",
        "list": "{n} {over} {has} {kept} (jede Zeile gelesen); {its} {column}:", "its.one": "ihr Wert in",
        "list.rows": "{n} {over} {has} {kept} (jede Zeile gelesen):", "colon": ": ",
        "its.many": "ihre Werte in",
        "more": "- und {k} weitere: {rows}", "row.one": "Zeile", "row.many": "Zeilen", "and_more": " und {k} weitere",
        "value.one": "{column}{where} ist {value} ({which}).", "empty": "(leer)",
        "value.many": "{column} der {n} Zeilen{where}:", "where": " mit {kept}",
        "sum": "Die Summe von {column} der {n} {row}{where} ist {value} ({rows}; {read}{skipped}).",
        "average": "Der Durchschnitt von {column} der {n} {row}{where} ist {value} ({rows}; {read}{skipped}).",
        "read": "alle {total} Zeilen von {name} gelesen", "skipped": "; {k} ohne Zahl ausgelassen",
        "max": "Der h\u00f6chste Wert von {column}{among} ist {value}, in {holders} ({read}{skipped}).",
        "min": "Der niedrigste Wert von {column}{among} ist {value}, in {holders} ({read}{skipped}).",
        "among": " unter den {n} Zeilen{where}", "and": " und ", "quote": "\u201e{}\u201c",
        "filled": "einen Eintrag in {column} (gef\u00fcllt, nicht \u201eNein\u201c)", "in": "in",
    },
    "fr": {
        "over": "des {total} lignes de {name}", "has.one": "a", "has.many": "ont",
        "count": "{n} {over} {has} {kept} (toutes les lignes compt\u00e9es{rows}).",
        "list": "{n} {over} {has} {kept} (toutes les lignes lues) ; {its} {column} :", "its.one": "sa valeur de",
        "list.rows": "{n} {over} {has} {kept} (toutes les lignes lues) :", "colon": "\u202f: ",
        "its.many": "leurs valeurs de",
        "more": "- et {k} autres : {rows}", "row.one": "ligne", "row.many": "lignes", "and_more": " et {k} autres",
        "value.one": "{column}{where} : {value} ({which}).", "empty": "(vide)",
        "value.many": "{column} des {n} lignes{where} :", "where": " avec {kept}",
        "sum": "Le total de {column} des {n} {row}{where} est {value} ({rows} ; {read}{skipped}).",
        "average": "La moyenne de {column} des {n} {row}{where} est {value} ({rows} ; {read}{skipped}).",
        "read": "les {total} lignes de {name} lues", "skipped": " ; {k} sans nombre exclues",
        "max": "La valeur la plus \u00e9lev\u00e9e de {column}{among} est {value}, en {holders} ({read}{skipped}).",
        "min": "La valeur la plus basse de {column}{among} est {value}, en {holders} ({read}{skipped}).",
        "among": " parmi les {n} lignes{where}", "and": " et ", "quote": "\u00ab\u202f{}\u202f\u00bb",
        "filled": "une valeur dans {column} (remplie, pas \u00ab\u202fNon\u202f\u00bb)", "in": "en",
    },
}
# thousands and decimal separators as each language writes a figure
_SEPARATORS = {"en": (",", "."), "de": (".", ","), "fr": ("\u202f", ",")}


def figure(value: float, language: str = "en") -> str:
    """``value`` as a person writes it in ``language`` (ISO 639-1; English where it has no entry):
    ``83,400``, ``20,850.5``, ``0.25``; German ``20.850,5``; French ``20 850,5``."""
    text = f"{int(value):,}" if float(value).is_integer() else f"{value:,.2f}".rstrip("0").rstrip(".")
    thousands, decimal = _SEPARATORS.get(language, _SEPARATORS["en"])
    return text.replace(",", "\0").replace(".", decimal).replace("\0", thousands)


def answer_text(table: Table, query: Query, result: Computed, language: str = "en") -> tuple[str, str]:
    """The answer a person reads in ``language`` (ISO 639-1: ``en``, ``de``, ``fr``; another reads English), and
    its short answer (the figure as English writes it, or the names listed)."""
    say = _SAY.get(language, _SAY["en"])
    total = len(table.rows)
    kept = say["and"].join(_filter_text(f, say) for f in query.filters)
    where = say["where"].format(kept=kept) if query.filters else ""
    over = say["over"].format(total=total, name=table.name)

    def one(key: str, n: int) -> str:
        return say[f"{key}.one" if n == 1 else f"{key}.many"]

    def rows_named(rows: Sequence[Row], limit: int = SHOWN_ROWS) -> str:
        more = say["and_more"].format(k=len(rows) - limit) if len(rows) > limit else ""
        return f"{one('row', len(rows))} " + ", ".join(str(r.number) for r in rows[:limit]) + more

    if query.operation == "count":
        n = len(result.rows)
        rows = f"{say['colon']}{rows_named(result.rows)}" if result.rows else ""
        return say["count"].format(n=n, over=over, has=one("has", n), kept=kept, rows=rows), str(n)
    if query.operation == "list":
        # the same value in every row listed, or no column asked for: each row is named by its first cells
        filtered = {f.column for f in query.filters}
        column = query.column if query.column not in filtered else ""
        leave = next(iter(filtered)) if len(filtered) == 1 else ""
        names = [" ".join(table.cell(r, column).split()) if column else "" for r in result.rows]
        names = [name or table.key(r, leave) for r, name in zip(result.rows, names, strict=True)]
        n = len(result.rows)
        lines = [f"- {say['row.one']} {r.number}{say['colon']}{name}"
                 for r, name in zip(result.rows[:LISTED], names, strict=False)]
        if n > LISTED:
            lines.append(say["more"].format(k=n - LISTED, rows=rows_named(result.rows[LISTED:], 40)))
        head = say["list" if column else "list.rows"].format(n=n, over=over, has=one("has", n), kept=kept,
                                                             its=one("its", n), column=column)
        return "\n".join([head, *lines]), "; ".join(names)
    if query.operation == "value":
        values = list(dict.fromkeys(" ".join(table.cell(r, query.column).split()) for r in result.rows))
        if len(values) == 1:
            which = f"{table.name} {rows_named(result.rows)}" if len(result.rows) > 1 else \
                f"{table.name} {say['row.one']} {result.rows[0].number}: {table.key(result.rows[0], query.column)}"
            return say["value.one"].format(column=query.column, where=where, value=values[0] or say["empty"],
                                           which=which), values[0]
        lines = [f"- {say['row.one']} {r.number} ({table.key(r, query.column)}): "
                 f"{' '.join(table.cell(r, query.column).split())}" for r in result.rows[:LISTED]]
        head = say["value.many"].format(column=query.column, n=len(result.rows), where=where)
        return "\n".join([head, *lines]), "; ".join(values)
    assert result.value is not None
    skipped = say["skipped"].format(k=result.skipped) if result.skipped else ""
    value = figure(result.value, language)
    read = say["read"].format(name=table.name, total=total)
    if query.operation in ("sum", "average"):
        n = len(result.holding)
        return say[query.operation].format(column=query.column, n=n, row=one("row", n), where=where, value=value,
                                           rows=rows_named(result.holding), read=read,
                                           skipped=skipped), figure(result.value)
    holders = "; ".join(f"{say['row.one']} {r.number} ({table.key(r, query.column)})" for r in result.holding[:5])
    among = say["among"].format(n=len(result.rows), where=where) if query.filters else ""
    return say[query.operation].format(column=query.column, among=among, value=value, holders=holders, read=read,
                                       skipped=skipped), figure(result.value)


def _filter_text(f: Filter, say: dict[str, str]) -> str:
    if not f.value:
        return say["filled"].format(column=f.column)
    if f.compare:
        return f"{f.column} {SYMBOLS[f.compare]} {f.value}"
    return f"{f.column} {say['quote'].format(f.value)}"
