"""``kea extract``, ``kea resume`` and ``kea cancel``: a thread's run started, continued, or stopped, from any process."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import sys
import time
import uuid
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from server.terminal import err, fail, out

CANCEL_WAIT_SECONDS = 60.0


# -- extract --------------------------------------------------------------------------------------


def _load_profile(name: str | None, collection: list[str], path_glob: str | None, user: str | None) -> tuple[Any, str]:
    """The profile, narrowed by the command's options (options never widen what a profile allows),
    and the graph that answers it: "document-tables" or "universal". The same profiles as
    ``kea serve`` offers, or a .json file."""
    from checkpoints.cluster import kea_home
    from core.profile import Profile
    from server.profiles import AGENTS, Profiles, UnknownModel

    values: dict[str, Any] = {}
    if name:
        try:
            values = Profiles.load(kea_home()).values_of(name)
        except UnknownModel as exc:
            raise fail(str(exc)) from None
    agent = str(values.pop("agent", None) or "document-tables")
    if agent not in AGENTS:
        raise fail(f"The profile names an unknown agent {agent!r}; the agents are {', '.join(AGENTS)}.")
    if collection:
        allowed = values.get("collections") or []
        outside = [c for c in collection if allowed and c not in allowed]
        if outside:
            raise fail(f"The profile reads only {', '.join(allowed)}; --collection {', '.join(outside)} is outside it.")
        values["collections"] = collection
    if path_glob:
        if values.get("path_glob") not in (None, path_glob):
            raise fail(
                f"The profile reads only {values['path_glob']}; --path-glob cannot replace it. "
                "Name the folder or year in the request instead."
            )
        values["path_glob"] = path_glob
    if user:
        values["user"] = user
    return Profile.from_mapping(values), agent


def contract_json(values: dict[str, Any], full_summary: dict[str, Any] | None = None,
                  agent: str = "document-tables") -> dict[str, Any]:
    """The stable ``kea extract --json`` object from a run's final state (and its stored summary)."""
    from core.result import result_of

    return result_of(values, agent, full_summary).contract()


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
    from graph.runs import run_extraction, run_universal
    from server.cli_terminal import ask_in_terminal

    chosen, agent = _load_profile(profile, collection, path_glob, user)
    run = run_universal if agent == "universal" else run_extraction
    if out_file is not None:
        _check_writable(out_file)  # before anything is read: a bad --out never loses an answer
    thread = thread or f"cli-{uuid.uuid4().hex}"
    err.print(f"thread: {thread}", markup=False, highlight=False)  # scripts continue it with --thread, kea sql, kea forget
    narrowing = {"collections": list(collection), "path_glob": path_glob}
    durable = claimed_thread(thread, chosen, profile or "", narrowing, as_json)
    confirm = "auto" if yes else "ask"
    values = converse(
        lambda view: run(message, chosen, confirm=confirm, answer=ask_in_terminal, on_progress=view,
                         thread_id=thread, durable=durable),
        chosen, thread, durable, as_json,
    )
    finish_answer(values, as_json, out_file, agent)


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
    raise fail(text)


def converse(first: Any, chosen: Any, thread: str, durable: Any, as_json: bool) -> dict[str, Any]:
    """Run ``first(progress_view)`` to its answer; after a sample, ask whether to read the rest."""
    from checkpoints.cluster import ServiceError
    from checkpoints.runs import RunBusy
    from graph.runs import run_extraction, stopped_result
    from server.cli_terminal import ProgressView, ask_after_sample, ask_in_terminal, next_steps, print_answer
    from tools.lifecycle import RunLost
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
            stopped = stopped_result(exc, thread).model_copy(update={"message": text})
            if as_json:  # the thread is always in the answer: it is what kea resume takes
                failed = {"status": "failed", "message": text, "actions": [a.model_dump() for a in stopped.actions]}
                sys.stdout.write(json.dumps(contract_json({"answer": failed, "thread_id": thread})) + "\n")
                raise typer.Exit(1) from exc
            raise fail("\n".join([text, *next_steps(stopped)])) from exc
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


def finish_answer(values: dict[str, Any], as_json: bool, out_file: Path | None, agent: str = "document-tables") -> None:
    """Print the answer (or its JSON), write --out, and exit: 0, or 1 for a failed answer."""
    from core.result import result_of
    from server.cli_terminal import print_result

    result = result_of(values, agent, _stored_summary(values) if agent != "universal" else None)
    if out_file and result.csv:
        _copy_table(result.extraction_id, out_file)
    if as_json:
        sys.stdout.write(json.dumps(result.contract(), ensure_ascii=False) + "\n")
    else:
        if result.status != "sample":
            print_result(result)
        if out_file and result.csv:
            out.print(f"Written to {out_file}.")
    raise typer.Exit(1 if result.status == "failed" else 0)


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
        raise fail(f"--out {target} is a folder; name a file such as {target / 'table.csv'}. Nothing was read.")
    if not target.parent.is_dir():
        raise fail(f"--out {target}: the folder {target.parent} does not exist. Nothing was read.")
    existed = target.exists()
    try:  # opened for writing, as the table will be (appending truncates nothing it holds)
        with open(target, "ab"):
            pass
    except OSError as exc:
        raise fail(f"--out {target} cannot be written ({exc.strerror or exc}). Nothing was read.") from None
    if not existed:
        target.unlink(missing_ok=True)


def _copy_table(extraction_id: str, target: Path) -> None:
    from tools.services import services
    from tools.storage.rows import table_key

    with services().objects.open(table_key(extraction_id)) as source, open(target, "wb") as sink:
        shutil.copyfileobj(source, sink)


# -- resume and cancel ------------------------------------------------------------------------


def _owned(thread: str, user: str, as_json: bool = False) -> tuple[Any, str]:
    """The thread's run record (None for a thread that never ran here) and its profile's name;
    a thread that is not ``user``'s does not exist."""
    from checkpoints.runs import RunRecords
    from server.accounts import AccountError, Accounts, NotOwned, check_thread, open_pool

    url = _database_url(as_json)

    async def look() -> tuple[Any, str]:
        pool = open_pool(url, max_size=1)
        await pool.open(wait=True)
        try:
            name = await Accounts(pool).thread_profile(check_thread(thread), user)
        finally:
            await pool.close()
        return await RunRecords(url).get(thread), name

    try:
        return asyncio.run(look())
    except (NotOwned, AccountError):
        _say_failed(f"There is no thread {thread}.", as_json)
        raise  # not reached


def resume(
    thread: Annotated[str, typer.Argument(help="The thread to continue (printed as 'thread: ID' by kea extract).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout, as kea extract --json.")] = False,
    out_file: Annotated[Optional[Path], typer.Option("--out", help="Also write the table to this CSV file.")] = None,
    user: Annotated[Optional[str], typer.Option(help="Whose thread it is; default 'local'.")] = None,
) -> None:
    """Continue whatever a thread waits for, with the profile its run started with.

    A run cut short (its process killed, Ctrl-C, a crash, an error such as a store that was down)
    continues from its last checkpoint: only the documents without a stored result are read, and
    it finishes as kea extract would have. A thread waiting for its questions asks them again
    (with --json and no terminal to ask in, it says so).
    """
    from checkpoints.runs import RunRecords
    from core.selection import LOCAL_USER
    from graph.runs import Durable, NothingToResume, continue_extraction
    from server.cli_terminal import ask_in_terminal

    user = user or LOCAL_USER
    if out_file is not None:
        _check_writable(out_file)
    record, name = _owned(thread, user, as_json)
    if record is not None and record.origin == "server":
        _say_failed(f"Thread {thread} was started through kea serve: it continues there (a running kea serve continues "
                    "a run whose server stopped within seconds, and a kea serve that starts continues it too).", as_json)
    reference = record.profile if record is not None else ("" if name == "default" else name)
    narrowing = dict(record.narrowing) if record is not None else {}
    chosen, agent = _load_profile(reference or None, list(narrowing.get("collections") or []), narrowing.get("path_glob"), user)
    records = RunRecords(_database_url(as_json))
    if asyncio.run(records.is_alive(thread)):
        _say_failed(f"Thread {thread} is running in another process right now; wait for it, or stop it with: kea cancel {thread}", as_json)
    durable = Durable(records, user, reference, "cli", narrowing)
    answer = ask_in_terminal if sys.stdin.isatty() or not as_json else None
    err.print(f"thread: {thread}", markup=False, highlight=False)

    async def first(view: Any) -> dict[str, Any]:
        try:
            return await continue_extraction(thread, chosen, answer=answer, on_progress=view, durable=durable, agent=agent)
        except NothingToResume as exc:
            return {"answer": {"status": "failed", "message": str(exc)}, "thread_id": thread}

    values = converse(first, chosen, thread, durable, as_json)
    if "__interrupt__" in values:
        _say_failed(f"Thread {thread} waits for answers to its questions, and there is no terminal to ask them in. "
                    f"Run kea resume {thread} in a terminal (without --json to see the answer as text).", as_json)
    finish_answer(values, as_json, out_file, agent)


def cancel(
    thread: Annotated[str, typer.Argument(help="The thread whose run to stop.")],
    user: Annotated[Optional[str], typer.Option(help="Whose thread it is; default 'local'.")] = None,
) -> None:
    """Stop a thread's running extraction, wherever it runs (kea serve, another kea extract).

    No model call starts once the run sees the cancel; its answer says what was read before
    the stop (status cancelled), with the partial table stored.
    """
    from checkpoints.runs import RunRecords
    from core.selection import LOCAL_USER

    user = user or LOCAL_USER
    record, _ = _owned(thread, user)
    if record is None or record.state != "running":
        how = {"finished": "it has finished", "stopped": "it stopped with an error (kea resume continues it)",
               "cancelled": "it was cancelled already"}.get(record.state if record else "", "it never ran")
        raise fail(f"Thread {thread} is not running: {how}. There is nothing to cancel.")
    out.print(asyncio.run(_stop(RunRecords(_database_url(False)), thread, user)), markup=False, highlight=False)


def stop_running(thread: str, user: str) -> None:
    """Cancel the thread's run if one is in flight, waiting for it to stop (``kea forget`` first
    stops what it forgets)."""
    from checkpoints.runs import RunRecords

    records = RunRecords(_database_url(False))

    async def running() -> bool:
        record = await records.get(thread)
        return record is not None and record.state == "running"

    if asyncio.run(running()):
        asyncio.run(_stop(records, thread, user))


async def _stop(records: Any, thread: str, user: str) -> str:
    """Ask the thread's run to stop and wait a while for it; what happened, in a sentence."""
    if await records.settle_orphan(thread, "cancelled"):
        return (f"Thread {thread} was not running any more (its process had ended). It is marked cancelled, so "
                f"kea serve does not continue it; kea resume {thread} still would.")
    if await records.request_cancel(thread, user) is None:
        return f"Thread {thread} has just ended; there was nothing left to cancel."
    deadline = time.monotonic() + CANCEL_WAIT_SECONDS
    while time.monotonic() < deadline:
        now = await records.get(thread)
        if now is None or now.state != "running":
            return (f"Cancelled thread {thread}. Its answer says what was read before the stop (status cancelled, "
                    "the table partial); whoever ran it has it, and so does GET /v1/runs/{thread} for a run of kea serve.")
        await asyncio.sleep(0.2)
    return (f"Asked thread {thread} to stop; its process has not confirmed yet. It starts no new model call once "
            "it sees the cancel.")
