"""``kea resume`` and ``kea cancel``: a thread's run continued, or stopped, from any process."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from server.terminal import err, out

CANCEL_WAIT_SECONDS = 60.0


def _owned(thread: str, user: str, as_json: bool = False) -> tuple[Any, str]:
    """The thread's run record (None for a thread that never ran here) and its profile's name;
    a thread that is not ``user``'s does not exist."""
    from checkpoints.runs import RunRecords
    from server.accounts import AccountError, Accounts, NotOwned, check_thread, open_pool
    from server.cli import _database_url, _say_failed

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
    from graph.runs import Durable, NothingToResume, continue_extraction
    from server.cli import _check_writable, _database_url, _load_profile, _say_failed, converse, finish_answer
    from server.cli_terminal import ask_in_terminal
    from tools.knowledge.selection import LOCAL_USER

    user = user or LOCAL_USER
    if out_file is not None:
        _check_writable(out_file)
    record, name = _owned(thread, user, as_json)
    if record is not None and record.origin == "server":
        _say_failed(f"Thread {thread} was started through kea serve: it continues there (a running kea serve continues "
                    "a run whose server stopped within seconds, and a kea serve that starts continues it too).", as_json)
    reference = record.profile if record is not None else ("" if name == "default" else name)
    narrowing = dict(record.narrowing) if record is not None else {}
    chosen = _load_profile(reference or None, list(narrowing.get("collections") or []), narrowing.get("path_glob"), user)
    records = RunRecords(_database_url(as_json))
    if asyncio.run(records.is_alive(thread)):
        _say_failed(f"Thread {thread} is running in another process right now; wait for it, or stop it with: kea cancel {thread}", as_json)
    durable = Durable(records, user, reference, "cli", narrowing)
    answer = ask_in_terminal if sys.stdin.isatty() or not as_json else None
    err.print(f"thread: {thread}", markup=False, highlight=False)

    async def first(view: Any) -> dict[str, Any]:
        try:
            return await continue_extraction(thread, chosen, answer=answer, on_progress=view, durable=durable)
        except NothingToResume as exc:
            return {"answer": {"status": "failed", "message": str(exc)}, "thread_id": thread}

    values = converse(first, chosen, thread, durable, as_json)
    if "__interrupt__" in values:
        _say_failed(f"Thread {thread} waits for answers to its questions, and there is no terminal to ask them in. "
                    f"Run kea resume {thread} in a terminal (without --json to see the answer as text).", as_json)
    finish_answer(values, as_json, out_file)


def cancel(
    thread: Annotated[str, typer.Argument(help="The thread whose run to stop.")],
    user: Annotated[Optional[str], typer.Option(help="Whose thread it is; default 'local'.")] = None,
) -> None:
    """Stop a thread's running extraction, wherever it runs (kea serve, another kea extract).

    No model call starts once the run sees the cancel; its answer says what was read before
    the stop (status cancelled), with the partial table stored.
    """
    from checkpoints.runs import RunRecords
    from server.cli import _database_url, _fail
    from tools.knowledge.selection import LOCAL_USER

    user = user or LOCAL_USER
    record, _ = _owned(thread, user)
    if record is None or record.state != "running":
        how = {"finished": "it has finished", "stopped": "it stopped with an error (kea resume continues it)",
               "cancelled": "it was cancelled already"}.get(record.state if record else "", "it never ran")
        raise _fail(f"Thread {thread} is not running: {how}. There is nothing to cancel.")
    out.print(asyncio.run(_stop(RunRecords(_database_url(False)), thread, user)), markup=False, highlight=False)


def stop_running(thread: str, user: str) -> None:
    """Cancel the thread's run if one is in flight, waiting for it to stop (``kea forget`` first
    stops what it forgets)."""
    from checkpoints.runs import RunRecords
    from server.cli import _database_url

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
