"""The terminal side of ``kea extract``: its questions, its progress bar and its answer."""

from __future__ import annotations

from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from server.terminal import cell, err, out, shown


def _read_line() -> str:
    """One typed line; the prompt goes to stderr, so stdout holds only the answer (--json)."""
    err.print("> ", end="")
    return input()


def ask_in_terminal(form: dict[str, Any]) -> dict[str, Any]:
    """Ask each question: Enter takes the recommended option, a number another, text corrects.

    Each typed answer is classified like every other reply (``core.protocol.parse_reply``):
    "no" cancels the whole form, "yes" keeps the recommended option.
    """
    from core.protocol import QuestionsForm, parse_reply

    typed = QuestionsForm.model_validate(form)
    if problem := form.get("problem"):  # the last answer could not be used: say why before asking again
        err.print(f"\n[yellow]{shown(str(problem))}[/yellow]")
    err.print("\n[bold]Before I read any document, please confirm how I understood your request.[/bold]")
    answers: dict[str, Any] = {}
    for question in typed.questions:
        err.print(f"\n[bold cyan]{shown(question.header)}[/bold cyan]: {shown(question.question)}")
        for number, option in enumerate(question.options, 1):
            tag = " [green](recommended)[/green]" if number == 1 else ""
            err.print(f"  {number}) {shown(option.label)}{tag} — {shown(option.description)}")
        err.print("  or type your own answer; 'no' cancels.")
        try:
            reply = _choice(len(question.options))
        except EOFError:  # nobody to answer: never read on an unconfirmed reading
            err.print("No answer (input closed), so nothing is read. Pass --yes to accept the reading as understood.")
            return {"status": "cancelled"}
        except KeyboardInterrupt:
            err.print("\nCancelled (Ctrl-C): nothing was read.")
            return {"status": "cancelled"}
        action = parse_reply(reply).action if reply else "keep"
        if action == "decline":
            return {"status": "cancelled"}
        if action == "keep":
            answers[question.id] = {"type": "option", "option_index": 0, "label": question.options[0].label}
        elif reply.isdigit() and 1 <= int(reply) <= len(question.options):
            index = int(reply) - 1
            answers[question.id] = {"type": "option", "option_index": index, "label": question.options[index].label}
        else:
            answers[question.id] = {"type": "other", "text": reply}
    return {"status": "answered", "answers": answers}


def _choice(options: int) -> str:
    """A typed answer; a number that is no option is asked again, never read as a correction."""
    while True:
        reply = _read_line().strip()
        if not reply.isdigit() or 1 <= int(reply) <= options:
            return reply
        err.print(f"There is no option {reply}: type a number from 1 to {options}, your own answer, or 'no'.")


class ProgressView:
    """Progress of a run on stderr: a bar over the documents, a line per notable event."""

    def __init__(self) -> None:
        self.progress = Progress(
            TextColumn("[bold]Extracting[/bold]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("{task.description}"), console=err,
        )
        self.task: Any = None

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event.get("event")
        if kind == "scope_resolved":
            self.progress.start()
            self.task = self.progress.add_task("", total=event["documents"])
        elif kind in ("document_done", "document_failed") and self.task is not None:
            note = f"{event['rows']} rows" if kind == "document_done" else f"[red]failed[/red]: {shown(event['error'])}"
            self.progress.update(self.task, advance=1, description=f"{shown(event['file'])[:50]}: {note}")
        elif kind == "sample_chosen":
            err.print(f"{event['documents']} documents match; reading a sample of {len(event['files'])} first: {shown(', '.join(event['files']))}")
        elif kind == "long_document_started":
            self.progress.console.print(f"Reading a long document: {shown(event['file'])} ({event['pages']} pages)")
        elif kind == "still_reading":
            self.progress.console.print(f"Still reading {shown(event['file'])} ({event['seconds']} s)")

    def stop(self) -> None:
        self.progress.stop()


TERMINAL_PREVIEW_ROWS = 20


def next_steps(result: Any) -> list[str]:
    """Where the answer's files are and what the user can do next, as commands of this CLI."""
    lines = []
    if result.csv:
        if result.status == "sample":
            lines.append(f"Sample table: {result.csv}.")
        elif not result.rows:
            lines.append(f"The table is empty: {result.csv}.")
        else:
            lines.append(f"Table: {result.csv}.")
            if result.xlsx and result.review:
                lines.append(f"Spreadsheet: {result.xlsx}. Check each row against its source: {result.review}.")
    for action in result.actions:
        thread = action.thread or result.thread
        if action.kind == "resume":
            lines.append(f"Continue it with: kea resume {thread}")
        elif action.kind == "calculate":
            lines.append(
                f"To calculate it, load the table into this conversation's SQL workspace with "
                f"`kea sql --thread {thread} --load {action.extraction_id}` and query it with "
                f"`kea sql --thread {thread} \"SELECT ...\"` (kea_number(text) reads numbers)."
            )
        elif action.kind == "add_documents":
            lines.append("Check the collection names (kea collections) or ingest documents (kea ingest PATH --collection NAME).")
        elif action.kind == "ask_for_access":
            lines.append("Access to a collection is granted with: kea access grant COLLECTION USER")
        elif action.kind == "check_services":
            lines.append("Check Kea's services: kea services status.")
    return lines


def print_answer(values: dict[str, Any]) -> None:
    """A document-tables run's answer in the terminal."""
    from core.result import build_result

    print_result(build_result(values))


def print_result(result: Any) -> None:
    """The answer in the terminal: its text, the preview, where the files are, what to do next (a
    Universal Agent's answer: its text, then each of its tables)."""
    if getattr(result, "tables", None):
        out.print(result.message or "No answer.", highlight=False, markup=False)
        for table in result.tables:
            out.print()
            print_result(table)
        return
    out.print(result.message or "No answer.", highlight=False, markup=False)
    if result.preview.rows:
        table = Table(show_lines=False)
        for name in result.preview.header:
            table.add_column(cell(name), overflow="fold")  # wrap, never cut: the preview is cut already
        for row in result.preview.rows[:TERMINAL_PREVIEW_ROWS]:
            table.add_row(*(cell(c) for c in row))
        out.print(table)
        if result.rows > TERMINAL_PREVIEW_ROWS:
            out.print(f"First {min(TERMINAL_PREVIEW_ROWS, len(result.preview.rows))} of {result.rows} rows; the CSV holds them all.")
        if result.preview.note:
            out.print(result.preview.note)
    for line in next_steps(result):  # one line each, never broken inside a path or a command
        out.print(line, highlight=False, markup=False, soft_wrap=True)


def ask_after_sample(thread: str) -> str | None:
    """After a sample: the reply to it ("yes" reads the rest), or None when nobody can answer."""
    err.print('\n[bold]Read them all?[/bold] "yes" reads every document with these columns, "no" cancels, '
              "anything else is a new request.")
    try:
        reply = _read_line().strip()
    except (EOFError, KeyboardInterrupt):
        reply = ""
        err.print()
    if not reply:
        err.print(f"The selection waits for a yes: kea extract yes --thread {thread}", soft_wrap=True, highlight=False)
        return None
    return reply
