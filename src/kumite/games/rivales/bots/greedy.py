"""A rule-based Rivales bot that uses only its own seat's view.

It looks one clash ahead with the game's own rules: from its view it builds the position
(lines, life bars, energy, bonuses, zones), and for each of its options plays the clash out
against each card the rival it faces might play — the card left face up by a dodge, the
hand it was shown, or else every card of the rival's it has not seen in play, equally
likely. A clash is scored by Damage dealt minus Damage received, energy gained (a little),
and a K.O. (a lot).

* Fighter: seeded random among the legal ones.
* Life marker: its least valuable card (value: Speed, Damage, Guard, link, effects).
* Zones (2vs2 caller): the zone where its team has more energy, or a combo to extend.
* Card: the best average score; among equals, the least valuable card.
* Boost: the level with the best average score, counting each energy spent as a cost.
* HANSEL or GRETEL: the better average score of the two.
* Zone order (2vs2): the better average score; among equals its own zone last, whose
  winner is then the most recent one (the boost initiative of the next clash).
* Guard: exhausts energy when the Damage would K.O. it or cost 2 or more.
* Effect choices: Presión flips its oldest face-up card that is not linked to the card of
  this clash; Amague takes the basic card with the best Speed + Damage if it is better;
  Esquiva leaves its fastest card; Guardia Galleta flips all it may.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from kumite.core.game import Decision, Game
from kumite.core.rng import Rng
from kumite.games.rivales.cards import Card, Catalog, Fighter
from kumite.games.rivales.choice import (
    BOOST_LEVELS,
    PASS,
    Boost,
    CallZone,
    Guard,
    Persona,
    Pick,
    ZoneOrder,
    parse,
)
from kumite.games.rivales.engine import Engine
from kumite.games.rivales.game import GAME
from kumite.games.rivales.lines import DOWN, SPENT, UP, Slot
from kumite.games.rivales.lookahead import position, quick_clash, swing
from kumite.games.rivales.state import RivalesState

KO: Final = 50.0
ENERGY: Final = 0.35
"""Worth of one energy card, in points of Damage."""
MAX_CANDIDATES: Final = 8
HANSEL: Final = Persona("hansel").format()
BOOST_LEVEL: Final = {Boost(level).format(): level for level in BOOST_LEVELS}
"""Each boost choice's level."""


def card_value(card: Card) -> float:
    """A rough worth of a card, used to pick the life marker and to break ties."""
    worth = 0.6 * card.speed + card.damage + 0.5 * card.guard + (0.5 if card.link else 0.0)
    worth += 0.8 * len(card.effects)
    return worth + (3.0 if card.type == "ultra" else 0.0)


class GreedyRivales:
    name = "greedy"

    def __init__(self, catalog: Catalog, options: Mapping[str, Any], seat: int, seed: int) -> None:
        self.catalog = catalog
        self.by_choice: dict[str, Card] = catalog.by_choice
        self.options = {k: v for k, v in options.items() if k not in ("fighters", "mode")}
        self.seat = seat
        self.rng = random.Random(seed)
        self._last: tuple[Mapping[str, Any], RivalesState] | None = None
        self.play_ahead: Callable[..., Engine] = quick_clash
        """How a clash is played ahead: :func:`.lookahead.quick_clash` (a test swaps in one
        that also checks it against the full state machine)."""
        self._scratch: Engine | None = None
        """The engine the last clash was played ahead on: the next is played on it again."""
        self._stream = Rng(0)
        """The random stream of every position this bot builds: a clash played ahead never
        draws (:func:`.lookahead.position`)."""

    # -- decisions ------------------------------------------------------------------------
    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        kind = decision.kind
        self.seat = int(view["seat"]) if view else decision.seat
        if len(decision.legal) == 1:
            return decision.legal[0]
        if kind == "fighter":
            return self.rng.choice(decision.legal)
        if kind == "marker":
            return min(decision.legal, key=lambda c: (card_value(self.card(c)), self.rng.random()))
        if kind == "zones":
            return self._zones(view, decision)
        if kind == "play":
            return self._play(view, decision)
        if kind == "boost":
            return self._boost(view, decision)
        if kind == "persona":
            return self._persona(view, decision)
        if kind == "zone-order":
            return self._order(view, decision)
        if kind == "guard":
            return self._guard(view, decision)
        return self._effect(view, decision)

    def card(self, choice: str) -> Card:
        """The card a ``marker:``, ``play:`` or ``pick:`` choice names."""
        return self.by_choice[choice]

    # -- one clash ahead --------------------------------------------------------------------
    def _me(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        me: Mapping[str, Any] = view["players"][int(view["seat"])]
        return me

    def _fight(self, view: Mapping[str, Any]) -> Mapping[str, Any] | None:
        seat = int(view["seat"])
        return next((f for f in view["fights"] if seat in f["seats"]), None)

    def _rival(self, view: Mapping[str, Any]) -> int:
        fight = self._fight(view)
        seat = int(view["seat"])
        if fight is not None:
            return int(next(s for s in fight["seats"] if s != seat))
        return int(next(p["seat"] for p in view["players"] if p["team"] != view["team"]))

    def _candidates(self, view: Mapping[str, Any], rival: int) -> list[Card]:
        """Cards the rival may play this clash, as far as this seat knows."""
        p = view["players"][rival]
        fighter = self.catalog.fighters[p["fighter"]]
        played = _current(view).get(rival)
        if played:  # face up already (left by a dodge)
            return [self.catalog.cards[played]]
        if p["ready"]:
            return [self.catalog.cards[p["ready"]]]
        if p.get("known_hand"):
            pool = [self.catalog.cards[c] for c in p["known_hand"]]
        else:
            pool = self._unseen(view, rival, fighter)
        if p["no_basic"] and any(not c.is_basic for c in pool):
            pool = [c for c in pool if not c.is_basic]
        if len(pool) > MAX_CANDIDATES:
            pool = self.rng.sample(pool, MAX_CANDIDATES)
        return pool

    def _unseen(self, view: Mapping[str, Any], seat: int, fighter: Fighter) -> list[Card]:
        seen = {
            slot["card"]
            for zone in view["zones"]
            for line in zone["lines"]
            for slot in line
            if slot["owner"] == seat and slot["card"] is not None
        }
        p = view["players"][seat]
        return [
            c
            for c in fighter.cards
            if c.id not in seen and not (c.type == "ultra" and p["ultra"] in ("aside", "due"))
        ]

    def _base(self, view: Mapping[str, Any]) -> RivalesState:
        """The position of this clash, built from the view, before the cards are played
        (once per view: HANSEL/GRETEL and the zone order score each option from it)."""
        if self._last is not None and self._last[0] is view:
            return self._last[1]
        base = self._position(view)
        self._last = (view, base)
        return base

    def _position(self, view: Mapping[str, Any]) -> RivalesState:
        players = view["players"]
        seat = int(view["seat"])
        current = _current(view)
        cards = self.catalog.cards
        lines: dict[tuple[int, int], list[str | Slot]] = {}
        for z, zone in enumerate(view["zones"]):
            for t, line in enumerate(zone["lines"]):
                if line and line[-1]["owner"] in current:
                    line = line[:-1]  # this clash's card: played again by the evaluation
                lines[(z, t)] = [
                    Slot(cards[slot["card"]], slot["owner"], SIDE_OF[slot["side"]], slot["cut"])
                    for slot in line
                ]
        me = players[seat]
        hands: list[list[str] | None] = [[] for _ in players]
        hands[seat] = list(me["hand"]) + ([current[seat]] if current.get(seat) else [])
        carry = {p["seat"]: list(p["next_card_bonus"].values()) for p in players}
        for fight in view["fights"] if current else ():
            for t, cost in enumerate(fight["boost"]):
                speed, damage = BOOST_BY_COST.get(cost, (0, 0))
                carry[fight["seats"][t]][0] += speed  # a boost already decided this clash
                carry[fight["seats"][t]][1] += damage
        zones = [p["zone"] if p["zone"] is not None else 0 for p in players]
        if len(players) == 4:
            zones = [
                z if z is not None else i % 2 for i, z in enumerate(p["zone"] for p in players)
            ]
        state = position(
            [p["fighter"] for p in players],
            hands=hands,
            lines=lines,
            decks=[[] for _ in players],
            taken=[p["damage_taken"] for p in players],
            zones=zones,
            clash=1,
            last_winner=view["last_winner"],
            carry={s: (c[0], c[1], c[2]) for s, c in carry.items()},
            ultra_taken=[p["seat"] for p in players if p["ultra"] == "taken"],
            options=self.options,
            rng=self._stream,
            catalog=self.catalog,
        )
        state.quiet = True
        return state

    def _score(
        self,
        base: RivalesState,
        plays: dict[int, Card],
        *,
        boosts: dict[int, str] | None = None,
        personas: dict[int, str] | None = None,
        first_zone: int = 1,
    ) -> float:
        """``plays`` holds this seat's card and its rival's."""
        seat = self.seat
        rival = next(s for s in plays if s != seat)
        state = self.play_ahead(
            base,
            plays,
            boosts=boosts,
            personas=personas,
            first_zone=first_zone,
            into=self._scratch,
        )
        self._scratch = state
        ended, rounds, dealt, received, energy = swing(base, state, seat, rival)
        if ended:
            return KO * rounds
        return dealt - received + ENERGY * energy

    def _average(self, view: Mapping[str, Any], mine: Card, **kw: Any) -> float:
        base = self._base(view)
        rival = self._rival(view)
        cands = self._candidates(view, rival)
        if not cands:
            return 0.0
        return sum(self._score(base, {self.seat: mine, rival: r}, **kw) for r in cands) / len(cands)

    # -- the decisions, one by one ---------------------------------------------------------------
    def _play(self, view: Mapping[str, Any], decision: Decision) -> str:
        base = self._base(view)
        rival = self._rival(view)
        cands = self._candidates(view, rival)
        best: tuple[float, float, float] | None = None
        choice = decision.legal[0]
        for option in decision.legal:
            mine = self.card(option)
            total = sum(self._score(base, {self.seat: mine, rival: r}) for r in cands)
            mean = total / max(1, len(cands))
            key = (round(mean, 6), -card_value(mine), self.rng.random())
            if best is None or key > best:
                best, choice = key, option
        return choice

    def _my_card(self, view: Mapping[str, Any]) -> Card | None:
        played = _current(view).get(int(view["seat"]))
        return None if played is None else self.catalog.cards[played]

    def _boost(self, view: Mapping[str, Any], decision: Decision) -> str:
        mine = self._my_card(view)
        if mine is None:  # pragma: no cover - a boost always follows a play
            return decision.legal[0]
        costs = {"none": 0, "damage": 1, "speed": 2, "both": 3}
        best, choice = None, decision.legal[0]
        base = self._base(view)
        rival = self._rival(view)
        cands = self._candidates(view, rival)
        for option in decision.legal:
            level = BOOST_LEVEL[option]
            first = (view.get("zone_order") or [0])[0] + 1  # 2vs2: the order chosen
            total = sum(
                self._score(
                    base, {self.seat: mine, rival: r}, boosts={self.seat: level}, first_zone=first
                )
                for r in cands
            )
            value = total / max(1, len(cands)) - ENERGY * costs[level]
            if best is None or value > best + 1e-9:
                best, choice = value, option
        return choice

    def _persona(self, view: Mapping[str, Any], decision: Decision) -> str:
        mine = self._my_card(view)
        if mine is None:  # pragma: no cover
            return decision.legal[0]
        scores = {
            option: self._average(view, mine, personas={self.seat: Persona.parse(option).persona})
            for option in decision.legal
        }
        return max(decision.legal, key=lambda o: (scores[o], o == HANSEL))

    def _order(self, view: Mapping[str, Any], decision: Decision) -> str:
        mine, fight = self._my_card(view), self._fight(view)
        if mine is None or fight is None:  # pragma: no cover - cards are down by now
            return decision.legal[0]
        scores = {
            option: self._average(view, mine, first_zone=ZoneOrder.parse(option).first)
            for option in decision.legal
        }
        return max(
            decision.legal,
            key=lambda o: (round(scores[o], 6), ZoneOrder.parse(o).first - 1 != fight["zone"]),
        )

    def _guard(self, view: Mapping[str, Any], decision: Decision) -> str:
        fight = self._fight(view)
        seat = int(view["seat"])
        if fight is None or fight["stats"] is None:  # pragma: no cover
            return decision.legal[0]
        me = fight["seats"].index(seat)
        damage = fight["stats"][1 - me][1]
        guard = fight["stats"][me][2]
        net = damage - guard
        energy = len(decision.legal) - 1
        prevent = min(net, energy)
        last = view["clash"] >= view["clashes_per_round"]  # energy is worth nothing after
        if net >= self._me(view)["life"] or last or prevent >= 2 or energy - prevent >= 1:
            return Guard(prevent).format()
        return Guard(0).format()

    def _effect(self, view: Mapping[str, Any], decision: Decision) -> str:
        legal = decision.legal
        kind = decision.kind
        if kind == "flip-energy-up":
            return legal[-1]
        picks = [c for c in legal if isinstance(parse(c), Pick)]
        if kind == "dodge":
            return max(picks, key=lambda c: (self.card(c).speed, card_value(self.card(c))))
        if kind == "exchange-with-basic":
            mine = self._my_card(view)
            best = max(picks, key=lambda c: self.card(c).speed + self.card(c).damage)
            if (
                mine is not None
                and self.card(best).speed + self.card(best).damage <= mine.speed + mine.damage
            ):
                return PASS
            return best
        if kind == "flip-own-down":
            return self._presion(view, picks)
        return PASS if PASS in legal else legal[0]

    def _presion(self, view: Mapping[str, Any], picks: Sequence[str]) -> str:
        """Flip the oldest face-up card that is not linked to the card of this clash."""
        seat = int(view["seat"])
        fight = self._fight(view)
        if fight is None:  # pragma: no cover
            return picks[0]
        team = fight["seats"].index(seat)
        line = view["zones"][fight["zone"]]["lines"][team]
        linked = set()
        for slot in reversed(line[:-1]):
            if slot["side"] != "up" or slot["cut"] or not self.catalog.cards[slot["card"]].link:
                break
            linked.add((slot["owner"], slot["card"]))
        for choice in picks:
            pick = Pick.parse(choice)
            if (pick.seat, pick.card) not in linked:
                return choice
        return picks[0]

    def _zones(self, view: Mapping[str, Any], decision: Decision) -> str:
        team = int(view["team"])
        hand = [self.catalog.cards[c] for c in self._me(view)["hand"]]
        scores = []
        for z, zone in enumerate(view["zones"]):
            line = zone["lines"][team]
            score = zone["energy"][team]
            if line and line[-1]["side"] == "up" and self.catalog.cards[line[-1]["card"]].link:
                score += 1.5 * any(c.link for c in hand)
            scores.append((score, self.rng.random(), z))
        return CallZone(max(scores)[2] + 1).format()


SIDE_OF: Final = {"up": UP, "down": DOWN, "exhausted": SPENT}
"""A side of a card in play, by its name in the view."""
BOOST_BY_COST: Final = {1: (0, 1), 2: (1, 0), 3: (1, 1)}


def _current(view: Mapping[str, Any]) -> dict[int, str | None]:
    """The cards of this clash (after they are played): seat -> card id (None: hidden)."""
    if view["phase"] not in ("persona", "order", "boost", "resolve"):
        return {}
    out: dict[int, str | None] = {}
    for fight in view["fights"]:
        lines = view["zones"][fight["zone"]]["lines"]
        for t, seat in enumerate(fight["seats"]):
            if lines[t]:
                out[seat] = lines[t][-1]["card"]
    return out


def make(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> GreedyRivales:

    return GreedyRivales(GAME.catalog(options), options, seat, seed)
