"""Precise exception types.

Every error a user or client can cause is a ``ValueError`` subclass whose message names
what was wrong. Messages never contain information hidden from the seat that caused them:
an illegal choice names the seat, the choice as *that seat* sent it, and the reason.
"""

from __future__ import annotations


class KumiteError(Exception):
    """Base class of every error kumite raises on purpose."""


class ChoiceError(KumiteError, ValueError):
    """A choice could not be applied; the state is unchanged."""

    def __init__(self, seat: int | None, choice: object, reason: str) -> None:
        self.seat = seat
        self.choice = choice
        self.reason = reason
        who = "spectator" if seat is None else f"seat {seat}"
        super().__init__(f"{who}: choice {choice!r} rejected: {reason}")


class IllegalChoiceError(ChoiceError):
    """The choice is well formed but not legal for the pending decision."""


class MalformedChoiceError(ChoiceError):
    """The choice is not of the form the game expects (wrong type, unknown token)."""


class NotPendingError(ChoiceError):
    """The seat has no decision pending (out of turn, unknown seat)."""


class MissingChoiceError(ChoiceError):
    """A seat with a pending decision did not send a choice."""


class GameOverError(ChoiceError):
    """The game has ended; no more choices are accepted."""


class OptionsError(KumiteError, ValueError):
    """Game options are invalid (unknown character, wrong player count, bad rule value)."""


class PackError(KumiteError, ValueError):
    """A card pack is malformed; names the file, the card and the field."""

    def __init__(
        self, file: str, message: str, *, card: str | None = None, field: str | None = None
    ) -> None:
        self.file = file
        self.card = card
        self.field = field
        self.message = message
        where = file
        if card is not None:
            where += f": card {card!r}"
        if field is not None:
            where += f": field {field!r}"
        super().__init__(f"{where}: {message}")


class RecordError(KumiteError, ValueError):
    """A game record is malformed, does not replay, or replays to a different outcome."""


class UnknownGameError(KumiteError, ValueError):
    """No game is registered under this id."""
