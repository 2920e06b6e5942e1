"""Per-game hooks of the balance lab.

Everything in :mod:`kumite.sim` works on the core contract alone (Game, State, Outcome,
Agent). What is game-specific sits behind one small :class:`Adapter` per game id:

* **entities** — what each seat plays as (the spec's seat role: a character, a fighter, a
  hero): their ids, how to fix them in the game's options (for balanced matchup designs) and
  which one each seat had in a finished game (matchup tables, ratings);
* **card plays** — which cards each seat played or bought, and when (card impact);
* optionally a **fast random rollout** that plays exactly the game the engine would with
  random agents, for mass simulation.

A game without a ``lab`` face still simulates: the lab reports seats, agents, outcomes and
the entities of its seat role, but no cards (``docs/simulation.md``).
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from kumite.core.choice import split
from kumite.core.game import Game, Outcome, State
from kumite.core.registry import specs
from kumite.core.spec import GameSpec


class CardPlay(NamedTuple):
    """A seat played (or bought, …) a card at some turn or round."""

    seat: int
    card: str
    when: int
    verb: str = "played"


Wording = tuple[int, int, Callable[[int], "str | None"]]
"""Where a text states a number (``start``, ``end``) and the phrase for another number."""


def said_once(text: str, lead: str, said: str, after: str = r"(?!\w)") -> tuple[int, int] | None:
    """Where ``text`` says the phrase ``said`` (a regular expression) after ``lead`` and
    before ``after`` (both regular expressions, not part of the span), if exactly once and not
    inside a word or a signed number; else None. The adapters' :meth:`Adapter.wording` finds
    a number's phrase with it."""
    found = list(re.finditer(f"(?<![\\w+])({lead})({said})(?={after})", text))
    if len(found) != 1:
        return None
    return found[0].start(2), found[0].end(2)


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
    rule: str = ""
    """The rule that ended the game (``Outcome.rule``): the adapter's ``limit_rules`` flag
    games that stopped at a limit rather than by the game's own end."""

    @classmethod
    def of(
        cls,
        outcome: Outcome,
        length: int,
        entities: Sequence[str | None],
        plays: Sequence[tuple[int, str, int, str]] = (),
    ) -> GameSummary:
        """The summary of a game played through the engine to ``outcome``."""
        winners = tuple(outcome.winners)
        return cls(
            winners, outcome.draw, outcome.reason, length, tuple(entities), plays, outcome.rule
        )


@dataclasses.dataclass
class BatchGames:
    """Many two-player games at once, as arrays (a batched engine's results): what
    :meth:`~kumite.sim.engine.Tally.add_batch` counts without a Python step per game."""

    entity_ids: Sequence[str]
    entities: Any
    """``[game, seat]``: index into ``entity_ids``."""
    winner: Any
    """``[game]``: the winning seat, -1 for a draw."""
    reason: Any
    """``[game]``: index into ``reasons``."""
    reasons: Sequence[str]
    length: Any
    """``[game]``: rounds (turns) played."""
    plays: Any
    """``[game, seat, round]``: the slot of the card played in its entity's cards (card
    ``entity * slots + slot`` of ``card_ids``), -1 for none."""
    card_ids: Sequence[str]
    slots: int


class Adapter:
    """The lab's view of a game. Entities come from the spec's seat role (``spec``); a
    game's ``lab`` face subclasses it for its card plays, its turn unit and a fast path."""

    turn: str = "turn"
    """The unit of ``CardPlay.when`` and ``GameSummary.length``."""
    cards_per_entity: bool = False
    """Cards belong to one entity (a character's own cards): a card's baseline is its
    entity's seats."""
    limit_rules: frozenset[str] = frozenset()
    """Rules (``Outcome.rule``) that end a game at a limit (a round cap, a tie-break after
    too many final rounds): mass simulation flags such games as possible stalls."""

    effect_texts: Mapping[str, str] = {}
    """Fields holding a text as effect primitives -> the field of that text (SF DBG's
    ``counter`` -> ``counter_attack``): ``kumite balance`` moves a number inside effects
    only where :meth:`wording` can say the new number in that text."""

    def __init__(self, spec: GameSpec | None = None) -> None:
        self.role = None if spec is None else spec.role

    def wording(self, text: str, effect: Mapping[str, Any], key: str) -> Wording | None:
        """Where ``text`` states ``effect[key]`` (a number), and how it would state another:
        ``(start, end, say)``, ``say(n)`` the phrase for ``n`` (None where the text cannot say
        it). None when the text does not state it exactly once."""
        return None

    @property
    def entity(self) -> str:
        """What a seat plays as, in one word (``hero`` for a Super Hero); empty if nothing."""
        return "" if self.role is None else self.role.label.split()[-1].lower()

    @property
    def entities_distinct(self) -> bool:
        """Seats must play different entities (balanced designs then use permutations)."""
        return self.role is not None and self.role.distinct

    def entity_names(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        """Every entity a seat may play with these options: id -> display name."""
        return {} if self.role is None else dict(self.role.names.load()(game, options))

    def entity_ids(self, game: Game[Any], options: Mapping[str, Any]) -> list[str]:
        return list(self.entity_names(game, options))

    def card_names(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        """Card id -> display name (for reports)."""
        return {}

    def card_labels(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        """Card id -> a name that stands alone (e.g. "Ryu: Hadouken" where several
        characters have a Hadouken)."""
        return self.card_names(game, options)

    def card_owners(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        """Card id -> the entity that alone may use it (restricted play then puts that
        entity in the restricted seat); cards anyone may use are left out."""
        return {}

    def fixed_entities(self, options: Mapping[str, Any]) -> bool:
        """The options already fix some seat's entity (no balanced design then)."""
        fixed = () if self.role is None else options.get(self.role.option) or ()
        return any(e is not None for e in fixed)

    def admissible(self, options: Mapping[str, Any], entities: Sequence[str]) -> bool:
        """Whether the game allows this entity per seat (e.g. teammates must differ)."""
        return True

    def with_entities(self, options: Mapping[str, Any], entities: Sequence[str]) -> dict[str, Any]:
        """``options`` with each seat's entity fixed."""
        if self.role is None:
            raise NotImplementedError(f"{type(self).__name__} cannot fix entities")
        return {**options, self.role.option: list(entities)}

    def summarize(self, state: State, outcome: Outcome) -> GameSummary:
        """What the lab keeps of a game played through the engine."""
        return GameSummary.of(outcome, len(state.history), (None,) * state.num_players)

    def choice_card(self, choice: str) -> str | None:
        """The card a choice string uses (``play:<card>``, ``buy:lineup:<card>``), if any:
        restricted play bans a card by refusing the choices that name it."""
        verb, args = split(choice)
        if verb not in ("play", "buy") or not args:
            return None
        return args[-1] or None

    def position(self, state: State) -> Any:
        """A hashable key of the position, to find games that repeat one (a loop); ``None``
        if this game cannot tell. The default: every seat's view and the pending decisions,
        which is what the players can tell apart (opt-in: ``SimSpec.loops``, it is slow)."""
        views = [state.view(s) for s in range(state.num_players)]
        pending = [(d.seat, d.kind, d.legal) for d in state.pending()]
        return json.dumps([views, pending], sort_keys=True, default=str)

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

    def batch_games(
        self, game: Game[Any], prepared: Any, seeds: Any, entities: Any, ids: Sequence[str]
    ) -> BatchGames:
        """One game per seed (an int64 array) between uniformly random seats on the batched
        engine, as arrays; ``entities[game, seat]`` indexes ``ids`` (``None``: as the
        options say). The fast form of :meth:`batch_random` for ``kumite sim --batched``."""
        raise NotImplementedError

    def batch_warm(self, game: Game[Any], prepared: Any) -> None:
        """Fill the batched engine's tables and compile it, once, before workers fork (they
        then share it instead of each filling its own)."""


def adapter_for(game_id: str) -> Adapter:
    """The adapter ``game_id``'s spec declares (``GameSpec.lab``), else one from its spec."""
    spec = specs().get(game_id)
    if spec is None or spec.lab is None:
        return Adapter(spec)
    adapter: Adapter = spec.lab.load()
    return adapter
