"""What the suites that run over every registered game may learn about one game.

The suites (``tests/test_conformance.py``, ``tests/server/test_conformance.py``, the crash
sweeps of ``tests/server/test_crash_safety.py`` and the research interfaces' ``tests/envs``)
take their games from the registry, as Pgx's one shared test does; they name no game. A game
may add to them in ``tests/games/<id>/conformance.py``, a ``HOOKS = GameHooks(...)``: the
tables worth playing whole, how its people choose, the checks only it can make. A game
without that module (the toy plugin, a third-party game) gets the defaults: every seat count
it takes, with its default options and random people.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import random
from collections.abc import Callable, Mapping
from typing import Any

from kumite.core.errors import OptionsError
from kumite.core.game import State
from kumite.core.registry import get_spec

Chooser = Callable[[int, list[str]], str]
"""``pick(seat, legal)``: the choice a person at ``seat`` makes."""


@dataclasses.dataclass(frozen=True)
class Table:
    """A table to play: its number of seats, its options (before the seats set theirs) and
    its seed."""

    seats: int
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    seed: int = 1

    @property
    def id(self) -> str:
        return "-".join([f"{self.seats}", *(f"{k}={v}" for k, v in self.options.items())])


@dataclasses.dataclass(frozen=True)
class GameHooks:
    """What a game adds to the suites (each ``None``: the default)."""

    tables: tuple[Table, ...] | None = None
    """The whole games the server suite plays (default: one a seat count, default options)."""
    people: Callable[[random.Random], Chooser] | None = None
    """How the people at its tables choose (default: at random)."""
    check_update: Callable[[int | None, State, dict[str, Any], str], None] | None = None
    """``check(seat, state, snapshot, raw)``: more checks of one update a seat was sent (the
    state of the table at that step, the message's ``state`` and its raw text)."""
    check_game: Callable[[Any, Mapping[int, Any]], None] | None = None
    """``check(runtime, clients)`` once a whole game is over (clients by seat)."""
    short: Table | None = None
    """A short game (the crash sweeps try a kill at every one of its storage statements)."""
    env_options: tuple[Mapping[str, Any], ...] = ()
    """More options the research interfaces are tested with (besides every seat count)."""


DEFAULT = GameHooks()


def hooks(game_id: str) -> GameHooks:
    """The game's ``tests/games/<id>/conformance.py`` hooks, or the defaults."""
    package = f"tests.games.{game_id}"
    if importlib.util.find_spec(package) is None:
        return DEFAULT
    if importlib.util.find_spec(f"{package}.conformance") is None:
        return DEFAULT
    found: GameHooks = importlib.import_module(f"{package}.conformance").HOOKS
    return found


def seat_counts(game_id: str) -> list[int]:
    """The numbers of seats the game takes (its modes: Rivales takes 2 and 4)."""
    spec = get_spec(game_id)
    info = spec.load().info
    out = []
    for n in range(info.min_players, info.max_players + 1):
        try:
            spec.with_seats({}, n)
        except OptionsError:
            continue
        out.append(n)
    return out


def tables(game_id: str) -> tuple[Table, ...]:
    """The whole games the server suite plays of this game."""
    found = hooks(game_id).tables
    return found if found is not None else tuple(Table(n, seed=n) for n in seat_counts(game_id))


def short(game_id: str) -> Table:
    """A short game of this game (default: the fewest seats, default options)."""
    found = hooks(game_id).short
    return found if found is not None else Table(seat_counts(game_id)[0])


def people(game_id: str, rng: random.Random) -> Chooser:
    make = hooks(game_id).people
    if make is not None:
        return make(rng)
    return lambda seat, legal: rng.choice(legal)
