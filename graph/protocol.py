"""What travels between a run and its clients, typed: the questions form, the reply, progress.

Every client (the CLI, the HTTP API, the Open WebUI pipe) shows the same form and sends one of
the same replies, and a reply is classified here, once:

- the dialog's answers by question id,
  ``{"status": "answered", "answers": {qid: {"type": "option", "label": ...} | {"type": "other", "text": ...}}}``
  (any other status — cancelled, timeout, error — reads nothing);
- or typed text: "yes" keeps the reading, "no" declines, anything else is a correction.

Progress events are the small dicts nodes emit with ``"kind": "progress"``.
``run_events_schema()`` publishes the JSON schema of the run API's events.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, computed_field

YES = frozenset(
    {"yes", "y", "ok", "okay", "sure", "go", "go ahead", "confirm", "confirmed", "ja", "correct", "right", "yes please"}
)
NO = frozenset({"no", "n", "nope", "cancel", "stop", "abort", "nein", "decline", "no thanks"})


def _word(text: str) -> str:
    """A typed reply reduced to the word it says: case, spaces and closing punctuation dropped."""
    return " ".join(text.lower().split()).strip(" .!,;")


def is_yes(text: str | None) -> bool:
    return _word(text or "") in YES


def is_no(text: str | None) -> bool:
    """An explicit no (an empty reply declines too, see ``parse_reply``)."""
    return _word(text or "") in NO


# -- the form ----------------------------------------------------------------------------------


class Option(BaseModel):
    label: str
    description: str = ""


class Question(BaseModel):
    id: str
    header: str
    question: str
    options: list[Option] = Field(min_length=1, max_length=3)
    allow_other: bool = True


class QuestionsForm(BaseModel):
    """The interrupt payload of the ``questions`` node: ``{"kind": "questions", "text", "questions"}``.

    ``text`` is the whole form as text, for clients without a dialog; ``reading`` is the
    reading the form was built from (as understood).
    """

    model_config = ConfigDict(extra="allow")

    kind: Literal["questions"] = "questions"
    text: str
    questions: list[Question] = Field(min_length=1, max_length=5)
    reading: dict[str, Any] | None = None


# -- the reply ---------------------------------------------------------------------------------


class OptionAnswer(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: Literal["option"] = "option"
    label: str = ""
    option_index: int | None = None


class OtherAnswer(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: Literal["other"] = "other"
    text: str = ""


DialogAnswer = Annotated[OptionAnswer | OtherAnswer, Field(discriminator="type")]


class DialogReply(BaseModel):
    """The dialog's result as Open WebUI's ``request:user_input`` returns it."""

    model_config = ConfigDict(extra="allow")

    status: str = "answered"
    answers: dict[str, DialogAnswer] = Field(default_factory=dict)


class Reply(BaseModel):
    """A reply, classified: keep the reading, decline, correct it in words, or dialog answers."""

    action: Literal["keep", "decline", "correct", "answers"]
    text: str = ""
    answers: dict[str, DialogAnswer] = Field(default_factory=dict)


_ANSWER = TypeAdapter(DialogAnswer)


def _answer(value: Any) -> OptionAnswer | OtherAnswer:
    """One dialog answer from its shapes: a typed dict, or a bare label."""
    if isinstance(value, dict):
        if value.get("type") == "other":
            return OtherAnswer(text=str(value.get("text", "") or ""))
        try:
            return _ANSWER.validate_python({**value, "type": "option", "label": str(value.get("label", "") or "")})
        except ValidationError:
            return OptionAnswer(label=str(value.get("label", "") or ""))
    return OptionAnswer(label="" if value is None else str(value))


def parse_reply(raw: Any) -> Reply:
    """Classify a resume value: the one place a reply's meaning is decided.

    A JSON object (as a dict or as text) is the dialog's result: only ``status: "answered"``
    (or no status, a bare answers object) confirms; anything else declines. Text: empty or
    no declines, yes keeps, anything else is a correction.
    """
    if isinstance(raw, Reply):
        return raw
    if isinstance(raw, str) and raw.strip().startswith("{"):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError:
            pass
    if isinstance(raw, BaseModel):
        raw = raw.model_dump()
    if isinstance(raw, dict):
        if "status" in raw and raw["status"] != "answered":
            return Reply(action="decline")
        answers = raw.get("answers", raw if "status" not in raw else {})
        if not isinstance(answers, dict):
            answers = {}
        return Reply(action="answers", answers={str(k): _answer(v) for k, v in answers.items() if k != "status"})
    text = "" if raw is None else str(raw).strip()
    if not text or is_no(text):
        return Reply(action="decline", text=text)
    if is_yes(text):
        return Reply(action="keep", text=text)
    return Reply(action="correct", text=text)


# -- progress ----------------------------------------------------------------------------------

ProgressKind = Literal[
    "scope_resolved", "sample_chosen", "long_document_started", "document_done", "document_failed", "still_reading"
]


class ProgressEvent(BaseModel):
    """A progress event of a run; which fields are set depends on ``event``."""

    model_config = ConfigDict(extra="allow")

    kind: Literal["progress"] = "progress"
    event: ProgressKind
    file: str | None = None
    documents: int | None = None
    pages: int | None = None
    rows: int | None = None
    unsure_rows: int | None = None
    first_rows: list[list[str]] | None = None
    error: str | None = None
    seconds: int | None = None
    files: list[str] | None = None  # sample_chosen: the sample's files, in the order shown

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """The event as one short status line (sent with the event, so clients need no copy of this)."""
        return self.line()

    def line(self) -> str:
        """The event as one short status line."""
        if self.event == "scope_resolved":
            return f"Reading {self.documents} documents…"
        if self.event == "sample_chosen":
            return f"{self.documents} documents match; reading a sample of {len(self.files or [])} first: {', '.join(self.files or [])}…"
        if self.event == "long_document_started":
            return f"Reading a long document: {self.file} ({self.pages} pages)…"
        if self.event == "document_done":
            unsure = f", {self.unsure_rows} unsure" if self.unsure_rows else ""
            return f"Read {self.file}: {self.rows} rows{unsure}."
        if self.event == "document_failed":
            return f"Could not read {self.file}: {self.error}"
        return f"Still reading {self.file} ({self.seconds} s)…"


def progress_event(event: dict[str, Any]) -> ProgressEvent | None:
    """A node's progress dict as a typed event; None for anything else."""
    if not isinstance(event, dict) or event.get("kind") != "progress":
        return None
    try:
        return ProgressEvent.model_validate(event)
    except ValidationError:
        return None


# -- the run API's events ----------------------------------------------------------------------


class QuestionsEvent(BaseModel):
    """A run paused at its questions; resume it with a reply naming ``interrupt_id``."""

    thread: str
    interrupt_id: str
    form: QuestionsForm


class ErrorEvent(BaseModel):
    message: str


def run_events_schema() -> dict[str, Any]:
    """The JSON schema of the run API's Server-Sent Events, by event name."""
    from graph.result import RunResult

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Kea run events",
        "description": "Each Server-Sent Event of POST /v1/runs and /v1/runs/{thread}/resume: "
        "the SSE event name selects the schema of its JSON data.",
        "events": {
            "progress": ProgressEvent.model_json_schema(mode="serialization"),
            "questions": QuestionsEvent.model_json_schema(mode="serialization"),
            "result": RunResult.model_json_schema(mode="serialization"),
            "error": ErrorEvent.model_json_schema(mode="serialization"),
        },
    }
