"""Engines: the offline engine (the embedded default) and, configured per profile, others.

A profile names its engine; ``register_engine`` adds one (a model-backed engine, or a test
double at the model boundary).
"""

from __future__ import annotations

from collections.abc import Callable

from tools.engines.base import Engine, ExtractionError
from tools.engines.offline import OfflineEngine

_factories: dict[str, Callable[[], Engine]] = {"offline": OfflineEngine}


def register_engine(name: str, factory: Callable[[], Engine]) -> None:
    _factories[name] = factory


def engine_named(name: str) -> Engine:
    """The engine a profile names; a clear error for an unknown one."""
    if name not in _factories:
        raise ValueError(f"Unknown engine {name!r}. Available: {', '.join(sorted(_factories))}.")
    return _factories[name]()


__all__ = ["Engine", "ExtractionError", "engine_named", "register_engine"]
