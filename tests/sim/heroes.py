"""A tiny 2-4 player game with heroes and shared cards, to test the lab beyond two players.

Each seat picks a hero (or the options fix it), then all seats play one bid card (1, 2 or 3)
at once. Score = bid + the hero's bonus (``ace`` +1); the highest score wins, several seats
may share the win, and a game where everyone ties is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from kumite.core import Decision, Event, Game, GameInfo, Outcome, State
from kumite.core.game import Outcome as OutcomeT
from kumite.sim.adapters import Adapter, CardPlay, GameSummary

HEROES = {"ace": 1, "bo": 0, "cy": 0}
BIDS = ("bid:1", "bid:2", "bid:3")


class HeroesGame(Game[dict[str, Any]]):
    info = GameInfo(
        id="heroes",
        name="Heroes",
        min_players=2,
        max_players=4,
        simultaneous=True,
        hidden_information=False,
        chance=False,
        max_decisions=2,
        utility_range=(-1, 1),
        rules_version="heroes-1",
        num_actions=len(HEROES) + len(BIDS),
    )

    def parse_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        return dict(raw or {})

    def options_to_json(self, options: dict[str, Any]) -> dict[str, Any]:
        return dict(options)

    def new_state(self, seed: int = 0, options: Mapping[str, Any] | None = None) -> HeroesState:
        return HeroesState(self, seed, self.parse_options(options))

    @property
    def rules(self) -> Mapping[str, str]:
        return {"heroes.bid": "Highest bid plus bonus wins."}


class HeroesState(State):
    def __init__(self, game: HeroesGame, seed: int, options: dict[str, Any]) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        self.options = options
        self.n = int(options.get("players", 2))
        fixed = options.get("heroes")
        self.heroes: list[str | None] = list(fixed) if fixed else [None] * self.n
        self.bids: list[int] = []
        self._outcome: Outcome | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(range(self.n))

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def options_json(self) -> dict[str, Any]:
        return dict(self.options)

    def pending(self) -> tuple[Decision, ...]:
        if self._outcome is not None:
            return ()
        if any(h is None for h in self.heroes):
            return tuple(
                Decision(s, "hero", tuple(f"hero:{h}" for h in HEROES))
                for s in range(self.n)
                if self.heroes[s] is None
            )
        return tuple(Decision(s, "bid", BIDS) for s in range(self.n))

    def _apply(self, choices: dict[int, str]) -> list[Event]:
        if any(h is None for h in self.heroes):
            for s, c in choices.items():
                self.heroes[s] = c.partition(":")[2]
            return []
        self.bids = [int(choices[s].partition(":")[2]) for s in range(self.n)]
        scores = [b + HEROES[h or ""] for b, h in zip(self.bids, self.heroes, strict=True)]
        top = max(scores)
        winners = tuple(s for s in range(self.n) if scores[s] == top)
        draw = len(winners) == self.n
        self._outcome = OutcomeT(
            winners=() if draw else winners,
            draw=draw,
            returns=tuple(0.0 if draw else (1.0 if s in winners else -1.0) for s in range(self.n)),
            reason="showdown",
            rule="heroes.bid",
        )
        return []

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.heroes = list(self.heroes)
        other.bids = list(self.bids)
        other.history = list(self.history)
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"heroes": list(self.heroes), "bids": list(self.bids)}

    def legal_actions(self, seat: int) -> list[int]:
        return list(range(len(self.legal(seat))))

    def action_to_choice(self, seat: int, action: int) -> str:
        return self.legal(seat)[action]

    def choice_to_action(self, seat: int, choice: str) -> int:
        return self.legal(seat).index(choice)


class HeroesAdapter(Adapter):
    entity = "hero"
    entities_distinct = True
    turn = "turn"
    cards_per_entity = False

    def entity_ids(self, game: Game[Any], options: Mapping[str, Any]) -> list[str]:
        return list(HEROES)

    def fixed_entities(self, options: Mapping[str, Any]) -> bool:
        return bool(options.get("heroes"))

    def with_entities(self, options: Mapping[str, Any], entities: Sequence[str]) -> dict[str, Any]:
        return {**options, "heroes": list(entities), "players": len(entities)}

    def summarize(self, state: State, outcome: Outcome) -> GameSummary:
        assert isinstance(state, HeroesState)
        return GameSummary(
            winners=tuple(outcome.winners),
            draw=outcome.draw,
            reason=outcome.reason,
            length=1,
            entities=tuple(state.heroes),
            plays=tuple(CardPlay(s, f"bid-{b}", 1) for s, b in enumerate(state.bids)),
        )


GAME = HeroesGame()
ADAPTER = HeroesAdapter()
