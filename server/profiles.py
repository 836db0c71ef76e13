"""The models the HTTP API offers: one per profile, chosen on the server, never by the caller.

A profile is a JSON object of ``core.profile.Profile`` fields in ``$KEA_HOME/profiles/NAME.json``
(model ``kea-NAME``), beside the shipped ones: the default ``kea-document-tables`` (every
collection the asking user may read) and the Universal Agent's templates, ``kea-universal``
(Knowledge Assistant), ``kea-data-analyst`` and ``kea-workplace-assistant``. A profile's
``"agent"`` says which graph answers it: ``"document-tables"`` (the default) or ``"universal"``.
The user always comes from the API key, whatever a profile file says.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.profile import Profile
from core.templates import TEMPLATES

log = logging.getLogger(__name__)
AGENTS = ("document-tables", "universal")
SHIPPED: dict[str, dict[str, Any]] = {
    "document-tables": {},
    "universal": {"agent": "universal", **TEMPLATES["knowledge-assistant"].profile},
    "data-analyst": {"agent": "universal", **TEMPLATES["data-analyst"].profile},
    "workplace-assistant": {"agent": "universal", **TEMPLATES["workplace-assistant"].profile},
}
_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,62}")


class UnknownModel(LookupError):
    pass


@dataclass
class Profiles:
    values: dict[str, dict[str, Any]] = field(default_factory=dict)  # profile name → fields

    @classmethod
    def load(cls, home: Path) -> "Profiles":
        found = {name: dict(values) for name, values in SHIPPED.items()}
        for path in sorted((home / "profiles").glob("*.json")):
            if not _NAME.fullmatch(path.stem):
                log.warning("Profile file %s is skipped: its name is not a model name (a-z, 0-9, '.', '_', '-').", path)
                continue
            try:
                values = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                log.warning("Profile file %s is skipped: %s", path, exc)
                continue
            if isinstance(values, dict):
                found[path.stem] = values
        return cls(found)

    def values_of(self, reference: str) -> dict[str, Any]:
        """The fields of profile ``reference``: one of these profiles by name, or a ``.json`` file's
        path (the CLI's ``--profile``). ``UnknownModel`` says why there is none."""
        if reference.endswith(".json"):
            path = Path(reference)
            try:
                values = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise UnknownModel(f"The profile file {path} cannot be read ({exc}).") from exc
            if not isinstance(values, dict):
                raise UnknownModel(f"The profile file {path} is not a JSON object of Profile fields.")
            return {"name": path.stem, **values}
        if reference not in self.values:
            raise UnknownModel(
                f"No profile {reference!r}; the profiles are {', '.join(self.values)} (a profile is a JSON object of "
                "Profile fields in $KEA_HOME/profiles/NAME.json)."
            )
        return {"name": reference, **self.values[reference]}

    def models(self) -> list[str]:
        return [f"kea-{name}" for name in self.values]

    def name_of(self, model: str | None) -> str:
        """The profile a model id names (``None``: the shipped default)."""
        name = (model or "kea-document-tables").removeprefix("kea-")
        if name not in self.values:
            raise UnknownModel(
                f"There is no model {model!r} here; the models are: {', '.join(self.models())}."
            )
        return name

    def agent_of(self, name: str) -> str:
        """Which graph answers profile ``name``: "document-tables" or "universal"."""
        agent = str(self.values.get(name, {}).get("agent") or "document-tables")
        if agent not in AGENTS:
            log.warning("Profile %s names an unknown agent %r; the document-tables graph answers it.", name, agent)
            return "document-tables"
        return agent

    def profile(self, name: str, user: str) -> Profile:
        """The profile ``name`` for ``user``: the caller never sets any of its fields."""
        return Profile.from_mapping({**self.values[name], "name": name, "user": user})
