"""Column names asked for in one language over a table headed in another: a Spanish request over
an English response-rate table, a German one over an English comparison of estimates, an
English one over a Portuguese results list. What is read through a translation is never `yes`."""

from __future__ import annotations

from pathlib import Path

from held_out import document, scope

from tools.engines.columns import map_columns, match_column, read_in_translation
from tools.engines.offline import extract_records, read_message
from tools.engines.translation import foreign, same_name

UNSEEN = Path(__file__).resolve().parents[2] / "evals" / "unseen"
NHANES = UNSEEN / "public-sixteen" / "documents" / "tabula-java" / "us-035a.pdf"
RETAIL = UNSEEN / "public-seventeen" / "documents" / "tabula-java" / "eu-005.pdf"

LICENCES = ["S. No.", "Name of Licensee", "License No.& Date", "Category", "Service area", "Date of signing UL",
            "Effective Date"]
RESULTS = ["NÚMERO", "NOME", "DATA DE NASCIMENTO", "OBJETIVA", "NOTA FINAL", "CLASS"]


def test_names_in_another_language_find_their_cells_and_say_so() -> None:
    header = ["Status", "Sample size", "Percent", "Weighted Percent"]
    asked = ["Estado", "Tamaño de muestra", "Porcentaje", "Porcentaje ponderado"]
    assert map_columns(asked, header) == {name: i for i, name in enumerate(asked)}
    assert read_in_translation(asked, header) == ["Tamaño de muestra", "Porcentaje", "Porcentaje ponderado"]
    # a German compound is read as its parts, the words of a name in any order; a word naming one
    # field's things is no word the lexicon reads ("Lizenznehmer")
    assert map_columns(["Servicegebiet", "Lizenznehmer"], LICENCES) == {"Servicegebiet": 4}
    assert match_column("Altersgruppe", ["Sex", "Age group", "Deaths"]) == 1
    # an English request over a Portuguese list; a word read two ways (Spanish "nombre", the
    # name or the number) takes the cell spelled most like it; a word shortening the other
    assert map_columns(["Name", "Date of birth", "Final grade"], RESULTS) == {"Name": 1, "Date of birth": 2, "Final grade": 4}
    assert match_column("Nombre", RESULTS) == 1 and match_column("Clasificación", RESULTS) == 5


def test_names_of_one_language_are_never_compared_in_translation() -> None:
    assert not foreign("Weighted Percent") and match_column("Weighted Percent", ["Status", "Percent"]) is None
    # English words that look like another language's are no translation of anything
    assert match_column("Revenue", ["Company", "Income"]) is None and match_column("Database", ["Date", "Low"]) is None
    # a condition's column read in translation is never another requested column
    reading = read_message("List every model whose accuracy is above 0.9. Columns: Model, Precision, Recall.",
                           scope([RETAIL]))
    assert [(c.column, c.op) for c in reading.conditions] == [("Accuracy", "gt")]
    loans = read_message("List every loan whose type is fixed. Columns: Loan, Art, Amount.", scope([RETAIL]))
    assert [(c.column, c.value) for c in loans.conditions] == [("Type", "fixed")]
    assert same_name("Durchschnitt der anderen Schätzungen", "Durchschnitt anderer Schätzungen")
    # two cells of the kind the synonyms know, neither named as it: no translation picks one
    assert map_columns(["Description"], ["Pos", "Beschreibung", "Bezeichnung", "Menge"]) == {}


def test_a_spanish_request_over_an_english_table_gives_its_rows_unsure() -> None:
    message = ("De la tabla A.3 (tasas de respuesta de entrevista y examen, NHANES III 1988-94) necesito las filas de "
               "estado con un porcentaje ponderado menor que 20, sin la fila Total. Columnas: Estado, Tamaño de "
               "muestra, Porcentaje, Porcentaje ponderado.")
    records = extract_records(document(NHANES), read_message(message, scope([NHANES])))
    assert [list(r.values.values()) for r in records] == [
        ["Not interviewed", "5701", "14.4", "18.2"], ["Interviewed, not examined", "2683", "6.8", "7.5"],
        ["Home examined", "493", "1.2", "0.8"]]
    assert all(r.match == "unsure" for r in records)
    assert "'Porcentaje ponderado' is read from the column 'Weighted Percent', which names it in another language" in records[0].note


def test_a_german_comparison_and_a_left_out_line_over_an_english_table() -> None:
    message = ("Aus Tabelle 7.5 der Studie zur Konzentration im Lebensmitteleinzelhandel (Vergleich der C5-Werte aus "
               "verschiedenen Quellen) brauche ich alle Länder, bei denen der Durchschnitt der anderen Schätzungen über "
               "60 liegt – ohne die Zeile „Average“. Spalten: Land, Eigene Schätzung 1996, LDA 1997, Durchschnitt "
               "anderer Schätzungen.")
    reading = read_message(message, scope([RETAIL]))
    assert [(c.op, c.value) for c in reading.conditions] == [("gt", "60"), ("not", "Average")]
    assert "liegt" not in reading.unused and "denen" not in reading.unused  # a verb set last, a relative pronoun
    records = extract_records(document(RETAIL), reading)
    assert [r.values["Land"] for r in records] == ["Austria", "Bel/Lux", "Denmark", "Finland", "France", "Netherlands",
                                                   "Sweden", "UK"]
    assert records[2].values == {"Land": "Denmark", "Eigene Schätzung 1996": "59.5", "LDA 1997": None,
                                 "Durchschnitt anderer Schätzungen": "63.0"}
    assert all(r.match == "unsure" for r in records)


def test_a_word_comparing_or_saying_what_rows_are_about() -> None:
    scope_hint = scope([RETAIL])
    priced = read_message("Alle Artikel mit einem Preis über 100. Spalten: Artikel, Preis", scope_hint)
    assert [(c.column, c.op, c.value) for c in priced.conditions] == [("Preis", "gt", "100")] and not priced.row_terms
    about = read_message("Alle Berichte über Kaffeemarken. Spalten: Marke, Anteil", scope_hint)
    assert about.row_terms == ["Kaffeemarken"] and not about.conditions


def test_a_line_left_out_is_named_by_its_label() -> None:
    scope_hint = scope([RETAIL])
    for message in ("Every country with an average above 60, leaving out the row Total. Columns: Country, Average.",
                    "Alle Länder mit Durchschnitt über 60 – ohne die Zeile Total. Spalten: Land, Durchschnitt.",
                    "Alle Länder mit Durchschnitt über 60, ohne die Total-Zeile. Spalten: Land, Durchschnitt."):
        reading = read_message(message, scope_hint)
        assert [(c.op, c.value) for c in reading.conditions if c.op == "not"] == [("not", "Total")], message
        assert reading.columns[1] in ("Average", "Durchschnitt"), message


def test_years_closing_the_same_words_tell_two_columns_apart() -> None:
    coffee = UNSEEN / "public-eleven" / "documents" / "camelot" / "eu-007.pdf"
    reading = read_message("Dans le tableau 8.21 sur les parts de marché des marques de café, donne-moi la marque, la part "
                           "de marché 1996 et la part de marché 1997, seulement pour les marques du groupe K-J-S.", scope([coffee]))
    assert reading.columns == ["Marque", "Part de marché 1996", "Part de marché 1997"] and "1997" not in reading.document_conditions
    records = extract_records(document(coffee), reading)
    assert records[0].values["Part de marché 1997"] == "16.5%" and records[0].match == "unsure"
    # one year each for documents of two years: no column names them
    for message in ("Revenue in 2024 and revenue in 2025 per region", "Which invoices from 2024 and 2025 are overdue? Invoice number and amount."):
        assert read_message(message, scope([coffee])).document_conditions == ["2024", "2025"], message


def test_the_things_a_condition_picks_say_which_row_is_which() -> None:
    retail = UNSEEN / "public-nine" / "documents" / "tabula-java" / "eu-004.pdf"
    reading = read_message("Using the table on size of the market across the member states, list the member states where "
                           "retail sales per outlet are above 800, with the number of retail outlets", scope([retail]))
    assert reading.subject == "Member states"
    records = extract_records(document(retail), reading)
    assert [(r.values["Member states"], r.values["Number of retail outlets"]) for r in records] == [
        ("Germany", "415.3"), ("France", "343.4"), ("UK", "289.9"), ("Austria", "37.7")]
    assert all(r.match == "unsure" for r in records)
    each = read_message("Hi! For the Amazon Web Services invoice 42183017, could you list each service from the Detail "
                        "section together with its charges?", scope([retail]))
    assert each.subject == "Service" and each.columns == ["Charges"]


def test_a_german_question_after_a_colon_compares_the_column_it_has() -> None:
    chocolate = UNSEEN / "public-ten" / "documents" / "pdfplumber" / "issue-140-example.pdf"
    message = ("Hallo, in der Aufstellung mit den LILYS-Schokoladenartikeln (CENTRAL KMA): welche Positionen haben einen "
               "Accrued Amount von mehr als $ 350? Bitte UPC-Code, Artikelbeschreibung und Accrued Amount.")
    reading = read_message(message, scope([chocolate]))
    assert ("Accrued Amount", "gt", "$ 350") in [(c.column, c.op, c.value) for c in reading.conditions]
    assert not reading.row_terms and reading.subject == "Positionen"
    records = extract_records(document(chocolate), reading)
    assert [r.values["Accrued Amount"] for r in records] == ["$ 388.57", "$ 419.68"]
    french = read_message("quelles lignes ont un montant de plus de 350 ? Article et montant.", scope([chocolate]))
    assert [(c.column, c.op, c.value) for c in french.conditions] == [("Montant", "gt", "350")]


def test_a_position_number_says_which_line_is_which_and_entgelt_is_the_amount() -> None:
    invoice = UNSEEN / "public-eighteen" / "documents" / "zugferd" / "pdf_zf_extended_1.pdf"
    message = ("For the Musterlieferant invoice KR87654321012, list the invoice items whose line amount is more than "
               "30 EUR, with position, net price, quantity and line amount.")
    reading = read_message(message, scope([invoice]))
    records = extract_records(document(invoice), reading)
    assert records and all(list(r.values) == ["Position", "Net price", "Quantity", "Line amount"] for r in records)
    assert [r.values["Line amount"] for r in records][:1] == ["52,00"]
    assert match_column("Line amount", ["Pos", "Beschreibung", "Nettopreis", "Menge", "Steuer", "Entgelt"]) == 5
