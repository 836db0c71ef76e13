"""Forgetting a conversation: everything Kea keeps of one thread goes, at once.

``forget_thread`` removes, for a thread of the asking user:

- the files of every extraction the thread ran — the rows of each document, the failures, the
  reading, the CSV, the XLSX, the review page and the summary: everything under
  ``record-extraction/{id}/``, in the folder store or the bucket. The extractions are those
  recorded under the thread (``tools/storage/owners.py``), those its checkpoints name (a run
  stopped before its table was stored is recorded nowhere else) and those its waiting selections
  reuse; one recorded under another thread is never touched;
- its SQL workspace: schema, role, loaded tables and result files;
- its waiting selections, its chat record with its turns and extractions, and every
  checkpoint, blob and pending write LangGraph keeps for it, in every namespace (subgraphs too).

The audit of its queries keeps who ran each, when, for how long and with what outcome, without
the text. Files go before records, so a failure half-way leaves enough to finish by forgetting
again. A thread of someone else is refused as one that does not exist, and nothing is removed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol

import psycopg
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from psycopg import sql

from core.protocol import THREAD_NAME
from core.selection import LOCAL_USER
from tools.storage.objects import ObjectStore, delete_prefix
from tools.storage.owners import recorded_elsewhere, thread_extractions, thread_owner
from tools.storage.pending import PendingSelections
from tools.storage.rows import WORKSPACE_PREFIX, extraction_prefix
from tools.workspace.catalog import Catalog, NotYours, Record, WorkspaceError


class Workspaces(Protocol):
    """What forgetting uses of the SQL workspaces (``tools.workspace.workspace.Workspaces``)."""

    catalog: Catalog
    objects: ObjectStore

    def spill_prefix(self, record: Record) -> str: ...

log = logging.getLogger(__name__)

# LangGraph's Postgres saver keeps a thread in these tables, each row keyed by thread_id
# (and checkpoint_ns: '' for the graph, one namespace per subgraph).
CHECKPOINT_TABLES = ("checkpoint_writes", "checkpoint_blobs", "checkpoints")
# the state channels that name an extraction of the thread (core/state.py)
EXTRACTION_CHANNELS = ("extraction_id", "sample_extraction_id")


@dataclass(frozen=True)
class Forgotten:
    """What was removed (``kea forget --json`` and ``DELETE /v1/threads/{thread}`` show it)."""

    tables: int  # workspace tables
    files: int  # workspace result files
    queries: int  # audited queries whose text was removed
    extractions: int  # extractions whose files were removed
    checkpoints: bool  # whether the thread had checkpoints
    extraction_files: int = 0  # stored files of those extractions
    selections: int = 0  # selections that waited for a yes

    def contract(self, thread: str) -> dict[str, Any]:
        return {"thread": thread, "forgotten": asdict(self)}

    @property
    def anything(self) -> bool:
        return any(asdict(self).values())


def _not_yours(thread: str) -> NotYours:
    return NotYours(f"There is no conversation {thread} of yours; nothing was removed.")


def _saver_tables(conn: psycopg.Connection[Any]) -> list[str]:
    """The checkpoint tables that exist (none before the first run on this database)."""
    found = []
    for table in CHECKPOINT_TABLES:
        row = conn.execute("SELECT to_regclass(%s) IS NOT NULL AS found", (f"public.{table}",)).fetchone()
        if row and row["found"]:
            found.append(table)
    return found


def _has_checkpoints(conn: psycopg.Connection[Any], thread: str) -> bool:
    for table in _saver_tables(conn):
        query = sql.SQL("SELECT EXISTS (SELECT 1 FROM {} WHERE thread_id = %s) AS found").format(
            sql.Identifier("public", table)
        )
        row = conn.execute(query, (thread,)).fetchone()
        if row and row["found"]:
            return True
    return False


def owner_of(conn: psycopg.Connection[Any], workspaces: Workspaces, thread: str) -> str | None:
    """Whose thread it is: its chat record's user, else its workspace's; a thread with checkpoints
    and no record was started outside the API before threads were recorded: the local user's.
    None: Kea holds nothing of it."""
    owner = thread_owner(conn, thread)
    if owner is None and (record := workspaces.catalog.record(conn, thread)) is not None:
        owner = record.user
    if owner is None and _has_checkpoints(conn, thread):
        owner = LOCAL_USER
    return owner


def checkpointed_extractions(conn: psycopg.Connection[Any], thread: str) -> set[str]:
    """Every extraction id the thread's checkpoints hold, in every namespace: the values in the
    checkpoints themselves (strings are kept inline), in blobs, and in pending writes."""
    tables = _saver_tables(conn)
    found: set[str] = set()
    if "checkpoints" in tables:
        rows = conn.execute(
            "SELECT DISTINCT v.value FROM checkpoints c,"
            " LATERAL jsonb_each_text(c.checkpoint -> 'channel_values') AS v"
            " WHERE c.thread_id = %s AND v.key = ANY(%s)",
            (thread, list(EXTRACTION_CHANNELS)),
        ).fetchall()
        found |= {str(r["value"]) for r in rows}
    serde = JsonPlusSerializer()
    for table in ("checkpoint_blobs", "checkpoint_writes"):
        if table not in tables:
            continue
        query = sql.SQL("SELECT type, blob FROM {} WHERE thread_id = %s AND channel = ANY(%s) AND blob IS NOT NULL").format(
            sql.Identifier("public", table)
        )
        for row in conn.execute(query, (thread, list(EXTRACTION_CHANNELS))).fetchall():
            if row["type"] in (None, "empty"):
                continue
            try:
                value = serde.loads_typed((row["type"], bytes(row["blob"])))
            except Exception:  # noqa: BLE001 — one unreadable value never stops the rest
                log.warning("A checkpoint value of a forgotten thread could not be read; it is removed unread")
                continue
            if isinstance(value, str):
                found.add(value)
    return found


def _extractions(conn: psycopg.Connection[Any], thread: str) -> list[str]:
    """The thread's extractions: recorded, checkpointed or reused by its selections — never one
    recorded under another thread, and only well-formed ids."""
    named = set(thread_extractions(conn, thread)) | checkpointed_extractions(conn, thread)
    named |= set(PendingSelections.thread_samples(conn, thread))
    named -= recorded_elsewhere(conn, thread, sorted(named))
    valid = []
    for extraction_id in sorted(named):
        try:
            extraction_prefix(extraction_id)
        except ValueError:
            continue
        valid.append(extraction_id)
    return valid


def _delete_checkpoints(conn: psycopg.Connection[Any], thread: str) -> bool:
    found = False
    for table in _saver_tables(conn):
        deleted = conn.execute(
            sql.SQL("DELETE FROM {} WHERE thread_id = %s").format(sql.Identifier("public", table)), (thread,)
        ).rowcount
        found = found or deleted > 0
    return found


def forget_thread(
    workspaces: Workspaces, thread: str, user: str, *, stop_run: Callable[[str], None] | None = None
) -> Forgotten:
    """Remove everything of ``user``'s ``thread`` (see the module's text); ``NotYours`` for a thread
    of someone else. ``stop_run(thread)`` is called once the thread is known to be the user's and
    before anything is removed: it ends a run still writing to the thread."""
    if not THREAD_NAME.fullmatch(thread or ""):
        raise WorkspaceError(
            f"{thread!r} is not a thread name Kea accepts: letters, digits, '.', '_', ':' or '-', up to 128 characters."
        )
    catalog = workspaces.catalog
    with catalog.locked(thread) as conn:
        owner = owner_of(conn, workspaces, thread)
    if owner is not None and owner != user:
        raise _not_yours(thread)
    if stop_run is not None:
        stop_run(thread)
    with catalog.locked(thread) as conn:
        extractions = _extractions(conn, thread)
        record = catalog.record(conn, thread)
    # the files first: should removing them fail, every record is still there to forget again
    spill = workspaces.spill_prefix(record) if record else f"{WORKSPACE_PREFIX}/{catalog.name_for(thread)}/"
    files = delete_prefix(workspaces.objects, spill)
    removed = [delete_prefix(workspaces.objects, extraction_prefix(e)) for e in extractions]
    with catalog.locked(thread) as conn:
        if (owner := owner_of(conn, workspaces, thread)) is not None and owner != user:
            raise _not_yours(thread)  # taken by someone else meanwhile: nothing more is removed
        record = catalog.record(conn, thread)
        tables = len(catalog.tables(conn, thread)) if record else 0
        if record:
            catalog.drop(conn, record)
            conn.execute("DELETE FROM workspaces WHERE thread_id = %s", (thread,))
        scrubbed = conn.execute(
            "UPDATE workspace_queries SET query = NULL, error = NULL, csv_key = NULL, forgotten = true"
            " WHERE thread_id = %s AND NOT forgotten",
            (thread,),
        ).rowcount
        selections = PendingSelections.forget_thread(conn, thread)
        conn.execute(
            "DELETE FROM thread_extractions WHERE thread_id = %s OR extraction_id = ANY(%s)", (thread, extractions)
        )
        conn.execute("DELETE FROM chat_threads WHERE thread_id = %s", (thread,))  # its turns go with it
        conn.execute("DELETE FROM runs WHERE thread_id = %s", (thread,))  # its record of runs in flight
        checkpoints = _delete_checkpoints(conn, thread)
    return Forgotten(tables, files, scrubbed, sum(n > 0 for n in removed), checkpoints, sum(removed), selections)
