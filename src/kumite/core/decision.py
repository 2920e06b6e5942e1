"""Decisions: :class:`Decision` and its constructor for engines, :func:`new_decision`.

Apart from :mod:`kumite.core.game` (which re-exports :class:`Decision`) so that the compiled
build (``KUMITE_COMPILE=1``, docs/speed.md) makes it a native class: simulations build one
decision per step and read its fields several times, which compiled engines and agents then
do through C struct fields instead of CPython's generic attribute protocol. A dataclass would
not do: mypyc leaves a dataclass's ``__init__`` to the interpreter.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Iterable
from typing import Any, Final, NoReturn, final


@final
class Decision:
    """One seat's pending decision and its legal choices. Immutable, compared and hashed by
    value, like a frozen dataclass."""

    __slots__ = ("kind", "legal", "prompt", "seat")
    __match_args__: Final = ("seat", "kind", "legal", "prompt")

    seat: Final[int]
    kind: Final[str]
    legal: Final[tuple[str, ...]]
    prompt: Final[str]

    def __init__(self, seat: int, kind: str, legal: tuple[str, ...], prompt: str = "") -> None:
        if _NATIVE:
            # Compiled: fields are set in place, past __setattr__, and are read-only after.
            self.seat = seat
            self.kind = kind
            self.legal = legal
            self.prompt = prompt
        else:
            _fill(self, seat, kind, legal, prompt)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not Decision:
            return NotImplemented
        return (
            self.seat == other.seat
            and self.kind == other.kind
            and self.legal == other.legal
            and self.prompt == other.prompt
        )

    def __hash__(self) -> int:
        return hash((self.seat, self.kind, self.legal, self.prompt))

    def __repr__(self) -> str:
        return (
            f"Decision(seat={self.seat!r}, kind={self.kind!r}, legal={self.legal!r}, "
            f"prompt={self.prompt!r})"
        )

    def __reduce__(self) -> tuple[type[Decision], tuple[int, str, tuple[str, ...], str]]:
        return (Decision, (self.seat, self.kind, self.legal, self.prompt))


# Pure Python sets the slots through their descriptors, past __setattr__, as frozen
# dataclasses do with object.__setattr__ (at twice the cost).
_FIELDS: Final = vars(Decision)
_NATIVE: Final = not isinstance(_FIELDS["seat"], types.MemberDescriptorType)
_set_seat: Final[Any] = _FIELDS["seat"].__set__
_set_kind: Final[Any] = _FIELDS["kind"].__set__
_set_legal: Final[Any] = _FIELDS["legal"].__set__
_set_prompt: Final[Any] = _FIELDS["prompt"].__set__
_new_object: Final[Any] = object.__new__


def _fill(decision: Decision, seat: int, kind: str, legal: tuple[str, ...], prompt: str) -> None:
    _set_seat(decision, seat)
    _set_kind(decision, kind)
    _set_legal(decision, legal)
    _set_prompt(decision, prompt)


def new_decision(seat: int, kind: str, legal: tuple[str, ...], prompt: str = "") -> Decision:
    """``Decision(seat, kind, legal, prompt)`` for engines, made the fastest way the build
    allows (in pure Python, without the type call and ``__init__``): simulations make one
    decision per step."""
    if _NATIVE:
        return Decision(seat, kind, legal, prompt)
    decision: Decision = _new_object(Decision)
    # _fill inlined: the call would cost Rivales simulations about 1 % (valgrind).
    _set_seat(decision, seat)
    _set_kind(decision, kind)
    _set_legal(decision, legal)
    _set_prompt(decision, prompt)
    return decision


def pending_view(decisions: Iterable[Decision], seat: int | None) -> list[dict[str, Any]]:
    """The pending decisions as ``seat``'s view shows them: the legal choices of its own
    only (another seat's choices would tell what it holds)."""
    return [
        {
            "seat": d.seat,
            "kind": d.kind,
            "prompt": d.prompt,
            **({"legal": list(d.legal)} if d.seat == seat else {}),
        }
        for d in decisions
    ]
