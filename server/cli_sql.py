"""The ``kea sql`` and ``kea forget`` commands: a conversation's SQL workspace from the terminal.

With ``--json`` each prints exactly one JSON object on stdout:

- ``kea sql --thread T --load ID`` / ``--load-document PATH --collection C [--table N]``:
  ``{"table", "columns", "rows", ...}``, or ``{"refused": reason}`` (exit 1) for a form;
- ``kea sql --thread T --tables``: ``{"tables": [{"table", "columns", "rows", ...}]}``;
- ``kea sql --thread T "SELECT ..."``: ``{"columns", "rows", "row_count", "truncated", "csv", ...}``;
- anything refused or failed: ``{"error": sentence}`` (exit 1; 2 for a wrong use of options).
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Annotated, Any, NoReturn, Optional

import typer
from rich.table import Table

from server.terminal import cell, err, out, shown

log = logging.getLogger(__name__)
SHOWN_ROWS = 20

SQL_HELP = (
    "Count a conversation's tables with SQL: load tables into its workspace, then query them.\n\n"
    "The workspace is a PostgreSQL schema of the conversation alone. Loading names only where a table is: "
    "Kea reads the rows itself, keeps every value as the text the document shows (007 stays 007, 1.234,50 "
    "stays 1.234,50) and refuses tables shaped like forms (fewer than 3 columns, an empty or repeated header "
    "cell, rows of different lengths), with the reason.\n\n"
    "A query is one read-only SELECT (or WITH … SELECT), run with a time limit and a row cap; its answer is "
    "also stored as a CSV, which --load result:N loads in turn. kea_number(text [, 'european' | 'english']) "
    "reads numbers written either way; --tables shows the notation each column was loaded with.\n\n"
    "Workspaces unused for 7 days expire and are rebuilt from the originals when asked again; "
    "kea forget THREAD drops one at once.\n\n"
    "Examples:\n\n"
    "kea sql --thread T --load-document prices/2025.xlsx --collection shop\n\n"
    "kea sql --thread T \"SELECT product_group, avg(kea_number(unit_price, 'european')) FROM c_2025 GROUP BY 1\""
)
FORGET_HELP = (
    "Forget a conversation: the stored files of its extractions (rows, CSV, XLSX, review page, reading, "
    "summary), a selection waiting for a yes, its SQL workspace with its tables and result files, its chat "
    "record and every checkpoint of it.\n\n"
    "The audit keeps who ran each of its queries, when, for how long and with what outcome, but no longer "
    "their text. A conversation of another user is refused as one that does not exist."
)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _emit(value: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")


def _stop(message: str, as_json: bool, code: int = 1, key: str = "error") -> NoReturn:
    if as_json:
        _emit({key: message})
    else:
        err.print(f"[red]{'Not loaded' if key == 'refused' else 'Error'}:[/red] {shown(message)}", highlight=False)
    raise typer.Exit(code)


def _workspaces(as_json: bool) -> Any:
    from checkpoints.cluster import ServiceError
    from tools.services import services
    from tools.workspace.workspace import Workspaces

    try:
        svc = services()
        return Workspaces(svc.database_url, svc.objects, svc.kb)
    except ServiceError as exc:
        _stop(str(exc), as_json)


def _notes(notes: list[str]) -> None:
    for note in notes:
        err.print(f"[yellow]{shown(note)}[/yellow]", highlight=False)


def _source(load: str | None, document: str | None, collection: str | None, table: int, as_json: bool) -> Any:
    from tools.workspace.sources import DocumentTable, ExtractionTable, QueryResult

    if document is not None:
        if not collection:
            _stop("--load-document needs the document's --collection.", as_json, 2)
        return DocumentTable(collection, document.strip().strip("/"), table)
    assert load is not None
    if load.lower().startswith("result:") and load[7:].isdigit():
        return QueryResult(int(load[7:]))
    return ExtractionTable(load.strip())


def sql(
    query: Annotated[Optional[str], typer.Argument(help="One SELECT (or WITH … SELECT) over the workspace's tables.")] = None,
    thread: Annotated[str, typer.Option("--thread", "-t", help="The conversation whose workspace to use (required; made on first use).")] = "",
    load: Annotated[
        Optional[str],
        typer.Option("--load", metavar="EXTRACTION_ID", help="Load the table of an extraction (its id), or a query's result ('result:N', N as a query answered)."),
    ] = None,
    load_document: Annotated[
        Optional[str], typer.Option("--load-document", metavar="PATH", help="Load a table of this knowledge-base document (its path in the collection).")
    ] = None,
    collection: Annotated[Optional[str], typer.Option("--collection", "-c", help="The collection of --load-document.")] = None,
    table: Annotated[
        int,
        typer.Option("--table", min=1, help="Which table of the document, from 1: of an XLSX workbook the N-th sheet holding data; of a DOCX, HWPX or PDF its N-th table."),
    ] = 1,
    name: Annotated[Optional[str], typer.Option("--name", help="Name the loaded table (default: from the document or extraction); a table of that name is replaced.")] = None,
    tables: Annotated[bool, typer.Option("--tables", help="List the workspace's tables with their columns and row counts.")] = False,
    user: Annotated[str, typer.Option(help="Act as this user (access to collections and threads).")] = "local",
    as_json: Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")] = False,
) -> None:
    """Count a conversation's tables with SQL (the full help is SQL_HELP)."""
    actions = [query is not None, load is not None, load_document is not None, tables]
    if not thread:
        _stop("Name the conversation with --thread.", as_json, 2)
    if sum(actions) != 1:
        _stop("Give exactly one of: a query, --load, --load-document or --tables.", as_json, 2)
    from tools.workspace.catalog import WorkspaceError
    from tools.workspace.shape import FormRefused

    workspaces = _workspaces(as_json)
    try:
        if tables:
            _print_tables(*workspaces.tables(thread, user), as_json=as_json, thread=thread)
        elif query is not None:
            _print_answer(workspaces.run_sql(thread, user, query), as_json)
        else:
            source = _source(load, load_document, collection, table, as_json)
            _print_loaded(workspaces.load_table(thread, user, source, name), as_json)
    except FormRefused as exc:
        _stop(f"{str(exc)[:1].upper()}{str(exc)[1:]}.", as_json, key="refused")
    except WorkspaceError as exc:
        _stop(str(exc), as_json)
    except typer.Exit:
        raise
    except Exception as exc:  # noqa: BLE001 — one sentence for the user, the traceback in the log
        log.exception("kea sql failed")
        _stop(f"The workspace could not answer ({type(exc).__name__}); the log has the details.", as_json)
    finally:
        workspaces.close()


def _print_loaded(loaded: Any, as_json: bool) -> None:
    if as_json:
        _emit(loaded.contract())
        return
    _notes(loaded.notes)
    out.print(
        f"Loaded {shown(loaded.description)} as table [bold]{shown(loaded.table)}[/bold]: {loaded.rows:,} rows, "
        f"{len(loaded.columns)} columns, every value as the text it shows.",
        highlight=False,
    )
    view = Table("Column", "Header", "Numbers written")
    for column, label in zip(loaded.columns, loaded.labels, strict=True):
        view.add_row(cell(column), cell(label), loaded.notations.get(column, "-"))
    out.print(view)


def _print_tables(infos: list[Any], notes: list[str], *, as_json: bool, thread: str) -> None:
    if as_json:
        _emit({"tables": [info.contract() for info in infos], "notes": notes})
        return
    _notes(notes)
    if not infos:
        out.print(f"The workspace of {thread} has no tables yet. Load one with --load or --load-document.")
        return
    view = Table("Table", "Rows", "Columns (numbers written)", "Loaded from")
    for info in infos:
        columns = ", ".join(f"{c} ({info.notations[c]})" if c in info.notations else c for c in info.columns)
        view.add_row(cell(info.table), f"{info.rows:,}", cell(columns), cell(_describe(info.source)))
    out.print(view)


def _describe(source: dict[str, Any]) -> str:
    kind = source.get("kind")
    if kind == "document":
        return f"{source['collection']}:{source['path']}, table {source['table']}"
    if kind == "extraction":
        return f"extraction {source['extraction_id']}"
    return f"result of query {source.get('query_id')}"


def _print_answer(answer: Any, as_json: bool) -> None:
    if as_json:
        _emit(answer.contract())
        return
    _notes(answer.notes)
    view = Table(*answer.columns)
    for row in answer.rows[:SHOWN_ROWS]:
        view.add_row(*(cell("NULL" if value is None else value) for value in row))
    out.print(view)
    first = min(SHOWN_ROWS, answer.row_count)
    more = f" The first {first} are shown." if answer.row_count > first else ""
    out.print(
        f"{answer.message}{more} All rows are in the CSV: {answer.csv} (load it as a table with --load result:{answer.query_id}).",
        highlight=False, markup=False,
    )
    if answer.truncated:
        err.print("[yellow]The row cap was hit: the result is incomplete.[/yellow]")


def forget(
    thread: Annotated[str, typer.Argument(help="The conversation to forget.")],
    user: Annotated[str, typer.Option(help="The user the conversation belongs to.")] = "local",
    as_json: Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")] = False,
) -> None:
    """Forget a conversation (the full help is FORGET_HELP)."""
    from server.cli_runs import stop_running
    from tools.workspace.catalog import WorkspaceError

    workspaces = _workspaces(as_json)
    try:
        gone = workspaces.forget(thread, user, stop_run=lambda name: stop_running(name, user))  # a run in flight stops first
    except WorkspaceError as exc:
        _stop(str(exc), as_json)
    except Exception as exc:  # noqa: BLE001
        log.exception("kea forget failed")
        _stop(f"The conversation could not be forgotten ({type(exc).__name__}); the log has the details.", as_json)
    finally:
        workspaces.close()
    if as_json:
        _emit(gone.contract(thread))
        return
    if not gone.anything:
        out.print(f"Kea holds nothing of conversation {thread}.", highlight=False, markup=False)
        return
    parts = []
    if gone.extractions:
        parts.append(f"the files of {_plural(gone.extractions, 'extraction')} ({_plural(gone.extraction_files, 'file')})")
    if gone.selections:
        parts.append("the selection that waited for a yes")
    if gone.tables or gone.files:
        parts.append(f"its workspace ({_plural(gone.tables, 'table')}, {_plural(gone.files, 'result file')})")
    if gone.checkpoints:
        parts.append("its checkpoints")
    parts.append("its chat record")
    kept = ""
    if gone.queries:
        kept = (" The audit keeps its query without the text." if gone.queries == 1
                else f" The audit keeps its {gone.queries} queries without their text.")
    out.print(f"Forgot {thread}: {', '.join(parts)}.{kept}", highlight=False, markup=False)
