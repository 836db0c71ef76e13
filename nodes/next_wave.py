"""next_wave: a wave of the fan-out has finished (every one of its documents stored its rows or
its failure); the next starts a wave further on (``nodes/plan.py`` dispatch)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.profile import Profile
from graph.state import ExtractionState
from nodes.plan import DEFAULT_WAVE


async def next_wave(state: ExtractionState, runtime: Runtime[Profile]) -> dict[str, Any]:
    return {"wave_start": state.get("wave_start", 0) + (state.get("wave_size") or DEFAULT_WAVE)}
