"""Text from documents made safe to show: control characters become visible symbols.

A document is untrusted: an escape sequence in a cell clears or retitles a terminal when the CSV
is printed, a bell rings, a C1 control confuses a spreadsheet. Every output Kea writes from a
document (the terminal, the CSV, the spreadsheet, the review page, JSON answers) shows a control
character as its Unicode control picture (ESC as ␛) instead of sending it: the text loses
nothing a reader can see, and nothing reaches a program as a command.
"""

from __future__ import annotations

# C0 controls as their Unicode control pictures (␛ for ESC), DEL as ␡, C1 controls as �
PICTURES = {c: chr(0x2400 + c) for c in range(0x20)} | {0x7F: "\u2421"} | {c: "\ufffd" for c in range(0x80, 0xA0)}
# a cell of a stored table keeps its tabs and line breaks (quoted by the CSV, wrapped by a spreadsheet)
IN_CELLS = {k: v for k, v in PICTURES.items() if k not in (0x09, 0x0A, 0x0D)}


def visible(text: str) -> str:
    """``text`` with every control character but tab and line breaks made visible."""
    return text.translate(IN_CELLS)
