"""The scope's folders by the words a user writes for them: "price list" names pricelists/."""

from __future__ import annotations

import re

from tools.engines.document_kinds import same_kind


class FolderNames:
    """The scope's folders, found by the words a user writes for them ("price list" -> pricelists)."""

    def __init__(self, folders: list[str]) -> None:
        self.by_name: list[tuple[str, list[str], str]] = []
        for folder in folders:
            parts = [p for p in folder.strip("/").split("/") if p and not p.isdigit()]
            if parts:
                words = [w for w in re.split(r"[-_\s.]+", parts[-1].lower()) if w]
                self.by_name.append((stem("".join(words)), sorted(stem(w) for w in words), folder))

    def named(self, words: list[str]) -> str | None:
        joined = stem("".join(w.lower() for w in words))
        stems = sorted(stem(w) for w in words)
        found = [f for name, parts, f in self.by_name if name == joined or (len(words) > 1 and parts == stems)]
        # a folder inside another one found is part of it
        outer = sorted({f.strip("/") for f in found if not any(f.strip("/").startswith(g.strip("/") + "/") for g in found)})
        if len(outer) > 1 and len({f.rsplit("/", 1)[-1] for f in outer}) == 1:
            # "Praxis Elektronik" under invoices/2024/ and invoices/2025/: every folder of that name
            return "**/" + outer[0].rsplit("/", 1)[-1] + "/**"
        return min(found, key=lambda f: (f.count("/"), len(f))) if found else None


    def alike(self, folder: str) -> list[str]:
        """The folders beside ``folder`` named for the same kind of documents in another language
        ("Legal/Contracts/" beside "Legal/Contratos/"): one word names both."""
        parent, _, name = folder.strip("/").rpartition("/")
        return [
            f for _, _, f in self.by_name
            if f.strip("/") != folder.strip("/") and (other := f.strip("/").rpartition("/"))[0] == parent
            and " " not in name and same_kind(name, other[2])
        ]


def stem(word: str) -> str:
    """A crude stem for folder names: plurals, ``-ed`` and a final ``e`` dropped."""
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    if word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    elif word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word
