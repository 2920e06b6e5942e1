"""Decisions made quickly: :func:`new_decision`.

Apart from :mod:`kumite.core.game` so that it is compiled with the engines
(``KUMITE_COMPILE=1``, docs/speed.md), which make one decision per step of a simulation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kumite.core.game import Decision

_new_object: Final = object.__new__
_DECISION_SLOTS: Final[Mapping[str, Any]] = vars(Decision)
_set_seat: Final = _DECISION_SLOTS["seat"].__set__
_set_kind: Final = _DECISION_SLOTS["kind"].__set__
_set_legal: Final = _DECISION_SLOTS["legal"].__set__
_set_prompt: Final = _DECISION_SLOTS["prompt"].__set__


def new_decision(seat: int, kind: str, legal: tuple[str, ...], prompt: str = "") -> Decision:
    """``Decision(seat, kind, legal, prompt)``, made by setting its slots directly: the
    frozen dataclass's ``__init__`` (``object.__setattr__`` per field) costs about twice as
    much, and simulations make one decision per step."""
    decision: Decision = _new_object(Decision)
    _set_seat(decision, seat)
    _set_kind(decision, kind)
    _set_legal(decision, legal)
    _set_prompt(decision, prompt)
    return decision
