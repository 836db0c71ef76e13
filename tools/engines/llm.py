"""The LLM engine: requests and documents read by any OpenAI-compatible chat model.

Reading a request is one structured call (a greeting or a question about Kea costs none).
Extracting a document asks for records in a schema built at run time from the columns, and
then checks what came back:

- Long documents are read in overlapping windows of pages sized to ``context_tokens``; a
  window that starts inside the document carries the document's first lines (supplier,
  parties, date) and the last table header before it. Rows found twice where windows overlap
  are kept once: the same evidence at the same place of the same page is one row.
- An answer cut off by the output limit (or an input over the context limit) splits its part
  in halves, which are read again; a part is never retried whole and never accepted half.
- Retries of 408/409/429/5xx and timeouts are the openai client's own (``max_retries``,
  ``request_timeout``, honouring Retry-After). What is left after its last attempt fails the
  document with the reason; an exhausted quota or a refused key fails at once.
- Every call holds one of the model's global slots (``model_slots``) and reports its tokens.
- The model's rows stand: a value the document does not contain, or a literal condition that
  its cell fails under every reading, marks the row unsure with the reason; no check drops a
  row the model gave or changes a value it read.
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import sys
import time
import weakref
from collections import Counter
from collections.abc import Awaitable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

import openai
from langchain_core.exceptions import ContextOverflowError
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from core.reading import (
    Condition,
    ConditionOp,
    DocumentText,
    Place,
    Reading,
    Record,
    ScopeHint,
)
from tools.engines import prompts
from tools.engines.accounting import accounting_note
from tools.engines.base import Estimate, ExtractionError
from tools.engines.checks import check_conditions, checked, unused_notes, values_found
from tools.engines.columns import match_column
from tools.engines.conversation import kind_of
from tools.engines.dates import years_as_dates
from tools.engines.numbers import parse_number
from tools.engines.offline import read_message
from tools.engines.offline.request import written_places
from tools.engines.usage import record_usage

if TYPE_CHECKING:
    from langchain_openai import ChatOpenAI

    from core.profile import Profile

CHARS_PER_TOKEN = 4  # the estimate windows are sized with
PAGE_CHARS = 3000  # a typical page of business text, for the estimate before a run
SECONDS_PER_CALL = 20  # a typical extraction call, for the estimate before a run
ESTIMATE_PROMPT_CHARS = 2000
MIN_WINDOW_CHARS = 400  # a window never shrinks below this, whatever the budget
PIECES_PER_WINDOW = 4  # long pages are cut into pieces of at most a quarter window
PROMPT_SKELETON_CHARS = 600  # the user prompt around the text: names, markers, labels
DOCUMENT_HEAD_CHARS = 800  # the document's first lines, given to windows that start later
MAX_SPLITS = 5  # a cut-off part is halved at most this often (1/32 of a window)
MIN_SPLIT_CHARS = 200  # a part this short is not halved any further
WINDOWS_AT_ONCE = 4  # windows of one document read at the same time (each holds a slot)
REFUSED_FOR_SECONDS = 60.0  # after a refused key or an exhausted quota, calls fail at once
EVIDENCE_CHARS = 2000  # a longer "quote" is not a line of the document
# What a profile may set: one request, its whole answer included, takes at most this long, and
# a failed one is retried at most this often, so a document that never gets an answer ends.
MIN_REQUEST_SECONDS, MAX_REQUEST_SECONDS = 0.1, 600.0
MAX_RETRIES = 10


# ============================================================================================
# Settings and the model client


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
# How an endpoint takes structured output: "json_schema" until it refuses it.
_methods: dict[tuple[str, str], str] = {}
# Endpoints that refused the key or ran out of quota: (when, why).
_refusals: dict[tuple[str, str, str], tuple[float, str]] = {}


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


class _Slots(Protocol):
    def hold(self) -> AbstractAsyncContextManager[Any]: ...


class _CutOff(Exception):
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


# ============================================================================================
# Output structures


class _ConditionOut(BaseModel):
    column: str | None = Field(description="The column the condition is on; null for a judgement.")
    op: ConditionOp
    value: str = Field(description="The value as the user wrote it.")
    text: str = Field(description="The condition in the user's words.")


class _PlaceOut(BaseModel):
    kind: Literal["folder", "file", "year", "glob"]
    value: str = Field(description="The folder as listed, the file path, the four-digit year or the glob.")


class RequestReading(BaseModel):
    """How one request reads: the table it asks for, which rows, which documents, where."""

    kind: Literal["table", "greeting", "about"]
    columns: list[str] = Field(description="The values every row holds, in order.")
    columns_from: Literal["request", "model"] = Field(
        description="'request' when the user named the columns, 'model' when you designed them."
    )
    row_condition: str | None = Field(description="The row condition in words; null for every row.")
    conditions: list[_ConditionOut] = Field(description="The literal parts of the row condition.")
    row_terms: list[str] = Field(description="Words that pick rows by meaning.")
    document_conditions: list[str] = Field(description="What a whole document must meet: supplier, party, year.")
    places: list[_PlaceOut] = Field(description="Folders, files, years and globs the user named; never a supplier.")
    calculations: list[str] = Field(description="Sums, averages, counts... the user asks for; named, never computed.")
    notes: list[str] = Field(description="What could not be taken into the reading, one sentence each.")
    unused: list[str] = Field(
        description="Words of the request that no part of this reading takes up (neither a column, a condition, "
        "a place, an owner nor a calculation), as written; empty when every word is used.",
    )


_EXTRA_FIELDS = {
    "match": ("record_match", Literal["yes", "unsure"], "'yes' when the row clearly meets the row condition, 'unsure' when it may."),
    "page": ("page", int | None, "The page number of the marker above the evidence line."),
    "evidence": ("evidence", str, "The line the row stands on, copied verbatim from the text."),
    "note": ("note", str | None, "Why the row is unsure; null for a 'yes' row."),
}


def record_schema(columns: Sequence[str], *, document_conditions: bool = False) -> type[BaseModel]:
    """The answer's structure for these columns: ``{records: [...]}`` (and the document's verdict).

    Each record holds one nullable string per column under the column's own name, then
    ``record_match``, ``page``, ``evidence`` and ``note``; a column that takes one of those
    names pushes the extra field to ``row_<name>``.
    """
    taken = {c.casefold() for c in columns}
    fields: dict[str, Any] = {
        f"c{i}": (
            str | None,
            Field(..., alias=column, description=f"'{column}' exactly as the document writes it; null when it gives none."),
        )
        for i, column in enumerate(columns)
    }
    for name, (alias, kind, description) in _EXTRA_FIELDS.items():
        while alias.casefold() in taken:
            alias = "row_" + alias
        fields[name] = (kind, Field(..., alias=alias, description=description))
    row = create_model(  # type: ignore[call-overload]
        "Row",
        __config__=ConfigDict(populate_by_name=True, coerce_numbers_to_str=True),
        __doc__="One row of the table.",
        **fields,
    )
    wrapper: dict[str, Any] = {
        "records": (list[row], Field(..., description="Every row of this text that may meet the row condition."))
    }
    if document_conditions:
        wrapper["document_condition"] = (
            Literal["met", "not_met", "unclear"],
            Field(..., description="'not_met' when the document clearly fails a document condition (then no records)."),
        )
    return create_model(  # type: ignore[call-overload]
        "DocumentRecords", __doc__="The rows of the table found in the text.", **wrapper
    )


# ============================================================================================
# Windows over a document's pages


@dataclass(frozen=True)
class Piece:
    """A stretch of one page: ``pages[page - 1][start:end]``."""

    page: int
    start: int
    end: int

    def text(self, document: DocumentText) -> str:
        return document.pages[self.page - 1][self.start : self.end]

    @property
    def size(self) -> int:
        return self.end - self.start


Window = tuple[Piece, ...]


def window_chars(context_tokens: int, prompt_chars: int) -> int:
    """Characters of document text per window: half of what the budget leaves after the prompt.

    The other half is the answer's: records repeat their rows as evidence.
    """
    free_tokens = context_tokens - (prompt_chars + PROMPT_SKELETON_CHARS + DOCUMENT_HEAD_CHARS) // CHARS_PER_TOKEN
    return max(MIN_WINDOW_CHARS, free_tokens // 2 * CHARS_PER_TOKEN)


def _cut_page(text: str, page: int, limit: int) -> list[Piece]:
    """The page in pieces of at most ``limit`` characters, cut after lines (a longer line is cut)."""
    pieces, start = [], 0
    while start < len(text):
        stop = min(len(text), start + limit)
        if stop < len(text):
            newline = text.rfind("\n", start, stop)
            if newline > start:
                stop = newline + 1
        pieces.append(Piece(page, start, stop))
        start = stop
    return pieces or [Piece(page, 0, 0)]


def plan_windows(document: DocumentText, budget: int) -> list[Window]:
    """Overlapping windows over the document, each of at most ``budget`` characters.

    A document that fits is one window of whole pages. Otherwise pages longer than a quarter
    window are cut after lines, windows are filled with consecutive pieces, and each window
    after the first starts again with the last piece of the one before.
    """
    whole = tuple(Piece(n, 0, len(text)) for n, text in enumerate(document.pages, start=1))
    if sum(p.size for p in whole) <= budget:
        return [whole]
    limit = max(1, budget // PIECES_PER_WINDOW)
    pieces = [q for p in whole for q in _cut_page(document.pages[p.page - 1], p.page, limit)]
    windows: list[Window] = []
    first = 0
    while True:
        last, size = first, 0
        while last < len(pieces) and (last == first or size + pieces[last].size <= budget):
            size += pieces[last].size
            last += 1
        windows.append(tuple(pieces[first:last]))
        if last >= len(pieces):
            return windows
        first = last - 1 if last - 1 > first else last


def split_window(document: DocumentText, window: Window) -> tuple[Window, Window] | None:
    """The window in two halves of about equal text, cut between pieces or after a line.

    None when it cannot be halved without cutting a line.
    """
    if len(window) >= 2:
        total = sum(p.size for p in window)
        sizes = [sum(p.size for p in window[:k]) for k in range(1, len(window))]
        k = min(range(1, len(window)), key=lambda i: abs(sizes[i - 1] - total / 2))
        return window[:k], window[k:]
    (piece,) = window
    if piece.size < MIN_SPLIT_CHARS:
        return None
    text = document.pages[piece.page - 1]
    middle = piece.start + piece.size // 2
    before = text.rfind("\n", piece.start, middle)
    after = text.find("\n", middle, piece.end - 1)
    cuts = [c + 1 for c in (before, after) if c >= piece.start and piece.start < c + 1 < piece.end]
    if not cuts:
        return None
    cut = min(cuts, key=lambda c: abs(c - middle))
    return (Piece(piece.page, piece.start, cut),), (Piece(piece.page, cut, piece.end),)


def describe(document: DocumentText, window: Window) -> str:
    """``pages 3–5``, ``page 3``, or ``part of page 3``."""
    first, last = window[0], window[-1]
    if first.page == last.page:
        whole = first.start == 0 and last.end >= len(document.pages[first.page - 1])
        return f"page {first.page}" if whole else f"part of page {first.page}"
    return f"pages {first.page}–{last.page}"


def _covers_document(document: DocumentText, window: Window) -> bool:
    return (
        window[0].page == 1
        and window[0].start == 0
        and window[-1].page == document.page_count
        and window[-1].end >= len(document.pages[-1])
    )


def _looks_like_header(cells: list[str]) -> bool:
    """A header names its columns: fewer than half its cells are numbers (a carried-over row is not)."""
    filled = [c for c in cells if c.strip()]
    return len(filled) >= 2 and sum(parse_number(c) is not None for c in filled) * 2 < len(filled)


def header_before(document: DocumentText, piece: Piece) -> list[str] | None:
    """The last table header that stands before this piece of the document."""
    found = None
    for table in document.tables:
        if not _looks_like_header(table.header) or table.page > piece.page:
            continue
        if table.page == piece.page:
            # where its header line stands; a header the text does not show is taken as the page's top
            at = max(0, document.pages[piece.page - 1].find("\t".join(table.header)))
            if at >= piece.start:
                continue
        found = table.header
    return found


def document_head(document: DocumentText) -> str:
    """The document's first lines up to its first table line (cells joined by TABs), at most
    DOCUMENT_HEAD_CHARS: the letterhead, never rows a later window would give again."""
    lines: list[str] = []
    size = 0
    for line in (document.pages[0] if document.pages else "").splitlines():
        if "\t" in line or size + len(line) > DOCUMENT_HEAD_CHARS:
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines).strip()


def part_prompt(document: DocumentText, window: Window) -> str:
    """The user prompt for one window: the document's names, its context, the marked text."""
    blocks = []
    for piece in window:
        mark = prompts.PAGE_MARK if piece.start == 0 else prompts.PAGE_CONTINUED_MARK
        blocks.append(mark.format(page=piece.page) + "\n" + piece.text(document).strip("\n"))
    context = ""
    if (window[0].page, window[0].start) != (1, 0):  # a window inside the document
        context += prompts.DOCUMENT_HEAD.format(head=document_head(document))
        header = header_before(document, window[0])
        if header:
            context += prompts.CARRIED_HEADER.format(header="\t".join(header))
    part = "" if _covers_document(document, window) else prompts.PART_LINE.format(pages=describe(document, window))
    return prompts.EXTRACT_USER.format(
        path=document.path,
        title=document.title or "-",
        page_count=document.page_count,
        part=part,
        context=context,
        text="\n".join(blocks),
    )


def extraction_prompt(reading: Reading) -> str:
    """The system prompt for a document: the columns, the conditions and the rules."""
    literal = [c.text or f"{c.column} {c.op} {c.value}" for c in reading.conditions if c.op != "judgement"]
    return prompts.EXTRACT_SYSTEM.format(
        columns="\n".join(f"- {c}" for c in reading.columns),
        row_condition=reading.row_condition or prompts.EVERY_ROW,
        conditions=prompts.CONDITIONS_LINE.format(conditions="; ".join(literal)) if literal else "",
        row_terms=prompts.ROW_TERMS_LINE.format(terms=", ".join(reading.row_terms)) if reading.row_terms else "",
        document_conditions=" and ".join(reading.document_conditions) or prompts.NO_DOCUMENT_CONDITION,
    )


# ============================================================================================
# Checking what came back


def _loose(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _occurrences(document: DocumentText, window: Window, evidence: str) -> list[tuple[int, int]]:
    """(page, offset) of every place the evidence stands in the window: exact, else whitespace-
    and case-tolerant (as grounding locates it)."""
    found: list[tuple[int, int]] = []
    for piece in window:
        text = piece.text(document)
        at = text.find(evidence)
        while at >= 0:
            found.append((piece.page, piece.start + at))
            at = text.find(evidence, at + 1)
    if found:
        return found
    words = evidence.split()
    if not words:
        return []
    pattern = re.compile(r"\s+".join(map(re.escape, words)), re.IGNORECASE)
    return [
        (piece.page, piece.start + m.start()) for piece in window for m in pattern.finditer(piece.text(document))
    ]


UNREAD_PLACE = "The model did not read '{value}' as a place (a folder or the documents' year), so every document in scope was read."
LATER_VERDICT = "the model doubted a document condition in this part; the document's opening meets it"


@dataclass
class _Part:
    """What one window gave: its rows, and whether the document failed a document condition."""

    window: Window
    records: list[Record] = field(default_factory=list)
    fails_document: bool = False


def merge_windows(document: DocumentText, parts: Sequence[_Part]) -> list[Record]:
    """The rows of all windows, each once.

    A row is where its evidence stands: the page and line it starts on, found in the window it
    came from, the k-th row quoting the same text taking its k-th occurrence. A line holds as
    many rows as the window that found most there; rows of later windows beyond that are new.
    Rows whose evidence stands nowhere count by their evidence and values instead.
    """
    kept_at: Counter[tuple[Any, ...]] = Counter()
    merged: list[Record] = []
    for index, part in enumerate(parts):
        # only the piece a window shares with the one before can repeat rows already kept
        overlap = part.window[0] if index > 0 else None
        here: Counter[tuple[Any, ...]] = Counter()
        quoted: Counter[tuple[str, int | None]] = Counter()
        for record in part.records:
            evidence = record.evidence or ""
            places = _occurrences(document, part.window, evidence) if evidence.strip() else []
            if places:
                # the row's own page first: the same line may stand on several pages
                places.sort(key=lambda place: place[0] != record.page)
                page, offset = places[min(quoted[evidence, record.page], len(places) - 1)]
                quoted[evidence, record.page] += 1
                line = document.pages[page - 1].rfind("\n", 0, offset) + 1
                key: tuple[Any, ...] = ("at", page, line)
                record = record.model_copy(update={"page": page})
                shared = overlap is not None and page == overlap.page and overlap.start <= offset < overlap.end
            else:
                key = ("text", _loose(evidence), tuple(sorted(record.values.items(), key=lambda kv: kv[0])))
                shared = True
            here[key] += 1
            if index == 0 or not shared or here[key] > kept_at[key]:
                merged.append(record)
        for key, count in here.items():
            kept_at[key] = max(kept_at[key], count)
    return merged


def check_records(document: DocumentText, reading: Reading, records: list[Record]) -> list[Record]:
    """Every row the model gave, unsure where a value does not stand in the document or a
    literal condition on a requested column fails its cell.

    The model read the conditions itself; what can be checked on the values it gave is
    checked with the same rules as the offline engine's rows (``tools.engines.checks``), and a
    failed check lowers its ``yes`` with the reason: it never drops the row.
    """
    columns = list(reading.columns)
    checkable = [
        c.model_copy(update={"column": columns[i]})
        for c in reading.conditions
        if c.op != "judgement" and c.column and (i := match_column(c.column, columns)) is not None
    ]
    kept = []
    for record in values_found(document, records):

        def cell_of(column: str, record: Record = record) -> str | None:
            return " ".join(v for v in record.values.values() if v) if not column else record.values.get(column)

        _, notes = check_conditions(checkable, cell_of)
        kept.append(checked(record, notes + unused_notes(reading)))
    return kept


def _to_record(row: BaseModel, columns: Sequence[str], page_count: int) -> Record | None:
    values = {}
    for i, column in enumerate(columns):
        value = getattr(row, f"c{i}")
        values[column] = value.strip() if isinstance(value, str) and value.strip() else None
    if all(v is None for v in values.values()):
        return None
    match = row.match
    page = row.page
    evidence = (row.evidence or "").strip("\n")[:EVIDENCE_CHARS] or None
    note = row.note
    return Record(
        values=values,
        match=match,
        page=page if isinstance(page, int) and 1 <= page <= page_count else None,
        evidence=evidence,
        note=(note or "the model was not sure this row meets the condition") if match == "unsure" else None,
    )


# ============================================================================================
# The engine

T = TypeVar("T", bound=BaseModel)


def _refuses_json_schema(exc: openai.APIStatusError) -> bool:
    """The endpoint refused the response format (whatever status it used: llama-cpp-python's
    server answers 500 with a validation error, most others 400)."""
    text = str(exc).lower()
    return "response_format" in text or "json_schema" in text or "structured output" in text


class _FormatRefused(Exception):
    """The endpoint does not take a JSON-schema response format: ask it by function calling."""


def _quota_exhausted(exc: openai.APIStatusError) -> bool:
    return getattr(exc, "code", None) == "insufficient_quota" or "insufficient_quota" in str(exc.body or exc.message)


class LLMEngine:
    """Reads requests and documents with an OpenAI-compatible chat model (see the module docstring)."""

    name = "llm"

    def __init__(
        self,
        profile: Profile | None = None,
        *,
        model: Any = None,
        slots: _Slots | None = None,
    ) -> None:
        if profile is None:
            from core.profile import Profile

            profile = Profile()
        self.settings = ModelSettings.of(profile)
        self._model = model  # a chat model to use instead of ChatOpenAI (tests at the model boundary)
        self._slots = slots

    def estimate(self, page_counts: list[int], parallel: int) -> Estimate:
        """Windows per document from its pages (about PAGE_CHARS each), SECONDS_PER_CALL a call."""
        budget = window_chars(self.settings.context_tokens, ESTIMATE_PROMPT_CHARS)
        calls = sum(max(1, math.ceil(pages * PAGE_CHARS / budget)) for pages in page_counts)
        lanes = max(1, min(parallel, self.settings.model_concurrency))
        minutes = math.ceil(calls / lanes) * SECONDS_PER_CALL / 60
        return Estimate(documents=len(page_counts), pages=sum(page_counts), model_calls=calls, minutes=minutes)

    # -- calls --------------------------------------------------------------------------------

    async def _held(self) -> _Slots:
        if self._slots is None:
            from tools.engines.model_slots import model_slots
            from tools.services import aservices

            url = (await aservices()).database_url
            return model_slots(url, self.settings.model, self.settings.model_concurrency)
        return self._slots

    def _chat(self) -> Any:
        return self._model if self._model is not None else chat_model(self.settings)

    @property
    def _endpoint(self) -> tuple[str, str]:
        return (self.settings.endpoint, self.settings.model)

    async def ask(self, schema: type[T], system: str, user: str) -> T:
        """One structured answer, or ``_CutOff`` when the answer or the input did not fit.

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
                raise _CutOff() from exc
            except openai.ContentFilterFinishReasonError:
                record_usage()
                raise ExtractionError("the model endpoint's content filter stopped the answer") from None
            except ValidationError as exc:
                record_usage()
                raise _Invalid(_what_is_wrong(exc)) from None
            except ContextOverflowError as exc:
                raise _CutOff() from exc
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
            raise _CutOff()  # function calling gives a cut-off answer no parse, and no error
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

    # -- reading a request ------------------------------------------------------------------

    async def read_request(self, message: str, scope: ScopeHint) -> Reading:
        kind = kind_of(message)  # greetings and questions about Kea need no model
        if kind != "table":
            return Reading(request=message, kind=kind, columns_from="none")
        quick = read_message(message, scope)
        system = prompts.READ_REQUEST_SYSTEM.format(
            documents=scope.documents,
            collections=", ".join(scope.collections) or "-",
            folders=", ".join(f"{f.folder} ({f.documents})" for f in scope.folders) or "-",
            years=", ".join(scope.years) or "-",
            table_headers="; ".join(" | ".join(c for c in h if c.strip()) for h in scope.table_headers[:5]) or "-",
        )
        try:
            answer = await self.ask(RequestReading, system, prompts.READ_REQUEST_USER.format(message=message))
        except _CutOff:
            raise ExtractionError("Could not read the request: the model's answer was cut off by its output limit.") from None
        except ExtractionError as exc:
            raise ExtractionError(f"Could not read the request: {exc}.") from None
        return reading_from(answer, message, scope, quick)

    # -- extracting a document ----------------------------------------------------------------

    async def extract_document(self, document: DocumentText, reading: Reading) -> list[Record]:
        if reading.kind != "table" or not reading.columns or not document.pages:
            return []
        schema = record_schema(reading.columns, document_conditions=bool(reading.document_conditions))
        system = extraction_prompt(reading)
        windows = plan_windows(document, window_chars(self.settings.context_tokens, len(system)))
        # the first window holds the letterhead: a document that fails its conditions stops there
        first = await self._read_part(document, reading, schema, system, windows[0], 0)
        if first.fails_document:
            return []
        parts = [first, *await self._read_windows(document, reading, schema, system, windows[1:])]
        return check_records(document, reading, merge_windows(document, parts))

    async def _read_windows(
        self, document: DocumentText, reading: Reading, schema: type[BaseModel], system: str, windows: list[Window]
    ) -> list[_Part]:
        gate = asyncio.Semaphore(WINDOWS_AT_ONCE)

        async def one(window: Window) -> _Part:
            async with gate:
                return await self._read_part(document, reading, schema, system, window, 0)

        return await _all_or_first_failure([one(w) for w in windows])

    async def _read_part(
        self, document: DocumentText, reading: Reading, schema: type[BaseModel], system: str, window: Window, splits: int
    ) -> _Part:
        """One window's rows; a cut-off answer halves the window and reads both halves."""
        try:
            answer = await self.ask(schema, system, part_prompt(document, window))
        except _CutOff:
            halves = split_window(document, window)
            if halves is None or splits >= MAX_SPLITS:
                raise ExtractionError(
                    f"the model's answer for {describe(document, window)} was cut off by its output limit "
                    f"even after halving the text {splits} times; raise the model's output limit or lower "
                    "context_tokens"
                ) from None
            first, second = await _all_or_first_failure(
                [self._read_part(document, reading, schema, system, half, splits + 1) for half in halves]
            )
            return _Part(window, first.records + second.records, first.fails_document)
        rows = [r for r in (_to_record(row, reading.columns, document.page_count) for row in answer.records) if r]
        if getattr(answer, "document_condition", None) != "not_met":
            return _Part(window, rows)
        if window[0].page == 1 and window[0].start == 0:
            return _Part(window, [], True)  # the opening (the letterhead) decides for the document
        # a later part sees only the document's head: its verdict cannot drop rows, only doubt them
        return _Part(window, [checked(r, [LATER_VERDICT]) for r in rows])


def _was_connected(exc: Exception) -> bool:
    """Whether a connection error came after the endpoint accepted the connection (a reset, a
    close before the answer) rather than from not reaching it at all."""
    cause = exc.__cause__
    return cause is not None and type(cause).__name__ not in ("ConnectError", "ConnectTimeout", "ProxyError")


async def _all_or_first_failure(calls: list[Awaitable[Any]]) -> list[Any]:
    """Run the calls together; the first failure cancels the rest and is raised as it is."""
    if not calls:
        return []
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(_awaited(c)) for c in calls]
    except BaseExceptionGroup as failed:
        raise failed.exceptions[0] from None
    return [t.result() for t in tasks]


async def _awaited(call: Awaitable[Any]) -> Any:
    return await call


# ============================================================================================
# From the model's reading to Kea's


def _unique(values: list[str]) -> list[str]:
    kept: dict[str, str] = {}
    for value in values:
        value = " ".join(value.split())
        if value:
            kept.setdefault(value.casefold(), value)
    return list(kept.values())


def reading_from(answer: RequestReading, message: str, scope: ScopeHint, quick: Reading | None = None) -> Reading:
    """The model's reading, checked against the scope: places exist as places, columns are named.

    A folder is written as the scope lists it; a place that names a supplier, a party or a
    topic the model also read as a condition is dropped (it is that condition); a year must be
    a year, and is the documents' date where no path in scope carries one (``years_as_dates``).
    A folder that is not listed stays as written: the scope reports it as empty. Places the
    user wrote out are added where the model left them unread, never over a condition it read.
    """
    if answer.kind != "table":
        return Reading(request=message, kind=answer.kind, columns_from="none")
    notes = _unique(answer.notes)
    columns = _unique(answer.columns)
    columns_from: str = "model" if answer.columns_from == "model" else "request"
    if not columns and quick is not None and quick.columns:
        columns, columns_from = quick.columns, quick.columns_from
    if not columns:
        notes.append("No column was named or designed; name the values you want, e.g. 'with description and amount'.")
        columns_from = "none"
    document_conditions = _unique(answer.document_conditions)
    row_terms = _unique(answer.row_terms)
    not_places = {t.casefold() for t in [*document_conditions, *row_terms]}
    folders = {f.folder.strip("/").casefold(): f.folder for f in scope.folders}
    places: list[Place] = []
    for place in answer.places:
        value = place.value.strip()
        if place.kind == "folder":
            value = folders.get(value.strip("/").casefold(), value.strip("/"))
            if value.casefold() not in folders and value.casefold() in not_places:
                continue
        elif place.kind == "year" and not re.fullmatch(r"(?:19|20)\d\d", value):
            continue
        if value and all((p.kind, p.value) != (place.kind, value) for p in places):
            places.append(Place(kind=place.kind, value=value))
    conditions = []
    for c in answer.conditions:
        column = None if c.op == "judgement" else (c.column or "").strip() or None
        if c.op != "judgement" and column is None:
            continue
        conditions.append(Condition(column=column, op=c.op, value=c.value.strip(), text=c.text.strip() or f"{column} {c.op} {c.value}"))
    # places the user wrote out are added where the model left them unread only when they name
    # a place the scope has (a folder it lists, a file path, a glob). A year, or a folder the scope
    # does not list ("Jun/2013"), may as well be a column, a period or a date: the model's reading
    # stands, every document in scope is read, and the note says so.
    read = " ".join(
        [answer.row_condition or "", *document_conditions, *row_terms, *columns,
         *(f"{c.value} {c.text}" for c in conditions)]
    )
    for place in written_places(message, scope):
        value = place.value.strip("/").casefold()
        if any(p.value.strip("/").casefold() == value for p in places):
            continue
        if place.kind == "year" or (place.kind == "folder" and value not in folders):
            if place.value not in read:
                notes.append(UNREAD_PLACE.format(value=place.value))
            continue
        places.append(place)
    unused = _unique(answer.unused)
    if unused:
        notes.append(accounting_note(unused))
    return years_as_dates(Reading(
        request=message,
        kind="table",
        columns=columns,
        columns_from=columns_from,  # type: ignore[arg-type]
        row_condition=(answer.row_condition or "").strip() or None,
        conditions=conditions,
        row_terms=row_terms,
        document_conditions=document_conditions,
        places=places,
        calculations=_unique(answer.calculations),
        notes=notes,
        unused=unused,
    ), scope)


__all__ = [
    "LLMEngine",
    "ModelSettings",
    "RequestReading",
    "chat_model",
    "check_records",
    "merge_windows",
    "plan_windows",
    "record_schema",
    "split_window",
    "window_chars",
]
