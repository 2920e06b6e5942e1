"""Toy poker, a fourth game that kumite knows only through its entry point.

Each seat is dealt a hidden card from a shuffled deck of ``cards`` numbers. Both choose at
once to ``hold`` or ``fold``; if both hold, seat 0 may ``raise`` and seat 1 then ``call``s or
``fold``s. The higher card wins; a fold loses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Self

import msgspec

from kumite.core import Decision, Event, Game, GameInfo, OptionsError, Outcome, Rng, State
from kumite.core.spec import GameSpec, Ref

ACTIONS = ("hold", "fold", "raise", "check", "call")
LABELS = {
    "hold": "Hold your card",
    "fold": "Fold",
    "raise": "Raise the stakes",
    "check": "Check",
    "call": "Call the raise",
}


class Options(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    cards: Annotated[int, msgspec.Meta(description="Cards in the deck (3 to 20).")] = 6


@dataclass(frozen=True, slots=True, kw_only=True)
class Chose(Event):
    seat: int
    choice: str

    def describe(self) -> str:
        return f"Seat {self.seat + 1} chose {self.choice}."


class Toy(Game[Options]):
    info = GameInfo(
        id="toy",
        name="Toy poker",
        min_players=2,
        max_players=2,
        simultaneous=True,
        hidden_information=True,
        chance=True,
        max_decisions=3,
        utility_range=(-2.0, 2.0),
        rules_version="toy-1",
        num_actions=len(ACTIONS),
    )

    def parse_options(self, raw: Mapping[str, Any] | None) -> Options:
        try:
            options = msgspec.convert(dict(raw or {}), Options)
        except msgspec.ValidationError as exc:
            raise OptionsError(f"toy options: {exc}") from None
        if not 3 <= options.cards <= 20:
            raise OptionsError("toy options: cards must be 3..20")
        return options

    def new_state(self, seed: int = 0, options: Mapping[str, Any] | None = None) -> ToyState:
        return ToyState(self, seed, self.parse_options(options))

    @property
    def rules(self) -> Mapping[str, str]:
        return {"toy.showdown": "The higher card wins; a fold loses."}


class ToyState(State):
    def __init__(self, game: Toy, seed: int, options: Options) -> None:
        self.game, self.seed, self.options, self.history = game, seed, options, []
        self.rng = Rng(seed)
        self.deck = list(range(1, options.cards + 1))
        self.rng.shuffle(self.deck)
        self.hands = [self.deck.pop(), self.deck.pop()]
        self.stage, self.stakes, self._outcome = "hold", 1, None

    players = (0, 1)
    outcome = property(lambda self: self._outcome)
    options_json = property(lambda self: self.game.options_to_json(self.options))

    def pending(self) -> tuple[Decision, ...]:
        if self.stage == "hold":
            return tuple(Decision(s, "hold", ("hold", "fold"), "Hold or fold?") for s in (0, 1))
        if self.stage == "raise":
            return (Decision(0, "raise", ("raise", "check"), "Raise?"),)
        if self.stage == "call":
            return (Decision(1, "call", ("call", "fold"), "Call?"),)
        return ()

    def _apply(self, choices: dict[int, str]) -> list[Event]:
        events: list[Event] = (
            []
            if self.quiet
            else [Chose(rule="toy.showdown", seat=s, choice=c) for s, c in sorted(choices.items())]
        )
        folded = [s for s, c in choices.items() if c == "fold"]
        if self.stage == "hold" and not folded:
            self.stage = "raise"
        elif choices.get(0) == "raise":
            self.stage, self.stakes = "call", 2
        else:
            self._finish(folded)
        return events

    def _finish(self, folded: list[int]) -> None:
        a, b = self.hands
        winner = None if len(folded) == 2 else 1 - folded[0] if folded else (0 if a > b else 1)
        ret = (0.0, 0.0) if winner is None else (self.stakes, -self.stakes)[:: 1 - 2 * winner]
        self.stage = "over"
        self._outcome = Outcome(
            winners=() if winner is None else (winner,),
            draw=winner is None,
            returns=ret,
            reason="fold" if folded else "showdown",
            rule="toy.showdown",
        )

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history, other.deck, other.hands = (
            list(self.history),
            list(self.deck),
            list(self.hands),
        )
        other.rng = self.rng.clone()
        return other

    def determinize(self, seat: int, rng: Any) -> Self:
        other = self.clone()
        unseen = [*other.deck, other.hands[1 - seat]]
        rng.shuffle(unseen)
        other.hands[1 - seat] = unseen.pop()
        other.deck = unseen
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        shown = self.stage == "over" and self._outcome.reason != "fold"
        return {
            "seat": seat,
            "stage": self.stage,
            "stakes": self.stakes,
            "hands": [h if shown or s == seat else None for s, h in enumerate(self.hands)],
        }

    def legal_actions(self, seat: int) -> list[int]:
        return [ACTIONS.index(c) for c in self.legal(seat)]

    def action_to_choice(self, seat: int, action: int) -> str:
        return ACTIONS[action]

    def choice_to_action(self, seat: int, choice: str) -> int:
        return ACTIONS.index(choice)


def labeler(game: Game[Any], options: Mapping[str, Any]) -> Any:
    return lambda view, legal: [LABELS[c] for c in legal]


GAME = Toy()
SPEC = GameSpec(
    id="toy",
    name="Toy poker",
    game=Ref("kumite_toy:GAME"),
    options=Ref("kumite_toy:Options"),
    labels=Ref("kumite_toy:labeler"),
)
