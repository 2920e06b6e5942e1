"""The one check of every name shown to others: a player's, and a seat's given when a table is
made (docs/protocol.md, "Players").

Unicode's guidance for identifiers shown to people (UTS #39, UTS #55; the IETF's PRECIS
framework, RFC 8264, makes it code): a name holds no character that is invisible or
changes how the text around it is shown — control and format characters (bidirectional
isolates and overrides, zero-width ones, the soft hyphen, tag characters), default-ignorable
ones (variation selectors, the combining grapheme joiner, the Hangul fillers), private-use
or unassigned ones — and it is not blank-looking. What is left is tidied (runs of spaces of
any kind become one space) and stored in one normal form, NFC, so that one name shown is one
name stored. The characters are judged by the PRECIS ``FreeformClass`` (the
``precis-i18n`` package), which is what RFC 8266 builds nicknames on.
"""

from __future__ import annotations

import unicodedata

import precis_i18n

from kumite.server.inputs import InputError

MAX_NAME = 24
"""The most characters in a name (after tidying)."""
MAX_MARKS = 4
"""The most combining marks in a row (UTS #39, 5.4): more only pile up on one letter."""
BLANK = frozenset("\u2800\u3164\uffa0\u115f\u1160")
"""Characters that print as nothing but are not spaces (Braille blank, Hangul fillers)."""

_FREEFORM = precis_i18n.get_profile("FreeFormClass")


class BadNameError(InputError):
    """A name refused, with a one-line reason."""


def check_name(raw: str) -> str:
    """``raw`` as a name is stored and shown (spaces tidied, NFC), or :class:`BadNameError`."""
    try:
        _FREEFORM.enforce(raw)  # before spaces are tidied: a line feed is no space here
    except UnicodeEncodeError:
        raise BadNameError("a name may not hold control or invisible characters") from None
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    if not any(_visible(c) for c in name):
        raise BadNameError("a name needs at least one visible character")
    marks = 0
    for c in name:
        marks = marks + 1 if unicodedata.combining(c) else 0
        if marks > MAX_MARKS:
            raise BadNameError(f"a name may stack at most {MAX_MARKS} marks on one letter")
    if len(name) > MAX_NAME:
        raise BadNameError(f"a name is at most {MAX_NAME} characters (got {len(name)})")
    return name


def valid_name(raw: str | None) -> str | None:
    """``raw`` checked, or ``None`` where it is missing or would be refused."""
    if raw is None:
        return None
    try:
        return check_name(raw)
    except BadNameError:
        return None


def _visible(c: str) -> bool:
    """Whether ``c`` prints something of its own: a letter, digit, punctuation or symbol
    that is not blank (a mark alone sits on nothing)."""
    return unicodedata.category(c)[0] in "LNPS" and c not in BLANK
