"""The SF Rivals observation tensor (docs/envs.md), built from one seat's view only.

Cards are numbered by their *slot*, their position among their character's card types (the
same numbering as the action ids, ``state.A_PLAY + slot``); characters by their position in
the pack (``state.A_CHARACTER + k``). The view already holds everything a seat has seen and
done — both characters, both shown cards, its own cover, every card played in round order —
so the tensor is perfect recall: it doubles as OpenSpiel's information-state tensor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from kumite.core.game import Game, State
from kumite.core.observation import Encoding, Field, Tensor, Writer, relative
from kumite.games.sfrivals.cards import HAND, MAX_LIFE, Catalog
from kumite.games.sfrivals.game import SFRivals
from kumite.games.sfrivals.state import (
    CARD_SLOTS,
    MAX_CHARACTERS,
    SEAT_VALUES,
    TABLE_VALUES,
    SFRState,
    encode,
)

PHASES = ("character", "setup", "play", "over")
KINDS = ("character", "setup", "play", "play-first")
CARRY = ("initiative_next_round", "lasting_initiative", "lasting_damage")


class SFRivalsEncoding(Encoding):
    perfect_recall = True

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.characters = {c: k for k, c in enumerate(catalog.characters)}
        rules = catalog.rules
        super().__init__(
            [
                Field("seat", (2,), 1, "the observing seat (one-hot)"),
                Field("phase", (len(PHASES),), 1, "phase: " + ", ".join(PHASES)),
                Field("round", (1,), HAND + 1, "the round being played (0 before it)"),
                Field("rounds", (1,), HAND, "rounds of the fight (the pack's `hand`)"),
                Field(
                    "character",
                    (2, MAX_CHARACTERS),
                    1,
                    "each seat's character, by pack position (relative seats: observer first)",
                ),
                Field("life", (2,), MAX_LIFE, "each seat's life"),
                Field("hand_size", (2,), HAND, "cards in each seat's hand"),
                Field("shown", (2, CARD_SLOTS), 1, "each seat's shown set-up card, by slot"),
                Field(
                    "played",
                    (2, HAND, CARD_SLOTS),
                    1,
                    "each seat's card of each round played so far, by slot",
                ),
                Field(
                    "revealed",
                    (2, CARD_SLOTS),
                    1,
                    "a card revealed first this round, by slot (a 'reveal first' power)",
                ),
                Field(
                    "carry",
                    (2, len(CARRY)),
                    _carry_high(catalog),
                    "each seat's carried bonuses: " + ", ".join(CARRY),
                ),
                Field("must_reveal_first", (2,), 1, "the seat must reveal its card first"),
                Field("hand", (CARD_SLOTS,), 10, "the observer's own hand: copies per slot"),
                Field("cover", (CARD_SLOTS,), 1, "the observer's own hidden cover, by slot"),
                Field("to_decide", (2,), 1, "the seat has a decision pending now"),
                Field("decision", (len(KINDS),), 1, "the observer's pending decision kind"),
            ]
        )
        self.rules = rules
        self._names = {
            **{f"phase:{name}": k for k, name in enumerate(PHASES)},
            **{f"character:{name}": k for name, k in self.characters.items()},
            **{f"kind:{name}": k for k, name in enumerate(KINDS)},
        }
        """Where each name goes in its one-hot field (the state module's ``encode``)."""
        at = self.offsets
        self._values = [
            np.array(
                [at[name] for name, _ in TABLE_VALUES]
                + [
                    at[name] + (s - seat) % 2 * m + j
                    for s in (0, 1)
                    for name, m in SEAT_VALUES
                    for j in range(m)
                ],
                np.intp,
            )
            for seat in (0, 1)
        ]
        """Per observing seat, where the values of ``encode`` go, in its order."""

    def observe(self, state: State, seat: int) -> Tensor:
        assert isinstance(state, SFRState)
        hot, values = encode(state, seat, self.offsets, self._names)
        return self.gather(hot, self._values[seat], values)

    def fill(self, view: Mapping[str, Any], out: Writer) -> None:
        seat = view["seat"]
        out.set("seat", 1, seat)
        out.set("phase", 1, PHASES.index(view["phase"]))
        out.set("round", view["round"])
        out.set("rounds", view["rounds"])
        cards = self.catalog.cards
        players = view["players"]
        for k, s in enumerate(relative(seat, 2)):
            p = players[s]
            if p["character"] is not None:
                out.set("character", 1, k, self.characters[p["character"]])
            out.set("life", p["life"], k)
            out.set("hand_size", p["hand_size"], k)
            if p["shown"] is not None:
                out.set("shown", 1, k, cards[p["shown"]].index)
            for r, card in enumerate(p["played"]):
                out.set("played", 1, k, r, cards[card].index)
            if p["revealed"] is not None:
                out.set("revealed", 1, k, cards[p["revealed"]].index)
            for j, name in enumerate(CARRY):
                out.set("carry", p["carry"][name], k, j)
            out.set("must_reveal_first", float(p["must_reveal_first"]), k)
        me = players[seat]
        for card in me.get("hand", ()):
            out.add("hand", 1, cards[card].index)
        if me.get("cover") is not None:
            out.set("cover", 1, cards[me["cover"]].index)
        for d in view["pending"]:
            out.set("to_decide", 1, (d["seat"] - seat) % 2)
            if d["seat"] == seat:
                out.set("decision", 1, KINDS.index(d["kind"]))


def _carry_high(catalog: Catalog) -> float:
    """A bound on any carried bonus: every copy of every power of two characters that
    give one (a bonus only comes from the cards played in the fight)."""
    ops = ("next_round_initiative", "lasting_initiative", "lasting_damage")
    totals = [
        sum(e.amount * c.copies for c in char.cards for e in c.effects if e.op in ops)
        for char in catalog.characters.values()
    ]
    return float(max(1, 2 * max(totals, default=0)))


def encoding(game: Game[Any], options: Mapping[str, Any]) -> SFRivalsEncoding:
    assert isinstance(game, SFRivals)
    return SFRivalsEncoding(game.catalog(game.parse_options(options)))
