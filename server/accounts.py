"""Who may call the HTTP API and what each caller owns, in PostgreSQL.

- API keys: shown once when made, kept only as their SHA-256; a service key belongs to a
  trusted client that acts for the user it names in ``X-Kea-User``.
- Threads: a thread belongs to the user who started it; extractions to the thread that made them.
- Chat turns: an answer Kea gave, keyed by the conversation the client will send back next,
  so the next message finds its thread (and the question it answers) without any counting.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg_pool import AsyncConnectionPool

from core.protocol import THREAD_NAME
from core.selection import LOCAL_USER

USER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}")
KEY_PREFIX = "kea_"


class AccountError(ValueError):
    """A request about keys or threads that cannot be served; the message says why."""


class NotOwned(LookupError):
    """The thread or file does not exist or belongs to someone else (indistinguishable)."""


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def check_user(name: str) -> str:
    if not USER_NAME.fullmatch(name or ""):
        raise AccountError(
            f"{name!r} is not a user name Kea accepts: letters, digits, '.', '_', '@', '+' or '-', up to 128 characters."
        )
    return name


def check_thread(name: str) -> str:
    if not THREAD_NAME.fullmatch(name or ""):
        raise AccountError(
            f"{name!r} is not a thread name Kea accepts: letters, digits, '.', '_', ':' or '-', up to 128 characters."
        )
    return name


@dataclass(frozen=True)
class KeyInfo:
    id: int
    user: str
    service: bool
    prefix: str
    created_at: datetime
    revoked_at: datetime | None


@dataclass(frozen=True)
class Turn:
    thread: str
    interrupt_id: str | None


def turn_key(user: str, model: str, messages: list[tuple[str, str]]) -> str:
    """The conversation a client sends (its user and assistant messages, whitespace-normalised)."""
    canonical = [user, model, [[role, " ".join(text.split())] for role, text in messages]]
    return hashlib.sha256(json.dumps(canonical, ensure_ascii=False).encode("utf-8")).hexdigest()


class Accounts:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self.pool = pool

    # -- keys ------------------------------------------------------------------------------

    async def create_key(self, user: str, *, service: bool = False) -> tuple[KeyInfo, str]:
        """A new key for ``user`` (or a service of that name); the key itself is returned only here."""
        check_user(user)
        if user == LOCAL_USER:
            raise AccountError(
                f"{LOCAL_USER!r} is this machine's own user, who reads every collection: it gets no key. Make a key "
                "for a named user and grant them collections (kea access grant COLLECTION USER)."
            )
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "INSERT INTO api_keys (user_id, service, key_sha256, key_prefix) VALUES (%s, %s, %s, %s)"
                " RETURNING id, user_id, service, key_prefix, created_at, revoked_at",
                (user, service, hash_key(key), key[: len(KEY_PREFIX) + 6]),
            )
            row = await cur.fetchone()
        return _info(row), key

    async def list_keys(self) -> list[KeyInfo]:
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT id, user_id, service, key_prefix, created_at, revoked_at FROM api_keys ORDER BY id"
            )
            return [_info(r) for r in await cur.fetchall()]

    async def revoke_key(self, key_id: int) -> bool:
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "UPDATE api_keys SET revoked_at = now() WHERE id = %s AND revoked_at IS NULL", (key_id,)
            )
            return cur.rowcount > 0

    async def find_key(self, key: str) -> KeyInfo | None:
        """The live key with this value, if any."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT id, user_id, service, key_prefix, created_at, revoked_at FROM api_keys"
                " WHERE key_sha256 = %s AND revoked_at IS NULL",
                (hash_key(key),),
            )
            row = await cur.fetchone()
        return _info(row) if row else None

    async def any_key(self) -> bool:
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT EXISTS (SELECT 1 FROM api_keys WHERE revoked_at IS NULL) AS found")
            row = await cur.fetchone()
        return bool(row and row["found"])

    # -- threads and extractions -----------------------------------------------------------

    async def claim_thread(self, thread: str, user: str, profile: str) -> tuple[str, bool]:
        """Start ``thread`` for ``user``, or check it is theirs: (the thread's profile, whether it is new)."""
        check_thread(thread)
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "INSERT INTO chat_threads (thread_id, user_id, profile) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
                " RETURNING thread_id",
                (thread, user, profile),
            )
            created = await cur.fetchone() is not None
            cur = await conn.execute("SELECT user_id, profile FROM chat_threads WHERE thread_id = %s", (thread,))
            row = await cur.fetchone()
        if row is None or row["user_id"] != user:
            raise NotOwned(thread)
        return str(row["profile"]), created

    async def release_thread(self, thread: str) -> None:
        async with self.pool.connection() as conn:
            await conn.execute("DELETE FROM chat_threads WHERE thread_id = %s", (thread,))

    async def thread_profile(self, thread: str, user: str) -> str:
        """The profile of ``user``'s thread; ``NotOwned`` when it is not theirs or does not exist."""
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT user_id, profile FROM chat_threads WHERE thread_id = %s", (thread,))
            row = await cur.fetchone()
        if row is None or row["user_id"] != user:
            raise NotOwned(thread)
        return str(row["profile"])

    async def record_extraction(self, extraction_id: str, thread: str) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO thread_extractions (extraction_id, thread_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                (extraction_id, thread),
            )

    async def extraction_owner(self, extraction_id: str) -> str | None:
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT t.user_id FROM thread_extractions e JOIN chat_threads t USING (thread_id)"
                " WHERE e.extraction_id = %s",
                (extraction_id,),
            )
            row = await cur.fetchone()
        return str(row["user_id"]) if row else None

    # -- secrets every replica shares -------------------------------------------------------

    async def shared_secret(self, name: str, proposed: str) -> str:
        """The secret ``name`` of every process on this database: ``proposed`` when this is the first."""
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO shared_secrets (name, secret) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING", (name, proposed)
            )
            cur = await conn.execute("SELECT secret FROM shared_secrets WHERE name = %s", (name,))
            row = await cur.fetchone()
        return str(row["secret"])

    # -- chat turns ------------------------------------------------------------------------

    async def record_turn(self, key: str, thread: str, interrupt_id: str | None) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "INSERT INTO chat_turns (turn_key, thread_id, interrupt_id) VALUES (%s, %s, %s)",
                (key, thread, interrupt_id),
            )

    async def take_turn(self, key: str, user: str) -> Turn | None:
        """The oldest untaken answer of ``user`` under ``key``, taken in one atomic step."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "UPDATE chat_turns SET taken_at = now() WHERE id = ("
                "  SELECT c.id FROM chat_turns c JOIN chat_threads t USING (thread_id)"
                "  WHERE c.turn_key = %s AND c.taken_at IS NULL AND t.user_id = %s"
                "  ORDER BY c.id LIMIT 1 FOR UPDATE OF c SKIP LOCKED"
                ") RETURNING thread_id, interrupt_id",
                (key, user),
            )
            row = await cur.fetchone()
        return Turn(row["thread_id"], row["interrupt_id"]) if row else None


def _info(row: dict[str, Any]) -> KeyInfo:
    return KeyInfo(
        int(row["id"]), row["user_id"], bool(row["service"]), row["key_prefix"], row["created_at"], row["revoked_at"]
    )


def open_pool(url: str, max_size: int = 10) -> AsyncConnectionPool[Any]:
    """An async pool as LangGraph's Postgres saver wants it (autocommit, dict rows, no prepares)."""
    from psycopg.rows import dict_row

    return AsyncConnectionPool(
        url,
        min_size=1,
        max_size=max_size,
        open=False,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
    )
