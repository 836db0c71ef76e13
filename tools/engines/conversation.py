"""Messages that ask for no table: greetings, thanks, and questions about Kea itself.

Recognised once, before any engine reads the message, so no model is called for "hello" and
both engines answer it alike.
"""

from __future__ import annotations

import re
from typing import Literal

Kind = Literal["table", "greeting", "about", "empty"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_GREETING_CORE = _words(
    """
    hello hi hey hallo moin servus hiya howdy greetings thanks thank thx cheers morning afternoon
    evening danke bye goodbye tag merci bonjour salut 안녕하세요 안녕 감사합니다 고맙습니다
    """
)
_GREETING_FILL = _words(
    """
    you good guten morgen abend there kea again so much a lot very all dear team and schön vielen
    many that's thats that s is it all for now ok okay great perfect beaucoup
    """
)
_ABOUT = re.compile(
    r"(?:(?:hi|hello|hey|hallo)\s+)?(?:kea\s+)?"
    r"(?:what can you do|what do you do|who are you|what are you|what is kea|whats kea|what s kea"
    r"|how do(?:es)? (?:you|this|it|kea) work|how can you help(?: me)?|what can i ask(?: you)?"
    r"|help|help me|can you help(?: me)?|what are you able to do|what can kea do"
    r"|how do i use (?:you|this|kea)|wer bist du|was kannst du|hilfe)(?:\s+kea)?"
)


def kind_of(message: str) -> Kind:
    """greeting, about (a question about the agent), empty, or table."""
    words = re.findall(r"\w+", message.lower())
    if not words:
        return "empty"
    if all(w in _GREETING_CORE or w in _GREETING_FILL for w in words) and any(w in _GREETING_CORE for w in words):
        return "greeting"
    if _ABOUT.fullmatch(" ".join(words)):
        return "about"
    return "table"
