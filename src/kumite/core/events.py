"""Typed game events.

An event is a frozen record of one thing the rules did. Each names the rule it applies
(``rule``, a short reference into the game's rule index) and who may see it (``to``:
``None`` for everyone, spectators included, or the set of seats allowed to see it). A game
that must tell one seat more than the others emits two events: a private one for that seat
and a redacted public one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar, dataclass_transform

E = TypeVar("E", bound="Event")
#: Keys of :meth:`Event.to_json` that an event's own fields may not use.
RESERVED = frozenset({"type", "rule", "to", "text", "step"})


@dataclass_transform(frozen_default=True, kw_only_default=True)
class _Frozen(type):
    """Makes each event class a frozen, slotted, keyword-only dataclass: an event declares
    its fields and nothing else."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> Any:
        cls = super().__new__(mcls, name, bases, namespace)
        if "__slots__" in namespace:  # the slotted class ``dataclass`` makes of ``cls``
            return cls
        return dataclasses.dataclass(frozen=True, slots=True, kw_only=True)(cls)


class Event(metaclass=_Frozen):
    """Base class of every event (each subclass is a frozen dataclass of its fields, which
    may not be named after one of the :data:`RESERVED` keys of the JSON form)."""

    rule: str
    to: frozenset[int] | None = None

    #: Short human template; subclasses override :meth:`describe` when it is not enough.
    template: ClassVar[str] = ""
    #: A heading (a new turn or round), not a rule applied: logs print it without its rule.
    heading: ClassVar[bool] = False

    @property
    def kind(self) -> str:
        return type(self).__name__

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` = spectator) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def describe(self) -> str:
        """One line of plain English explaining the event."""
        if self.template:
            return self.template.format(**self.fields())
        parts = ", ".join(f"{k}={v!r}" for k, v in self.fields().items())
        return f"{self.kind}({parts})"

    def fields(self) -> dict[str, Any]:
        """The event's own data (without ``rule`` and ``to``)."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in ("rule", "to")
        }

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-able form: ``type``, ``rule``, the fields and ``text``."""
        out: dict[str, Any] = {"type": self.kind, "rule": self.rule}
        for name, value in self.fields().items():
            out[name] = _plain(value)
        if self.to is not None:
            out["to"] = sorted(self.to)
        out["text"] = self.describe()
        return out


def private_and_public(event: E, seat: int, **hidden: Any) -> tuple[E, E]:
    """``event`` for ``seat``'s eyes only, and its public twin with the ``hidden`` fields
    redacted (``cards=()``)."""
    return dataclasses.replace(event, to=frozenset({seat})), dataclasses.replace(event, **hidden)


def visible_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events among ``events`` that ``seat`` may see."""
    return [e for e in events if e.visible_to(seat)]


def _plain(value: Any) -> Any:
    if isinstance(value, (frozenset, set)):
        return sorted(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value
