"""Score extracted tables against the corpus truth (``corpora/first.py``).

A predicted row is ``{"file": path, "values": {column: value}}``. It matches a true row of
the same document when every column of the truth holds an equal value:

* columns are found by name, case-insensitive, whitespace collapsed;
* text compares trimmed, case-insensitive, whitespace collapsed (Unicode NFKC);
* numbers compare by value across notations: ``1.249,00`` == ``1,249.00`` == ``1249`` ==
  ``1249.0``. A single separator followed by exactly three digits is read both ways
  (``250.000`` is 250000 or 250), so either reading may match;
* a currency (``EUR``, ``€``, ``GBP``, ``£``, ...) before or after a number is compared
  too: ``EUR 500,000`` == ``500.000 EUR`` but != ``GBP 500,000``. A currency the truth has
  must be in the prediction; a currency only the prediction has is tolerated;
* digit strings with a leading zero (``00731``) are codes, compared as text.

Each true row is matched to at most one predicted row and the other way round (maximum
bipartite matching per document), so a duplicated predicted row counts once.

A ratio whose denominator is empty is 1.0 when both sides are empty (nothing to find,
nothing found) and 0.0 otherwise, so neither an empty answer to a case with rows nor rows
for a case without any reads as a success.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

MAX_LISTED = 20

_CURRENCIES = {
    "eur": "EUR",
    "€": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "gbp": "GBP",
    "£": "GBP",
    "usd": "USD",
    "$": "USD",
    "us$": "USD",
    "sek": "SEK",
    "nok": "NOK",
    "dkk": "DKK",
    "pln": "PLN",
    "zł": "PLN",
    "czk": "CZK",
    "chf": "CHF",
    "jpy": "JPY",
    "¥": "JPY",
    "krw": "KRW",
    "₩": "KRW",
    "원": "KRW",
}
_CURRENCY_ALT = "|".join(sorted((re.escape(c) for c in _CURRENCIES), key=len, reverse=True))
_PREFIX = re.compile(rf"^({_CURRENCY_ALT})\s*(?=[+\-\d])")
_SUFFIX = re.compile(rf"(?<=\d)\s*({_CURRENCY_ALT})$")
_NUMBER = re.compile(r"^[+\-]?\d[\d.,' ]*$")


# --------------------------------------------------------------------------------------------
# Values


def normalise_text(value: Any) -> str:
    """Trimmed, case-folded, whitespace-collapsed text; ``None`` is the empty string."""
    if value is None:
        return ""
    text = unicodedata.normalize("NFKC", str(value))
    return " ".join(text.split()).casefold()


def normalise_column(name: str) -> str:
    return normalise_text(name)


@dataclass(frozen=True)
class Parsed:
    text: str
    numbers: frozenset[Decimal] | None = None  # every reading of a number; None for text
    currency: str | None = None


def _grouped(parts: list[str]) -> bool:
    """Thousands groups: 1–3 digits first (not a leading zero), then groups of exactly three."""
    return 1 <= len(parts[0]) <= 3 and parts[0][0] != "0" and all(len(p) == 3 for p in parts[1:])


def _readings(number: str) -> frozenset[Decimal] | None:
    sign = ""
    if number[0] in "+-":
        sign, number = ("-" if number[0] == "-" else ""), number[1:]
    if " " in number or "'" in number:
        if not re.fullmatch(r"\d{1,3}([ ']\d{3})+([.,]\d+)?", number):
            return None
        number = number.replace("'", "").replace(" ", "")
    if not number or not number[-1].isdigit() or not number[0].isdigit():
        return None
    if re.fullmatch(r"0\d+", number):  # a code such as 00731, not a quantity
        return None
    dots, commas = number.count("."), number.count(",")
    readings: set[str] = set()
    if dots and commas:
        decimal = "." if number.rfind(".") > number.rfind(",") else ","
        group = "," if decimal == "." else "."
        whole, _, fraction = number.rpartition(decimal)
        if group in fraction or number.count(decimal) != 1 or not _grouped(whole.split(group)):
            return None
        readings.add(whole.replace(group, "") + "." + fraction)
    elif dots or commas:
        sep = "." if dots else ","
        parts = number.split(sep)
        if len(parts) > 2:
            if not _grouped(parts):
                return None
            readings.add("".join(parts))
        else:
            readings.add(parts[0] + "." + parts[1])
            if _grouped(parts):
                readings.add(parts[0] + parts[1])
    else:
        readings.add(number)
    try:
        return frozenset(Decimal(sign + r) for r in readings)
    except InvalidOperation:
        return None


def parse_value(value: Any) -> Parsed:
    """The normalised text of a value and, when it is a number, its readings and currency."""
    return _parse_text(normalise_text(value))


@lru_cache(maxsize=65536)
def _parse_text(text: str) -> Parsed:
    rest, currency = text, None
    match = _PREFIX.match(rest) or _SUFFIX.search(rest)
    if match:
        currency = _CURRENCIES[match.group(1)]
        rest = (rest[: match.start()] + rest[match.end() :]).strip()
    if not _NUMBER.match(rest):
        return Parsed(text)
    numbers = _readings(rest)
    if numbers is None:
        return Parsed(text)
    return Parsed(text, numbers, currency)


def values_equal(true_value: Any, predicted_value: Any) -> bool:
    """Whether a predicted value equals the true one (see the module's rules)."""
    truth, predicted = parse_value(true_value), parse_value(predicted_value)
    if truth.numbers is not None and predicted.numbers is not None:
        if truth.currency and predicted.currency != truth.currency:
            return False
        return bool(truth.numbers & predicted.numbers)
    return truth.text == predicted.text


# --------------------------------------------------------------------------------------------
# Rows


def normalise_path(path: Any) -> str:
    text = unicodedata.normalize("NFC", str(path or "")).strip().replace("\\", "/")
    text = re.sub(r"/{2,}", "/", text)
    while text.startswith("./"):
        text = text[2:]
    return text


def _resolver(known: Iterable[str]):
    """Map a predicted file to a truth path; a path under another root ('/kb/invoices/...') too."""
    known_paths = sorted({normalise_path(k) for k in known}, key=len, reverse=True)
    exact = set(known_paths)

    def resolve(path: Any) -> str:
        norm = normalise_path(path)
        if norm in exact:
            return norm
        for candidate in known_paths:
            if norm.endswith("/" + candidate):
                return candidate
        return norm

    return resolve


def _row_matches(true_values: dict[str, Any], predicted_values: dict[str, Any]) -> bool:
    for column, value in true_values.items():
        if not values_equal(value, predicted_values.get(normalise_column(column))):
            return False
    return True


def _max_matching(adjacency: list[list[int]]) -> dict[int, int]:
    """Maximum bipartite matching (augmenting paths); returns {right: left}."""
    owner: dict[int, int] = {}

    def augment(left: int, seen: set[int]) -> bool:
        for right in adjacency[left]:
            if right in seen:
                continue
            seen.add(right)
            if right not in owner or augment(owner[right], seen):
                owner[right] = left
                return True
        return False

    for left in range(len(adjacency)):
        if adjacency[left]:
            augment(left, set())
    return owner


def _ratio(numerator: int, denominator: int, other_side: int) -> float:
    if denominator:
        return numerator / denominator
    return 1.0 if other_side == 0 else 0.0


def _by_position(case: dict, predicted_columns: list[str]) -> dict:
    columns = case.get("columns") or []
    if not case.get("columns_in_request_order") or len(columns) != len(predicted_columns):
        return case
    named = dict(zip(columns, predicted_columns))
    rows = [{**row, "values": {named.get(k, k): v for k, v in row["values"].items()}} for row in case.get("rows", [])]
    return {**case, "columns": list(predicted_columns), "rows": rows}


def score_case(
    case: dict,
    predicted_rows: list[dict],
    predicted_columns: list[str],
    status: str,
    told: Told | None = None,
) -> dict:
    """Score one case of ``truth.json`` against the rows an engine extracted.

    A case whose columns are the ones its request names, in the request's order
    (``columns_in_request_order``), compares them with the engine's columns by position when
    there are as many: its author named them without knowing how an engine words them.

    With what Kea's answer told (``told``: ``Told.of`` the answer), a case that is not exact
    says how it missed (``miss``: see ``miss_kind``); predicted rows then carry ``match`` and
    ``note`` (why a row is unsure)."""
    case = _by_position(case, predicted_columns)
    true_rows = case.get("rows", [])
    expected_docs = [normalise_path(d) for d in case.get("documents_with_rows", [])]
    resolve = _resolver(expected_docs + [r["file"] for r in true_rows])

    truth_by_doc: dict[str, list[int]] = {}
    for i, row in enumerate(true_rows):
        truth_by_doc.setdefault(resolve(row["file"]), []).append(i)
    predicted_values = [
        {normalise_column(k): v for k, v in (row.get("values") or {}).items()} for row in predicted_rows
    ]
    predicted_docs = [resolve(row.get("file")) for row in predicted_rows]
    predicted_by_doc: dict[str, list[int]] = {}
    for j, doc in enumerate(predicted_docs):
        predicted_by_doc.setdefault(doc, []).append(j)

    matched_true: dict[int, int] = {}
    for doc, true_idx in truth_by_doc.items():
        candidates = predicted_by_doc.get(doc, [])
        adjacency = [
            [k for k, j in enumerate(candidates) if _row_matches(true_rows[i]["values"], predicted_values[j])]
            for i in true_idx
        ]
        for right, left in _max_matching(adjacency).items():
            matched_true[true_idx[left]] = candidates[right]
    matched_pred = set(matched_true.values())
    matched = len(matched_true)

    docs_matched = {resolve(true_rows[i]["file"]) for i in matched_true}
    expected = set(expected_docs)
    wanted_columns = {normalise_column(c) for c in predicted_columns}
    result = {
        "id": case["id"],
        "tags": list(case.get("tags", [])),
        "status": status,
        "expected_status": case.get("status", "done"),
        "status_ok": normalise_text(status) == normalise_text(case.get("status", "done")),
        "true_rows": len(true_rows),
        "predicted_rows": len(predicted_rows),
        "matched": matched,
        "recall": _ratio(matched, len(true_rows), len(predicted_rows)),
        "precision": _ratio(matched, len(predicted_rows), len(true_rows)),
        "documents_expected": len(expected),
        "documents_matched": len(docs_matched & expected),
        "document_completeness": _ratio(len(docs_matched & expected), len(expected), 0),
        "rows_from_wrong_documents": sum(1 for d in predicted_docs if d not in expected),
        # a row marked yes is a promise: one that matches no true row broke it
        "wrong_yes": sum(1 for j, row in enumerate(predicted_rows) if j not in matched_pred and row.get("match", "yes") == "yes"),
        "missing_columns": [c for c in case.get("columns", []) if normalise_column(c) not in wanted_columns],
        "missed": [row for i, row in enumerate(true_rows) if i not in matched_true][:MAX_LISTED],
        "extra": [row for j, row in enumerate(predicted_rows) if j not in matched_pred][:MAX_LISTED],
    }
    if told is not None:
        missed_files = {resolve(row["file"]) for i, row in enumerate(true_rows) if i not in matched_true}
        told = Told(frozenset(resolve(f) for f in told.no_rows_from), told.incomplete)
        result["miss"] = miss_kind(result, [r for j, r in enumerate(predicted_rows) if j not in matched_pred], missed_files, told)
    return result


# --------------------------------------------------------------------------------------------
# How a case that is not exact missed

MISS_KINDS = ("said", "unsure", "silent")


@dataclass(frozen=True)
class Told:
    """What an answer tells its reader of rows that may be missing, from its structured fields
    (its summary), never from its wording: the documents it lists as giving no rows, and the
    parts of the request or of the scope it says were not applied."""

    no_rows_from: frozenset[str] = frozenset()
    incomplete: tuple[str, ...] = ()

    @classmethod
    def of(cls, answer: dict[str, Any]) -> Told:
        summary = answer.get("summary") or {}
        no_rows = [n["file"] for n in summary.get("no_rows") or []] or list(summary.get("no_rows_from") or [])
        incomplete = [
            *(f"unused: {w}" for w in summary.get("unused") or []),  # named in the questions and the answer
            # the offline engine cannot judge words that pick rows by meaning: its rows are unsure
            *(f"not judged: {t}" for t in (summary.get("row_terms") or []) if summary.get("engine") == "offline"),
            *(f"failed: {f['file']}" for f in summary.get("failed") or []),
            *(f"read in part: {d}" for d in summary.get("read_in_part") or []),
        ]
        return cls(frozenset(no_rows), tuple(incomplete))


def exact(result: dict) -> bool:
    return bool(result["status_ok"] and result["recall"] == 1.0 and result["precision"] == 1.0)


def miss_kind(result: dict, extra: list[dict], missed_files: set[str], told: Told) -> str | None:
    """How a case that is not exact missed; None when it is exact.

    * ``said``: no row was given and the answer says why (the run stopped with its reason, or
      documents are listed with why they gave no rows, or part of the request was not applied);
    * ``unsure``: every given row that is not true (``extra``) is marked unsure with its reason
      (``note``), and every true row that is missing is announced: its document (``missed_files``)
      is among those the answer lists as giving no rows (``told.no_rows_from``) or gave rows
      marked unsure with their reason, or the answer says part of the request was not applied;
    * ``silent``: anything else — a true row missing while nothing says rows may be missing, or
      a row that is not true given without a reason to doubt it.
    """
    if exact(result):
        return None
    if not result["predicted_rows"]:
        stopped = normalise_text(result["status"]) != "done"  # its answer says why: "no document in scope matches …"
        return "said" if stopped or told.no_rows_from or told.incomplete else "silent"
    if any(row.get("match", "yes") != "unsure" or not str(row.get("note") or "").strip() for row in extra):
        return "silent"
    doubted = {normalise_path(row.get("file")) for row in extra}  # their rows are unsure, with a reason
    if missed_files - told.no_rows_from - doubted and not told.incomplete:
        return "silent"
    return "unsure"


# --------------------------------------------------------------------------------------------
# Reports


def _totals(results: list[dict]) -> dict:
    true_rows = sum(r["true_rows"] for r in results)
    predicted = sum(r["predicted_rows"] for r in results)
    matched = sum(r["matched"] for r in results)
    docs_expected = sum(r.get("documents_expected", 0) for r in results)
    docs_matched = sum(r.get("documents_matched", 0) for r in results)
    recall = _ratio(matched, true_rows, predicted)
    precision = _ratio(matched, predicted, true_rows)
    return {
        "cases": len(results),
        "status_ok": sum(1 for r in results if r["status_ok"]),
        "perfect": sum(1 for r in results if r["status_ok"] and r["recall"] == 1.0 and r["precision"] == 1.0),
        "true_rows": true_rows,
        "predicted_rows": predicted,
        "matched": matched,
        "recall": recall,
        "precision": precision,
        "f1": 2 * recall * precision / (recall + precision) if recall + precision else 0.0,
        "documents_expected": docs_expected,
        "documents_matched": docs_matched,
        "document_completeness": _ratio(docs_matched, docs_expected, 0),
        "rows_from_wrong_documents": sum(r["rows_from_wrong_documents"] for r in results),
        "wrong_yes": sum(r.get("wrong_yes", 0) for r in results),
        **{kind: sum(1 for r in results if r.get("miss") == kind) for kind in MISS_KINDS},
    }


def summarise(results: list[dict]) -> dict:
    """Micro totals over all cases (rows summed before dividing), overall and per tag."""
    summary = _totals(results)
    tags = sorted({t for r in results for t in r.get("tags", [])})
    summary["by_tag"] = {t: _totals([r for r in results if t in r.get("tags", [])]) for t in tags}
    return summary


def markdown_table(results: list[dict]) -> str:
    """One line per case and a micro-total line, as a Markdown table."""
    lines = [
        (
            "| case | tags | status | true rows | predicted | matched | recall | precision "
            "| documents | rows from wrong documents | wrong rows marked yes | missed |"
        ),
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        status = "ok" if r["status_ok"] else f"{r.get('status', '?')} (want {r.get('expected_status', '?')})"
        lines.append(
            f"| {r['id']} | {', '.join(r.get('tags', []))} | {status} | {r['true_rows']} "
            f"| {r['predicted_rows']} | {r['matched']} | {r['recall']:.2f} | {r['precision']:.2f} "
            f"| {r['document_completeness']:.2f} | {r['rows_from_wrong_documents']} | {r.get('wrong_yes', 0)} "
            f"| {r.get('miss') or ''} |"
        )
    t = summarise(results)
    lines.append(
        f"| **total** | | {t['status_ok']}/{t['cases']} ok | {t['true_rows']} | {t['predicted_rows']} "
        f"| {t['matched']} | {t['recall']:.2f} | {t['precision']:.2f} | {t['document_completeness']:.2f} "
        f"| {t['rows_from_wrong_documents']} | {t['wrong_yes']} "
        f"| {t['said']} said, {t['unsure']} unsure, {t['silent']} silent |"
    )
    return "\n".join(lines) + "\n"
