"""Toy poker, a fourth game that kumite knows only through its entry point.

Each seat is dealt a hidden card of a shuffled deck of ``cards`` numbers. Heads-up (mode
``1v1``) or two teams of two (``2v2``: seats 1 and 3 against seats 2 and 4; a seat sees only
its own card, not even its partner's). Every seat chooses at once to ``hold`` or ``fold``;
if nobody folds, seat 0 may ``raise`` (option ``raises``) and seat 1 then ``call``s or
``fold``s. A side folds when one of its seats folds, and loses the stakes; else the higher
card (a team: the sum of its cards) wins them. The teams are declared (``ToyState.teams``):
the server, the lobby, the lab and the research interfaces treat partners as one side with
no change outside this folder.
"""

import itertools
import json
from typing import Annotated, Any, Literal

import msgspec
import typer

from kumite.core import Decision, Game, GameInfo, Outcome, Rng, State
from kumite.core.errors import OptionsError
from kumite.core.observation import Encoding, Field, Writer, relative
from kumite.core.spec import GameSpec, Observation, Ref, SolveRequest, doc

ACTIONS = ("hold", "fold", "raise", "check", "call")
ASK = {"hold": ("hold", "fold"), "raise": ("raise", "check"), "call": ("call", "fold")}
LABELS = dict(zip(ACTIONS, ["Hold your card", "Fold", "Raise", "Check", "Call"], strict=True))
STAGES = ("hold", "raise", "call", "fold", "showdown")
TEAMS = {"1v1": ((0,), (1,)), "2v2": ((0, 2), (1, 3))}


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: Annotated[int, msgspec.Meta(ge=3, le=20), doc("Cards in the deck (3 to 20).")] = 6
    mode: Annotated[
        Literal["1v1", "2v2"], doc("1v1: heads-up; 2v2: seats 1 & 3 against seats 2 & 4.")
    ] = "1v1"
    raises: Annotated[bool, doc("Seat 1 may raise the stakes to 2 before the showdown.")] = True
    dealer: Annotated[str, doc("Who deals, as the table shows it.")] = "the house"


class Toy(Game[Options]):
    info = GameInfo(
        id="toy", name="Toy poker", min_players=2, max_players=4, simultaneous=True,
        hidden_information=True, chance=True, max_decisions=3, utility_range=(-2.0, 2.0),
        rules_version="toy-2", num_actions=len(ACTIONS),
    )  # fmt: skip
    options_type = Options

    def check(self, options: Options) -> None:
        if options.cards < seats(options.mode):
            raise OptionsError(f"toy {options.mode} needs at least {seats(options.mode)} cards")

    def new_state(self, seed: int = 0, options: Any = None, *, rng: Any = None) -> "ToyState":
        return ToyState(self, seed, self.parse_options(options), rng)

    def max_chance_outcomes(self, options: Options) -> int:
        return options.cards


class ToyState(State):
    actions, outcome = ACTIONS, None

    def __init__(self, game: Toy, seed: int, opts: Options, rng: Rng | None = None) -> None:
        self.game, self.seed, self.opts, self.history = game, seed, opts, []
        self.rng = Rng(seed) if rng is None else rng
        self.sides = TEAMS[opts.mode]
        self.deck = list(range(1, opts.cards + 1))
        self.rng.shuffle(self.deck)
        self.hands = [self.deck.pop() for _ in range(seats(opts.mode))]
        self.stage, self.stakes = "hold", 1

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(range(len(self.hands)))

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self.sides

    def pending(self) -> tuple[Decision, ...]:
        deciding = {"hold": self.players, "raise": (0,), "call": (1,)}.get(self.stage, ())
        return tuple(Decision(s, self.stage, ASK[self.stage], f"{self.stage}?") for s in deciding)

    def _apply(self, choices: dict[int, str]) -> list[Any]:
        folded = {self.sides.index(self.team(s)) for s, c in choices.items() if c == "fold"}
        if self.stage == "hold" and not folded and self.opts.raises:
            self.stage = "raise"
        elif choices.get(0) == "raise":
            self.stage, self.stakes = "call", 2
        else:
            a, b = (sum(self.hands[s] for s in side) for side in self.sides)
            win = 1 - min(folded) if len(folded) == 1 else None if folded or a == b else b > a
            self.stage = reason = "fold" if folded else "showdown"
            winners = () if win is None else self.sides[int(win)]
            ret = tuple(
                0.0 if win is None else self.stakes if s in winners else -self.stakes
                for s in self.players
            )
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
        others = [s for s in self.players if s != seat]
        unseen = [*other.deck, *(other.hands[s] for s in others)]
        rng.shuffle(unseen)
        for s in others:
            other.hands[s] = unseen.pop()
        other.deck = unseen
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        show = self.stage == "showdown"
        hands = [h if show or s == seat else None for s, h in enumerate(self.hands)]
        return {
            "seat": seat,
            "stage": self.stage,
            "stakes": self.stakes,
            "hands": hands,
            "teams": [list(t) for t in self.sides],
            "dealer": self.opts.dealer,
        }


class ToyEncoding(Encoding):
    """The seat's view: each seat's card where it is seen (relative seats, the observer
    first), who is on its team, the stage and the stakes."""

    def __init__(self, seats: int, cards: int) -> None:
        self.seats = seats
        super().__init__(
            [
                Field("card", (seats,), cards, "each seat's card where seen (0: unseen)"),
                Field("partner", (seats,), 1, "the seat is on the observer's team"),
                Field("stage", (len(STAGES),), 1, "the stage, one-hot"),
                Field("stakes", (1,), 2, "the stakes"),
            ]
        )

    def fill(self, view: Any, out: Writer) -> None:
        seat = view["seat"]
        mine = next(t for t in view["teams"] if seat in t)
        for k, s in enumerate(relative(seat, self.seats)):
            out.set("card", view["hands"][s] or 0, k)
            out.set("partner", float(s in mine), k)
        out.set("stage", 1, STAGES.index(view["stage"]))
        out.set("stakes", view["stakes"])


def encoding(game: Toy, options: Any) -> ToyEncoding:
    opts = game.parse_options(options)
    return ToyEncoding(seats(opts.mode), opts.cards)


def seats(mode: str) -> int:
    return sum(len(team) for team in TEAMS[mode])


def with_seats(options: Any, n: int) -> dict[str, Any]:
    """The mode follows the seats (2: heads-up, 4: two teams of two) unless options name it."""
    mode = options.get("mode") or next((m for m in TEAMS if seats(m) == n), None)
    if mode not in TEAMS or seats(mode) != n:
        raise OptionsError(f"toy poker {mode or ''} is not played by {n} seats")
    return {**options, "mode": mode}


def labeler(game: Any, options: Any) -> Any:
    return lambda view, legal: [LABELS[c] for c in legal]


SOLVER = typer.Typer(add_completion=False)


@SOLVER.command()
def odds(
    ctx: typer.Context,
    card: Annotated[int | None, typer.Option(help="Only the odds of this card.")] = None,
) -> None:
    """The showdown odds of each card: how often its side wins, ties or loses a showdown
    against every deal of the other cards (``kumite solve toy``)."""
    request = ctx.find_object(SolveRequest)
    assert request is not None
    opts = GAME.parse_options(request.options)
    deck, (mine, theirs) = range(1, opts.cards + 1), TEAMS[opts.mode]
    if card is not None and card not in deck:
        raise OptionsError(f"--card must be 1..{opts.cards}, got {card}")
    rows = []
    for k in deck if card is None else [card]:
        counts = [0, 0, 0]
        for deal in itertools.permutations([c for c in deck if c != k], seats(opts.mode) - 1):
            hands = [k, *deal]  # seat 0 first
            ours, rival = sum(hands[s] for s in mine), sum(hands[s] for s in theirs)
            counts[0 if ours > rival else 1 if ours == rival else 2] += 1
        win, tie, loss = (n / sum(counts) for n in counts)
        rows.append({"card": k, "win": win, "tie": tie, "loss": loss})
    if request.json:
        typer.echo(json.dumps(rows))
    for row in [] if request.json else rows:
        typer.echo(f"card {row['card']}: wins {row['win']:.3f}, ties {row['tie']:.3f}")


GAME = Toy()
SPEC = GameSpec(
    id="toy",
    name="Toy poker",
    game=Ref("kumite_toy:GAME"),
    options=Ref("kumite_toy:Options"),
    seats=Ref("kumite_toy:with_seats"),
    labels=Ref("kumite_toy:labeler"),
    solver=Ref("kumite_toy:SOLVER"),
    observation=Observation(encoding=Ref("kumite_toy:encoding"), env_name="Toy"),
)
