"""Which queries the workspace runs: one read-only statement on the workspace's own tables.

The query is parsed with sqlglot (PostgreSQL dialect), never matched with patterns: it must be
exactly one statement, a SELECT (a WITH, a UNION of SELECTs), with nothing in it that writes,
locks or changes settings; every table it reads is one of the workspace's tables or a name the
query defines itself (a WITH); no function is called through another schema; and functions
that reach outside the workspace (files, large objects, other databases, settings, sequences,
catalogue helpers) are refused by name.

This check tells the user early and clearly. It is not the only guard: the query runs as a role
that can read nothing but its schema, in a READ ONLY transaction, under a statement timeout.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.tokens import TokenType

# statements and clauses that write, lock, or are not a query at all
_FORBIDDEN = tuple(
    getattr(exp, name)
    for name in (
        "Insert", "Update", "Delete", "Merge", "Create", "Drop", "Alter", "Command", "Into", "Lock",
        "TruncateTable", "Copy", "Set", "Transaction", "Commit", "Rollback", "Grant", "Revoke", "Use",
        "Pragma", "Analyze", "Describe", "Comment", "LoadData",
    )
    if hasattr(exp, name)
)

# functions that reach outside the workspace; a name or a name's prefix
_REFUSED_PREFIXES = (
    "pg_", "lo_", "dblink", "txid_", "has_", "to_reg", "query_to_", "table_to_", "schema_to_", "database_to_",
    "cursor_to_", "binary_upgrade", "brin_", "gin_",
)
_REFUSED_NAMES = frozenset(
    {
        "set_config", "current_setting", "nextval", "setval", "currval", "lastval", "loread", "lowrite",
        "inet_client_addr", "inet_server_addr", "inet_server_port", "inet_client_port",
    }
)
# allowed although their prefix is refused: pg_sleep only waits (the statement timeout ends it)
_ALLOWED = frozenset({"pg_sleep", "pg_sleep_for", "pg_typeof", "pg_column_size"})


class QueryRefused(ValueError):
    """The query is not one the workspace runs; the message says why."""


@dataclass(frozen=True)
class Checked:
    """A query that passed: its text and the workspace tables it reads."""

    sql: str
    tables: list[str]


def _function_name(node: exp.Func) -> str:
    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    return node.sql_name().lower()


def refused_function(name: str) -> bool:
    name = name.lower()
    if name in _ALLOWED:
        return False
    return name in _REFUSED_NAMES or name.startswith(_REFUSED_PREFIXES)


def _parse(query: str) -> exp.Expression:
    logger = logging.getLogger("sqlglot")
    level = logger.level
    logger.setLevel(logging.ERROR)  # sqlglot warns when it falls back to a raw command
    try:
        statements = [s for s in sqlglot.parse(query, read="postgres") if s is not None]
    except SqlglotError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise QueryRefused(f"the query could not be read as SQL: {first}") from exc
    finally:
        logger.setLevel(level)
    if not statements:
        raise QueryRefused("the query is empty; write one SELECT statement")
    if len(statements) > 1:
        raise QueryRefused(f"the query holds {len(statements)} statements; run exactly one SELECT at a time")
    return statements[0]


def _unicode_names(query: str) -> None:
    """Refuse U&"…" names: PostgreSQL decodes their escapes, the parser reads them as a bitwise AND.

    A name spelled with escapes (U&"pg\\005fls_dir") would otherwise slip past the checks by name.
    """
    try:
        tokens = sqlglot.Dialect.get_or_raise("postgres").tokenize(query)
    except SqlglotError:
        return  # the parser reports it
    for u, amp, name in zip(tokens, tokens[1:], tokens[2:], strict=False):
        if (u.text.upper() == "U" and amp.token_type == TokenType.AMP and name.token_type == TokenType.IDENTIFIER
                and u.end + 1 == amp.start and amp.end + 1 == name.start):
            raise QueryRefused('the query spells a name with Unicode escapes (U&"…"); write names as they are')


def _name(identifier: exp.Expression | str | None) -> str:
    """An identifier as PostgreSQL resolves it: unquoted names fold to lower case."""
    if identifier is None:
        return ""
    if isinstance(identifier, exp.Identifier):
        return identifier.name if identifier.quoted else identifier.name.lower()
    return str(identifier).lower()


def check_query(query: str, schema: str, tables: Iterable[str]) -> Checked:
    """``query`` if the workspace runs it, else ``QueryRefused`` with the reason.

    ``schema`` is the workspace's schema; ``tables`` its tables' names.
    """
    root = _parse(query)
    _unicode_names(query)
    inner = root.this if isinstance(root, exp.Subquery) else root
    if not isinstance(inner, (exp.Select, exp.SetOperation)):
        kind = type(inner).__name__.upper()
        what = inner.name.split()[0].upper() if isinstance(inner, exp.Command) and inner.name else kind
        raise QueryRefused(f"only SELECT (or WITH … SELECT) is run here, not {what}; the workspace is read-only")
    for node in root.walk():
        if isinstance(node, _FORBIDDEN):
            label = "SELECT … INTO" if isinstance(node, exp.Into) else (
                "FOR UPDATE/SHARE" if isinstance(node, exp.Lock) else type(node).__name__.upper()
            )
            raise QueryRefused(f"the query contains {label}; the workspace is read-only")
    known = set(tables)
    defined = {_name(cte.args.get("alias").this) for cte in root.find_all(exp.CTE) if cte.args.get("alias")}
    read: list[str] = []
    for table in root.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier):
            continue  # a function in FROM: checked with the functions below
        name = _name(table.this)
        qualifier = _name(table.args.get("db"))
        if table.args.get("catalog") is not None or (qualifier and qualifier != schema):
            raise QueryRefused(
                f"the query reads {table.sql(dialect='postgres')}, which is outside this conversation's workspace"
            )
        if name in defined and not qualifier:
            continue
        if name not in known:
            hint = f" Its tables: {', '.join(sorted(known))}." if known else " It has no tables yet: load one first."
            raise QueryRefused(f"there is no table {name!r} in this conversation's workspace.{hint}")
        read.append(name)
    for node in root.find_all(exp.Dot):
        if isinstance(node.expression, exp.Func) and _name(node.this) != schema:
            raise QueryRefused(
                f"the query calls {node.sql(dialect='postgres')} through another schema; call functions by their name"
            )
    for node in root.find_all(exp.Func):
        name = _function_name(node)
        if refused_function(name):
            raise QueryRefused(f"the function {name}() is not available in the workspace")
    return Checked(query, sorted(set(read)))
