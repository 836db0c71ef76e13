"""The ``kea`` command: ingest, look around, extract tables, run the demo, manage local services."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from server.terminal import cell, err, fail, out, shown

app = typer.Typer(
    help="Kea turns one request into one exact table across the documents of a knowledge base.\n\n"
    "Local services (PostgreSQL, the file store) live under $KEA_HOME (default ~/.local/share/kea) and start "
    "on first use; set KEA_DATABASE_URL to use your own PostgreSQL instead.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
services_app = typer.Typer(help="The local services Kea starts itself (PostgreSQL and Milvus Lite under $KEA_HOME).", no_args_is_help=True)
access_app = typer.Typer(help="Who may read a collection. The local user 'local' reads every collection.", no_args_is_help=True)
app.add_typer(services_app, name="services")
app.add_typer(access_app, name="access")


def _version(show: bool) -> None:
    if show:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"kea {version('kea')}")
        except PackageNotFoundError:  # run from a checkout that was never installed
            typer.echo("kea (not installed: run make install)")
        raise typer.Exit()


@app.callback()
def _kea(
    show_version: bool = typer.Option(False, "--version", help="Print Kea's version and exit.", callback=_version, is_eager=True),
) -> None:
    """Kea turns one request into one exact table across the documents of a knowledge base."""
    _log_to_file()


def _log_to_file() -> None:
    """Tracebacks go to $KEA_HOME/logs/kea.log; the terminal gets the sentence that says what to do."""
    from logging.handlers import RotatingFileHandler

    from checkpoints.cluster import kea_home

    root = logging.getLogger()
    if any(isinstance(h, RotatingFileHandler) for h in root.handlers):
        return
    try:
        folder = kea_home() / "logs"
        folder.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = RotatingFileHandler(folder / "kea.log", maxBytes=10 << 20, backupCount=3, encoding="utf-8")
    except OSError:
        return  # no writable home: Python's last-resort handler still prints warnings
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(name)s %(levelname)s %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO if root.level in (logging.NOTSET, logging.WARNING) else root.level)


def _run_commands() -> None:
    from server.cli_runs import cancel, extract, resume

    app.command()(extract)
    app.command()(resume)
    app.command()(cancel)


def _http_commands() -> None:
    from server.cli_http import keys_app, serve

    app.add_typer(keys_app, name="keys")
    app.command()(serve)


def _sql_commands() -> None:
    from server.cli_sql import FORGET_HELP, SQL_HELP, forget, sql

    app.command(help=SQL_HELP)(sql)
    app.command(help=FORGET_HELP)(forget)


def _kb() -> Any:
    from checkpoints.cluster import ServiceError
    from tools.services import services

    try:
        return services().kb
    except ServiceError as exc:
        raise fail(str(exc)) from exc


# -- ingest ------------------------------------------------------------------------------------


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders; a document's path is relative to the PATH given.")],
    collection: Annotated[str, typer.Option("--collection", "-c", help="Collection to fill (created if new).")],
    prune: Annotated[bool, typer.Option(help="Delete documents of the collection no longer found under PATH.")] = False,
) -> None:
    """Index files into a collection: .txt .md .csv .pdf .docx .xlsx .hwpx .pptx.

    Unchanged files (same content hash) are left alone, changed files replace their old
    version, unreadable files are named with the reason and skipped. Exit 0 when at least one
    file was indexed or all were unchanged; 2 when none could be read.
    """
    report = _ingest_with_progress(_kb(), paths, collection, prune)
    raise typer.Exit(report.exit_code)


def _ingest_with_progress(kb: Any, paths: list[Path], collection: str, prune: bool) -> Any:
    from tools.knowledge.errors import KnowledgeError
    from tools.knowledge.ingest import ingest as run_ingest

    with Progress(
        TextColumn("[bold]Ingesting[/bold]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.description}"), console=err, transient=False,
    ) as progress:
        task = progress.add_task("", total=None)
        try:
            report = run_ingest(
                kb, paths, collection, prune=prune,
                on_start=lambda total: progress.update(task, total=total),
                on_file=lambda path, outcome: progress.update(task, advance=1, description=shown(f"{outcome}: {path}"[:60])),
                on_embedded=lambda path: progress.update(task, description=shown(f"embedded: {path}"[:60])),
            )
        except KnowledgeError as exc:
            raise fail(str(exc)) from exc
        progress.update(task, description="")
    err.print(
        f"Collection [bold]{shown(collection)}[/bold]: {len(report.indexed)} indexed, {len(report.replaced)} replaced, "
        f"{len(report.unchanged)} unchanged, {len(report.skipped)} skipped"
        + (f", {len(report.pruned)} removed" if prune else "") + "."
    )
    for path, reason in report.skipped:
        err.print(f"  [yellow]skipped[/yellow] {shown(path)}: {shown(reason)}")
    for path, note in report.notes:
        err.print(f"  [yellow]note[/yellow] {shown(path)}: {shown(note)}")
    if report.embedding_error:
        err.print(f"  [yellow]ranking[/yellow] {shown(report.embedding_error)}")
    elif report.embedded:
        err.print(f"Ranking by meaning: {report.embedded} documents embedded with {shown(report.embedding_model)}.")
    if report.exit_code:
        err.print("No file could be read. Check the paths and the file types listed above.")
    return report


# -- looking around ------------------------------------------------------------------------------


@app.command()
def collections(
    user: Annotated[str, typer.Option(help="Show what this user may read.")] = "local",
) -> None:
    """List collections with document counts and their largest folders."""
    from core.reading import folder_list

    found = _kb().collections(user)
    if not found:
        out.print("No collections yet. Add documents with: kea ingest PATH --collection NAME")
        return
    table = Table("Collection", "Documents", "Largest folders")
    for c in found:
        table.add_row(cell(c.name), str(c.documents), cell(folder_list(c.folders) or "-"))
    out.print(table)


@app.command()
def search(
    text: Annotated[str, typer.Argument(help="Text to find (case-insensitive), or a regular expression with --regex.")],
    collection: Annotated[list[str], typer.Option("--collection", "-c", help="Collection(s) to search; default all.")] = [],
    regex: Annotated[bool, typer.Option(help="Treat TEXT as a regular expression (PostgreSQL syntax).")] = False,
    path_glob: Annotated[Optional[str], typer.Option(help="Only documents whose path matches this glob.")] = None,
    limit: Annotated[int, typer.Option(help="Most hits to show.")] = 50,
    user: Annotated[str, typer.Option(help="Search as this user.")] = "local",
) -> None:
    """Find pages containing a text or matching a regex, with a time budget and a result limit."""
    from core.selection import Scope
    from tools.knowledge.errors import KnowledgeError

    try:
        result = _kb().search(Scope(user=user, collections=collection), text, regex=regex, path_glob=path_glob, limit=limit)
    except KnowledgeError as exc:
        raise fail(str(exc)) from exc
    table = Table("Collection", "Document", "Page", "Line")
    for hit in result.hits:
        table.add_row(cell(hit.collection), cell(hit.path), str(hit.page), cell(hit.line))
    out.print(table if result.hits else "No page matches.")
    if result.message:
        err.print(f"[yellow]{shown(result.message)}[/yellow]")


# -- access ---------------------------------------------------------------------------------------


@access_app.command("grant")
def access_grant(collection: str, user: Annotated[str, typer.Argument(help="User id, or '*' for every user.")]) -> None:
    """Let USER read COLLECTION."""
    from tools.knowledge.errors import KnowledgeError

    try:
        _kb().grant(collection, user)
    except KnowledgeError as exc:
        raise fail(str(exc)) from exc
    out.print(f"{shown(user)} may read {shown(collection)}.")


@access_app.command("revoke")
def access_revoke(collection: str, user: str) -> None:
    """Stop USER from reading COLLECTION."""
    _kb().revoke(collection, user)
    out.print(f"{shown(user)} may no longer read {shown(collection)}.")


@access_app.command("list")
def access_list(collection: str) -> None:
    """Users who may read COLLECTION (besides 'local')."""
    readers = _kb().readers(collection)
    out.print(", ".join(readers) if readers else f"Only 'local' reads {collection}.", markup=False)


# -- services -------------------------------------------------------------------------------------


@services_app.command("status")
def services_status() -> None:
    """Say which database and vector store Kea uses and whether the local services run."""
    from checkpoints.cluster import LocalCluster, kea_home
    from checkpoints.milvus import LocalMilvus

    if url := os.environ.get("KEA_DATABASE_URL"):
        out.print(f"Using KEA_DATABASE_URL ({url.split('@')[-1]}); no local PostgreSQL is started.")
    else:
        cluster = LocalCluster.default()
        state = f"running on 127.0.0.1:{cluster.port()}" if cluster.is_running() else "stopped (starts on first use)"
        out.print(f"Kea's home: {kea_home()} ($KEA_HOME to choose another)\nPostgreSQL: {state}\n  data: {cluster.data_dir}")
    if uri := os.environ.get("KEA_MILVUS_URI"):
        out.print(f"Milvus: using KEA_MILVUS_URI ({uri.split('@')[-1]}); no local Milvus is started.")
    else:
        milvus = LocalMilvus.default()
        state = f"running on 127.0.0.1:{milvus.port()}" if milvus.is_running() else "stopped (starts on first use)"
        out.print(f"Milvus Lite: {state}\n  data: {milvus.data_dir}")
    out.print(f"Files: {kea_home() / 'files'}")


@services_app.command("stop")
def services_stop() -> None:
    """Stop the local PostgreSQL cluster and Milvus Lite server (they start again when needed)."""
    from checkpoints.cluster import LocalCluster, ServiceError
    from checkpoints.milvus import LocalMilvus

    try:
        stopped = LocalCluster.default().stop()
    except ServiceError as exc:
        raise fail(str(exc)) from exc
    out.print("PostgreSQL stopped." if stopped else "PostgreSQL was not running.")
    out.print("Milvus Lite stopped." if LocalMilvus.default().stop() else "Milvus Lite was not running.")


# -- demo -----------------------------------------------------------------------------------------

DEMO_REQUEST = "Every position on Nordwerk's 2025 invoices with description, quantity and unit price"


@app.command()
def demo(
    request: Annotated[str, typer.Option(help="The request the demo extracts.")] = DEMO_REQUEST,
) -> None:
    """Generate the sample corpus, ingest it, show the knowledge base and extract one table."""
    from checkpoints.cluster import kea_home
    from corpora.first import generate
    from server.cli_runs import extract

    corpus = kea_home() / "demo-corpus"
    err.print(f"Generating the sample corpus in {corpus} ...")
    generate(corpus)
    _ingest_with_progress(_kb(), [corpus / "documents"], "demo", prune=True)
    collections()
    err.print(f"\nRequest: [bold]{shown(request)}[/bold] (answered with --yes: the reading as understood)\n")
    extract(request, collection=["demo"], path_glob=None, profile=None, yes=True, out_file=None, as_json=False, user="local", thread=None)


_run_commands()
_http_commands()
_sql_commands()

if __name__ == "__main__":
    app()
