"""One turn of a thread, for every HTTP client: start or resume the graph, yield typed events.

A turn yields ``ProgressEvent``s while documents are read, then exactly one ``QuestionsEvent``
(the run waits for a reply) or one ``RunResult`` (with a download link in place of the store
reference). The open question of a thread is found with ``graph.aget_state(config).interrupts``
and resumed by its id.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from langgraph.types import Command

from graph.profile import Profile
from graph.protocol import ProgressEvent, QuestionsEvent, QuestionsForm, progress_event
from graph.result import RunResult, build_agent_result, build_result, failed_result
from graph.runs import stream_events
from server.accounts import Accounts, NotOwned
from tools.storage.links import LINK_LIFETIME, LinkSigner
from tools.storage.objects import ObjectStore
from tools.storage.rows import output_key

log = logging.getLogger(__name__)
Event = ProgressEvent | QuestionsEvent | RunResult


class NothingWaiting(LookupError):
    """The thread has no question waiting (or not the one named)."""


@dataclass
class Runner:
    graphs: dict[str, Any]  # the graph answering each kind of profile: "document-tables", "universal"
    accounts: Accounts
    objects: ObjectStore
    signer: LinkSigner
    clock: Callable[[], datetime]
    agent_of: Callable[[str], str] = lambda profile: "document-tables"  # profile name → kind

    @staticmethod
    def config(thread: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread}}

    def graph(self, profile: str) -> Any:
        """The compiled graph that answers profile ``profile``."""
        return self.graphs[self.agent_of(profile)]

    async def claim(self, thread: str, user: str, profile: str) -> str:
        """Start ``thread`` for ``user`` or check it is theirs; returns its profile.

        A name that is new to the API but already has a checkpoint (a thread of the CLI or of
        another program on the same database) is not taken over: ``NotOwned``.
        """
        recorded, created = await self.accounts.claim_thread(thread, user, profile)
        if created and (await self.graph(profile).aget_state(self.config(thread))).values:
            await self.accounts.release_thread(thread)
            raise NotOwned(thread)
        return recorded

    async def waiting(self, thread: str, profile: str) -> list[Any]:
        """The thread's open questions (LangGraph interrupts), oldest first."""
        return list((await self.graph(profile).aget_state(self.config(thread))).interrupts)

    async def resume_command(self, thread: str, profile: str, reply: Any, interrupt_id: str | None = None) -> Command[Any]:
        """A resume of the open question ``interrupt_id`` (default: the thread's open one)."""
        open_ = {i.id: i for i in await self.waiting(thread, profile)}
        if not open_:
            raise NothingWaiting(f"Thread {thread} has no question waiting, so there is nothing to resume. Send a new request.")
        chosen = interrupt_id or next(iter(open_))
        if chosen not in open_:
            raise NothingWaiting(f"That question of thread {thread} was answered already; answer the one now waiting.")
        return Command(resume={chosen: "" if reply is None else reply})

    async def turn(self, thread: str, profile: Profile, payload: Any, base_url: str) -> AsyncIterator[Event]:
        """Run ``payload`` (a new message, or a resume ``Command``) on ``thread`` to its next stop."""
        config = self.config(thread)
        values: dict[str, Any] = {}
        interrupts: list[Any] = []
        try:
            async for kind, item in stream_events(self.graph(profile.name), payload, config, profile):
                if kind == "progress" and (event := progress_event(item)) is not None:
                    yield event
                elif kind == "interrupt":
                    interrupts.append(item)
                elif kind == "state":
                    values = dict(item)  # this run's own state, whatever else runs on the thread
        except Exception as exc:  # noqa: BLE001 — every client gets an answer in a sentence
            log.exception("A run on thread %s failed", thread)
            yield failed_result(f"The run stopped with an error: {exc or type(exc).__name__}. Nothing more was read.", thread)
            return
        if interrupts:
            first = interrupts[0]
            yield QuestionsEvent(thread=thread, interrupt_id=first.id, form=QuestionsForm.model_validate(first.value))
            return
        yield await self.result(thread, profile.name, values, base_url)

    async def result(self, thread: str, profile: str, values: dict[str, Any], base_url: str) -> RunResult:
        """The thread's answer, each table named by a download link (the Universal Agent's: its
        text with the tables of this answer)."""
        if self.agent_of(profile) == "universal":
            tables = [await self._linked(thread, build_result(t, thread=thread), base_url) for t in values.get("tables") or []]
            return build_agent_result(values, thread=thread, tables=tables)
        return await self._linked(thread, build_result(values, thread=thread), base_url)

    async def _linked(self, thread: str, result: RunResult, base_url: str) -> RunResult:
        if result.extraction_id and result.csv:
            await self.accounts.record_extraction(result.extraction_id, thread)
            links = {name: await self.link(result.extraction_id, name, base_url) for name in result.outputs()}
            result = result.with_links(links)
        return result

    async def link(self, extraction_id: str, name: str, base_url: str) -> str:
        """A download link valid 24 hours: presigned by S3, or signed by Kea for its own endpoint."""
        key = output_key(extraction_id, name)
        presigned = await asyncio.to_thread(self.objects.presigned_url, key, int(LINK_LIFETIME.total_seconds()))
        if presigned:
            return presigned
        path = f"{extraction_id}/{name}"
        return f"{base_url.rstrip('/')}/files/{path}?{urlencode(self.signer.sign(path, self.clock()))}"
