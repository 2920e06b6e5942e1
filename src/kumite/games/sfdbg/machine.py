"""The decision protocol on the engine: what is pending, and answering it.

Kept apart from :mod:`.state` so that it is compiled with the engine (``KUMITE_COMPILE=1``,
docs/speed.md): a compiled class cannot be a :class:`~kumite.core.game.State`, which every
game subclasses and must stay a plain Python class, so :class:`.state.SFDBGState` adds the
contract on top of :class:`Machine` and is all that stays interpreted.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from kumite.core.decision import new_decision
from kumite.core.events import Event
from kumite.core.game import Decision
from kumite.games.sfdbg.engine import KINDS, TURN_REQUESTS, Engine, run_frames, take_request
from kumite.games.sfdbg.turn import TURN_PROMPT, turn_answer, turn_legal


@mypyc_attr(allow_interpreted_subclasses=True)  # SFDBGState, plain Python, derives from it
class Machine(Engine):
    """The engine, with its pending decision and the answer to it."""

    history: list[dict[int, str]]
    _pending: tuple[Decision, ...] | None
    """``pending()``, once computed for the current request."""

    def pending(self) -> tuple[Decision, ...]:
        return pending_decisions(self)

    def apply_trusted(self, choices: dict[int, str]) -> list[Event]:
        """:meth:`~kumite.core.game.State.apply_trusted`: straight to the answer."""
        req = self.request
        assert req is not None
        out = answer(self, choices[req.seat])
        self.history.append(choices)
        return out


# Functions, not methods: compiled, a method of the state is looked up like Python's (the
# state is a plain Python subclass), a function is called directly.


def pending_decisions(m: Machine) -> tuple[Decision, ...]:
    """The decision pending now (cached until the next answer)."""
    found = m._pending
    if found is None:
        req = m.request
        if req is None:
            found = ()
        elif req.kind == "turn":  # most decisions: a constant prompt
            found = (new_decision(req.seat, "turn", turn_legal(m, req), TURN_PROMPT),)
        else:
            kind = KINDS[req.kind]
            legal = kind.legal(m, req)
            found = (new_decision(req.seat, req.kind, legal, kind.prompt(m, req)),)
        m._pending = found
    return found


def answer(m: Machine, choice: str) -> list[Event]:
    """Answer the pending request with a legal ``choice`` and play on to the next one."""
    m._pending = None
    req = take_request(m)
    out: list[Event] = []
    if req.kind == "turn":
        turn_answer(m, req, choice, out)
    else:
        KINDS[req.kind].answer(m, req, choice, out)
    if m.stack or m.request is not None or m.over:
        run_frames(m, out)
    else:  # what run_frames() does when nothing is left to resolve
        m.request = TURN_REQUESTS[m.active]
    return out
