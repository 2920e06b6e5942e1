"""Shared SF DBG bot knowledge: card values and answers to every forced decision.

Everything here reads only a seat's view and the pending decision's legal choices (plus the
public card catalog). Card values are rough: ``econ`` is what a card does for the turn it is
played (Power, cards drawn, an Attack, a Defense, a destroy), ``vp`` its end-of-game worth.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from kumite.games.sfdbg.cards import Card, Catalog, Effect
from kumite.games.sfdbg.choice import (
    DESTROY_NONE,
    DISCARD_NONE,
    GAIN_NONE,
    GIVE_NONE,
    KICK,
    NO_DEFENSE,
    UNDER_NONE,
    YES,
    Bottom,
    Buy,
    DBGChoice,
    Defend,
    Destroy,
    Discard,
    Foe,
    Gain,
    Give,
    Name,
    Play,
    Reveal,
    Take,
    Under,
    parse,
)

CARD_CHOICES = (Play, Take, Defend, Reveal, Discard, Destroy, Bottom, Under, Give, Buy, Gain)
"""The kinds of choice that name a card."""

#: Rough end-of-game worth of the variable-VP cards.
VARIABLE_VP = {"squared": 3.0, "per_different_attack": 3.0, "per_different_defense": 3.0}


def _econ(effects: Sequence[Effect]) -> float:
    worth = 0.0
    for e in effects:
        scale = 0.5 if e.conditional else 1.0
        if e.op == "power":
            worth += e.amount * scale
        elif e.op == "power_per_played":
            worth += 1.0
        elif e.op == "draw":
            worth += 1.3 * e.amount * scale
        elif e.op == "attack":
            worth += 0.8 + 0.2 * len(e.effects)
        elif e.op in ("destroy", "gain", "under_hero", "return_to_hand", "foe", "topdeck_at_end"):
            worth += 0.6
        elif e.op == "discard":
            worth -= 0.5 * e.amount
    return worth


@dataclasses.dataclass(frozen=True)
class CardValues:
    """Per-card estimates, from the catalog."""

    catalog: Catalog
    econ: Mapping[str, float]
    vp: Mapping[str, float]
    groups: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Each card's play group (:func:`group`)."""

    @classmethod
    def of(cls, catalog: Catalog) -> CardValues:
        econ: dict[str, float] = {}
        vp: dict[str, float] = {}
        for card in catalog.cards:
            worth = _econ(card.play)
            if card.defense is not None:
                worth += 0.5 + (1.0 if card.defense.mode == "ultra" else 0.0)
            if card.reaction:
                worth += 0.4
            if card.ongoing is not None:
                worth += 1.0
            econ[card.id] = worth
            if card.vp_rule is None:
                vp[card.id] = float(card.vp)
            elif card.vp_rule.kind == "different_at_least":
                vp[card.id] = card.vp_rule.amount / 2
            else:
                vp[card.id] = VARIABLE_VP.get(card.vp_rule.kind, 1.0)
        return cls(catalog, econ, vp, {card.id: group(card) for card in catalog.cards})

    def card(self, card_id: str) -> Card:
        return self.catalog.by_id[card_id]

    def keep(self, card_id: str) -> float:
        """How much a player wants to keep this card (low = discard or destroy it first)."""
        if card_id == "weakness":
            return -3.0
        if card_id == "vulnerability":
            return -2.0
        return self.econ[card_id] + 0.3 * self.vp[card_id]

    def buy(self, card_id: str, late: float) -> float:
        """Worth of gaining the card now; ``late`` runs from 0 (start) to 1 (game end)."""
        return (1.0 - late) * self.econ[card_id] + (0.5 + late) * self.vp[card_id]


def my_seat(view: Mapping[str, Any]) -> int:
    seat = view["seat"]
    assert isinstance(seat, int)
    return seat


def lateness(view: Mapping[str, Any]) -> float:
    """How far the game has gone, 0 to 1: the larger of Stages defeated and main deck used."""
    stages = 1.0 - float(view["stages"]["remaining"]) / 8.0
    main = 1.0 - float(view["main_deck"]) / 106.0
    return max(0.0, min(1.0, max(stages, main)))


def leader(view: Mapping[str, Any], values: CardValues, among: Sequence[int]) -> int:
    """The foe who looks strongest from the table: visible VP (discard, in play, Locations)."""

    def visible(seat: int) -> float:
        p = view["players"][seat]
        cards = p["discard"] + p["in_play"] + p["locations"]
        return sum(values.vp[c] for c in cards) + 0.1 * float(p["deck_size"])

    return max(among, key=lambda s: (visible(s), -s))


def lowest(options: Sequence[str], value: Any) -> str:
    return min(options, key=lambda c: (value(c), c))


def highest(options: Sequence[str], value: Any) -> str:
    return max(options, key=lambda c: (value(c), c))


def card_of(choice: str) -> str:
    """The card a choice names (``destroy:hand:punch`` -> ``punch``; ``buy:kick``: the Kick,
    the card on top of the Kick stack)."""
    typed = parse(choice)
    if isinstance(typed, Buy) and typed.card is None and typed.zone == "kick":
        return KICK
    assert isinstance(typed, CARD_CHOICES) and typed.card is not None, choice
    return typed.card


def kind_of(choice: str) -> type[DBGChoice]:
    """The kind of a choice (:class:`~kumite.games.sfdbg.choice.Play`...)."""
    return type(parse(choice))


class Policy:
    """Answers to every decision except the turn itself."""

    def __init__(self, values: CardValues) -> None:
        self.values = values

    def answer(self, view: Mapping[str, Any], kind: str, legal: Sequence[str]) -> str:
        handler = getattr(self, "_" + kind.replace("-", "_"), None)
        if handler is None or len(legal) == 1:
            return legal[0]
        choice = handler(view, list(legal))
        assert isinstance(choice, str)
        return choice if choice in legal else legal[0]

    # -- being attacked ------------------------------------------------------------------------
    def _defend(self, view: Mapping[str, Any], legal: list[str]) -> str:
        reveals = [c for c in legal if kind_of(c) is Reveal]
        if reveals:
            return reveals[0]  # free: the card stays in hand
        defenses = [c for c in legal if kind_of(c) is Defend]
        if not defenses:
            return NO_DEFENSE
        me = view["players"][my_seat(view)]
        ultras = [c for c in defenses if self.values.card(card_of(c)).type == "Ultra"]
        if ultras and not me["counter_attack_used"]:
            return ultras[0]
        plain = [c for c in defenses if c not in ultras] or defenses
        return lowest(plain, lambda c: self.values.keep(card_of(c)))

    def _discard(self, view: Mapping[str, Any], legal: list[str]) -> str:
        return lowest(legal, lambda c: -9.0 if c == DISCARD_NONE else self.values.keep(card_of(c)))

    def _destroy(self, view: Mapping[str, Any], legal: list[str]) -> str:
        cards = [c for c in legal if c != DESTROY_NONE]
        optional = DESTROY_NONE in legal
        if optional:
            own = [c for c in cards if Destroy.parse(c).zone != "lineup"]
            junk = [c for c in own if card_of(c) in ("weakness", "vulnerability")]
            if junk:
                return junk[0]
            punches = [c for c in own if card_of(c) == "punch"]
            if punches and lateness(view) > 0.2:
                return punches[0]
            return DESTROY_NONE
        return lowest(cards, lambda c: self.values.keep(card_of(c)))

    def _bottom(self, view: Mapping[str, Any], legal: list[str]) -> str:
        return lowest(legal, lambda c: self.values.keep(card_of(c)))

    # -- your own card's choices -------------------------------------------------------------------
    def _under(self, view: Mapping[str, Any], legal: list[str]) -> str:
        cards = [c for c in legal if c != UNDER_NONE]
        if UNDER_NONE not in legal:  # forced: give away the least useful
            return lowest(cards, lambda c: self.values.keep(card_of(c)))
        late = lateness(view)
        best = highest(cards, lambda c: self.values.buy(card_of(c), late))
        return best if self.values.buy(card_of(best), late) >= 1.5 else UNDER_NONE

    def _gain(self, view: Mapping[str, Any], legal: list[str]) -> str:
        cards = [c for c in legal if c != GAIN_NONE]
        late = lateness(view)
        best = highest(cards, lambda c: self.values.buy(card_of(c), late))
        return best if self.values.buy(card_of(best), late) > 0 else GAIN_NONE

    def _foe(self, view: Mapping[str, Any], legal: list[str]) -> str:
        seats = [Foe.parse(c).seat for c in legal]
        return Foe(leader(view, self.values, seats)).format()

    def _give(self, view: Mapping[str, Any], legal: list[str]) -> str:
        junk = [c for c in legal if c != GIVE_NONE and card_of(c) in ("weakness", "vulnerability")]
        return junk[0] if junk else GIVE_NONE

    def _name(self, view: Mapping[str, Any], legal: list[str]) -> str:
        for wanted in (Name("type", "Starter").format(), Name("cost", "0").format()):
            if wanted in legal:
                return wanted
        return legal[0]

    def _return_to_hand(self, view: Mapping[str, Any], legal: list[str]) -> str:
        return YES

    def _destroy_trigger(self, view: Mapping[str, Any], legal: list[str]) -> str:
        return YES

    def _hp_ultra(self, view: Mapping[str, Any], legal: list[str]) -> str:
        return YES


# -- the turn: what to play next ---------------------------------------------------------------

#: Play groups, in the default order.
GROUPS = ("weakness", "draw", "location", "power", "attack", "defense", "other")


def group(card: Card) -> str:
    if card.id == "weakness":
        return "weakness"  # returns to its stack: always good to play
    if card.is_location:
        return "location"
    if card.has_defense:
        return "defense"
    if card.has_attack:
        return "attack"
    if any(e.op == "draw" and not e.conditional for e in card.play):
        return "draw"
    if card.play:
        return "power"
    return "other"


def threatened(view: Mapping[str, Any]) -> bool:
    """Some foe may hold his Ultra (it is no longer under his Super Hero nor in sight), so an
    Attack of ours may be Counter-Attacked."""
    seat = my_seat(view)
    for p in view["players"]:
        if p["seat"] == seat or p["counter_attack_used"]:
            continue
        visible = p["under"] + p["discard"] + p["in_play"]
        if not any(c in visible for c in _ULTRA_IDS):
            return True
    return False


_ULTRA_IDS: set[str] = set()


def next_play(
    view: Mapping[str, Any],
    legal: Sequence[str],
    values: CardValues,
    order: Sequence[str] = GROUPS,
    hold_defense: bool = True,
) -> str | None:
    """The next card to play (``play:<id>``), or ``None`` when the rest should stay in hand.

    A Defense is held back while Attacks remain to be played and a foe may Counter-Attack:
    "you may want to hold a Defense card in your hand if you wish to avoid a potential
    Counter-Attack. Then feel free to play the Defense card from
    your hand after your Attacks have all resolved."
    """
    if not _ULTRA_IDS:
        _ULTRA_IDS.update(c.id for c in values.catalog.pile("ultra"))
    keys = _play_keys(values, tuple(order))
    plays = [c for c in legal if c in keys]
    if not plays:
        return None
    plays.sort(key=keys.__getitem__)
    kinds = values.groups
    card = {c: Play.parse(c).card for c in plays}
    defenses = [c for c in plays if kinds[card[c]] == "defense"]
    hold = None
    # Every distinct card in hand is a legal play (``turn_legal``), so the plays say whether
    # an Attack is left; the view (maybe built lazily) is read only when a Defense might be
    # held, for the foes' cards and the copies in hand.
    if hold_defense and defenses and any(kinds[card[c]] == "attack" for c in plays):
        hand = view["players"][my_seat(view)].get("hand", [])
        if threatened(view):
            hold = min(defenses, key=lambda c: values.econ[card[c]])
            if sum(1 for c in hand if c == card[hold]) > 1:
                hold = None  # a second copy can still be held
    for play in plays:
        if play != hold:
            return play
    return None


_PLAY_KEYS: dict[tuple[int, tuple[str, ...]], dict[str, tuple[int, float, str]]] = {}


def _play_keys(values: CardValues, order: tuple[str, ...]) -> dict[str, tuple[int, float, str]]:
    """``play:<id>`` -> its place in the play order (group, then economy first), per catalog
    and order: computed once, not at every decision."""
    key = (id(values), order)
    found = _PLAY_KEYS.get(key)
    if found is None:
        rank = {g: k for k, g in enumerate(order)}
        found = _PLAY_KEYS[key] = {
            Play(c.id).format(): (
                rank.get(values.groups[c.id], len(order)),
                -values.econ[c.id],
                c.id,
            )
            for c in values.catalog.cards
        }
    return found
