"""The model endpoint: the settings a profile gives, where a key may go, and the client."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import openai

from tools.engines.base import ExtractionError

if TYPE_CHECKING:
    from langchain_openai import ChatOpenAI

    from core.profile import Profile

# What a profile may set: one request, its whole answer included, takes at most this long, and
# a failed one is retried at most this often, so a document that never gets an answer ends.
MIN_REQUEST_SECONDS, MAX_REQUEST_SECONDS = 0.1, 600.0
MAX_RETRIES = 10


@dataclass(frozen=True)
class ModelSettings:
    """What the engine needs of a profile."""

    model: str
    base_url: str | None
    api_key_env: str
    request_timeout: float
    max_retries: int
    model_concurrency: int
    context_tokens: int

    @classmethod
    def of(cls, profile: Profile) -> ModelSettings:
        if not profile.model:
            raise ExtractionError(
                "The llm engine needs a model: set KEA_MODEL (and KEA_BASE_URL for an endpoint other "
                "than OpenAI) or the profile's model."
            )
        return cls(
            model=profile.model,
            base_url=profile.base_url,
            api_key_env=profile.api_key_env,
            request_timeout=min(MAX_REQUEST_SECONDS, max(MIN_REQUEST_SECONDS, float(profile.request_timeout))),
            max_retries=min(MAX_RETRIES, max(0, int(profile.max_retries))),
            model_concurrency=max(1, int(profile.model_concurrency)),
            context_tokens=int(profile.context_tokens),
        )

    @property
    def endpoint(self) -> str:
        return self.base_url or "https://api.openai.com/v1"

    @property
    def attempts(self) -> int:
        return self.max_retries + 1


async def _final_when_quota_is_gone(response: Any) -> None:
    """A 429 that says the quota is exhausted is final: waiting and retrying cannot help.

    The openai client obeys ``x-should-retry``; setting it here keeps its retries (and their
    backoff) for rate limits that pass.
    """
    if response.status_code == 429:
        await response.aread()
        if b"insufficient_quota" in response.content:
            response.headers["x-should-retry"] = "false"


class _BoundedHttpClient(openai.DefaultAsyncHttpxClient):  # type: ignore[misc,valid-type]
    """An HTTP client whose every request, the whole answer included, ends within ``total`` seconds.

    The client's own timeout bounds each read, so an endpoint (or a proxy) that sends its
    answer a few bytes at a time would never time out. Past ``total`` the request fails as a
    read timeout, which the openai client retries and finally reports as a timeout.
    """

    def __init__(self, total: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._total = total
        base = next(c for c in type(self).__mro__ if c.__name__ == "AsyncClient")
        self._timeout_error = sys.modules[base.__module__.split(".")[0]].ReadTimeout

    async def send(self, request: Any, **kwargs: Any) -> Any:
        try:
            async with asyncio.timeout(self._total):
                return await super().send(request, **kwargs)
        except TimeoutError:
            raise self._timeout_error(f"no whole answer within {self._total:g} s", request=request) from None


# One client per event loop: an HTTP connection pool belongs to the loop it was opened on.
_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[Any, ...], ChatOpenAI]] = (
    weakref.WeakKeyDictionary()
)


_KEY_NAME = re.compile(r"(OPENAI|KEA)_[A-Z0-9_]*KEY")


def _allowed_endpoints() -> set[str | None]:
    """Endpoints the operator configured: KEA_BASE_URL (OpenAI's when unset) and KEA_ALLOWED_BASE_URLS."""
    allowed: set[str | None] = {(os.environ.get("KEA_BASE_URL") or "").rstrip("/") or None}
    allowed |= {u.strip().rstrip("/") for u in os.environ.get("KEA_ALLOWED_BASE_URLS", "").split(",") if u.strip()}
    return allowed


def check_endpoint(settings: ModelSettings) -> None:
    """A profile is context any caller may set: the key goes only where the operator allows.

    Without this, a caller could name its own server as the endpoint and any environment
    variable (a database password, a cloud secret) as the key, and receive it.
    """
    if not _KEY_NAME.fullmatch(settings.api_key_env):
        raise ExtractionError(
            f"The profile names {settings.api_key_env} as the API key variable; only OPENAI_…KEY or KEA_…KEY "
            "variables may hold model keys."
        )
    if ((settings.base_url or "").rstrip("/") or None) not in _allowed_endpoints():
        raise ExtractionError(
            f"The model endpoint {settings.endpoint} is not one this installation allows; the operator lists "
            "endpoints in KEA_BASE_URL or KEA_ALLOWED_BASE_URLS."
        )


def chat_model(settings: ModelSettings) -> ChatOpenAI:
    """The ChatOpenAI client for these settings on the running event loop."""
    from langchain_openai import ChatOpenAI

    check_endpoint(settings)
    key = os.environ.get(settings.api_key_env)
    if not key:
        if settings.base_url is None:
            raise ExtractionError(
                f"No API key for the model endpoint: set {settings.api_key_env} (the profile names this variable)."
            )
        key = "none"  # a local endpoint may need no key; one that does answers 401, reported as such
    cache_key = (settings, key)
    per_loop = _clients.setdefault(asyncio.get_running_loop(), {})
    if cache_key not in per_loop:
        http = _BoundedHttpClient(settings.request_timeout, event_hooks={"response": [_final_when_quota_is_gone]})
        per_loop[cache_key] = ChatOpenAI(
            model=settings.model,
            base_url=settings.base_url,
            api_key=key,  # type: ignore[arg-type]
            timeout=settings.request_timeout,
            max_retries=settings.max_retries,
            http_async_client=http,
            use_responses_api=False,
        )
    return per_loop[cache_key]
