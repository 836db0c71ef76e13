"""Leases across processes: an orphaned run is taken over once, a lost lease stops its old holder.

Each lease is what one process holds (its own connection); "a process dies" is its lease
connection's session ended on the server (``pg_terminate_backend``), as PostgreSQL ends the
session of a killed process.
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

from checkpoints.runs import NothingToTakeOver, RunBusy, RunRecords
from tools.lifecycle import RunLost, durable_run

GUARD = 60.0  # seconds: far beyond what any step here needs; reaching it means a hang


@pytest.fixture
def records(svc, monkeypatch) -> RunRecords:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("KEA_CANCEL_POLL_SECONDS", "0.1")
    return RunRecords(svc.database_url)


def _row(url: str, thread: str) -> dict[str, Any]:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT state, holder, takeovers, cancel_requested_at FROM runs WHERE thread_id = %s",
                           (thread,)).fetchone()
    assert row is not None
    return dict(zip(("state", "holder", "takeovers", "cancel_requested_at"), row))


def _end_session(url: str, pid: int) -> None:
    """What a process's death does to its sessions: the server ends them."""
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]


async def _until(condition: Any, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + GUARD
    while not await condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def _orphan(records: RunRecords, thread: str) -> None:
    """A server run whose process died: its row says running, its lock is free."""
    async with records.lease(thread, user="ann", profile="p", origin="server") as lease:
        _end_session(records.url, lease.conn.info.backend_pid)
    await _until(lambda: _is_orphan(records, thread), "the run to be an orphan")


async def _is_orphan(records: RunRecords, thread: str) -> bool:
    return thread in {r.thread for r in await records.orphans("server")}


async def test_an_orphan_is_taken_over_once_and_a_new_turn_waits_for_it(records) -> None:  # type: ignore[no-untyped-def]
    thread = "takeover-once"
    async with records.lease(thread, user="ann", profile="p", origin="server") as earlier:
        assert not await _is_orphan(records, thread)  # alive: nobody's to take
        await earlier.end("finished")
    await _orphan(records, thread)
    first = _row(records.url, thread)
    # a new request on the thread does not run over the orphan: it is busy until a replica continues it
    with pytest.raises(RunBusy):
        async with records.lease(thread, user="ann", profile="p", origin="server", wait=0.5):
            pass
    async with records.lease(thread, user="ann", profile="p", origin="server", takeover=True) as taken:
        taken_row = _row(records.url, thread)
        assert taken_row["holder"] == taken.holder != first["holder"] and taken_row["takeovers"] == 1
        assert not await _is_orphan(records, thread)
        with pytest.raises(RunBusy):  # a second replica looking at the same time
            async with records.lease(thread, user="ann", profile="p", origin="server", takeover=True):
                pass
        await taken.end("finished")
    with pytest.raises(NothingToTakeOver):  # it ended: a replica that looked before finds nothing
        async with records.lease(thread, user="ann", profile="p", origin="server", takeover=True):
            pass
    async with records.lease(thread, user="ann", profile="p", origin="server") as again:  # a new turn runs now
        assert _row(records.url, thread) | {"holder": None} == {"state": "running", "holder": None, "takeovers": 0,
                                                               "cancel_requested_at": None}
        await again.end("finished")


async def test_a_cancel_of_an_orphan_is_final_and_no_replica_continues_it(records) -> None:  # type: ignore[no-untyped-def]
    await _orphan(records, "orphan-cancelled")
    assert await records.request_cancel("orphan-cancelled", "ann") is not None
    assert await records.settle_orphan("orphan-cancelled", "cancelled")
    assert _row(records.url, "orphan-cancelled")["state"] == "cancelled"
    with pytest.raises(NothingToTakeOver):
        async with records.lease("orphan-cancelled", user="ann", profile="p", origin="server", takeover=True):
            pass
    # a cancel asked for while nobody held the run, seen by the replica about to continue it
    await _orphan(records, "orphan-cancel-asked")
    assert await records.request_cancel("orphan-cancel-asked", "ann") is not None
    with pytest.raises(NothingToTakeOver):
        async with records.lease("orphan-cancel-asked", user="ann", profile="p", origin="server", takeover=True):
            pass
    assert _row(records.url, "orphan-cancel-asked")["state"] == "cancelled"
    # and a live run is not settled behind its holder's back
    async with records.lease("alive", user="ann", profile="p", origin="server") as alive:
        assert not await records.settle_orphan("alive", "cancelled")
        await alive.end("finished")


async def test_a_lease_whose_connection_broke_is_taken_again(records) -> None:  # type: ignore[no-untyped-def]
    thread = "lease-regained"
    async with durable_run(records, thread, user="ann", profile="p", origin="server") as control:
        holder = _row(records.url, thread)["holder"]
        pid = _lease_pid(records.url, thread)
        _end_session(records.url, pid)  # a database restart, or a network blip, for this lease alone
        await _until(lambda: _regained(records.url, thread, pid), "the lease to be taken again")
        assert not control.cancelled and not control.lost
    assert _row(records.url, thread) | {"cancel_requested_at": None} == {
        "state": "finished", "holder": holder, "takeovers": 0, "cancel_requested_at": None}


async def test_a_process_whose_run_was_taken_over_stops_it_with_run_lost(records) -> None:  # type: ignore[no-untyped-def]
    thread = "lease-lost"
    reached_end = False
    with pytest.raises(RunLost, match="took over"):
        async with durable_run(records, thread, user="ann", profile="p", origin="server") as control:
            pid = _lease_pid(records.url, thread)
            # the process lost touch long enough for a replica to continue its run
            _end_session(records.url, pid)
            async with records.lease(thread, user="ann", profile="p", origin="server", takeover=True) as taken:
                await asyncio.wait_for(asyncio.sleep(GUARD), GUARD + 1)  # cancelled by the lost lease
                reached_end = True
    assert not reached_end and control.lost
    row = _row(records.url, thread)
    assert row["holder"] == taken.holder and row["state"] == "running"  # the old holder wrote nothing


def _lease_pid(url: str, thread: str) -> int:
    from checkpoints.runs import LOCK_CLASS

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = %s"
            " AND objid = hashtext(%s)::oid AND objsubid = 2", (LOCK_CLASS, thread)).fetchone()
    assert row is not None
    return int(row[0])


async def _regained(url: str, thread: str, old_pid: int) -> bool:
    try:
        return _lease_pid(url, thread) != old_pid
    except AssertionError:
        return False


async def test_a_lease_session_ends_when_its_process_stops_answering(records) -> None:  # type: ignore[no-untyped-def]
    conn = await records.lease_connection()
    try:
        settings = {name: (await (await conn.execute(f"SHOW {name}")).fetchone())[name]
                    for name in ("idle_session_timeout", "tcp_keepalives_idle", "tcp_user_timeout")}
    finally:
        await conn.close()
    assert settings["idle_session_timeout"] == "30s" and settings["tcp_user_timeout"] == "30000"
    assert settings["tcp_keepalives_idle"] == "10"  # a loopback TCP connection (0 on a Unix socket)
