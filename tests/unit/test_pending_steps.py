"""Whether a thread's run has steps left: what decides if a run whose process died is continued.

A process can die after its last tasks' writes were saved and before the checkpoint that
follows them. LangGraph then shows ``next == ()`` — it leaves tasks with saved writes out — for
a run that is not over; ``graph.runs.pending`` looks at the tasks instead, and continuing the
thread applies the saved writes and goes on.
"""

from __future__ import annotations

from typing import Any, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from graph.runs import pending


class State(TypedDict):
    x: int


class DiesBeforeCheckpoint(InMemorySaver):
    """A saver whose process dies (here: raises) instead of writing its ``fatal``-th checkpoint."""

    def __init__(self, fatal: int) -> None:
        super().__init__()
        self.fatal, self.puts = fatal, 0

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        self.puts += 1
        if self.puts == self.fatal:
            raise RuntimeError("the process died here")
        return await super().aput(config, checkpoint, metadata, new_versions)


def _graph(saver: InMemorySaver, ask: bool = False) -> Any:
    async def first(state: State) -> dict[str, int]:
        return {"x": state["x"] + 1}

    async def second(state: State) -> dict[str, int]:
        return {"x": state["x"] * 10 + (int(interrupt("how much?")) if ask else 0)}

    async def third(state: State) -> dict[str, int]:
        return {"x": state["x"] + 5}

    builder = StateGraph(State)
    for name, node in (("first", first), ("second", second), ("third", third)):
        builder.add_node(name, node)
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    builder.add_edge("second", "third")
    builder.add_edge("third", END)
    return builder.compile(checkpointer=saver)


async def test_a_run_that_died_between_its_writes_and_its_checkpoint_has_steps_left() -> None:
    saver = DiesBeforeCheckpoint(fatal=3)
    graph = _graph(saver)
    config = {"configurable": {"thread_id": "died-between"}}
    try:
        await graph.ainvoke({"x": 1}, config, durability="sync")
    except RuntimeError:
        pass
    snapshot = await graph.aget_state(config)
    assert snapshot.next == () and snapshot.tasks  # what misled the old check
    assert pending(snapshot)
    saver.fatal = 0
    assert await graph.ainvoke(None, config) == {"x": 25}  # continued: (1 + 1) * 10 + 5


async def test_a_new_a_waiting_and_a_finished_thread_have_no_steps_left() -> None:
    graph = _graph(InMemorySaver(), ask=True)
    config = {"configurable": {"thread_id": "asks"}}
    assert not pending(await graph.aget_state(config))
    await graph.ainvoke({"x": 1}, config)
    waiting = await graph.aget_state(config)
    assert waiting.interrupts and not pending(waiting)  # it waits for a reply, not for a process
    await graph.ainvoke(Command(resume="3"), config)
    assert not pending(await graph.aget_state(config))
