"""What travels between a run and its clients, typed: the questions form, the reply, progress.

Every client (the CLI, the HTTP API, the Open WebUI pipe) shows the same form and sends one of
the same replies, and a reply is classified here, once:

- the dialog's answers by question id,
  ``{"status": "answered", "answers": {qid: {"type": "option", "label": ...} | {"type": "other", "text": ...}}}``
  (any other status — cancelled, timeout, error — reads nothing);
- or typed text: "yes" keeps the reading, "no" declines, anything else is a correction.

Progress events are the small dicts nodes emit with ``"kind": "progress"``.
The run API publishes their JSON schema (``server/run_api.py``).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, computed_field

YES = frozenset(
    {"yes", "y", "ok", "okay", "sure", "go", "go ahead", "confirm", "confirmed", "ja", "correct", "right", "yes please"}
)
NO = frozenset({"no", "n", "nope", "cancel", "stop", "abort", "nein", "decline", "no thanks"})
# a chat's way to continue a run that stopped midway (its answer's "resume" action says to send it)
CONTINUE = frozenset({"continue", "resume"})


def _word(text: str) -> str:
    """A typed reply reduced to the word it says: case, spaces and closing punctuation dropped."""
    return " ".join(text.lower().split()).strip(" .!,;")


def is_yes(text: str | None) -> bool:
    return _word(text or "") in YES


def asks_to_continue(text: str | None) -> bool:
    return _word(text or "") in CONTINUE


def is_no(text: str | None) -> bool:
    """An explicit no (an empty reply declines too, see ``parse_reply``)."""
    return _word(text or "") in NO


# -- what a run is given ----------------------------------------------------------------------

# C0 control characters but TAB, LF, CR and FF; DEL and the C1 controls. None of them is text a
# request or an answer means, and PostgreSQL cannot store NUL in text or JSON at all.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def clean_text(text: str) -> str:
    """Text as a run reads it: control characters and lone surrogates (never valid Unicode)
    dropped; a surrogate pair becomes the character it encodes."""
    if text.isascii() and not _CONTROL.search(text):
        return text
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "ignore")
    return _CONTROL.sub("", text)


def clean_input(value: Any) -> Any:
    """A message or a reply with every string in it cleaned (``clean_text``), keys included."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_input(k): clean_input(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(clean_input(v) for v in value)
    return value


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
    """A reply, classified: keep the reading, decline, correct it in words, or dialog answers;
    ``unreadable`` when it cannot be understood at all (``text`` says why)."""

    action: Literal["keep", "decline", "correct", "answers", "unreadable"]
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
        except (json.JSONDecodeError, RecursionError) as exc:
            why = f"{exc.msg} at character {exc.pos + 1}" if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
            return Reply(
                action="unreadable",
                text=f"That answer looks like the dialog's answers but is not valid JSON ({why}), so it was not used.",
            )
    if isinstance(raw, BaseModel):
        raw = raw.model_dump()
    if isinstance(raw, dict):
        if "status" in raw and raw["status"] != "answered":
            return Reply(action="decline")
        answers = raw.get("answers", raw if "status" not in raw else {})
        if not isinstance(answers, dict):
            return Reply(action="unreadable", text="The dialog's answers must be an object by question id; they were not used.")
        return Reply(action="answers", answers={str(k): _answer(v) for k, v in answers.items() if k != "status"})
    text = "" if raw is None else str(raw).strip()
    if not text or is_no(text):
        return Reply(action="decline", text=text)
    if is_yes(text):
        return Reply(action="keep", text=text)
    return Reply(action="correct", text=text)


# A thread's name, as every client may give it
THREAD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")

# A table request is a sentence or a paragraph; past this a message is not read at all (the
# reading of a message is not linear in its length, and no request needs more).
MESSAGE_CHARS = 4_000


def too_long(text: str, what: str = "message") -> str | None:
    """Why ``text`` is not read, when it is longer than any request; None when it is fine."""
    if len(text) <= MESSAGE_CHARS:
        return None
    return (
        f"This {what} is {len(text):,} characters long; Kea reads at most {MESSAGE_CHARS:,}. Nothing was read. "
        "Say in a sentence or two which table you need: the values, which rows, and where."
    )


def reply_problem(reply: Reply, question_ids: list[str]) -> str | None:
    """Why a reply to the form with ``question_ids`` cannot be used (it is asked again), or None.

    Unreadable JSON, answers to questions the form does not have, and typed text past the
    message bound are refused as a whole: applying the rest would change the reading in a way
    the user did not ask for.
    """
    if reply.action == "unreadable":
        return reply.text
    unknown = [qid for qid in reply.answers if qid not in question_ids]
    if unknown:
        return (
            f"The answers name questions this form does not have ({', '.join(repr(q[:40]) for q in unknown[:5])}); "
            f"its questions are {', '.join(question_ids)}. Nothing of those answers was used."
        )
    typed = [reply.text] + [a.text for a in reply.answers.values() if isinstance(a, OtherAnswer)]
    return next((r for t in typed if (r := too_long(t, "answer")) is not None), None)


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
