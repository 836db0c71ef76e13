"""Engines: the offline engine (the embedded default) and, configured per profile, others.

A profile names its engine; ``register_engine`` adds one (a model-backed engine, or a test
double at the model boundary). A factory that takes an argument is given the run's profile.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from tools.engines.base import Engine, ExtractionError
from tools.engines.offline import OfflineEngine


def _llm_engine(profile: Any = None) -> Engine:
    # imported on first use: langchain-openai is only loaded by profiles that call a model
    from tools.engines.llm.engine import LLMEngine

    return LLMEngine(profile)


_factories: dict[str, Callable[..., Engine]] = {"offline": OfflineEngine, "llm": _llm_engine}


def register_engine(name: str, factory: Callable[..., Engine]) -> None:
    _factories[name] = factory


@functools.lru_cache(maxsize=64)  # asked once per document of every run: inspecting costs more than the engine's setup
def _takes_profile(factory: Callable[..., Engine]) -> bool:
    try:
        return bool(inspect.signature(factory).parameters)
    except (TypeError, ValueError):
        return False


def engine_named(name: str, profile: Any = None) -> Engine:
    """The engine a profile names; a clear error for an unknown one."""
    if name not in _factories:
        raise ExtractionError(f"The profile names an unknown engine {name!r}; available: {', '.join(sorted(_factories))}.")
    factory = _factories[name]
    if profile is not None and _takes_profile(factory):
        return factory(profile)
    return factory()


__all__ = ["Engine", "ExtractionError", "engine_named", "register_engine"]
