"""The Rivales observation tensor (docs/envs.md), built from one seat's view only.

Seats are relative (the observer first, then the others in seat order after it) and so are
teams (the observer's team first). A card is numbered by its *slot*, its position in its
owner's fighter deck (the numbering of the action ids, ``actions.A_PLAY + slot``); a card
in a line is read with its owner's fighter. The view is not perfect recall (cards leave the
table between rounds), so OpenSpiel's information state is the string of every view seen
(kumite.envs.openspiel), not this tensor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.core.game import Game
from kumite.core.observation import Encoding, Field, HistoryEncoding, Tensor, Writer, relative
from kumite.games.rivales.actions import MAX_GUARD
from kumite.games.rivales.cards import Catalog
from kumite.games.rivales.choice import BOOST_LEVELS, PERSONA_NAMES
from kumite.games.rivales.decisions import PHASES
from kumite.games.rivales.game import Rivales
from kumite.games.rivales.options import Options

KINDS = (
    "fighter",
    "marker",
    "zones",
    "play",
    "persona",
    "zone-order",
    "boost",
    "guard",
    "dodge",
    "flip-own-down",
    "exchange-with-basic",
    "flip-energy-up",
)
ULTRA = ("none", "aside", "due", "taken")
SIDES = ("up", "down", "exhausted")
BONUS = ("speed", "damage", "guard")
MAX_FIGHTERS = 16
SLOTS = 10
"""Cards in a fighter's deck."""
CAP = 30.0
"""Cap of the counters no rule bounds (bonuses, stats): far above what play reaches."""


class RivalesEncoding(Encoding):
    def __init__(self, catalog: Catalog, options: Options) -> None:
        self.history = RivalesHistory(catalog, options)
        self.catalog = catalog
        self.fighters = {f: k for k, f in enumerate(catalog.fighters)}
        two = options.mode == "2v2"
        p = self.seats = 4 if two else 2
        z = self.zones = 2 if two else 1
        rules = catalog.rules
        life = max(f.life for f in catalog.fighters.values())
        rounds = 2 * rules.rounds_to_win - 1 + options.final_round_limit
        super().__init__(
            [
                Field("seat", (p,), 1, "the observing seat (one-hot, absolute)"),
                Field("phase", (len(PHASES),), 1, "phase: " + ", ".join(PHASES)),
                Field("round", (1,), rounds, "the round (final rounds included)"),
                Field("final", (1,), 1, "a final (sudden-death) round is being played"),
                Field("clash", (1,), rules.clashes_per_round, "the clash of the round"),
                Field("rounds_won", (2,), rounds, "rounds won by each team (observer's first)"),
                Field("last_winner", (3,), 1, "the last clash's winner: own team, other, none"),
                Field("fighter", (p, MAX_FIGHTERS), 1, "each seat's fighter, by pack position"),
                Field("teammate", (p,), 1, "the seat is on the observer's team"),
                Field("life", (p,), life, "each seat's life"),
                Field("life_max", (p,), life, "each seat's starting life"),
                Field("damage_taken", (p,), life, "Damage each seat took this round"),
                Field("ultra_at", (p,), life, "the life at which the seat's Ultra comes"),
                Field("ultra", (p, len(ULTRA)), 1, "each seat's Ultra card: " + ", ".join(ULTRA)),
                Field("ko", (p,), 1, "the seat is knocked out"),
                Field("hand_size", (p,), SLOTS, "cards in each seat's hand"),
                Field("deck_size", (p,), SLOTS, "cards in each seat's deck"),
                Field("marker_placed", (p,), 1, "the seat's life marker is placed"),
                Field("ready", (p, SLOTS), 1, "each seat's card ready for the next clash"),
                Field(
                    "next_card_bonus",
                    (p, len(BONUS)),
                    CAP,
                    "bonus to the seat's next card: " + ", ".join(BONUS),
                    clip=True,
                ),
                Field("zone", (p, z), 1, "each seat's zone"),
                Field("no_basic", (p,), 1, "the seat may not play basic cards"),
                Field("shown_to", (p, p), 1, "[owner, viewer]: the owner's hand was shown"),
                Field("hand", (SLOTS,), 1, "the observer's own hand, by slot"),
                Field("marker", (SLOTS,), 1, "the observer's own life marker, by slot"),
                Field("known_hand", (p, SLOTS), 1, "cards of another seat's hand shown to it"),
                Field(
                    "line_cards",
                    (z, 2, p, SLOTS, len(SIDES)),
                    1,
                    "[zone, team, owner, slot, side]: the cards in each team's line",
                ),
                Field("line_hidden", (z, 2, p), SLOTS, "[zone, team, owner]: face-down cards"),
                Field("line_top", (z, 2, SLOTS + 1), 1, "the last card of each line (10: hidden)"),
                Field("line_top_owner", (z, 2, p), 1, "the owner of each line's last card"),
                Field("line_length", (z, 2), 2 * SLOTS, "cards in each line", clip=True),
                Field("energy", (z, 2), 2 * SLOTS, "energy of each line", clip=True),
                Field("exhausted", (z, 2), 2 * SLOTS, "exhausted cards of each line", clip=True),
                Field("chain_links", (z, 2), SLOTS, "links of each line's combo chain", clip=True),
                Field("chain_starter", (z, 2, p), 1, "the seat whose card starts the chain"),
                Field("fight_seats", (z, 2, p), 1, "[zone, team side]: the seat fighting there"),
                Field("persona", (z, 2, len(PERSONA_NAMES)), 1, "Hansel & Gretel's persona chosen"),
                Field("boost", (z, 2, len(BOOST_LEVELS)), 1, "the boost each side bought"),
                Field("stats_known", (z,), 1, "the clash's Speed, Damage and Guard are known"),
                Field(
                    "stats",
                    (z, 2, 3),
                    CAP,
                    "each side's Speed, Damage, Guard this clash",
                    clip=True,
                ),
                Field("attacker", (z, p), 1, "the attacking seat of the clash"),
                Field("guard_boost", (z,), MAX_GUARD, "the defender's Guard boost"),
                Field("dodge", (z, 2), 1, "the side dodges this clash"),
                Field("to_decide", (p,), 1, "the seat has a decision pending now"),
                Field("decision", (len(KINDS),), 1, "the observer's pending decision kind"),
            ]
        )

    def fill(self, view: Mapping[str, Any], out: Writer) -> None:
        seat = view["seat"]
        n = self.seats
        rel = {s: k for k, s in enumerate(relative(seat, n))}
        team = view["team"]
        teams = (team, 1 - team)
        out.set("seat", 1, seat)
        out.set("phase", 1, PHASES.index(view["phase"]))
        out.set("round", view["round"])
        out.set("final", float(view["final"]))
        out.set("clash", view["clash"])
        for k, t in enumerate(teams):
            out.set("rounds_won", view["rounds_won"][t], k)
        last = view["last_winner"]
        out.set("last_winner", 1, 2 if last is None else teams.index(last))
        players = view["players"]
        fighters = self.catalog.fighters
        decks: dict[int, Any] = {}
        for p in players:
            s, k = p["seat"], rel[p["seat"]]
            if p["fighter"] is not None:
                out.set("fighter", 1, k, self.fighters[p["fighter"]])
                decks[s] = fighters[p["fighter"]].by_id
            out.set("teammate", float(p["team"] == team), k)
            for name in ("life", "life_max", "damage_taken", "ultra_at", "hand_size", "deck_size"):
                out.set(name, p[name], k)
            out.set("ultra", 1, k, ULTRA.index(p["ultra"]))
            out.set("ko", float(p["ko"]), k)
            out.set("marker_placed", float(p["marker_placed"]), k)
            if p["ready"] is not None:
                out.set("ready", 1, k, decks[s][p["ready"]].index)
            for j, name in enumerate(BONUS):
                out.set("next_card_bonus", p["next_card_bonus"][name], k, j)
            if p["zone"] is not None:
                out.set("zone", 1, k, p["zone"])
            out.set("no_basic", float(p["no_basic"]), k)
            for viewer in p["shown_to"]:
                out.set("shown_to", 1, k, rel[viewer])
            for card in p.get("known_hand", ()):
                out.add("known_hand", 1, k, decks[s][card].index)
        me = players[seat]
        own = decks.get(seat)
        for card in me.get("hand", ()):
            out.set("hand", 1, own[card].index)  # type: ignore[index]
        if me.get("marker") is not None:
            out.set("marker", 1, own[me["marker"]].index)  # type: ignore[index]
        for zone in view["zones"]:
            z = zone["zone"]
            for t, line in enumerate(zone["lines"]):
                k = teams.index(t)
                for slot in line:
                    owner = rel[slot["owner"]]
                    if slot["card"] is None or slot["side"] == "hidden":
                        out.add("line_hidden", 1, z, k, owner)
                    else:
                        index = decks[slot["owner"]][slot["card"]].index
                        out.set("line_cards", 1, z, k, owner, index, SIDES.index(slot["side"]))
                if line:
                    top = line[-1]
                    hidden = top["card"] is None or top["side"] == "hidden"
                    index = SLOTS if hidden else decks[top["owner"]][top["card"]].index
                    out.set("line_top", 1, z, k, index)
                    out.set("line_top_owner", 1, z, k, rel[top["owner"]])
                out.set("line_length", len(line), z, k)
                out.set("energy", zone["energy"][t], z, k)
                out.set("exhausted", zone["exhausted"][t], z, k)
                chain = zone["chain"][t]
                out.set("chain_links", chain["links"], z, k)
                if chain["starter"] is not None:
                    out.set("chain_starter", 1, z, k, rel[chain["starter"]])
        for fight in view["fights"]:
            z = fight["zone"]
            for t in (0, 1):
                k = teams.index(t)
                out.set("fight_seats", 1, z, k, rel[fight["seats"][t]])
                persona = fight["persona"][t]
                if persona is not None:
                    out.set("persona", 1, z, k, PERSONA_NAMES.index(persona))
                out.set("boost", 1, z, k, fight["boost"][t])
                out.set("dodge", float(fight["dodge"][t]), z, k)
                if fight["stats"] is not None:
                    for j in range(3):
                        out.set("stats", fight["stats"][t][j], z, k, j)
            out.set("stats_known", float(fight["stats"] is not None), z)
            if fight["attacker"] is not None:
                out.set("attacker", 1, z, rel[fight["attacker"]])
            out.set("guard_boost", fight["guard_boost"], z)
        for d in view["pending"]:
            out.set("to_decide", 1, rel[d["seat"]])
            if d["seat"] == seat:
                out.set("decision", 1, KINDS.index(d["kind"]))


class RivalesHistory(HistoryEncoding):
    """What a seat has seen over the match: the cards each seat showed in the lines in
    each round (they leave the table when the round ends), and who won each round."""

    def __init__(self, catalog: Catalog, options: Options) -> None:
        self.catalog = catalog
        two = options.mode == "2v2"
        p = self.seats = 4 if two else 2
        self.rounds = 2 * catalog.rules.rounds_to_win - 1 + options.final_round_limit
        super().__init__(
            [
                Field(
                    "seen_played",
                    (self.rounds, p, SLOTS),
                    1,
                    "[round, seat, slot]: the seat's card seen face up in a line that round",
                ),
                Field(
                    "round_winner",
                    (self.rounds, 2),
                    1,
                    "the k-th round won: by the observer's team, by the other",
                ),
            ]
        )

    def fold(self, memory: Tensor, view: Mapping[str, Any]) -> None:
        seat = view["seat"]
        rel = {s: k for k, s in enumerate(relative(seat, self.seats))}
        fighters = self.catalog.fighters
        decks = {
            p["seat"]: fighters[p["fighter"]].by_id
            for p in view["players"]
            if p["fighter"] is not None
        }
        r = min(max(view["round"] - 1, 0), self.rounds - 1)
        for zone in view["zones"]:
            for line in zone["lines"]:
                for slot in line:
                    if slot["card"] is None or slot["side"] == "hidden":
                        continue
                    index = decks[slot["owner"]][slot["card"]].index
                    memory[self.at("seen_played", r, rel[slot["owner"]], index)] = 1.0
        team = view["team"]
        won = self.field(memory, "round_winner")
        decided = int(won.sum())
        for k, t in enumerate((team, 1 - team)):
            while view["rounds_won"][t] > int(won[:, k].sum()) and decided < self.rounds:
                memory[self.at("round_winner", decided, k)] = 1.0
                decided += 1


def encoding(game: Game[Any], options: Mapping[str, Any]) -> RivalesEncoding:
    assert isinstance(game, Rivales)
    opts = game.parse_options(options)
    return RivalesEncoding(game.catalog(opts), opts)
