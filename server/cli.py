"""The ``kea`` command: ingest, look around, extract tables, run the demo, manage local services."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import sys
import uuid
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from server.terminal import cell, err, out, shown

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
    from server.cli_runs import cancel, resume

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


def _fail(message: str, code: int = 1) -> typer.Exit:
    err.print(f"[red]Error:[/red] {shown(message)}")
    return typer.Exit(code)


def _kb() -> Any:
    from checkpoints.cluster import ServiceError
    from tools.services import services

    try:
        return services().kb
    except ServiceError as exc:
        raise _fail(str(exc)) from exc


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
    from tools.knowledge.base import KnowledgeError
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
            raise _fail(str(exc)) from exc
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
    from tools.engines.reading import folder_list

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
    from tools.knowledge.base import KnowledgeError
    from tools.knowledge.selection import Scope

    try:
        result = _kb().search(Scope(user=user, collections=collection), text, regex=regex, path_glob=path_glob, limit=limit)
    except KnowledgeError as exc:
        raise _fail(str(exc)) from exc
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
    from tools.knowledge.base import KnowledgeError

    try:
        _kb().grant(collection, user)
    except KnowledgeError as exc:
        raise _fail(str(exc)) from exc
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
        raise _fail(str(exc)) from exc
    out.print("PostgreSQL stopped." if stopped else "PostgreSQL was not running.")
    out.print("Milvus Lite stopped." if LocalMilvus.default().stop() else "Milvus Lite was not running.")


# -- extract --------------------------------------------------------------------------------------


def _load_profile(name: str | None, collection: list[str], path_glob: str | None, user: str | None) -> Any:
    """The profile, narrowed by the command's options; options never widen what a profile allows."""
    from checkpoints.cluster import kea_home
    from graph.profile import Profile

    values: dict[str, Any] = {}
    if name:
        candidate = Path(name) if name.endswith(".json") else kea_home() / "profiles" / f"{name}.json"
        if not candidate.is_file():
            raise _fail(f"No profile {name!r} (looked for {candidate}). A profile is a JSON object of Profile fields.")
        values = json.loads(candidate.read_text(encoding="utf-8"))
        values.setdefault("name", candidate.stem)
    if collection:
        allowed = values.get("collections") or []
        outside = [c for c in collection if allowed and c not in allowed]
        if outside:
            raise _fail(f"The profile reads only {', '.join(allowed)}; --collection {', '.join(outside)} is outside it.")
        values["collections"] = collection
    if path_glob:
        if values.get("path_glob") not in (None, path_glob):
            raise _fail(
                f"The profile reads only {values['path_glob']}; --path-glob cannot replace it. "
                "Name the folder or year in the request instead."
            )
        values["path_glob"] = path_glob
    if user:
        values["user"] = user
    return Profile.from_mapping(values)


def contract_json(values: dict[str, Any], full_summary: dict[str, Any] | None = None) -> dict[str, Any]:
    """The stable ``kea extract --json`` object from a run's final state (and its stored summary)."""
    from graph.result import build_result

    return build_result(values, full_summary).contract()


@app.command()
def extract(
    message: Annotated[str, typer.Argument(help="The request, e.g. \"Every position on Nordwerk's 2025 invoices with description, quantity and unit price\".")],
    collection: Annotated[list[str], typer.Option("--collection", "-c", help="Collection(s) to read; default every readable one.")] = [],
    path_glob: Annotated[Optional[str], typer.Option(help="Only documents whose path matches this glob.")] = None,
    profile: Annotated[Optional[str], typer.Option(help="Profile name ($KEA_HOME/profiles/NAME.json) or a .json path.")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Accept the reading as understood and a sample's selection; ask nothing.")] = False,
    out_file: Annotated[Optional[Path], typer.Option("--out", help="Also write the table to this CSV file.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout (progress on stderr).")] = False,
    user: Annotated[Optional[str], typer.Option(help="Ask as this user (access to collections); default 'local'.")] = None,
    thread: Annotated[Optional[str], typer.Option(help="Continue this conversation, e.g. `kea extract yes --thread T` to read a sample's whole selection.")] = None,
) -> None:
    """Extract one table from every document in scope and store it as a CSV.

    Without --yes, Kea first asks back how it understood the request (location, filter,
    values) and reads nothing until you confirm; more than 100 documents are sampled first (five
    documents) and the rest read after a yes. JSON status: done, sample, no_documents,
    needs_narrowing, declined, answered (the message asked for no table), cancelled (stopped by
    kea cancel: the table holds what was read before) or failed. Exit 0 except for failed (1).
    A run cut short (Ctrl-C, a crash) continues with kea resume THREAD.
    """
    from graph.runs import run_extraction
    from server.cli_terminal import ask_in_terminal

    chosen = _load_profile(profile, collection, path_glob, user)
    if out_file is not None:
        _check_writable(out_file)  # before anything is read: a bad --out never loses an answer
    thread = thread or f"cli-{uuid.uuid4().hex}"
    err.print(f"thread: {thread}", markup=False, highlight=False)  # scripts continue it with --thread, kea sql, kea forget
    narrowing = {"collections": list(collection), "path_glob": path_glob}
    durable = claimed_thread(thread, chosen, profile or "", narrowing, as_json)
    confirm = "auto" if yes else "ask"
    values = converse(
        lambda view: run_extraction(message, chosen, confirm=confirm, answer=ask_in_terminal, on_progress=view,
                                    thread_id=thread, durable=durable),
        chosen, thread, durable, as_json,
    )
    finish_answer(values, as_json, out_file)


def claimed_thread(thread: str, chosen: Any, reference: str, narrowing: dict[str, Any], as_json: bool) -> Any:
    """The thread recorded as ``chosen.user``'s with its profile (as the HTTP API records its own),
    and the lease spec its runs take; another user's thread does not exist."""
    from checkpoints.runs import RunRecords
    from graph.runs import Durable
    from server.accounts import AccountError, Accounts, NotOwned, open_pool

    url = _database_url(as_json)

    async def claim() -> None:
        pool = open_pool(url, max_size=1)
        await pool.open(wait=True)
        try:
            await Accounts(pool).claim_thread(thread, chosen.user, chosen.name)
        finally:
            await pool.close()

    try:
        asyncio.run(claim())
    except (AccountError, NotOwned) as exc:
        _say_failed(f"There is no thread {thread}." if isinstance(exc, NotOwned) else str(exc), as_json)
    return Durable(RunRecords(url), chosen.user, reference, "cli", narrowing)


def _database_url(as_json: bool) -> str:
    from checkpoints.cluster import ServiceError
    from tools.services import services

    try:
        return services().database_url
    except ServiceError as exc:
        _say_failed(str(exc), as_json)
        raise  # not reached


def _say_failed(text: str, as_json: bool) -> None:
    """End the command with a failed answer: one JSON object with --json, else a sentence."""
    if as_json:
        sys.stdout.write(json.dumps(contract_json({"answer": {"status": "failed", "message": text}})) + "\n")
        raise typer.Exit(1)
    raise _fail(text)


def converse(first: Any, chosen: Any, thread: str, durable: Any, as_json: bool) -> dict[str, Any]:
    """Run ``first(progress_view)`` to its answer; after a sample, ask whether to read the rest."""
    from checkpoints.cluster import ServiceError
    from checkpoints.runs import RunBusy
    from graph.lifecycle import RunLost
    from graph.runs import run_extraction
    from server.cli_terminal import ProgressView, ask_after_sample, ask_in_terminal, print_answer

    from tools.services import settle_heap

    settle_heap()  # everything the run needs is loaded: keep it out of the collector's full passes
    turn = first
    values: dict[str, Any] = {}
    while True:
        view = ProgressView()
        try:
            values = asyncio.run(turn(view))
        except KeyboardInterrupt:
            view.stop()
            err.print(f"Stopped (Ctrl-C): no table was made, and nothing more is read. Continue it with: kea resume {thread}")
            raise typer.Exit(130) from None
        except RunBusy:
            view.stop()
            _say_failed(f"Thread {thread} is running in another process right now; wait for it, or stop it with: kea cancel {thread}", as_json)
        except Exception as exc:  # noqa: BLE001 — scripts rely on one JSON object whatever happens
            view.stop()
            text = str(exc) if isinstance(exc, (ServiceError, ValueError, RunLost)) else f"{type(exc).__name__}: {exc}"
            logging.getLogger(__name__).error("Thread %s stopped: %s", thread, text, exc_info=exc)
            if as_json:  # the thread is always in the answer: it is what kea resume takes
                failed = {"answer": {"status": "failed", "message": text}, "thread_id": thread}
                sys.stdout.write(json.dumps(contract_json(failed)) + "\n")
                raise typer.Exit(1) from exc
            raise _fail(text) from exc
        finally:
            view.stop()
        if (values.get("answer") or {}).get("status") != "sample":
            return values
        # a sample of a large selection: shown, then the terminal asks whether to read the rest
        if as_json:  # stdout holds only the final JSON: the sample is shown on stderr
            err.print(contract_json(values)["message"], highlight=False, markup=False)
        else:
            print_answer(values)
        reply = ask_after_sample(thread)
        if reply is None:
            return values
        turn = lambda view, reply=reply: run_extraction(  # noqa: E731
            reply, chosen, confirm="ask", answer=ask_in_terminal, on_progress=view, thread_id=thread, durable=durable
        )


def finish_answer(values: dict[str, Any], as_json: bool, out_file: Path | None) -> None:
    """Print the answer (or its JSON), write --out, and exit: 0, or 1 for a failed answer."""
    from server.cli_terminal import print_answer

    answer = values.get("answer") or {}
    if out_file and answer.get("csv"):
        _copy_table(values["extraction_id"], out_file)
    if as_json:
        sys.stdout.write(json.dumps(contract_json(values, _stored_summary(values)), ensure_ascii=False) + "\n")
    else:
        if answer.get("status") != "sample":
            print_answer(values)
        if out_file and answer.get("csv"):
            out.print(f"Written to {out_file}.")
    raise typer.Exit(1 if answer.get("status", "failed") == "failed" else 0)


def _stored_summary(values: dict[str, Any]) -> dict[str, Any] | None:
    """The run's full summary (every document without rows, every failure), when it stored one."""
    from tools.services import services
    from tools.storage.objects import ObjectNotFound
    from tools.storage.rows import summary_key

    if not (values.get("answer") or {}).get("csv"):
        return None
    try:
        with services().objects.open(summary_key(values["extraction_id"])) as handle:
            return dict(json.loads(handle.read()))
    except ObjectNotFound:
        return None


def _check_writable(target: Path) -> None:
    """Refuse an --out that cannot be written, with why, before any document is read."""
    if target.is_dir():
        raise _fail(f"--out {target} is a folder; name a file such as {target / 'table.csv'}. Nothing was read.")
    if not target.parent.is_dir():
        raise _fail(f"--out {target}: the folder {target.parent} does not exist. Nothing was read.")
    existed = target.exists()
    try:  # opened for writing, as the table will be (appending truncates nothing it holds)
        with open(target, "ab"):
            pass
    except OSError as exc:
        raise _fail(f"--out {target} cannot be written ({exc.strerror or exc}). Nothing was read.") from None
    if not existed:
        target.unlink(missing_ok=True)


def _copy_table(extraction_id: str, target: Path) -> None:
    from tools.services import services
    from tools.storage.rows import table_key

    with services().objects.open(table_key(extraction_id)) as source, open(target, "wb") as sink:
        shutil.copyfileobj(source, sink)


# -- demo -----------------------------------------------------------------------------------------

DEMO_REQUEST = "Every position on Nordwerk's 2025 invoices with description, quantity and unit price"


@app.command()
def demo(
    request: Annotated[str, typer.Option(help="The request the demo extracts.")] = DEMO_REQUEST,
) -> None:
    """Generate the sample corpus, ingest it, show the knowledge base and extract one table."""
    from checkpoints.cluster import kea_home
    from evals.corpus.generate import generate

    corpus = kea_home() / "demo-corpus"
    err.print(f"Generating the sample corpus in {corpus} ...")
    generate(corpus)
    _ingest_with_progress(_kb(), [corpus / "documents"], "demo", prune=True)
    collections()
    err.print(f"\nRequest: [bold]{shown(request)}[/bold] (answered with --yes: the reading as understood)\n")
    extract(request, collection=["demo"], path_glob=None, profile=None, yes=True, out_file=None, as_json=False, user="local", thread=None)


_http_commands()
_run_commands()
_sql_commands()

if __name__ == "__main__":
    app()
