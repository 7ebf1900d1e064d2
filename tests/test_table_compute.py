"""Counts, totals, extremes and lists over a sheet's rows are computed over every row (a newcomer's "total revenue
of the South region", "How many tickets are escalated?" and "Which contracts are governed by Delaware law?" were
answered from three passages: one row's figure, or 3 of 9 contracts with no word that the list was partial)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from conftest import ScriptedGenerator

from assistant.documents import extract
from assistant.models.base import GenerationRequest
from assistant.ttrag.compute import table, table_answer
from assistant.ttrag.context import build_context
from assistant.ttrag.pipeline import Models, PipelineOptions, ask

SALES = [("2024-01", "North", "15,000", "29"), ("2024-01", "South", "11,600", "56"),
         ("2024-02", "North", "17,250", "31"), ("2024-02", "South", "24,300", "39"),
         ("2024-03", "North", "9,900", "12"), ("2024-03", "South", "n/a", "")]


def _sales(path: Path) -> Path:
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Month", "Region", "Revenue", "Units"])
        out.writerows(SALES)
    return path


def _query(reply: dict[str, object]) -> ScriptedGenerator:
    """A generator that writes ``reply`` as the table query, and a reader's "not found" for anything else."""
    def script(request: GenerationRequest) -> str:
        if request.purpose == "table":
            return json.dumps(reply)
        return json.dumps({"found": False, "passage": 0, "short_answer": "", "answer": ""})
    return ScriptedGenerator(script)


def test_a_sheet_s_rows_are_a_table_with_each_row_where_its_line_stands(tmp_path: Path) -> None:
    doc = extract(_sales(tmp_path / "sales.csv"))
    [found] = table.tables([doc])
    assert found.columns == ("Month", "Region", "Revenue", "Units") and found.name == "sales"
    assert [r.number for r in found.rows] == [2, 3, 4, 5, 6, 7]
    for row in found.rows:  # each row's offset is where its line starts in the document's text
        assert doc.text[row.offset:].startswith(" | ".join(row.cells))
    assert table.column_names(["Amount", "", "Amount"]) == ("Amount", "column 2", "Amount (2)")


def test_a_query_stands_only_on_the_question_s_own_words_and_the_table_s_values(tmp_path: Path) -> None:
    [sales] = table.tables([extract(_sales(tmp_path / "sales.csv"))])
    question = "What was the total revenue of the South region?"
    ok = {"operation": "sum", "column": "Revenue", "filters": [{"column": "Region", "value": "South"}]}
    query, why = table.parse_query(json.dumps(ok), sales, question)
    assert query is not None and not why
    result = table.compute(sales, query)
    assert result.value == 11600 + 24300 and result.skipped == 1  # "n/a" is no number: left out, and said
    text, short = table_answer.answer_text(sales, query, result)
    assert short == "35,900" and "rows 3, 5" in text and "1 without a number left out" in text
    for reply, reason in [({**ok, "filters": [{"column": "Region", "value": "East"}]}, "not in the question"),
                          ({**ok, "operation": "average"}, "does not ask for average"),
                          ({**ok, "column": "Profit"}, "no column"),
                          ({"operation": "none", "column": "", "filters": []}, "not a computation"),
                          ("{not json", "malformed")]:
        raw = reply if isinstance(reply, str) else json.dumps(reply)
        query, why = table.parse_query(raw, sales, question)
        assert query is None and reason in why, (reply, why)
    # a value the question writes that no row of its column holds
    query, why = table.parse_query(json.dumps({**ok, "filters": [{"column": "Month", "value": "South"}]}), sales,
                                   question)
    assert query is None and "no row holds" in why
    # a count of every row is no answer to "how many" over a table
    query, why = table.parse_query(json.dumps({"operation": "count", "column": "", "filters": []}), sales,
                                   "How many of them had a non-compete clause?")
    assert query is None and "count of every row" in why
    # a count of a column is a count of the rows that have it: a filled cell, not "No" (nor CUAD's "[]")
    query, why = table.parse_query(json.dumps({"operation": "count", "column": "Revenue", "filters": []}), sales,
                                   "How many months have a revenue?")
    assert query is not None and query.filters == (table.Filter("Revenue", ""),)
    assert len(table.compute(sales, query).rows) == 5  # "n/a" is no revenue
    assert [table.filled(c) for c in ("Yes", "No", "[]", "n/a", "['Western Copper covenants ...']", "0")] == [
        True, False, False, False, True, False]
    # "how many units" asks for a sum; the region the question names is kept though the query left it out
    query, why = table.parse_query(json.dumps({"operation": "sum", "column": "Units", "filters": []}), sales,
                                   "How many units were sold in the South?")
    assert query is not None and table.compute(sales, query).value == 56 + 39


def test_a_category_the_question_names_is_kept_where_the_query_left_it_out(tmp_path: Path) -> None:
    # "Which tickets of Nimbus Bank are open?" was queried with the customer alone
    path = tmp_path / "tickets.csv"
    path.write_text("Ticket,Customer,Status\n1001,Nimbus Bank,Open\n1002,Nimbus Bank,Closed\n1003,Harbor Foods,Open\n"
                    "1004,Nimbus Bank,Open\n1005,Harbor Foods,Closed\n")
    [tickets] = table.tables([extract(path)])
    question = "Which tickets of Nimbus Bank are open?"
    query, _ = table.parse_query(json.dumps({"operation": "list", "column": "Customer", "filters": [
        {"column": "Customer", "value": "Nimbus Bank"}]}), tickets, question)
    assert query is not None and [(f.column, f.value) for f in query.filters] == [("Customer", "Nimbus Bank"),
                                                                                 ("Status", "Open")]
    result = table.compute(tickets, query)
    text, _ = table_answer.answer_text(tickets, query, result)
    assert [r.number for r in result.rows] == [2, 5]
    assert "- row 2: 1001" in text and "- row 5: 1004" in text  # named by the ticket, not the customer filtered on


def test_the_cues_ask_for_computation_over_rows_and_one_row_s_value_is_not_one() -> None:
    assert table.cued_operations("How many tickets are escalated?") == ["count", "sum"]
    assert table.cued_operations("Which contracts are governed by Delaware law?") == ["list"]
    assert table.cued_operations("What was the total revenue of the South region?") == ["sum"]
    assert table.cued_operations("Which month had the highest revenue?") == ["max"]
    assert table.cued_operations("Wie viele Verträge unterliegen dem Recht von Texas?") == ["count", "sum"]
    for question in ("Which law governs the Gunston agreement?", "How many times does 'escrow' occur?",
                     "What is the governing law?", "Who are the parties?"):
        assert table.cued_operations(question) == [], question


def test_a_total_over_a_sheet_is_computed_over_every_row_and_cites_its_rows(
        tmp_path: Path, tokenizer: object, embedder: object, encoder: object) -> None:
    ctx = build_context([extract(_sales(tmp_path / "sales.csv"))], tokenizer)
    gen = _query({"operation": "sum", "column": "Revenue", "filters": [{"column": "Region", "value": "South"}]})
    models = Models(gen, embedder, encoder)  # type: ignore[arg-type]
    answer = ask(ctx, "What was the total revenue of the South region?", models, PipelineOptions(router=False))
    assert answer.found and answer.route == "table" and answer.short_answer == "35,900"
    assert answer.text.startswith("The total Revenue of the 2 rows with Region \u201cSouth\u201d is 35,900")
    assert [(s.section, s.snippet) for s in answer.sources] == [("sales row 3", "2024-01 | South | 11,600 | 56"),
                                                                ("sales row 5", "2024-02 | South | 24,300 | 39")]
    # the same question with tables off goes to the reader (here: not found)
    off = ask(ctx, "What was the total revenue of the South region?", models,
              PipelineOptions(router=False, tables=False))
    assert off.route == "question_answering" and not off.found
    # a query that does not stand goes to the reader too, and the trace says why
    gen = _query({"operation": "sum", "column": "Revenue", "filters": [{"column": "Region", "value": "East"}]})
    fallback = ask(ctx, "What was the total revenue of the South region?", Models(gen, embedder, encoder),  # type: ignore[arg-type]
                   PipelineOptions(router=False))
    assert fallback.route == "question_answering"
    assert [t["reason"] for t in fallback.trace if t.get("stage") == "table"] == [
        "the filter value 'East' is not in the question"]


def test_the_contracts_of_one_governing_law_are_listed_whole_from_cuad_s_table(
        data_root: Path, tokenizer: object, embedder: object, encoder: object) -> None:
    path = data_root / "cuad" / "master_clauses.csv"
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    gold = [n for n, r in enumerate(rows, start=2) if table.cell_holds(r["Governing Law-Answer"], "Delaware")]
    assert len(gold) == 9  # eight "Delaware" and one "Delaware, Illinois"
    ctx = build_context([extract(path)], tokenizer)
    gen = _query({"operation": "list", "column": "Filename",
                  "filters": [{"column": "Governing Law-Answer", "value": "Delaware"}]})
    answer = ask(ctx, "Which contracts are governed by Delaware law?", Models(gen, embedder, encoder),  # type: ignore[arg-type]
                 PipelineOptions(router=False))
    assert answer.route == "table" and answer.text.startswith("9 of the 100 rows of master_clauses have")
    listed = [int(line.split(":")[0].removeprefix("- row ")) for line in answer.text.splitlines()[1:]]
    assert listed == gold
    assert all(s.snippet.startswith("Governing Law-Answer: Delaware") for s in answer.sources)
    assert [s.section.split(":")[0] for s in answer.sources] == [f"master_clauses row {n}" for n in gold[:3]]


def test_a_cell_of_the_row_a_question_names_is_looked_up_not_read_from_a_neighbour(
        tmp_path: Path, tokenizer: object, embedder: object, encoder: object) -> None:
    # over a sales sheet "What was the revenue of the North region in 2024-05?" was answered with the South's
    # figure in the line beside it
    [sales] = table.tables([extract(_sales(tmp_path / "sales.csv"))])
    question = "What was the revenue of the North region in 2024-02?"
    assert table.names_rows(sales, question) and not table.names_rows(sales, "What was the best month?")
    ctx = build_context([extract(_sales(tmp_path / "sales.csv"))], tokenizer)
    gen = _query({"operation": "value", "column": "Revenue", "filters": [{"column": "Region", "value": "North"}]})
    answer = ask(ctx, question, Models(gen, embedder, encoder), PipelineOptions(router=False))  # type: ignore[arg-type]
    assert answer.route == "table" and answer.short_answer == "17,250"  # the month the query left out is kept
    assert answer.text == "Revenue with Region \u201cNorth\u201d and Month \u201c2024-02\u201d is 17,250 " \
                          "(sales row 4: 2024-02 | North)."
    assert [s.section for s in answer.sources] == ["sales row 4"]
    # rows of more than three values name no row (the reader answers); three are each named
    every = table.Query("value", "Revenue", ())
    assert table.unanswered(sales, every, table.compute(sales, every)) == "the filters keep 6 rows of 6 values"
    north = table.Query("value", "Revenue", (table.Filter("Region", "North"),))
    text, short = table_answer.answer_text(sales, north, table.compute(sales, north))
    assert short == "15,000; 17,250; 9,900" and text.splitlines()[1] == "- row 2 (2024-01 | North): 15,000"
    # a table of records is searched by the names a question gives (assistant.ttrag.scope), not looked up
    records = [r for r in sales.rows]
    assert not table.names_rows(table.Table("x", "x", sales.columns, tuple(
        table.Row(r.number, r.cells, r.offset, record=True) for r in records)), question)


def test_a_wide_table_shows_the_llm_the_columns_the_question_may_be_about(data_root: Path) -> None:
    [clauses] = table.tables([extract(data_root / "cuad" / "master_clauses.csv")])
    assert len(clauses.columns) == 83
    assert table.columns_for(clauses, "How many contracts are governed by New York law?") == (
        "Filename", "Governing Law", "Governing Law-Answer")
    assert "Non-Compete-Answer" in table.columns_for(clauses, "number of contracts with non-compete?")
    # a question sharing no word with any column name is shown them all
    assert len(table.columns_for(clauses, "Wie viele Verträge unterliegen dem Recht von Ohio?")) > 3


def test_a_value_the_table_states_in_a_column_of_its_own_is_filtered_there(tmp_path: Path) -> None:
    # the LLM filtered CUAD's "Governing Law" clauses for New York, and counted a contract whose clauses name
    # both New York and California and whose "Governing Law-Answer" is California
    path = tmp_path / "labels.csv"
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Filename", "Governing Law", "Governing Law-Answer", "Notes"])
        out.writerow(["A.PDF", "governed by the laws of the State of New York", "New York", "New York office"])
        out.writerow(["B.PDF", "laws of New York; the laws of California for the licence", "California", ""])
        out.writerow(["C.PDF", "governed by the laws of Delaware", "Delaware", ""])
        out.writerow(["D.PDF", "the laws of the State of New York apply", "New York", ""])
    [labels] = table.tables([extract(path)])
    question = "How many contracts are governed by New York law?"
    query, _ = table.parse_query(json.dumps({"operation": "count", "column": "", "filters": [
        {"column": "Governing Law", "value": "New York"}]}), labels, question)
    assert query is not None and query.filters == (table.Filter("Governing Law-Answer", "New York"),)
    assert [r.number for r in table.compute(labels, query).rows] == [2, 5]
    # a column whose name shares no word with the filter's is another question ("notes that mention New York")
    query, _ = table.parse_query(json.dumps({"operation": "count", "column": "", "filters": [
        {"column": "Notes", "value": "New York"}]}), labels, "How many notes mention New York?")
    assert query is not None and query.filters[0].column == "Notes"


def _inventory(path: Path) -> Path:
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["SKU", "Product", "Warehouse", "Quantity", "Unit Price", "Status"])
        out.writerows([("SKU-101", "Cordless drill", "Leipzig", "538", "89.90", "Open"),
                       ("SKU-102", "Pipe wrench", "Rotterdam", "120", "22", "open"),
                       ("SKU-108", "Steel bolt M8", "Rotterdam", "730", "34.9", "Closed"),
                       ("SKU-109", "Steel bolt M8", "Leipzig", "40", "1.2", "Open")])
    return path


def test_a_newcomer_s_sheet_questions_that_must_not_be_computed_as_they_were(tmp_path: Path) -> None:
    # a newcomer's own sheets, round four: each query below was computed, and each answer was wrong
    [stock] = table.tables([extract(_inventory(tmp_path / "stock.csv"))])

    def parsed(question: str, reply: dict[str, object]) -> tuple[table.Query | None, str]:
        return table.parse_query(json.dumps(reply), stock, question, ["count", "sum", "list", "value"])

    # "open" is written "Open" and "open" in one column: still a category of that column, and added
    query, _ = parsed("How many items in Rotterdam are still open?",
                      {"operation": "count", "column": "", "filters": [{"column": "Warehouse", "value": "Rotterdam"}]})
    assert query is not None and [f.column for f in query.filters] == ["Warehouse", "Status"]
    # a comparison before the value is no equality ("started before 2012" read as "Start Year = 2012"): it compares
    query, why = parsed("List the items with a quantity over 120.",
                        {"operation": "list", "column": "SKU", "filters": [{"column": "Quantity", "value": "120"}]})
    assert query is not None and query.filters == (table.Filter("Quantity", "120", ">"),), why
    assert [r.cells[0] for r in table.compute(stock, query).rows] == ["SKU-101", "SKU-108"]
    # ... and a comparison with a column of text is none
    query, why = parsed("List the items with a product over 120.",
                        {"operation": "list", "column": "SKU", "filters": [{"column": "Product", "value": "120"}]})
    assert query is None and why == "the question compares with '120', Product holds no figures or dates"
    # a name after such a word compares nothing ("contracts under New York law")
    query, why = parsed("list items under Leipzig stock",
                        {"operation": "list", "column": "SKU",
                         "filters": [{"column": "Warehouse", "value": "Leipzig"}]})
    assert query is not None, why
    # a column the question does not name is not what it asks for ("shipping cost" read as the amount)
    query, why = parsed("What was the shipping cost of SKU-102?",
                        {"operation": "value", "column": "Unit Price",
                         "filters": [{"column": "SKU", "value": "SKU-102"}]})
    assert query is None and "does not name the column 'Unit Price'" in why
    # a lookup of the column it filters answers with what it was asked ("Status with Status Held is Held")
    query, why = parsed("What does the status 'Closed' mean?",
                        {"operation": "value", "column": "Status",
                         "filters": [{"column": "Status", "value": "Closed"}]})
    assert query is None and "a lookup of Status in the rows it filters" in why
    assert table.cued_operations("Quel est le montant moyen des commandes de Dupont SA ?") == ["average"]


def test_a_code_a_sheet_s_row_holds_is_looked_up_in_its_row(
        tmp_path: Path, tokenizer: object, embedder: object, encoder: object) -> None:
    # "What is the quantity of SKU-108 in the Rotterdam warehouse?" went to the needle lookup, whose reader read
    # the unit price beside it ("34.9 units")
    ctx = build_context([extract(_inventory(tmp_path / "stock.csv"))], tokenizer)

    def script(request: GenerationRequest) -> str:
        if request.purpose == "route":
            return json.dumps({"route": "needle_lookup", "target": "SKU-108"})
        if request.purpose == "table":
            return json.dumps({"operation": "value", "column": "Quantity",
                               "filters": [{"column": "SKU", "value": "SKU-108"}]})
        return json.dumps({"found": True, "passage": 1, "short_answer": "34.9", "answer": "34.9 units."})

    answer = ask(ctx, "What is the quantity of SKU-108 in the Rotterdam warehouse?",
                 Models(ScriptedGenerator(script), embedder, encoder), PipelineOptions())  # type: ignore[arg-type]
    assert answer.route == "table" and answer.short_answer == "730"
    assert [s.section for s in answer.sources] == ["stock row 4"]


def test_a_question_in_another_language_is_read_with_its_translation(
        tmp_path: Path, tokenizer: object, embedder: object, encoder: object) -> None:
    # "Wie viele Bestellungen wurden storniert?" over an English order export: the query's "Cancelled" is not
    # written in the German question, and the reader then counted 2 of 4 from passages
    path = tmp_path / "orders.csv"
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Order ID", "Customer", "Country", "Status", "Amount"])
        for n in range(1, 13):
            status = ("Cancelled", "Shipped", "Open")[n % 3]
            out.writerow([f"ORD-{1000 + n}", ("Schmidt and Sons", "Lyon Textiles")[n % 2], "Germany", status,
                          f"{100 * n}.00"])
    ctx = build_context([extract(path)], tokenizer)
    assert ctx.language == "en"

    def script(request: GenerationRequest) -> str:
        if request.purpose == "translate":
            return "How many cancellations were there?"
        if request.purpose == "table":
            return json.dumps({"operation": "count", "column": "",
                               "filters": [{"column": "Status", "value": "Cancelled"}]})
        return json.dumps({"found": True, "passage": 1, "short_answer": "2", "answer": "2 orders."})

    answer = ask(ctx, "Wie viele Bestellungen wurden storniert?", Models(ScriptedGenerator(script), embedder,  # type: ignore[arg-type]
                 encoder), PipelineOptions(router=False))
    assert answer.route == "table" and answer.short_answer == "4"
    # ... and answered in the question's language
    assert answer.text.startswith("4 der 12 Zeilen von orders haben Status „Cancelled\u201c (jede Zeile gezählt")
    # the translation is made once for the ask
    assert [t["stage"] for t in answer.trace].count("translate") == 1


def _staff(path: Path) -> Path:
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Employee ID", "Name", "Department", "Office", "Start Year", "Start Date", "Salary (EUR)"])
        out.writerows([("E100", "Anna Schneider", "Sales", "Leipzig", "2007", "2007-03-01", "58,000"),
                       ("E101", "Jürgen Müller", "Engineering", "Nürnberg", "2019", "2019-11-15", "72,000"),
                       ("E102", "Klaus Weiß", "Support", "Köln", "2012", "2012-03-20", "73,000"),
                       ("E103", "Sabine Schäfer", "Engineering", "Nürnberg", "2015", "2015-07-01", "80,000"),
                       ("E104", "Birgit Groß", "Sales", "Köln", "2011", "2011-12-31", "61,500")])
    return path


def test_a_question_that_compares_a_figure_or_a_date_is_computed_as_a_comparison(tmp_path: Path) -> None:
    # a newcomer: "List the employees who started before 2012" was refused, then answered from three passages
    [staff] = table.tables([extract(_staff(tmp_path / "staff.csv"))])

    def names(question: str, filters: list[tuple[str, str]], operation: str = "list") -> list[str] | str:
        query, why = table.parse_query(json.dumps({"operation": operation, "column": "Name", "filters": [
            {"column": c, "value": v} for c, v in filters]}), staff, question)
        return why if query is None else [r.cells[1] for r in table.compute(staff, query).rows]

    assert names("List the employees who started before 2012", [("Start Year", "2012")]) == [
        "Anna Schneider", "Birgit Groß"]
    # a year against dates; "since" counts the year in
    assert names("Which employees started since 2015?", [("Start Date", "2015")]) == [
        "Jürgen Müller", "Sabine Schäfer"]
    assert names("Welche Mitarbeiter verdienen mehr als 70.000 EUR?", [("Salary (EUR)", "70000")]) == \
        "the filter value '70000' is not in the question"
    assert names("Which employees earn more than €70,000?", [("Salary (EUR)", "70,000")]) == [
        "Jürgen Müller", "Klaus Weiß", "Sabine Schäfer"]
    # between two figures: both ends counted in
    assert names("List the employees who started between 2011 and 2015",
                 [("Start Year", "2011"), ("Start Year", "2015")]) == [
        "Klaus Weiß", "Sabine Schäfer", "Birgit Groß"]
    # a range the LLM spelled out year by year is the question's range
    assert names("How many employees started between 2011 and 2015?",
                 [("Start Year", "2011"), ("Start Year", "2012"), ("Start Year", "2013")], "count") == [
        "Klaus Weiß", "Sabine Schäfer", "Birgit Groß"]
    # a month's name keeps the dates of that month, with its year where written; a comparison the LLM wrote in
    # the value is read as one
    assert names("Which employees started in March?", [("Start Date", "March")]) == [
        "Anna Schneider", "Klaus Weiß"]
    assert names("Which employees started in March 2012?", [("Start Date", "March 2012")]) == ["Klaus Weiß"]
    assert names("Which employees started after 2012-03-20?", [("Start Date", "> 2012-03-20")]) == [
        "Jürgen Müller", "Sabine Schäfer"]
    # the LLM's own writing of the question's figure or month (the bundled reader's, asked by a newcomer)
    assert names("Which employees earn more than €70,000?", [("Salary (EUR)", "70000")]) == [
        "Jürgen Müller", "Klaus Weiß", "Sabine Schäfer"]
    assert names("Which employees started in March?", [("Start Date", "2024-03")]) == [
        "Anna Schneider", "Klaus Weiß"]
    assert names("Which employees started in March 2011?", [("Start Date", "2012-03")]) == \
        "the filter value '2012-03' is not in the question"
    # a name after such a word is no comparison, and text is never compared
    assert names("List the employees who started after Anna Schneider", [("Name", "Anna Schneider")]) == [
        "Anna Schneider"]


def test_how_many_of_a_thing_a_row_names_is_the_total_of_its_quantity(tmp_path: Path) -> None:
    # a newcomer: "How many cordless drills do we have in Leipzig?" counted the rows (9) where the stock is 538
    [stock] = table.tables([extract(_inventory(tmp_path / "stock.csv"))])
    assert table.quantity_column(stock) == "Quantity"  # not "Unit Price"

    def query(question: str, reply: dict[str, object]) -> table.Query | None:
        return table.parse_query(json.dumps(reply), stock, question)[0]

    drills = query("How many cordless drills do we have in Leipzig?", {
        "operation": "count", "column": "", "filters": [{"column": "Product", "value": "cordless drills"}]})
    assert drills == table.Query("sum", "Quantity", (table.Filter("Product", "Cordless drill"),
                                                     table.Filter("Warehouse", "Leipzig")))
    assert table.compute(stock, drills).value == 538
    bolts = query("Wie viele Stahlbolzen haben wir?\nHow many steel bolts M8 do we have?", {
        "operation": "count", "column": "", "filters": [{"column": "Product", "value": "Steel bolt M8"}]})
    assert bolts is not None and table.compute(stock, bolts).value == 770
    # how many rows is still a count: the rows are the thing counted
    items = query("How many items in Rotterdam are still open?", {
        "operation": "count", "column": "", "filters": [{"column": "Warehouse", "value": "Rotterdam"}]})
    assert items is not None and items.operation == "count"


def test_a_sheet_s_language_is_that_of_its_words_not_of_its_names(tmp_path: Path) -> None:
    from assistant.ttrag.context import language_of

    assert language_of(extract(_staff(tmp_path / "staff.csv"))) == "en"
    german = tmp_path / "bestellungen.csv"
    with german.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Bestellnummer", "Kunde", "Land", "Status", "Betrag"])
        for n in range(12):
            out.writerow([f"B-{n}", ("Schmidt GmbH", "Lyon Textiles")[n % 2], "Deutschland",
                          ("offen", "storniert", "versandt")[n % 3], f"{100 * n},00"])
    assert language_of(extract(german)) == "de"


def test_an_answer_over_a_table_is_written_in_the_question_s_language(tmp_path: Path) -> None:
    [sales] = table.tables([extract(_sales(tmp_path / "sales.csv"))])
    south = table.Query("sum", "Revenue", (table.Filter("Region", "South"),))
    result = table.compute(sales, south)
    assert table_answer.answer_text(sales, south, result, "de") == (
        "Die Summe von Revenue der 2 Zeilen mit Region „South\u201c ist 35.900 (Zeilen 3, 5; alle 6 Zeilen von "
        "sales gelesen; 1 ohne Zahl ausgelassen).", "35,900")
    average = table.Query("average", "Revenue", ())
    text, short = table_answer.answer_text(sales, average, table.compute(sales, average), "fr")
    assert text.startswith("La moyenne de Revenue des 5 lignes est 15\u202f610 (lignes 2, 3, 4, 5, 6 ;")
    assert short == "15,610"
    assert table_answer.figure(20850.5, "de") == "20.850,5" and table_answer.figure(20850.5, "it") == "20,850.5"
    # a list of the column it filters names each row by its first cells ("List the employees who started before
    # 2012" was queried as the Start Year of those rows, and listed their IDs alone)
    [staff] = table.tables([extract(_staff(tmp_path / "staff.csv"))])
    early = table.Query("list", "Start Year", (table.Filter("Start Year", "2012", "<"),))
    text, _ = table_answer.answer_text(staff, early, table.compute(staff, early))
    assert text == ("2 of the 5 rows of staff have Start Year < 2012 (every row read):\n"
                    "- row 2: E100 | Anna Schneider\n- row 6: E104 | Birgit Groß")


def test_no_condition_of_the_question_is_left_out_of_the_query(tmp_path: Path) -> None:
    # a newcomer's "How many invoices over 2,000 are still unpaid?" was queried as the unpaid ones alone (17, not
    # 10), and "Combien de factures de Harbor Foods ne sont pas encore payées ?" as the client alone (7, not 4)
    path = tmp_path / "invoices.csv"
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Invoice No", "Client", "Amount", "Paid"])
        out.writerows([("INV-1", "Harbor Foods", "2,500.00", "No"), ("INV-2", "Harbor Foods", "900.00", "No"),
                       ("INV-3", "Lumen SARL", "3,100.00", "Yes"), ("INV-4", "Harbor Foods", "4,000.00", "Yes"),
                       ("INV-5", "Lumen SARL", "2,100.00", "No")])
    [invoices] = table.tables([extract(path)])

    def parsed(question: str, filters: list[tuple[str, str]]) -> tuple[table.Query | None, str]:
        return table.parse_query(json.dumps({"operation": "count", "column": "", "filters": [
            {"column": c, "value": v} for c, v in filters]}), invoices, question)

    # the comparison the query left out goes to the one column of figures
    query, why = parsed("How many invoices over 2,000 are still unpaid?", [("Paid", "No")])
    assert query is not None and [r.cells[0] for r in table.compute(invoices, query).rows] == ["INV-1", "INV-5"], why
    query, why = parsed("How many invoices over 2,000 are still unpaid?", [("Amount", "2000")])
    assert query is not None, why
    assert [r.cells[0] for r in table.compute(invoices, query).rows] == ["INV-1", "INV-5"]  # "unpaid" added
    query, why = parsed("Combien de factures de Harbor Foods ne sont pas encore payées ?\n"
                        "How many Harbor Foods invoices are not yet paid?", [("Client", "Harbor Foods")])
    assert query is not None and table.compute(invoices, query).value == 2, why
    query, why = parsed("How many invoices are unpaid?", [("Paid", "Yes")])
    assert query is None and why == "the question asks for Paid No, the query the opposite"
    # where two columns could hold it, none is guessed; a column the question names is the one
    path = tmp_path / "orders.csv"
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Order", "Date", "Amount", "Shipping", "Paid"])
        out.writerows([("O-1", "2024-03-02", "2,500.00", "12.00", "No"), ("O-2", "2024-04-11", "900.00", "8.50", "No"),
                       ("O-3", "2024-05-20", "3,100.00", "0.00", "Yes")])
    [orders] = table.tables([extract(path)])

    def ordered(question: str) -> tuple[table.Query | None, str]:
        return table.parse_query(json.dumps({"operation": "count", "column": "", "filters": [
            {"column": "Paid", "value": "No"}]}), orders, question)

    query, why = ordered("How many unpaid orders are over 1,000?")
    assert query is None and why == "the query leaves out the comparison > 1,000"
    query, why = ordered("How many unpaid orders have an amount over 1,000?")
    assert query is not None and table.compute(orders, query).value == 1, why
    query, why = ordered("How many unpaid orders were placed before April 2024?")
    assert query is not None and table.compute(orders, query).value == 1, why  # the one column of dates
    # a newcomer's French "plus de 1 500" was read as "> 1": a figure grouped by spaces is one figure; German
    # "über 1.500" (1,500 or 1.5) is no comparison made for the query
    query, why = parsed("Combien de factures de plus de 1 500 ne sont pas encore payées ?", [("Paid", "No")])
    assert query is not None and [r.cells[0] for r in table.compute(invoices, query).rows] == ["INV-1", "INV-5"], why
    query, why = parsed("Combien de factures de plus de 2\u202f100 ne sont pas encore payées ?", [("Paid", "No")])
    assert query is not None and [r.cells[0] for r in table.compute(invoices, query).rows] == ["INV-1"], why
    query, why = parsed("Wie viele Rechnungen über 2.000 sind unbezahlt (not paid)?", [("Paid", "No")])
    assert query is None and why == "the query leaves out the comparison > 2.000"
    # a total that names no column is the total of the one column of figures
    summed = table.parse_query(json.dumps({"operation": "sum", "column": "Amount", "filters": [
        {"column": "Paid", "value": "No"}]}), invoices, "What is the total of the unpaid invoices?")
    assert summed[0] is not None and table.compute(invoices, summed[0]).value == 5500.0, summed[1]
    two = table.parse_query(json.dumps({"operation": "sum", "column": "Amount", "filters": [
        {"column": "Paid", "value": "No"}]}), orders, "What is the total of the unpaid orders?")
    assert two[0] is None and two[1] == "the question does not name the column 'Amount'"  # Amount or Shipping
    # a column whose name is itself negated is named, not negated ("a non-compete clause")
    labels = tmp_path / "labels.csv"
    with labels.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["Filename", "Non-Compete-Answer"])
        out.writerows([("A.PDF", "Yes"), ("B.PDF", "No"), ("C.PDF", "Yes")])
    [clauses] = table.tables([extract(labels)])
    query, why = table.parse_query(json.dumps({"operation": "count", "column": "Non-Compete-Answer", "filters": [
        {"column": "Non-Compete-Answer", "value": "Yes"}]}), clauses, "How many contracts have a non-compete clause?")
    assert query is not None and table.compute(clauses, query).value == 2, why


def test_an_excel_date_reads_as_the_sheet_shows_it_and_compares_as_a_date(tmp_path: Path) -> None:
    import datetime

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Invoices"
    sheet.append(["Invoice No", "Issue Date", "Amount"])
    for n, month in enumerate((2, 3, 3, 5, 6), 1):
        sheet.append([f"INV-{n}", datetime.datetime(2024, month, 15), 100 * n])
    book.save(tmp_path / "invoices.xlsx")
    [invoices] = table.tables([extract(tmp_path / "invoices.xlsx")])
    assert invoices.rows[0].cells == ("INV-1", "2024-02-15", "100")  # not "2024-02-15 00:00:00"
    query, why = table.parse_query(json.dumps({"operation": "sum", "column": "Amount", "filters": [
        {"column": "Issue Date", "value": "2024-03"}]}), invoices,
        "What is the total amount of the invoices issued in March?")
    assert query is not None and table.compute(invoices, query).value == 500, why
