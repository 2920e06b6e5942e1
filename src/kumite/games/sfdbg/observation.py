"""The SF DBG observation tensor (docs/envs.md), built from one seat's view only.

Seats are relative (the observer first, then the others in turn order after it). A card is
numbered by its position in the pack's card list (``Catalog.cards``, the order of the action
ids), a Super Hero by its position among the Super Heroes; a pile is a vector of copies per
card. The order of the Line-Up and of the piles is not kept (only what is in them). The
view is not perfect recall (draws are private and shuffled away), so OpenSpiel's
information state is the string of every view seen (kumite.envs.openspiel), not this tensor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kumite.core.game import Game
from kumite.core.observation import Encoding, Field, HistoryEncoding, Tensor, Writer, relative
from kumite.games.sfdbg.actions import vocabulary
from kumite.games.sfdbg.cards import Catalog
from kumite.games.sfdbg.game import MAX_DECISIONS_PER_TURN, SFDBG
from kumite.games.sfdbg.options import Options

KINDS = (
    "turn",
    "defend",
    "discard",
    "destroy",
    "destroy-trigger",
    "bottom",
    "under",
    "gain",
    "give",
    "foe",
    "name",
    "hp-ultra",
    "return-to-hand",
)
PILES = ("known_in_hand", "discard", "in_play", "locations", "under")
"""Each seat's piles in the view, each a field of the same name (copies per card)."""
CAP = 99.0
"""Cap of the counters no rule bounds (Power, Victory Points)."""


class SFDBGEncoding(Encoding):
    def __init__(self, catalog: Catalog, options: Options) -> None:
        self.catalog = catalog
        self.cards = {c.id: c.index for c in catalog.cards}
        self.heroes = {h.id: h.index for h in catalog.heroes}
        n = self.seats = options.players
        v, h = len(catalog.cards), len(catalog.heroes)
        total = float(catalog.rules.total_cards)
        stages = float(max(1, len(catalog.stages)))
        turns = float(options.round_limit * n + 1)
        self.secret = options.variant == "secret-heroes"
        self.max_decisions = n * options.round_limit * MAX_DECISIONS_PER_TURN
        self.history = SFDBGHistory(catalog, options)
        self._actions = len(vocabulary(catalog).choices)
        self._foe = vocabulary(catalog).ids["foe:0"]

        def pile(name: str, doc: str, *shape: int) -> Field:
            return Field(name, (*shape, v), total, doc + ": copies per card")

        super().__init__(
            [
                Field("seat", (n,), 1, "the observing seat (one-hot, absolute)"),
                Field("over", (1,), 1, "the game is over"),
                Field("turn", (1,), turns, "the turn number"),
                Field("active", (n,), 1, "the seat whose turn it is"),
                Field("power", (1,), CAP, "the active player's Power", clip=True),
                pile("line_up", "the Line-Up"),
                Field("line_up_empty", (1,), catalog.rules.line_up, "empty Line-Up slots"),
                Field("main_deck", (1,), total, "cards in the main deck"),
                Field("main_deck_top", (v,), 1, "the main deck's top card, where revealed"),
                Field("kicks", (1,), total, "Kicks left"),
                Field("weaknesses", (1,), total, "Weaknesses left"),
                Field("stage_top", (v,), 1, "the face-up Stage"),
                Field("stages_remaining", (1,), stages, "Stages left"),
                Field("can_challenge", (1,), 1, "the Stage Boss may be challenged now"),
                Field("bosses_remaining", (1,), h, "Super Heroes left in the stack"),
                Field("bosses_defeated", (h,), 1, "Stage Bosses defeated"),
                Field("boss_current", (h,), 1, "the Stage Boss now"),
                Field("hero_discard", (h,), 1, "Super Heroes in their discard pile"),
                pile("destroyed", "cards destroyed"),
                pile("set_aside", "cards set aside"),
                pile("played_this_turn", "cards played this turn"),
                Field("stage_defeated", (v,), 1, "the Stage defeated this turn"),
                Field("under_discount", (1,), CAP, "discount on cards under heroes", clip=True),
                Field("cannot_buy", (1,), 1, "no more buying this turn"),
                Field("hero", (n, h), 1, "each seat's Super Hero, where face up"),
                Field("hero_face_up", (n,), 1, "the seat's Super Hero is face up"),
                Field("hand_size", (n,), total, "cards in each seat's hand"),
                pile("known_in_hand", "cards known to be in each seat's hand", n),
                Field("deck_size", (n,), total, "cards in each seat's deck"),
                pile("discard", "each seat's discard pile", n),
                pile("in_play", "each seat's cards in play", n),
                pile("locations", "each seat's Locations", n),
                pile("under", "cards under each seat's Super Hero", n),
                Field("counter_attack_used", (n,), 1, "the seat's Counter-Attack was used"),
                Field("cannot_avoid", (n,), 1, "the seat cannot avoid Attacks"),
                Field("ultra_stack", (n,), total, "cards in the seat's Ultra stack (Secret)"),
                Field("tally_cards", (n,), total, "cards each seat owns"),
                Field(
                    "tally_vp",
                    (n,),
                    CAP,
                    "Victory Points each seat's cards score",
                    clip=True,
                    low=-CAP,
                ),
                Field("tally_stages", (n,), stages, "Stages each seat owns"),
                Field("tally_weaknesses", (n,), total, "Weaknesses each seat owns"),
                pile("hand", "the observer's own hand"),
                Field("to_decide", (n,), 1, "the seat has a decision pending now"),
                Field("decision", (len(KINDS),), 1, "the observer's pending decision kind"),
            ]
        )

    def action_order(self, seat: int) -> NDArray[np.intp]:
        """``foe:k`` relative to the acting seat, as the tensor's rows: the environments'
        id of ``foe:k`` names the ``k``-th seat after ``seat`` (``foe:1`` the next one),
        the game's names seat ``(seat + k) % players``."""
        order = np.arange(self._actions, dtype=np.intp)
        n = self.seats
        for k in range(n):
            order[self._foe + k] = self._foe + (seat + k) % n
        return order

    def fill(self, view: Mapping[str, Any], out: Writer) -> None:
        seat = view["seat"]
        n = self.seats
        rel = {s: k for k, s in enumerate(relative(seat, n))}
        cards, heroes = self.cards, self.heroes
        out.set("seat", 1, seat)
        out.set("over", float(view["phase"] == "over"))
        out.set("turn", view["turn"])
        out.set("active", 1, rel[view["active"]])
        out.set("power", view["power"])
        line_up = view["line_up"]
        out.set("line_up_empty", sum(card is None for card in line_up))
        out.count("line_up", [cards[card] for card in line_up if card is not None])
        out.set("main_deck", view["main_deck"])
        if view["main_deck_top"] is not None:
            out.set("main_deck_top", 1, cards[view["main_deck_top"]])
        out.set("kicks", view["kicks"])
        out.set("weaknesses", view["weaknesses"])
        stages = view["stages"]
        if stages["top"] is not None:
            out.set("stage_top", 1, cards[stages["top"]])
        out.set("stages_remaining", stages["remaining"])
        out.set("can_challenge", float(stages["can_challenge"]))
        bosses = view["bosses"]
        out.set("bosses_remaining", bosses["remaining"])
        for hero in bosses["defeated"]:
            out.set("bosses_defeated", 1, heroes[hero])
        if bosses["current"] is not None:
            out.set("boss_current", 1, heroes[bosses["current"]])
        for hero in bosses["hero_discard"]:
            out.set("hero_discard", 1, heroes[hero])
        out.count("destroyed", [cards[card] for card in view["destroyed"]])
        out.count("set_aside", [cards[card] for card in view["set_aside"]])
        turn = view["this_turn"]
        out.count("played_this_turn", [cards[card] for card in turn["played"]])
        if turn["stage_defeated"] is not None:
            out.set("stage_defeated", 1, cards[turn["stage_defeated"]])
        out.set("under_discount", turn["under_discount"])
        out.set("cannot_buy", float(turn["cannot_buy"]))
        for p in view["players"]:
            k = rel[p["seat"]]
            if p["hero"] is not None:
                out.set("hero", 1, k, heroes[p["hero"]])
            out.set("hero_face_up", float(p["hero_face_up"]), k)
            out.set("hand_size", p["hand_size"], k)
            out.set("deck_size", p["deck_size"], k)
            for name in PILES:
                out.count(name, [cards[card] for card in p[name]], k)
            out.set("counter_attack_used", float(p["counter_attack_used"]), k)
            out.set("cannot_avoid", float(p["cannot_avoid"]), k)
            out.set("ultra_stack", p.get("ultra_stack", 0), k)
            tally = p["tally"]
            out.set("tally_cards", tally["cards"], k)
            out.set("tally_vp", tally["vp"], k)
            out.set("tally_stages", tally["stages"], k)
            out.set("tally_weaknesses", tally["weaknesses"], k)
        out.count("hand", [cards[card] for card in view["players"][seat].get("hand", ())])
        for d in view["pending"]:
            out.set("to_decide", 1, rel[d["seat"]])
            if d["seat"] == seat:
                out.set("decision", 1, KINDS.index(d["kind"]))


class SFDBGHistory(HistoryEncoding):
    """What a seat has seen over the game: the cards each seat played, turn after turn
    (every card a seat owns is played sooner or later, so this follows each deck's
    growth), and the turn under way."""

    def __init__(self, catalog: Catalog, options: Options) -> None:
        self.cards = {c.id: c.index for c in catalog.cards}
        n = self.seats = options.players
        v = len(catalog.cards)
        total = float(catalog.rules.total_cards)
        turns = float(options.round_limit * n + 1)
        super().__init__(
            [
                Field(
                    "played",
                    (n, v),
                    CAP,
                    "cards each seat played in its past turns: plays per card",
                    clip=True,
                ),
                Field("turn_played", (v,), total, "cards played in the turn last seen"),
                Field("turn_seat", (n,), 1, "whose turn was last seen"),
                Field("turn_seen", (1,), turns, "the number of the turn last seen"),
            ]
        )

    def fold(self, memory: Tensor, view: Mapping[str, Any]) -> None:
        seat = view["seat"]
        n = self.seats
        played, under_way = self.at("played"), self.at("turn_played")
        v = len(self.cards)
        turn = view["turn"]
        if int(memory[self.at("turn_seen")]) != turn:
            owner = self.field(memory, "turn_seat").argmax()
            if memory[self.at("turn_seat", int(owner))]:
                start = played + int(owner) * v
                block = memory[start : start + v]
                np.minimum(block + memory[under_way : under_way + v], CAP, out=block)
            memory[self.at("turn_seen")] = turn
        memory[under_way : under_way + v] = 0.0
        cards = self.cards
        for card in view["this_turn"]["played"]:
            memory[under_way + cards[card]] += 1.0
        memory[self.at("turn_seat") : self.at("turn_seat") + n] = 0.0
        memory[self.at("turn_seat", (view["active"] - seat) % n)] = 1.0


def encoding(game: Game[Any], options: Mapping[str, Any]) -> SFDBGEncoding:
    assert isinstance(game, SFDBG)
    opts = game.parse_options(options)
    return SFDBGEncoding(game.catalog(opts), opts)
