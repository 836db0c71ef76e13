"""Which documents a request may and does reach: the scope, and selections within it."""

from __future__ import annotations

from pydantic import BaseModel, Field

LOCAL_USER = "local"  # the embedded default's only user; reads every collection


class Scope(BaseModel):
    """What a profile and the asking user allow: collections ∩ access ∩ the profile's glob."""

    user: str = LOCAL_USER
    collections: list[str] = Field(
        default_factory=list, description="Collections of the profile; empty means every readable one."
    )
    path_glob: str | None = Field(None, description="The profile's path glob, applied before anything else.")


class ContentQuery(BaseModel):
    text: str
    regex: bool = False


class SelectionEntry(BaseModel):
    """One way to pick documents. Its parts are ANDed; ``path_globs`` match when any glob does."""

    path_globs: list[str] = Field(default_factory=list)
    path_regex: str | None = None
    content: ContentQuery | None = None
    ids: list[int] | None = None


class DocumentSelection(BaseModel):
    """Entries ORed together; no entry means the whole scope."""

    entries: list[SelectionEntry] = Field(default_factory=list)


class NamedCount(BaseModel):
    name: str
    documents: int


class Breakdown(BaseModel):
    """Where the documents of a selection are: by folder, year in the path and collection, largest first."""

    folders: list[NamedCount] = Field(default_factory=list)
    years: list[NamedCount] = Field(default_factory=list)
    collections: list[NamedCount] = Field(default_factory=list)

    def sentence(self) -> str:
        """ "by folder: invoices (600), …; by year: 2025 (400), …; by collection: corpus (900)"."""
        parts = [
            f"by {kind}: " + ", ".join(f"{c.name} ({c.documents})" for c in counts)
            for kind, counts in (("folder", self.folders), ("year", self.years), ("collection", self.collections))
            if counts
        ]
        return "; ".join(parts) or "in no folder, year or collection that tells them apart"
