"""Selections waiting for a "yes": a sample was shown, the whole selection is not read yet.

One row per conversation (thread), profile and asking user in ``pending_selections``
(migration 0006). It keeps what the confirmed run needs — the document ids, the confirmed
reading, the sample's documents and the extraction that read them (its stored rows are
reused) — and never a row of the table. ``take`` is one statement, so of two confirmations
arriving together exactly one gets the selection; ``discard`` is what any new request does.
Every value reaches SQL as a bound parameter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool


@dataclass(frozen=True)
class PendingKey:
    """Whose selection: the conversation, the profile and the asking user."""

    thread: str
    profile: str
    user: str


@dataclass
class PendingSelection:
    reading: dict[str, Any]
    document_ids: list[int]
    sample_ids: list[int]
    sample_files: list[str]
    sample_extraction_id: str
    sample_tally: dict[str, int] = field(default_factory=dict)
    qualify_files: bool = False
    notes: list[str] = field(default_factory=list)


Taken = Literal["taken", "already_taken", "none"]

_OFFER = """
INSERT INTO pending_selections (thread_id, profile, user_id, state, reading, document_ids, sample_ids,
                                sample_files, sample_extraction_id, sample_tally, qualify_files, notes)
VALUES (%s, %s, %s, 'pending', %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (thread_id, profile, user_id) DO UPDATE SET
    state = 'pending', reading = EXCLUDED.reading, document_ids = EXCLUDED.document_ids,
    sample_ids = EXCLUDED.sample_ids, sample_files = EXCLUDED.sample_files,
    sample_extraction_id = EXCLUDED.sample_extraction_id, sample_tally = EXCLUDED.sample_tally,
    qualify_files = EXCLUDED.qualify_files, notes = EXCLUDED.notes, created_at = now(), taken_at = NULL
"""
_TAKE = """
UPDATE pending_selections SET state = 'taken', taken_at = now()
WHERE thread_id = %s AND profile = %s AND user_id = %s AND state = 'pending'
RETURNING reading, document_ids, sample_ids, sample_files, sample_extraction_id, sample_tally, qualify_files, notes
"""
_STATE = "SELECT state FROM pending_selections WHERE thread_id = %s AND profile = %s AND user_id = %s"
_DISCARD = "DELETE FROM pending_selections WHERE thread_id = %s AND profile = %s AND user_id = %s RETURNING state"
_SAMPLES = "SELECT sample_extraction_id FROM pending_selections WHERE thread_id = %s"
_FORGET = "DELETE FROM pending_selections WHERE thread_id = %s"


class PendingSelections:
    """The waiting selections on Kea's database (through the knowledge base's connection pool)."""

    def __init__(self, pool: ConnectionPool[Any]) -> None:
        self.pool = pool

    @staticmethod
    def _key(key: PendingKey) -> tuple[str, str, str]:
        return (key.thread, key.profile, key.user)

    def offer(self, key: PendingKey, selection: PendingSelection) -> None:
        """Store ``selection`` as waiting for ``key``, replacing whatever waited there."""
        with self.pool.connection() as conn:
            conn.execute(
                _OFFER,
                (
                    *self._key(key),
                    Jsonb(selection.reading),
                    [int(i) for i in selection.document_ids],
                    [int(i) for i in selection.sample_ids],
                    list(selection.sample_files),
                    selection.sample_extraction_id,
                    Jsonb({k: int(v) for k, v in selection.sample_tally.items()}),
                    bool(selection.qualify_files),
                    Jsonb(list(selection.notes)),
                ),
            )

    def take(self, key: PendingKey) -> tuple[Taken, PendingSelection | None]:
        """The waiting selection, taken once: ("taken", it), or why there is none.

        "already_taken": an earlier yes took it (its run reads it); "none": nothing waits.
        """
        with self.pool.connection() as conn:
            row = conn.execute(_TAKE, self._key(key)).fetchone()
            if row is None:
                found = conn.execute(_STATE, self._key(key)).fetchone()
                return ("already_taken" if found is not None else "none"), None
        return "taken", PendingSelection(
            reading=_loaded(row["reading"]),
            document_ids=[int(i) for i in row["document_ids"]],
            sample_ids=[int(i) for i in row["sample_ids"]],
            sample_files=list(row["sample_files"]),
            sample_extraction_id=row["sample_extraction_id"],
            sample_tally={k: int(v) for k, v in _loaded(row["sample_tally"]).items()},
            qualify_files=bool(row["qualify_files"]),
            notes=list(_loaded(row["notes"])),
        )

    def discard(self, key: PendingKey) -> bool:
        """Drop ``key``'s selection (a new request replaces it); True when one was waiting."""
        with self.pool.connection() as conn:
            rows = conn.execute(_DISCARD, self._key(key)).fetchall()
        return any(r["state"] == "pending" for r in rows)

    # -- forgetting a conversation (tools/workspace/forget.py), on the caller's transaction ----

    @staticmethod
    def thread_samples(conn: Any, thread: str) -> list[str]:
        """The extractions whose stored rows the selections of ``thread`` reuse."""
        return [str(r["sample_extraction_id"]) for r in conn.execute(_SAMPLES, (thread,)).fetchall()]

    @staticmethod
    def forget_thread(conn: Any, thread: str) -> int:
        """Drop every selection of ``thread`` (any profile and state); how many there were."""
        return int(conn.execute(_FORGET, (thread,)).rowcount)


def _loaded(value: Any) -> Any:
    """A jsonb value as psycopg returns it (already decoded), or as text."""
    return json.loads(value) if isinstance(value, str) else value
