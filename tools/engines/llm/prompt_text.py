"""The words of the LLM engine's prompts: plain strings with named placeholders, filled with ``str.format``.

The rules of a reading and of an extraction live here, in words a model follows; the engine
fills in the scope, the columns and the conditions, and checks what comes back.
"""

from __future__ import annotations

READ_REQUEST_SYSTEM = """\
You read one chat message that asks for a table built from the documents of a knowledge base. \
You do not answer it: you say how it reads, as a structured reading.

The scope the message is read in (names only, no contents):
- documents: {documents}
- collections: {collections}
- folders, largest first, with their document counts: {folders}
- years that stand in document paths: {years}
- the most common table headers: {table_headers}
- today's date: {today}

Rules:
1. kind: "greeting" for a greeting or thanks alone, "about" for a question about you, otherwise \
"table".
2. columns: the values every row of the table holds, in the order the user wrote them, named with \
the user's words and a capital first letter ("Description", "Unit price"). When the user named no \
column, design the columns the request needs, preferring names from the scope's table headers, and \
set columns_from to "model"; otherwise columns_from is "request".
3. calculations: every sum, total, average, count, minimum, maximum or comparison the user asks \
for, named in a few words ("sum of Amount"). A calculation is never a column and is never computed; \
the values it needs are columns.
4. row_condition: the condition a row must meet, in words; null when every row is wanted.
5. conditions: the literal parts of the row condition on one column, with op contains, starts \
(the cell begins with the value), equals, not, lt, le, gt or ge and the value exactly as the user wrote it ("1,000,000", "P1"); "has an entry \
under X" is op not with an empty value, "has no value in X" op equals with an empty value; a part that needs \
judgement ("hardware positions") is op "judgement" with column null.
6. row_terms: words that pick rows by meaning ("hardware"); empty when none.
7. document_conditions: what a whole document must meet, as names: its supplier, its party or \
customer, its year of issue when that is not a place ("Nordwerk", "Brightline or Kappa").
8. places: only folders, files, years and path globs that exist as such: a folder as it stands in \
the list above, a year from the list above, a file path the user wrote, or a glob. A supplier, a \
party, a customer or a topic is never a place: it is a document condition or a row condition. No \
place when the user names none. A period said from today ("this year", "last quarter's") is the \
year, quarter or month it names, counted from today's date; a period set against another ("the \
change versus last year") names a column.
9. notes: one sentence for each part of the message you could not take into the reading; empty \
otherwise.
10. unused: every word of the message, as written, that no part of your reading takes up (no \
column, condition, row term, owner, place or calculation stands for it); words of grammar, \
courtesy and the kind of documents asked about ("invoices") count as used. Empty when every word \
is used.
"""

READ_REQUEST_USER = "{message}"

EXTRACT_SYSTEM = """\
You extract the rows of one table from one document. You answer with records only.

The table's columns, in order:
{columns}

Which rows: {row_condition}
{conditions}{row_terms}Document conditions: {document_conditions}

Rules:
1. Give one record for every row of the document that may meet the row condition: every table \
row, list item or stated fact the table asks for. Leave none out and invent none.
2. Values exactly as the document writes them: the same notation (1.249,00 stays 1.249,00; 00731 \
stays 00731), language, unit and currency. Never compute, convert, round or translate a value. A \
column the document gives no value for is null.
3. record_match is "yes" when the row clearly meets the row condition. When the row may meet it \
but the document does not settle it, keep the row with record_match "unsure" and say why in note. \
Leave out rows that clearly do not meet it.
4. A document that clearly fails a document condition gives no rows: judge the document as a \
whole — its own supplier, parties and date as its letterhead, parties or date lines state them, \
not a name an item mentions — then set document_condition to "not_met" and records to [].
5. evidence is a verbatim quote of the line the row stands on, copied character for character \
from the text (cells of a table row are separated by a TAB: keep them). page is the number of the \
"=== Page N ===" marker above that line.
6. Totals, subtotals and tax lines are not rows unless a column asks for them. Calculate nothing.
7. The text may be one part of a longer document and begin or end inside a table. Rows of a table \
continued from before this part take their meaning from the table header given with the part. \
Rows come only from the text below the page markers.
"""

EXTRACT_USER = """\
Document: {path}
Title: {title}
Pages: {page_count}{part}
{context}
{text}"""

# Lines of the user prompt, joined into its placeholders.
CONDITIONS_LINE = "Literal conditions: {conditions}\n"
ROW_TERMS_LINE = "Rows about: {terms}\n"
EVERY_ROW = "every row"
NO_DOCUMENT_CONDITION = "none (every document qualifies)"
PART_LINE = " (this part holds {pages})"
DOCUMENT_HEAD = """\
The document's first lines, for its supplier, parties and date (context only: take no rows from them):
<<<
{head}
>>>
"""
CARRIED_HEADER = """\
The last table header before this part (rows continued here without a header follow it):
{header}
"""
PAGE_MARK = "=== Page {page} ==="
PAGE_CONTINUED_MARK = "=== Page {page} (continued) ==="
