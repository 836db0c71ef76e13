"""One turn of a thread, for every HTTP client: start or resume the graph, yield typed events.

A turn yields ``ProgressEvent``s while documents are read, then exactly one ``QuestionsEvent``
(the run waits for a reply) or one ``RunResult`` (with a download link in place of the store
reference). The open question of a thread is found with ``graph.aget_state(config).interrupts``
and resumed by its id.

Each turn runs as a task of its own, leased in ``runs`` (``tools/lifecycle.py``): a client that
goes away does not stop it (its answer waits in the thread's state), a cancel from any process
stops it, and a turn whose server died or stopped is continued by a live server: every replica
looks for such runs when it starts and every ``takeover_seconds`` after (``watch``), and the
lease decides which one continues each.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from langgraph.types import Command

from checkpoints.runs import NothingToTakeOver, RunBusy, RunRecord, RunRecords
from core.profile import Profile
from core.protocol import ProgressEvent, QuestionsEvent, QuestionsForm, asks_to_continue, progress_event
from core.result import RunResult, build_agent_result, build_result, failed_result
from graph.runs import pending, run_to_stop, stopped_result
from server.accounts import Accounts, NotOwned
from tools.lifecycle import RunLost, durable_run
from tools.storage.links import LINK_LIFETIME, LinkSigner
from tools.storage.objects import ObjectStore
from tools.storage.rows import output_key

log = logging.getLogger(__name__)
Event = ProgressEvent | QuestionsEvent | RunResult


CANCEL_WAIT_SECONDS = 15.0
TURN_WAIT_SECONDS = 900.0  # a turn on a thread whose last turn still runs waits for it, this long at most


def takeover_seconds() -> float:
    """How often a server looks for runs whose process is gone (``KEA_TAKEOVER_SECONDS``)."""
    return max(0.1, float(os.environ.get("KEA_TAKEOVER_SECONDS", "2")))


class NothingWaiting(LookupError):
    """The thread has no question waiting (or not the one named)."""


class NotRunning(LookupError):
    """The thread has no run in flight: there is nothing to cancel."""


@dataclass
class Runner:
    graphs: dict[str, Any]  # the graph answering each kind of profile: "document-tables", "universal"
    accounts: Accounts
    objects: ObjectStore
    signer: LinkSigner
    clock: Callable[[], datetime]
    agent_of: Callable[[str], str] = lambda profile: "document-tables"  # profile name → kind
    records: RunRecords | None = None  # runs in flight (None: turns are neither leased nor cancellable)

    def __post_init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self._held: Counter[str] = Counter()  # threads whose lease this process holds (runs in flight here)
        self._taking: set[str] = set()  # threads this process is about to take over

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

    async def message_payload(self, thread: str, profile: str, text: str, **fields: Any) -> dict[str, Any] | None:
        """What a new message runs: a new request, or — "continue" on a thread whose last run
        stopped midway — None, which continues that run from its last checkpoint."""
        if asks_to_continue(text) and await self.stopped_midway(thread, profile):
            return None
        return {"message": text, **fields}

    async def stopped_midway(self, thread: str, profile: str) -> bool:
        """Whether the thread's last run stopped before its end (a service went away) and can continue."""
        return pending(await self.graph(profile).aget_state(self.config(thread)))

    async def resume_command(
        self, thread: str, profile: str, reply: Any, interrupt_id: str | None = None
    ) -> Command[Any] | None:
        """A resume of the open question ``interrupt_id`` (default: the thread's open one); with no
        question open, None for a run that stopped midway (it continues from its last checkpoint)."""
        open_ = {i.id: i for i in await self.waiting(thread, profile)}
        if not open_ and interrupt_id is None and await self.stopped_midway(thread, profile):
            return None
        if not open_:
            raise NothingWaiting(f"Thread {thread} has no question waiting, so there is nothing to resume. Send a new request.")
        chosen = interrupt_id or next(iter(open_))
        if chosen not in open_:
            raise NothingWaiting(f"That question of thread {thread} was answered already; answer the one now waiting.")
        return Command(resume={chosen: "" if reply is None else reply})

    async def turn(self, thread: str, profile: Profile, payload: Any, base_url: str) -> AsyncIterator[Event]:
        """Run ``payload`` (a new message, or a resume ``Command``) on ``thread`` to its next stop.

        The run is a task of its own: when the caller stops listening, it goes on to its answer.
        """
        queue: asyncio.Queue[Event | None] = asyncio.Queue()
        self._start(thread, profile, payload, base_url, queue.put_nowait)
        while (event := await queue.get()) is not None:
            yield event

    def _start(
        self, thread: str, profile: Profile, payload: Any, base_url: str, emit: Callable[[Event | None], None] | None,
        wait: float = TURN_WAIT_SECONDS,
    ) -> None:
        self._track(asyncio.create_task(self._run(thread, profile, payload, base_url, emit, wait), name=f"kea-run-{thread}"))

    def _track(self, task: "asyncio.Task[None]") -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @contextmanager
    def _holding(self, thread: str) -> Iterator[None]:
        """The block runs ``thread`` under its lease here: no look for orphans takes it over."""
        self._held[thread] += 1
        try:
            yield
        finally:
            self._held[thread] -= 1
            if self._held[thread] <= 0:
                del self._held[thread]

    async def _run(
        self, thread: str, profile: Profile, payload: Any, base_url: str, emit: Callable[[Event | None], None] | None,
        wait: float,
    ) -> None:
        send = emit or (lambda event: None)
        try:
            if self.records is None:
                async for event in self._events(thread, profile, payload, base_url, None):
                    send(event)
                return
            async with durable_run(
                self.records, thread, user=profile.user, profile=profile.name, origin="server", wait=wait
            ) as control:
                with self._holding(thread):
                    async for event in self._events(thread, profile, payload, base_url, control):
                        send(event)
        except RunLost as exc:
            log.warning("%s", exc)
            send(failed_result(f"{exc} Its answer: GET /v1/runs/{thread}.", thread))
        except RunBusy:
            send(failed_result(
                f"Thread {thread} is still answering its last request. Wait for its answer (GET /v1/runs/{thread}) "
                f"or cancel it (DELETE /v1/runs/{thread}), then ask again.", thread))
        except Exception as exc:  # noqa: BLE001 — every client gets an answer in a sentence
            log.exception("A run on thread %s failed", thread)
            send(stopped_result(exc, thread))
        finally:
            send(None)

    async def _events(self, thread: str, profile: Profile, payload: Any, base_url: str, control: Any) -> AsyncIterator[Event]:
        progress: asyncio.Queue[ProgressEvent | None] = asyncio.Queue()

        def shown(item: dict[str, Any]) -> None:
            if (event := progress_event(item)) is not None:
                progress.put_nowait(event)

        async def run() -> tuple[dict[str, Any], list[Any]]:
            try:
                return await run_to_stop(
                    self.graph(profile.name), payload, self.config(thread), profile, shown, control, self.objects
                )
            finally:
                progress.put_nowait(None)

        step = asyncio.create_task(run())
        try:
            while (event := await progress.get()) is not None:
                yield event
            values, interrupts = await step
        except Exception as exc:  # noqa: BLE001 — every client gets an answer in a sentence
            log.exception("A run on thread %s failed", thread)
            if control is not None:
                control.failed = True
            yield stopped_result(exc, thread)
            return
        finally:
            if not step.done():
                step.cancel()
                await asyncio.gather(step, return_exceptions=True)
        if interrupts:
            first = interrupts[0]
            yield QuestionsEvent(thread=thread, interrupt_id=first.id, form=QuestionsForm.model_validate(first.value))
            return
        yield await self.result(thread, profile.name, values, base_url)

    async def cancel(self, thread: str, user: str, wait: float = CANCEL_WAIT_SECONDS) -> str:
        """Stop ``user``'s running thread, wherever it runs; the run's state once it ended
        ("cancelled"), or "cancelling" when it has not ended within ``wait`` seconds."""
        if self.records is None or await self.records.request_cancel(thread, user) is None:
            raise NotRunning(f"Thread {thread} has no run in flight, so there is nothing to cancel.")
        if await self.records.settle_orphan(thread, "cancelled"):
            return "cancelled"  # its process is gone: it is not continued (a takeover checks under the same lock)
        deadline = asyncio.get_running_loop().time() + wait
        while asyncio.get_running_loop().time() < deadline:
            record = await self.records.get(thread)
            if record is None or record.state != "running":
                return record.state if record else "cancelled"
            await asyncio.sleep(0.1)
        return "cancelling"  # it stops when its process next looks (tools/lifecycle.py poll_seconds)

    async def pick_up(self, profile_of: Callable[[str, str], Profile]) -> list[str]:
        """Continue, in the background, the server's runs whose process is gone; their threads.

        A run alive in another process (another replica) is left to it, and so is one this
        process runs; replicas looking at once continue each run once (the lease decides).
        """
        if self.records is None:
            return []
        picked = []
        for record in await self.records.orphans("server"):
            if record.thread in self._held or record.thread in self._taking:
                continue  # its run here has only lost its lease's connection for a moment (tools/lifecycle.py)
            try:
                profile = profile_of(record.profile, record.user)
            except KeyError:
                log.warning("The run on thread %s names profile %r, which is gone; it is not continued.", record.thread, record.profile)
                await self.records.settle_orphan(record.thread, "stopped")
                continue
            self._taking.add(record.thread)
            self._track(asyncio.create_task(self._take_over(record, profile), name=f"kea-takeover-{record.thread}"))
            picked.append(record.thread)
        return picked

    async def _take_over(self, record: RunRecord, profile: Profile) -> None:
        """Continue ``record``'s run from its last checkpoint, with nobody listening: its answer
        waits in the thread's state (GET /v1/runs/{thread}), its table is linked to the thread."""
        thread = record.thread
        assert self.records is not None
        try:
            async with durable_run(
                self.records, thread, user=record.user, profile=record.profile, origin="server",
                narrowing=record.narrowing, takeover=True,
            ) as control:
                with self._holding(thread):
                    self._taking.discard(thread)
                    snapshot = await self.graph(record.profile).aget_state(self.config(thread))
                    if not pending(snapshot):
                        return  # it ended, or waits for a reply: nothing to continue
                    log.info("Continuing the run on thread %s: the process that ran it is gone", thread)
                    async for _ in self._events(thread, profile, None, "", control):
                        pass
        except (RunBusy, NothingToTakeOver):
            return  # another replica continues it, or it needs nobody any more
        except RunLost as exc:
            log.warning("%s", exc)
        except Exception:  # noqa: BLE001 — the run stays resumable; the next look may continue it
            log.exception("The run on thread %s could not be continued", thread)
        finally:
            self._taking.discard(thread)

    async def watch(self, profile_of: Callable[[str, str], Profile], every: float | None = None) -> None:
        """Look for runs whose process is gone every ``every`` seconds (with jitter), for ever."""
        every = takeover_seconds() if every is None else every
        while True:
            await asyncio.sleep(every * random.uniform(0.75, 1.25))
            try:
                await self.pick_up(profile_of)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 — the database may be away; look again next time
                log.warning("Could not look for runs to continue", exc_info=True)

    async def close(self) -> None:
        """Stop the runs of this server (they stay in flight: the next server continues them)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

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


