"""What the knowledge base answers when a request cannot be served."""

from __future__ import annotations


class KnowledgeError(ValueError):
    """A request to the knowledge base that cannot be served; the message says why."""


class DocumentNotFound(KnowledgeError):
    """The document does not exist or is outside the asking user's scope (indistinguishable)."""
