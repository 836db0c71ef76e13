"""Places written out — paths, globs, file names, "the X folder", years — and folder names
written in words as the scope's folders spell them ("the SLAs", "price list")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.reading import Place
from tools.engines.months import month_of
from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import SENTENCE_END, Tok, text_of
from tools.parsing.text import CAPTION

# a word of letters, its parts joined by hyphens or apostrophes ("sex-by-race", "l'année")
_WORD = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")


SPAN_SUBJECT = "Year"  # what the rows of a span of years are
_ON_A_DAY = frozenset({"on", "dated", "am", "vom", "le", "du", "el", "del", "op", "van"})  # "issued on …", "Rechnung vom …"
_TITLE_WORDS = 2  # capitalised words before "table" that name it by its title: "the Show Details table"


@dataclass
class Places:
    """The places a request names, and its folders named in words."""

    scan: Scan

    def take_written(self) -> None:
        """Paths, globs and file names written out (quoted ones may hold spaces)."""
        for k, tok in enumerate(self.scan.tokens):
            place = self._place_of(tok)
            before = self.scan.at(k - 1)
            if place is not None and place.kind == "folder" and before is not None and before.low in g.DOCUMENT_NOUNS \
                    and g.is_code(tok.text) and place.value not in self.scan.folders:
                continue  # "Rechnung RE-20170509/505", "invoice INV/2023/03/0008": the document's number, no folder
            if place:
                tok.kind, tok.place, tok.used = "place", place, True

    def take_table_numbers(self) -> None:
        """"Table 6 of the Comenius report": a table named by the number its caption gives it is
        read by that caption (``titled_as_asked``), in the documents that name it: the words are
        one condition on the documents, and name no owner, year or kind."""
        for k, (tok, number) in enumerate(zip(self.scan.tokens, self.scan.tokens[1:])):
            if tok.is_(g.TABLE_NOUNS) and not tok.used and not number.used and CAPTION.fullmatch(f"{tok.text} {number.text}"):
                tok.used = number.used = True
                self.scan.owners.append((k, f"{tok.text} {number.text}"))

    def take_file_kinds(self) -> None:
        """"in the Word document", "from the Excel file", "the PDF": a format names the documents
        of that format (a glob of their names), and names no owner."""
        for k, tok in enumerate(self.scan.tokens):
            glob = g.FILE_KINDS.get(tok.low)
            after = self.scan.at(k + 1)
            if glob is None or tok.used or not tok.is_word or not (after is not None and after.is_(g.FILE_NOUNS) or tok.low == "pdf"):
                continue
            tok.kind, tok.place, tok.used = "place", Place(kind="glob", value=glob), True
            if after is not None and after.is_(g.FILE_NOUNS):
                after.used = True

    def take_table_names(self) -> None:
        """"the Show Details table", "the 'AI Use Cases in Different Industries' table", "tableau
        « Extended Inventory Review »": a table named by its title, quoted or in capitals of two
        words or more, is read by that title (``titled_as_asked``) in the documents that name it:
        one condition on the documents, and no column."""
        tokens = self.scan.tokens
        for k, tok in enumerate(tokens):
            if not tok.is_(g.TABLE_NOUNS) or tok.used:
                continue
            after, before = self.scan.at(k + 1), self.scan.at(k - 1)
            if after is not None and after.kind == "quoted" and not after.used:
                first, last = k, k + 2
            elif before is not None and before.kind == "quoted" and not before.used:
                first, last = k - 1, k + 1
            else:
                first, last = k, k + 1
                while first > 0 and (word := tokens[first - 1]).is_word and word.capital and not word.used \
                        and not word.has_digit and first - 1 > 0 and tokens[first - 2].text not in SENTENCE_END:
                    first -= 1
                if k - first < _TITLE_WORDS:
                    continue
            name = next((t.text for t in tokens[first:last] if t.kind == "quoted"), None) or text_of(tokens[first:k])
            self.scan.owners.append((first, name))
            self.scan.use(first, last)

    def take_year_spans(self) -> None:
        """"for 2005 through 2009", "2005 to 2009": a span of years is one term, "2005-2009",
        that the documents must name or one of their columns of years must hold
        (``named_in_rows``); a span holding a year of the scope's paths is read as its years."""
        if not self.scan.scope.documents:
            return
        tokens = self.scan.tokens
        for i in range(len(tokens) - 2):
            first, joiner, last = tokens[i : i + 3]
            if any(t.used for t in (first, joiner, last)) or not (g.YEAR.fullmatch(first.bare) and g.YEAR.fullmatch(last.bare)):
                continue
            years = range(int(first.bare), int(last.bare) + 1)
            if (joiner.low in g.SPAN_WORDS or joiner.text in g.DASHES) and len(years) > 1 \
                    and not any(str(year) in self.scan.scope.years for year in years):
                self.scan.owners.append((i, f"{first.bare}-{last.bare}"))
                self.scan.use(i, i + 3)
                # the years say which row is which, where no requested column does
                self.scan.subject = self.scan.subject or SPAN_SUBJECT

    def take_folders_and_years(self) -> None:
        """"the X folder", "folder X", and years; after the scope's names are read whole."""
        listed = self._listed_year_columns() | self._years_telling_names_apart()
        for i, tok in enumerate(self.scan.tokens):
            if tok.is_(g.FOLDER_WORDS):
                self._folder_word(i)
            elif i in listed:
                tok.term = True  # "outlays in 2011, 2012 and 2013": a list of columns, read alike
            elif self._names_quarter(i):
                # "the Q2 2025 expense report": the quarter the documents are of, a condition on each
                self.scan.owners.append((i, f"{tok.bare.upper()} {self.scan.tokens[i + 1].bare}"))
                self.scan.use(i, i + 2)
            elif self._names_day(i):
                # "issued on Jan 26, 2025", "der Rechnung vom 7. Mai 2014": the day the documents are dated
                self.scan.owners.append((i, tok.text))
                self.scan.use(i - 1, i + 1)
            elif self._names_month(i):
                # "ordered in August", "commandé en juillet", "der Rechnung vom April 2025": the
                # month the documents are dated in, a condition on each document
                self.scan.owners.append((i, tok.bare))
                self.scan.use(i - 1, i + 1)
            elif tok.kind == "word" and g.YEAR.fullmatch(tok.bare) and self._heads_a_column(tok.bare):
                tok.term = True  # "the 2008 and 2009 values": a column the scope's tables head with the year
            elif tok.kind == "word" and g.YEAR.fullmatch(tok.bare) and self._set_against(i):
                tok.term = True  # "the % change 2016 vs 1990": two years a column compares, no place
            elif tok.kind == "word" and g.YEAR.fullmatch(tok.bare) and not tok.used and not self._compared(i):
                tok.kind, tok.place, tok.used = "place", Place(kind="year", value=tok.bare), True
                before = self.scan.at(i - 1)
                if before is not None and before.is_(g.YEAR_WORDS):
                    before.used = True

    def _listed_year_columns(self) -> set[int]:
        """The years of a list ("2011, 2012 and 2013") that head columns of the scope's tables,
        when one of them is a column (no document path holds it): each is a column, though a
        path may hold another."""
        tokens = self.scan.tokens
        found: set[int] = set()
        run: list[int] = []
        for i, tok in enumerate([*tokens, None]):
            if tok is not None and tok.kind == "word" and g.YEAR.fullmatch(tok.bare) and not tok.used:
                run.append(i)
                continue
            if tok is not None and run and (tok.text in (",", "&") or tok.is_(g.CONJUNCTIONS) or tok.low == "or"):
                continue
            if len(run) > 1 and any(self._heads_a_column(tokens[k].bare) for k in run):
                found.update(k for k in run if self.scan.names_header(tokens[k].bare))
            run = []
        return found

    def _years_telling_names_apart(self) -> set[int]:
        """The years that close the same word said twice or more, each time with another year
        ("la part de marché 1996 et la part de marché 1997", "Logements insalubres 2007,
        Logements insalubres 2009"): they tell two columns apart, no document can be of both.
        The one word before each year is compared, not the whole name."""
        tokens = self.scan.tokens
        named: dict[str, dict[str, int]] = {}
        for i, tok in enumerate(tokens):
            before = self.scan.at(i - 1)
            # (a month's name or a fiscal year's "FY" before the year dates things, names no column)
            if tok.kind != "word" or tok.used or not g.YEAR.fullmatch(tok.bare) or before is None \
                    or not before.is_content or not before.bare.isalpha() or before.low in g.DOCUMENT_NOUNS \
                    or before.is_(g.YEAR_WORDS) or month_of(before.text) is not None or before.low == "fy" or self._compared(i):
                continue
            named.setdefault(before.low, {}).setdefault(tok.bare, i)
        return {i for years in named.values() if len(years) > 1 for i in years.values()}

    def _set_against(self, i: int) -> bool:
        """Whether the year at ``i`` is set against another year by "vs" ("2016 vs 1990")."""
        for step in (1, -1):
            against, other = self.scan.at(i + step), self.scan.at(i + 2 * step)
            if against is not None and other is not None and against.low.rstrip(".") in g.VERSUS \
                    and g.YEAR.fullmatch(other.bare):
                return True
        return False

    def _heads_a_column(self, year: str) -> bool:
        """Whether a year is a column of the scope's tables and no document path of it holds the year."""
        return year not in self.scan.scope.years and self.scan.names_header(year)

    def _names_quarter(self, i: int) -> bool:
        """A quarter of a year: "Q2 2025"."""
        tok, after = self.scan.tokens[i], self.scan.at(i + 1)
        return (
            tok.kind == "word" and not tok.used and re.fullmatch(r"[Qq][1-4]", tok.bare) is not None
            and after is not None and after.kind == "word" and not after.used and g.YEAR.fullmatch(after.bare) is not None
        )

    def _names_day(self, i: int) -> bool:
        """A date with its month's name after a word saying the day ("on", "dated", "vom", "le"),
        no bound of a span of days ("from Jan 26, 2025 to Feb 2, 2025")."""
        before = self.scan.at(i - 1)
        return not self.scan.tokens[i].used and self.scan.day_at(i) and before is not None and not before.used \
            and before.low in _ON_A_DAY

    def _names_month(self, i: int) -> bool:
        """A month's name after a preposition ("in August", "en juillet", "vom April") or before its
        year ("the May 2025 report"), compared by nothing."""
        tok, before, after = self.scan.tokens[i], self.scan.at(i - 1), self.scan.at(i + 1)
        # "the May 2025 travel expense report": a month's name with its year names the month too
        with_year = after is not None and after.kind == "word" and g.YEAR.fullmatch(after.bare) is not None and tok.capital
        return (
            tok.kind == "word" and not tok.used and month_of(tok.text) is not None and not self._compared(i)
            and (before is not None and before.is_(g.MONTH_PREPOSITIONS) and not before.used or with_year)
        )

    def _compared(self, i: int) -> bool:
        """A year that a comparison ends ("born before 1930", "after 2020", "before April 2026") is a
        value, not a place."""
        before = self.scan.at(i - 1)
        if before is not None and before.kind == "word" and month_of(before.text) is not None and i > 0 and self._compared(i - 1):
            return True
        if any((op := self.scan.operator_at(k)) and op[0] == "between" for k in range(max(0, i - 5), i - 1)):
            return True  # "between April and June 2025": the second bound too
        return any(self.scan.operator_at(k) and self.scan.operator_at(k)[1] == i for k in range(max(0, i - 3), i))  # type: ignore[index]

    def _place_of(self, tok: Tok) -> Place | None:
        text = tok.text
        if tok.kind == "quoted":
            return Place(kind="file", value=text) if g.FILE_NAME.fullmatch(text) else None
        if tok.kind != "word" or text.startswith("http"):
            return None
        if "*" in text or ("?" in text and "/" in text):
            return Place(kind="glob", value=text)
        if g.FILE_NAME.fullmatch(text) and not re.fullmatch(r"[\d.,]+", text):
            return Place(kind="file", value=text)
        if "/" in text and re.search(r"\w", text) and not re.fullmatch(r"[\d./-]+", text) and not self._alternatives(text) \
                and not self._foreign_year(text):
            return Place(kind="folder", value=self._stored_folder(text.strip("/")))
        return None

    def _alternatives(self, text: str) -> bool:
        """"surplus/deficit", "layoff/closure", "kWh/year", "sex-by-race/ethnicity": two words
        (hyphenated ones too) joined by a slash, neither of
        them a folder of the scope, name one thing two ways; a path starts or ends with a slash,
        has more parts, or starts at a folder the scope has."""
        parts = text.rstrip(".").split("/")  # "… 10 kg/año.": the sentence's period
        if len(parts) != 2 or not all(_WORD.fullmatch(p) for p in parts):
            return False
        segments = {seg.casefold() for f in self.scan.folders for seg in f.strip("/").split("/")}
        return not any(p.casefold() in segments for p in parts)

    def _foreign_year(self, text: str) -> bool:
        """"the May/2013 and Jun/2013 estimates": a year between slashes that no document path of
        the scope holds is a period, not a folder (when the scope knows its paths' years)."""
        years = set(self.scan.scope.years)
        return bool(years) and any(g.YEAR.fullmatch(part) and part not in years for part in text.strip("/").split("/"))

    def _stored_folder(self, written: str) -> str:
        """The scope's folder as stored, when the written path names one (case aside)."""
        return next((f for f in self.scan.folders if f.strip("/").casefold() == written.casefold()), written)

    def _folder_word(self, i: int) -> None:
        """``the leases folder``, ``folder leases``, ``the receipts/ folder``, ``dossier contracts/``."""
        tok = self.scan.tokens[i]
        before, after = self.scan.at(i - 1), self.scan.at(i + 1)
        if before is not None and before.kind == "place":
            tok.used = True
        elif after is not None and after.kind == "place":
            tok.used = True
        elif before is not None and before.is_word and not before.used and not before.is_(g.DETERMINERS):
            before.kind, before.place, before.used = "place", Place(kind="folder", value=self._stored_folder(before.bare)), True
            tok.used = True
        elif after is not None and after.is_word and not after.used:
            after.kind, after.place, after.used = "place", Place(kind="folder", value=self._stored_folder(after.bare)), True
            tok.used = True

    def take_folder_names(self) -> None:
        """Folder names written in words, as the scope's folders spell them: ``the SLAs``, ``price list``."""
        if not self.scan.folders:
            return
        named = self.scan.folder_names
        i = 0
        while i < len(self.scan.tokens):
            for n in (3, 2, 1):
                run = self.scan.tokens[i : i + n]
                if len(run) < n or not all(t.is_word and not t.used for t in run) or any(t.possessive for t in run[:-1]):
                    continue
                folder = named.named([w for t in run for w in t.bare.split()])
                if folder is None and n == 1 and run[0].term:
                    folder = named.named(run[0].bare.split()[-1:])  # "purchase order" names the orders
                if folder and self._within_written(folder):
                    # "purchase order in orders/2024/": the written path is the place, the words name the kind
                    self.scan.use(i, i + n)
                    i += n - 1
                    break
                if folder:
                    run[0].kind, run[0].place = "place", Place(kind="glob" if "*" in folder else "folder", value=folder)
                    # "los contratos" over Legal/Contratos/ and Legal/Contracts/: both hold contracts
                    self.scan.places.extend(Place(kind="folder", value=other) for other in named.alike(folder))
                    self.scan.use(i, i + n)
                    self._kind_after(i + n, folder)
                    i += n - 1
                    break
            i += 1

    def _kind_after(self, k: int, folder: str) -> None:
        """"the Q2 2025 expense report" over hr/expenses/ and finance/reports/: the noun right after
        words that named a folder is the kind of its documents, not a place of its own, unless
        the folder it names lies within the first (management/ and management/reports/)."""
        head = self.scan.at(k)
        if head is None or not head.is_word or head.used:
            return
        other = self.scan.folder_names.named([head.bare])
        inner = folder.strip("/").casefold() + "/"
        if other is None or any(
            path.startswith(inner) for path in self._paths_of(Place(kind="glob" if "*" in other else "folder", value=other))
        ):
            return
        head.used = True

    def _within_written(self, folder: str) -> bool:
        """Whether a folder named in words holds a folder or file the message writes out as a path."""
        inner = folder.strip("/").casefold() + "/"
        return any(
            t.place is not None and t.place.kind in ("folder", "file", "glob")
            and any(path.startswith(inner) for path in self._paths_of(t.place))
            for t in self.scan.tokens
        )

    def _paths_of(self, place: Place) -> list[str]:
        """A place's paths, folded; for "**/Praxis Elektronik/**", the scope's folders of that name."""
        value = place.value.strip("/").casefold()
        if place.kind == "glob" and value.startswith("**/") and value.endswith("/**"):
            name = value[3:-3]
            return [f.strip("/").casefold() for f in self.scan.folders if f.strip("/").casefold().rsplit("/", 1)[-1] == name]
        return [value]
