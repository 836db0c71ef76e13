"""PDF: the text of each page and its tables, ruled (drawn with lines) or unruled (aligned text).

Ruled tables come from pdfplumber's line-based finder. Unruled tables are rebuilt from word
positions:

* words become lines, and a line's words become segments where the gap between them is wider
  than a space of the line's font (measured on the space glyphs it draws, or on its glyphs
  when they are all equally wide), so one space between two words of a name does not split it;
* a line of three or more segments is a header; a line right under it with words beside its
  cells (a header set on two lines) names columns of its own; up to four lines of words
  under it, each with fewer cells, continue its names, and a line whose words split one of
  its cells ("START  END" under "DATES") makes a column of each;
* a line right above a header whose labels each stand centred over a few of its columns
  names groups of them: "Pre-Pawn" over "Handgun  Long Gun  *Other";
* a row is a record: a line filling enough columns, with the lines right under it that fill
  only columns it left empty (a time set on a second line, right-aligned under its header);
* a text cell may run on under the columns right of it while they are empty on its line;
* lines under the header filling three columns or more but fewer than the rows after them
  are rows too;
* between two rows, a line filling a few columns is a cell wrapped onto a line of its own
  (several such lines, one cell each, between rows as full), and a line that fits no column
  (a remark under a row) stays in the page text but out of the table; after a gap, rows
  filling all columns but one go on; any other line ends the table;
* a row's details, set indented under it on up to a dozen lines before the next row as full
  (an invoice position's article codes, its gross price, a remark): the lines right under it
  that fit its columns, too few for a row, run on in its cells ("Zitronensäure" over "100ml"),
  the rest stay in the page text as notes;
* a header printed two or three times side by side, each block of the table under its own
  copy ("Prior Scale  New Scale  % Rank" left and right), makes one table: the blocks are read
  one after the other and their rows joined;
* words set across the lines (a page number printed sideways in the margin) stand apart;
* labelled values printed side by side on one line of text ("Rechnungsnummer: 2014-03" beside
  "Liefer- und Rechnungsdatum: 11. Juli 2014") are a line each in the page text, so each is
  read as its own ``Key: value`` pair (``tools.parsing.fields``), as a Word letterhead's are.

By pass: ``words`` (a page's words, sideways pages turned), ``lines`` (lines and segments),
``columns`` (a line placed in columns), ``rows`` (records, wrapped lines, a row's details),
``headers`` (headers on several lines), ``unruled`` (a table grown from its header), ``groups``
(group labels over a header), ``ruled`` (ruled tables read from their words instead),
``reading`` (lines into text and tables, labelled fields, titles), ``blocks`` (side-by-side
blocks), ``page`` (one page), ``document`` (``parse_pdf``).
"""
