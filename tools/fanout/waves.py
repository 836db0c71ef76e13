"""A run's waves, as the fan-out's I/O sees them: what is loaded ahead of each, and when.

Which documents make a wave is the graph's choice (``nodes/plan.py``, ``nodes/next_wave.py``);
these calls say when they begin, and the documents are loaded in the background so their tasks
find them in hand and the lanes can read them ahead (``document_io.py``, ``lanes.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from core.selection import Scope
from tools.fanout.document_io import document_io

if TYPE_CHECKING:
    from tools.services import Services
    from tools.storage.assembly import Ahead as TableAhead


def first_waves(svc: "Services", extraction_id: str, scope: Scope, first: Sequence[int], second: Sequence[int]) -> None:
    """A run's first two waves are about to be sent: the ``first`` wave's documents are loaded
    at once (while LangGraph sends the wave; no engine call runs yet to wait for), the
    ``second``'s once the first engine call has started. Returns at once."""
    _prefetch(svc, extraction_id, scope, first, at_once=True)
    _prefetch(svc, extraction_id, scope, second)


def wave_begins(
    svc: "Services", extraction_id: str, scope: Scope, *, table: "TableAhead", finished: Collection[int], following: Sequence[int]
) -> None:
    """A wave after the first begins, with the ``finished`` documents final: the documents of the
    wave after it (``following``) are loaded, and the table is assembled in the background from
    the finished ones on (``DocumentIO.wave_begins``). Background work still waiting for an
    engine call goes before the wave's tasks load, this load included. Returns at once."""
    _prefetch(svc, extraction_id, scope, following)
    document_io(svc, extraction_id, scope).wave_begins(table, finished)


def _prefetch(svc: "Services", extraction_id: str, scope: Scope, ids: Sequence[int], *, at_once: bool = False) -> None:
    """Load ``ids`` for the tasks of ``extraction_id`` once the next engine call has started
    (``at_once``: now, when no engine call is running yet)."""
    if ids:
        io = document_io(svc, extraction_id, scope)
        if at_once:
            io.prefetch(ids)
        else:
            io.once_reading(lambda: io.prefetch(ids))
