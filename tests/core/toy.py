"""A tiny game to test the core contract without any real game.

Each seat is dealt a hidden number 1..6 (chance from the state's RNG). Both then choose
simultaneously to ``raise`` or ``stay``; if anyone raised, seat 0 then decides alone to
``call`` or ``fold``. Higher number wins (fold loses for seat 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from kumite.core import Decision, Event, Game, GameInfo, MalformedChoiceError, Outcome, Rng, State


class Dealt(Event):
    seat: int
    number: int


class Chose(Event):
    seat: int
    choice: str


ACTIONS = ("raise", "stay", "call", "fold")


class ToyGame(Game[dict[str, Any]]):
    info = GameInfo(
        id="toy",
        name="Toy",
        min_players=2,
        max_players=2,
        simultaneous=True,
        hidden_information=True,
        chance=True,
        max_decisions=2,
        utility_range=(-1, 1),
        rules_version="toy-1",
        num_actions=len(ACTIONS),
    )

    def parse_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        return dict(raw or {})

    def options_to_json(self, options: dict[str, Any]) -> dict[str, Any]:
        return dict(options)

    def new_state(self, seed: int = 0, options: Mapping[str, Any] | None = None) -> ToyState:
        return ToyState(self, seed, self.parse_options(options))

    @property
    def rules(self) -> Mapping[str, str]:
        return {"toy.deal": "Each seat is dealt a hidden number."}


class ToyState(State):
    def __init__(self, game: ToyGame, seed: int, options: dict[str, Any]) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        self.options = options
        self.rng = Rng(seed)
        self.numbers = [self.rng.randint(1, 6), self.rng.randint(1, 6)]
        self.choices: dict[int, str] = {}
        self.stage = "bet"
        self._outcome: Outcome | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return (0, 1)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def options_json(self) -> dict[str, Any]:
        return dict(self.options)

    def pending(self) -> tuple[Decision, ...]:
        if self.stage == "bet":
            return tuple(Decision(s, "bet", ("raise", "stay")) for s in (0, 1))
        if self.stage == "answer":
            return (Decision(0, "answer", ("call", "fold")),)
        return ()

    def _apply(self, choices: dict[int, str]) -> list[Event]:
        events: list[Event] = [
            Chose(rule="toy.deal", seat=s, choice=c) for s, c in sorted(choices.items())
        ]
        if self.stage == "bet":
            self.choices = choices
            if "raise" in choices.values():
                self.stage = "answer"
            else:
                self._finish()
        else:
            if choices[0] == "fold":
                self._finish(winner=1)
            else:
                self._finish()
        return events

    def _finish(self, winner: int | None = None) -> None:
        a, b = self.numbers
        if winner is None and a != b:
            winner = 0 if a > b else 1
        self.stage = "over"
        ret = (0.0, 0.0) if winner is None else ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
        self._outcome = Outcome(
            winners=() if winner is None else (winner,),
            draw=winner is None,
            returns=ret,
            reason="showdown",
            rule="toy.deal",
        )

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.numbers = list(self.numbers)
        other.rng = self.rng.clone()
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "number": None if seat is None else self.numbers[seat],
            "stage": self.stage,
        }

    def legal_actions(self, seat: int) -> list[int]:
        return [ACTIONS.index(c) for c in self.legal(seat)]

    def action_to_choice(self, seat: int, action: int) -> str:
        return ACTIONS[action]

    def choice_to_action(self, seat: int, choice: str) -> int:
        if choice not in ACTIONS:
            raise MalformedChoiceError(seat, choice, "unknown choice")
        return ACTIONS.index(choice)


GAME = ToyGame()
