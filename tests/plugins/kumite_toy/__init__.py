"""Toy poker, a fourth game that kumite knows only through its entry point.

Each seat is dealt a hidden card of a shuffled deck of ``cards`` numbers. Both choose at once
to ``hold`` or ``fold``; if both hold, seat 0 may ``raise`` and seat 1 then ``call``s or
``fold``s. The higher card wins the stakes; a fold loses them.
"""

from typing import Annotated, Any

import msgspec

from kumite.core import Decision, Game, GameInfo, Outcome, Rng, State
from kumite.core.spec import GameSpec, Ref, doc

ACTIONS = ("hold", "fold", "raise", "check", "call")
ASK = {"hold": ("hold", "fold"), "raise": ("raise", "check"), "call": ("call", "fold")}
LABELS = dict(zip(ACTIONS, ["Hold your card", "Fold", "Raise", "Check", "Call"], strict=True))


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: Annotated[int, msgspec.Meta(ge=3, le=20), doc("Cards in the deck (3 to 20).")] = 6


class Toy(Game[Options]):
    info = GameInfo(
        id="toy", name="Toy poker", min_players=2, max_players=2, simultaneous=True,
        hidden_information=True, chance=True, max_decisions=3, utility_range=(-2.0, 2.0),
        rules_version="toy-1", num_actions=len(ACTIONS),
    )  # fmt: skip
    options_type = Options

    def new_state(self, seed: int = 0, options: Any = None) -> "ToyState":
        return ToyState(self, seed, self.parse_options(options))


class ToyState(State):
    players, actions, outcome = (0, 1), ACTIONS, None

    def __init__(self, game: Toy, seed: int, opts: Options) -> None:
        self.game, self.seed, self.opts, self.history, self.rng = game, seed, opts, [], Rng(seed)
        self.deck = list(range(1, opts.cards + 1))
        self.rng.shuffle(self.deck)
        self.hands, self.stage, self.stakes = [self.deck.pop(), self.deck.pop()], "hold", 1

    def pending(self) -> tuple[Decision, ...]:
        seats = {"hold": (0, 1), "raise": (0,), "call": (1,)}.get(self.stage, ())
        return tuple(Decision(s, self.stage, ASK[self.stage], f"{self.stage}?") for s in seats)

    def _apply(self, choices: dict[int, str]) -> list[Any]:
        folded = [s for s, c in choices.items() if c == "fold"]
        if self.stage == "hold" and not folded:
            self.stage = "raise"
        elif choices.get(0) == "raise":
            self.stage, self.stakes = "call", 2
        else:
            a, b = self.hands
            win = None if len(folded) == 2 else 1 - folded[0] if folded else int(b > a)
            ret = (0.0, 0.0) if win is None else (self.stakes, -self.stakes)[:: 1 - 2 * win]
            self.stage = reason = "fold" if folded else "showdown"
            winners = () if win is None else (win,)
            self.outcome = Outcome(winners, win is None, ret, reason, rule="toy.showdown")
        return []

    def clone(self) -> "ToyState":
        other = object.__new__(ToyState)
        other.__dict__.update(self.__dict__, deck=[*self.deck], hands=[*self.hands])
        other.history = [dict(step) for step in self.history]  # a step is a dict: copied
        other.rng = self.rng.clone()
        return other

    def determinize(self, seat: int, rng: Any) -> "ToyState":
        other = self.clone()
        unseen = [*other.deck, other.hands[1 - seat]]
        rng.shuffle(unseen)
        other.hands[1 - seat], other.deck = unseen.pop(), unseen
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        show = self.stage == "showdown"
        hands = [h if show or s == seat else None for s, h in enumerate(self.hands)]
        return {"seat": seat, "stage": self.stage, "stakes": self.stakes, "hands": hands}


GAME = Toy()
SPEC = GameSpec(
    id="toy",
    name="Toy poker",
    game=Ref("kumite_toy:GAME"),
    options=Ref("kumite_toy:Options"),
    labels=Ref("kumite_toy:labeler"),
)


def labeler(game: Any, options: Any) -> Any:
    return lambda view, legal: [LABELS[c] for c in legal]
