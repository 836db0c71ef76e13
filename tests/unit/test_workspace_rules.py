"""The workspace's fixed rules without a database: table shape, column names, notations, queries."""

from __future__ import annotations

import pytest

from tools.workspace.guard import QueryRefused, check_query
from tools.workspace.notation import column_notations, notation_of
from tools.workspace.shape import FormRefused, safe_name, shape, unique_names
from tools.workspace.sources import read_csv, restore
from tools.storage.table import neutralise

HEADER = ["Item code", "Product group", "Unit price"]


# -- shape -------------------------------------------------------------------------------------


def test_a_data_table_keeps_its_text_and_gets_safe_unique_names() -> None:
    shaped = shape(["Item code", "Unit price (€)", "Unit price ($)", "2025", "Order"], [["007", "1.234,50", "1,234.50", "x", "y"]])
    assert shaped.columns == ["item_code", "unit_price", "unit_price_2", "c_2025", "order_"]
    assert shaped.labels == ["Item code", "Unit price (€)", "Unit price ($)", "2025", "Order"]
    assert shaped.rows == [["007", "1.234,50", "1,234.50", "x", "y"]]


@pytest.mark.parametrize(
    ("header", "rows", "reason"),
    [
        (["Organisation name", "Value"], [["Kea", "x"]], "2 columns"),
        (["Item", "", "Price"], [["a", "b", "c"]], "header cell 2 is empty"),
        (["Item", "Price", "price"], [["a", "1", "2"]], "names 'price' twice (columns 2 and 3)"),
        (["Item", "Group", "Price"], [["a", "b", "1"], ["a", "1"]], "row 3 has 2 cells but the header has 3"),
    ],
)
def test_forms_are_refused_with_their_reason(header: list[str], rows: list[list[str]], reason: str) -> None:
    with pytest.raises(FormRefused, match=reason.replace("(", r"\(").replace(")", r"\)")):
        shape(header, rows)


def test_names_fit_postgres_and_never_collide() -> None:
    assert safe_name("단가", "c") == "단가"
    assert safe_name("Stückpreis in €", "c") == "stückpreis_in"
    assert safe_name("###", "column_3") == "column_3"
    assert safe_name("pg_class", "c") == "pg_class_"
    long = unique_names(["x" * 80, "x" * 80])
    assert [len(n.encode()) <= 63 for n in long] == [True, True] and long[0] != long[1]


def test_csv_cells_guarded_against_formulas_come_back_as_they_were() -> None:
    for cell in ["=SUM(A1)", "+49 30 1234", "-1.249,00", "@user", "007", "'quoted"]:
        assert restore(neutralise(cell)) == cell
    header, rows = read_csv("\ufeffFile,Amount\r\na.pdf,'=1+1\r\n".encode())
    assert header == ["File", "Amount"] and rows == [["a.pdf", "=1+1"]]


# -- notations ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "notation"),
    [
        ("1.234,50", "european"), ("12,5", "european"), ("1.234.567", "european"), ("€ 1.234,50", "european"),
        ("1,234.50", "english"), ("12.5", "english"), ("1,234,567", "english"), ("1234.567", "english"),
        ("1.234", "ambiguous"), ("1,234", "ambiguous"),
        ("007", None), ("-42", None), ("n/a", None), ("", None), ("A-12", None),
    ],
)
def test_each_value_shows_a_notation_only_where_it_reads_one_way(value: str, notation: str | None) -> None:
    assert notation_of(value) == notation


def test_a_column_takes_its_own_notation_else_the_tables() -> None:
    columns = [["1.234", "2.500", "12"], ["1,5", "2,25"], ["007", "008"]]
    assert column_notations(columns) == ["european", "european", None]
    assert column_notations([["1.234", "2.500"], ["1.5", "2,25"]]) == [None, "mixed"]
    assert column_notations([["1.234"], ["3.5"]]) == ["english", "english"]


# -- queries -----------------------------------------------------------------------------------

SCHEMA, TABLES = "kea_ws_abc", ["prices", "orders"]


@pytest.mark.parametrize(
    "query",
    [
        "SELECT product_group, avg(kea_number(unit_price, 'european')) FROM prices GROUP BY 1",
        "WITH p AS (SELECT * FROM prices) SELECT count(*) FROM p JOIN orders o ON o.code = p.item_code",
        "SELECT 1 UNION SELECT 2 FROM orders",
        "SELECT * FROM kea_ws_abc.prices",
        "SELECT pg_sleep(1)",
        "SELECT * FROM generate_series(1, 3) g",
    ],
)
def test_reading_queries_pass(query: str) -> None:
    check_query(query, SCHEMA, TABLES)


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("INSERT INTO prices VALUES ('1')", "not INSERT"),
        ("UPDATE prices SET unit_price = '0'", "not UPDATE"),
        ("DELETE FROM prices", "not DELETE"),
        ("DROP TABLE prices", "not DROP"),
        ("CREATE TABLE x (a int)", "not CREATE"),
        ("SELECT 1; SELECT 2", "2 statements"),
        ("SELECT 1; DROP TABLE prices", "2 statements"),
        ("SELECT * INTO copy FROM prices", "SELECT … INTO"),
        ("WITH d AS (DELETE FROM prices RETURNING *) SELECT * FROM d", "DELETE"),
        ("SELECT * FROM prices FOR UPDATE", "FOR UPDATE"),
        ("SELECT * FROM documents", "no table 'documents'"),
        ("SELECT * FROM public.api_keys", "outside this conversation's workspace"),
        ("SELECT * FROM kea_ws_other.prices", "outside this conversation's workspace"),
        ("SELECT * FROM pg_catalog.pg_roles", "outside this conversation's workspace"),
        ("SELECT lo_from_bytea(0, 'x')", "lo_from_bytea() is not available"),
        ("SELECT set_config('statement_timeout', '0', false)", "set_config() is not available"),
        ("SELECT dblink('host=x', 'select 1')", "dblink() is not available"),
        ("SELECT public.kea_number('1')", "through another schema"),
        ('SELECT U&"set\\005fconfig"(\'statement_timeout\', \'0\', false)', "Unicode escapes"),
        ("EXPLAIN SELECT 1", "not EXPLAIN"),
        ("VALUES (1)", "not VALUES"),
        ("SELEC 1", "could not be read as SQL"),
        ("", "empty"),
    ],
)
def test_anything_else_is_refused_with_the_reason(query: str, reason: str) -> None:
    with pytest.raises(QueryRefused, match=reason.replace("(", r"\(").replace(")", r"\)")):
        check_query(query, SCHEMA, TABLES)
