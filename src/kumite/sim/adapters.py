"""Per-game hooks of the balance lab.

Everything in :mod:`kumite.sim` works on the core contract alone (Game, State, Outcome,
Agent). What is game-specific sits behind one small :class:`Adapter` per game id:

* **entities** — the characters (SF Rivals), fighters (Rivales) or heroes (SF DBG) each seat
  plays: their ids, how to fix them in the game's options (for balanced matchup designs) and
  which one each seat had in a finished game (matchup tables, ratings);
* **card plays** — which cards each seat played or bought, and when (card impact);
* optionally a **fast random rollout** that plays exactly the game the engine would with
  random agents, for mass simulation.

A game without an adapter still simulates: the lab then reports seats, agents and outcomes,
but no entities or cards. See ``docs/simulation.md`` for what Rivales and SF DBG must
provide.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from kumite.core.game import Game, Outcome, State
from kumite.core.registry import specs


class CardPlay(NamedTuple):
    """A seat played (or bought, …) a card at some turn or round."""

    seat: int
    card: str
    when: int
    verb: str = "played"


@dataclasses.dataclass(frozen=True, slots=True)
class GameSummary:
    """Everything the lab keeps of one finished game."""

    winners: tuple[int, ...]
    draw: bool
    reason: str
    length: int
    """Turns or rounds played (the adapter's ``turn`` unit)."""
    entities: tuple[str | None, ...]
    """Character/fighter/hero of each seat (None where the game has none)."""
    plays: Sequence[tuple[int, str, int, str]] = ()
    """:class:`CardPlay` records (plain ``(seat, card, when, verb)`` tuples are accepted:
    a fast path builds thousands per second)."""


class Adapter:
    """The default adapter: no entities, no card plays. Games subclass it."""

    entity: str = ""
    """What a seat plays as: ``character``, ``fighter``, ``hero``; empty if nothing."""
    entities_distinct: bool = False
    """Seats must play different entities (balanced designs then use permutations)."""
    turn: str = "turn"
    """The unit of ``CardPlay.when`` and ``GameSummary.length``."""
    cards_per_entity: bool = False
    """Cards belong to one entity (SF Rivals): a card's baseline is its entity's seats."""

    def entity_ids(self, game: Game[Any], options: Mapping[str, Any]) -> list[str]:
        """Every entity a seat may play with these options."""
        return []

    def entity_names(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        return {e: e for e in self.entity_ids(game, options)}

    def card_names(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        """Card id -> display name (for reports)."""
        return {}

    def card_labels(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        """Card id -> a name that stands alone (e.g. "Ryu: Hadouken" where several
        characters have a Hadouken)."""
        return self.card_names(game, options)

    def fixed_entities(self, options: Mapping[str, Any]) -> bool:
        """The options already fix some seat's entity (no balanced design then)."""
        return False

    def admissible(self, options: Mapping[str, Any], entities: Sequence[str]) -> bool:
        """Whether the game allows this entity per seat (e.g. teammates must differ)."""
        return True

    def with_entities(self, options: Mapping[str, Any], entities: Sequence[str]) -> dict[str, Any]:
        """``options`` with each seat's entity fixed."""
        raise NotImplementedError(f"{type(self).__name__} cannot fix entities")

    def summarize(self, state: State, outcome: Outcome) -> GameSummary:
        """What the lab keeps of a game played through the engine."""
        return GameSummary(
            winners=tuple(outcome.winners),
            draw=outcome.draw,
            reason=outcome.reason,
            length=len(state.history),
            entities=(None,) * state.num_players,
        )

    def prepare(self, game: Game[Any], options: Mapping[str, Any]) -> Any:
        """Parsed options (and anything else) for :meth:`fast_random`, made once per set of
        options."""
        return game.parse_options(options)

    has_fast_random: bool = False

    def fast_random(
        self, game: Game[Any], prepared: Any, rngs: Sequence[random.Random]
    ) -> GameSummary:
        """Play one game between uniformly random seats drawing from ``rngs[seat]``, exactly
        as the engine with :class:`~kumite.agents.uniform.RandomAgent` seeded alike would."""
        raise NotImplementedError

    has_batch_random: bool = False

    def batch_random(
        self, game: Game[Any], prepared: Any, seeds: Sequence[int]
    ) -> list[GameSummary]:
        """Play one game per seed between uniformly random seats, all at once (the game's
        batched engine, ``kumite sim --batched``): the engine's rules, but random streams
        of the batched engine's own, so other games than :meth:`fast_random` plays."""
        raise NotImplementedError


_DEFAULT = Adapter()


def adapter_for(game_id: str) -> Adapter:
    """The adapter ``game_id``'s spec declares (``GameSpec.lab``), else the default one."""
    spec = specs().get(game_id)
    if spec is None or spec.lab is None:
        return _DEFAULT
    adapter: Adapter = spec.lab.load()
    return adapter
