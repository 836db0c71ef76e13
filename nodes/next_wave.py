"""next_wave: a wave of the fan-out has finished (every one of its documents stored its rows or
its failure); the next starts a wave further on (``nodes/plan.py`` dispatch).

The wave after the next is loaded in the background while the next is read. The documents
finished so far are final, so the table is assembled up to them in the background while the
next wave is read, and from then on up to each document soon after it is stored
(``tools/storage/assembly.py``): at the end only the last few are left to add.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.profile import Profile, profile_of
from core.reading import Reading
from core.state import ExtractionState, documents_in_table, documents_to_read
from nodes.plan import DEFAULT_WAVE
from tools.fanout import wave_begins
from tools.services import ServicesSource
from tools.storage.assembly import assembling


async def next_wave(state: ExtractionState, runtime: Runtime[Profile], *, services: ServicesSource) -> dict[str, Any]:
    start = state.get("wave_start", 0) + (state.get("wave_size") or DEFAULT_WAVE)
    size = max(1, profile_of(runtime.context).wave)  # the first wave is short (nodes/plan.py); the rest are the profile's
    to_read = documents_to_read(state)
    if start < len(to_read):
        svc = await services()
        table = documents_in_table(state)
        # final: the documents of the waves that finished, and those of the table not read in this run
        finished = set(to_read[:start]) | (set(table) - set(to_read))
        columns = Reading.model_validate(state["reading"]).columns
        ahead = assembling(svc, state["extraction_id"], table, columns)
        # the wave after the one about to start is loaded while that one is read
        following = to_read[start + size : start + 2 * size]
        scope = profile_of(runtime.context).scope
        wave_begins(svc, state["extraction_id"], scope, table=ahead, finished=finished, following=following)
    return {"wave_start": start, "wave_size": size}
