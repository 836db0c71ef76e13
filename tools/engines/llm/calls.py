"""One structured call to the model: a slot held, the answer parsed, a failure put in words.

Retries of 408/409/429/5xx and timeouts are the openai client's own (``max_retries``,
``request_timeout``, honouring Retry-After). What is left after its last attempt fails with the
reason; an exhausted quota or a refused key fails at once, and so does every call to that
endpoint with that key for ``REFUSED_FOR_SECONDS``.
"""

from __future__ import annotations

import asyncio
import functools
import os
import time
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

import openai
from langchain_core.exceptions import ContextOverflowError
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ValidationError

from tools.engines.base import ExtractionError
from tools.engines.llm.endpoint import ModelSettings, chat_model
from tools.engines.numbers import parse_number
from tools.engines.usage import record_usage

REFUSED_FOR_SECONDS = 60.0  # after a refused key or an exhausted quota, calls fail at once

# How an endpoint takes structured output: "json_schema" until it refuses it.
_methods: dict[tuple[str, str], str] = {}
# Endpoints that refused the key or ran out of quota: (when, why).
_refusals: dict[tuple[str, str, str], tuple[float, str]] = {}

T = TypeVar("T", bound=BaseModel)


class Slots(Protocol):
    def hold(self) -> AbstractAsyncContextManager[Any]: ...


class CutOff(Exception):
    """The answer did not fit the output limit, or the input did not fit the context."""


class _Invalid(Exception):
    """The answer did not match the requested structure."""


def _what_is_wrong(exc: ValidationError) -> str:
    """The first fault of an answer in a few words: no JSON at all, a missing or a wrong field."""
    errors = exc.errors(include_url=False)
    if not errors:
        return "no structured answer"
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "the answer"
    if first["type"] == "json_invalid":
        what = "it was not valid JSON"
    elif first["type"] == "missing":
        what = f"'{where}' is missing"
    else:
        what = f"'{where}': {first['msg']}"
    more = len(errors) - 1
    return (what + (f", and {more} more fault{'s' if more != 1 else ''}" if more else ""))[:200]


def _refuses_json_schema(exc: openai.APIStatusError) -> bool:
    """The endpoint refused the response format (whatever status it used: llama-cpp-python's
    server answers 500 with a validation error, most others 400)."""
    text = str(exc).lower()
    return "response_format" in text or "json_schema" in text or "structured output" in text


class _FormatRefused(Exception):
    """The endpoint does not take a JSON-schema response format: ask it by function calling."""


def _quota_exhausted(exc: openai.APIStatusError) -> bool:
    return getattr(exc, "code", None) == "insufficient_quota" or "insufficient_quota" in str(exc.body or exc.message)


@functools.lru_cache(maxsize=8)
def _cap_database_at(configured: str | None, home: str | None) -> str:
    from checkpoints.cluster import database_url

    return database_url()


def _cap_database() -> str:
    """The database whose slots cap a model's calls across every process on it: the configured
    one, found once per configuration (finding the local cluster may start it, which blocks)."""
    return _cap_database_at(os.environ.get("KEA_DATABASE_URL"), os.environ.get("KEA_HOME"))


class ModelCalls:
    """Structured calls to the model of these settings, each holding one of its global slots."""

    def __init__(self, settings: ModelSettings, *, model: Any = None, slots: Slots | None = None) -> None:
        self.settings = settings
        self._model = model  # a chat model to use instead of ChatOpenAI (tests at the model boundary)
        self._slots = slots

    async def _held(self) -> Slots:
        if self._slots is None:
            from tools.engines.model_slots import model_slots

            url = await asyncio.to_thread(_cap_database)
            return model_slots(url, self.settings.model, self.settings.model_concurrency)
        return self._slots

    def _chat(self) -> Any:
        return self._model if self._model is not None else chat_model(self.settings)

    @property
    def _endpoint(self) -> tuple[str, str]:
        return (self.settings.endpoint, self.settings.model)

    async def ask(self, schema: type[T], system: str, user: str) -> T:
        """One structured answer, or ``CutOff`` when the answer or the input did not fit.

        The structure is asked for as JSON schema; an endpoint that refuses that is asked by
        function calling from then on. An answer that does not match the structure is asked
        for once more.
        """
        refused = _refusals.get((*self._endpoint, self.settings.api_key_env))
        if refused and time.monotonic() - refused[0] < REFUSED_FOR_SECONDS:
            raise ExtractionError(refused[1])
        invalid = 0
        while True:
            method = _methods.get(self._endpoint, "json_schema")
            try:
                return await self._invoke(schema, system, user, method)
            except _Invalid as exc:
                invalid += 1
                if invalid >= 2:
                    raise ExtractionError(f"the model's answer did not match the requested structure twice ({exc})") from None
            except _FormatRefused:
                _methods[self._endpoint] = "function_calling"
            except openai.BadRequestError as exc:
                raise ExtractionError(f"the model endpoint rejected the request (HTTP 400): {exc.message[:300]}") from None

    async def _invoke(self, schema: type[T], system: str, user: str, method: str) -> T:
        runnable = self._chat().with_structured_output(schema, method=method, include_raw=True)
        messages = [SystemMessage(system), HumanMessage(user)]
        slots = await self._held()
        async with slots.hold():
            try:
                out = await runnable.ainvoke(messages)
            except openai.LengthFinishReasonError as exc:
                usage = exc.completion.usage
                record_usage(usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0)
                raise CutOff() from exc
            except openai.ContentFilterFinishReasonError:
                record_usage()
                raise ExtractionError("the model endpoint's content filter stopped the answer") from None
            except ValidationError as exc:
                record_usage()
                raise _Invalid(_what_is_wrong(exc)) from None
            except ContextOverflowError as exc:
                raise CutOff() from exc
            except openai.APIStatusError as exc:
                if method == "json_schema" and _refuses_json_schema(exc):
                    raise _FormatRefused() from exc
                if isinstance(exc, openai.BadRequestError):
                    raise
                raise ExtractionError(self._failure(exc)) from None
            except openai.APIConnectionError as exc:
                raise ExtractionError(self._failure(exc)) from None
        raw: AIMessage = out["raw"]
        usage = raw.usage_metadata or {}
        record_usage(usage.get("input_tokens", 0), usage.get("output_tokens", 0))
        if raw.response_metadata.get("finish_reason") == "length":
            raise CutOff()  # function calling gives a cut-off answer no parse, and no error
        error = out.get("parsing_error")
        if error is not None and type(error).__name__.endswith("RefusalError"):
            raise ExtractionError(f"the model refused to answer: {str(error)[:200]}")
        if error is not None or out.get("parsed") is None:
            raise _Invalid(str(error or "no structured answer")[:200])
        return out["parsed"]  # type: ignore[no-any-return]

    def _failure(self, exc: Exception) -> str:
        """Why the endpoint failed, after the client's last attempt, in the user's terms."""
        s = self.settings
        attempts = f"after {s.attempts} attempt{'s' if s.attempts != 1 else ''}"
        refused: str | None = None
        if isinstance(exc, openai.APITimeoutError):
            return f"the model endpoint did not answer within {s.request_timeout:g} s ({attempts})"
        if isinstance(exc, openai.APIConnectionError):
            if _was_connected(exc):
                return f"the connection to the model endpoint at {s.endpoint} was lost ({attempts})"
            return f"could not reach the model endpoint at {s.endpoint} ({attempts})"
        assert isinstance(exc, openai.APIStatusError)
        status = exc.status_code
        if isinstance(exc, openai.AuthenticationError):
            refused = f"the model endpoint refused the API key in {s.api_key_env} (HTTP 401)"
        elif isinstance(exc, openai.PermissionDeniedError):
            refused = f"the model endpoint denied access to model '{s.model}' (HTTP 403)"
        elif isinstance(exc, openai.RateLimitError) and _quota_exhausted(exc):
            refused = "the model endpoint's quota is exhausted (429 insufficient_quota): add credit or raise the quota, then ask again"
        if refused:
            _refusals[(*self._endpoint, s.api_key_env)] = (time.monotonic(), refused)
            return refused
        if isinstance(exc, openai.NotFoundError):
            return f"the model endpoint at {s.endpoint} has no model '{s.model}' (HTTP 404)"
        wait = exc.response.headers.get("retry-after") if exc.response is not None else None
        if wait and (parse_number(wait) or 0) > 120:
            return f"the model endpoint answered {status} and asked to wait {wait} s before the next request"
        if status == 429:
            return f"the model endpoint kept answering 429 (rate limited) {attempts}"
        if status in (408, 409) or status >= 500:
            return f"the model endpoint kept failing (HTTP {status}) {attempts}"
        return f"the model endpoint answered HTTP {status}: {exc.message[:300]}"


def _was_connected(exc: Exception) -> bool:
    """Whether a connection error came after the endpoint accepted the connection (a reset, a
    close before the answer) rather than from not reaching it at all."""
    cause = exc.__cause__
    return cause is not None and type(cause).__name__ not in ("ConnectError", "ConnectTimeout", "ProxyError")
