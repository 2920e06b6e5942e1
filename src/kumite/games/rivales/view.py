"""What one seat may know of a Rivales position, as plain JSON-able data.

Hidden: other seats' hands, decks and life markers, and the cards they played face down this
clash before the reveal (a seat sees its own). Public: the lines of cards in play (a flipped
card was shown to everyone before it was flipped, ``rv.ruling.flipped-cards-known``), life
bars, energy, boosts, zones, the ultra cards set aside, whom a hand was shown to this round
(Lluvia de Sombreros is played face up), the cards every seat saw go into a hand (an ultra
taken; until the reveal one of them may be the card just played face down) and the cards of
any hand shown to this seat.
"""

from __future__ import annotations

from typing import Any, Final

from kumite.core.decision import pending_view
from kumite.games.rivales.engine import Engine
from kumite.games.rivales.fight import Fight
from kumite.games.rivales.lines import HIDDEN, SIDES, chain, count, energy


def build_view(state: Engine, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator's). Typed on the engine, whose fields the
    compiled build reads as struct fields (every decision of a bot builds one)."""
    players = []
    for s in state.seats:
        f = state.fighters[s]
        carry = state.carry[s]
        entry: dict[str, Any] = {
            "seat": s,
            "team": state.team_of[s],
            "who": state.who[s],
            "fighter": f.id if f else None,
            "fighter_name": f.name if f else None,
            "life": Engine.life(state, s),  # through the class: a direct call compiled
            "life_max": f.life if f else 0,
            "damage_taken": min(state.taken[s], f.life) if f else 0,
            "ultra_at": f.ultra_at if f else 0,
            "ultra": _ultra(state, s),
            "ko": state.ko[s],
            "hand_size": len(state.hand[s]),
            "deck_size": len(state.deck[s]),
            "marker_placed": state.marker[s] is not None,
            "ready": None if state.ready[s] is None else state.ready[s].id,  # type: ignore[union-attr]
            "next_card_bonus": {"speed": carry[0], "damage": carry[1], "guard": carry[2]},
            "zone": state.zone_of[s] if state.zone_of[s] >= 0 else None,
            "no_basic": s in state.restricted,
            "rounds_won": state.rounds_won[state.team_of[s]],
            "shown_to": sorted(viewer for viewer, owner in state.known if owner == s),
            "seen_in_hand": sorted(state.public_held(s)),
        }
        if seat == s:
            entry["hand"] = [c.id for c in state.hand[s]]
            marker = state.marker[s]
            entry["marker"] = None if marker is None else marker.id
        elif seat is not None:
            known = state.known.get((seat, s))
            if known:
                entry["known_hand"] = sorted(known)
        players.append(entry)
    zones = []
    for z, lines in enumerate(state.lines):
        zone: dict[str, Any] = {"zone": z, "lines": [], "energy": [], "exhausted": [], "chain": []}
        for line in lines:
            zone["lines"].append(
                [
                    {
                        "card": None
                        if slot.side == HIDDEN and slot.owner != seat
                        else slot.card.id,
                        "owner": slot.owner,
                        "side": SIDES[slot.side],
                        "cut": slot.cut,
                    }
                    for slot in line
                ]
            )
            zone["energy"].append(energy(line))
            zone["exhausted"].append(count(line, "exhausted"))
            start, links = (
                chain(line, len(line) - 1) if line and line[-1].side != HIDDEN else (0, 0)
            )
            zone["chain"].append({"links": links, "starter": line[start].owner if links else None})
        zones.append(zone)
    fights = []
    for fight in state.fights:
        fights.append(
            {
                "zone": fight.zone,
                "seats": list(fight.seats),
                "persona": list(fight.persona),
                "boost": list(fight.boost),
                "stats": None if fight.stats is None else [list(x) for x in fight.stats],
                "attacker": None if fight.attacker is None else fight.seat(fight.attacker),
                "guard_boost": fight.guard_boost,
                "dodge": list(fight.dodge),
            }
        )
    outcome = state.outcome
    return {
        "game": "rivales",
        "mode": state.opts.mode,
        "seat": seat,
        "team": None if seat is None else state.team_of[seat],
        "teams": [list(t) for t in state.teams],
        "phase": state.phase,
        "round": state.round,
        "final": state.final,
        "clash": state.clash,
        "clashes_per_round": state.clashes_per_round,
        "rounds_won": list(state.rounds_won),
        "last_winner": state.last_winner,
        "players": players,
        "zones": zones,
        "fights": fights,
        "zone_order": [f.zone for f in state.fights]
        if state.two_vs_two and state.phase in ("boost", "resolve")
        else None,
        "pending": pending_view(state._pending or (), seat),  # State.pending()
        "outcome": None if outcome is None else outcome.to_json(),
    }


def _ultra(state: Engine, seat: int) -> str:
    if state.ultra[seat] is None:
        return "taken" if state.fighters[seat] is not None and state.round else "none"
    return "due" if state.ultra_due[seat] else "aside"


#: The values :func:`encode` writes, in order, as (field, values per row): the table's; each
#: seat's (seats in order); each team's (teams in order); each line's (zones in order, each
#: zone's teams in order); each fight's per team (zones in order, teams in order); each
#: fight's own (zones in order). Every other field is a count or a one-hot.
TABLE_VALUES: Final = (("round", 1), ("final", 1), ("clash", 1))
SEAT_VALUES: Final = (
    ("teammate", 1),
    ("life", 1),
    ("life_max", 1),
    ("damage_taken", 1),
    ("ultra_at", 1),
    ("ko", 1),
    ("hand_size", 1),
    ("deck_size", 1),
    ("marker_placed", 1),
    ("next_card_bonus", 3),
    ("no_basic", 1),
)
TEAM_VALUES: Final = (("rounds_won", 1),)
LINE_VALUES: Final = (("line_length", 1), ("energy", 1), ("exhausted", 1), ("chain_links", 1))
FIGHT_TEAM_VALUES: Final = (("dodge", 1), ("stats", 3))
FIGHT_VALUES: Final = (("stats_known", 1), ("guard_boost", 1))
ULTRA: Final = ("none", "aside", "due", "taken")
"""The Ultra card's states, as the view names them."""


def encode(
    state: Engine, seat: int, at: dict[str, int], names: dict[str, int]
) -> tuple[list[int], list[float]]:
    """``seat``'s observation tensor (kumite.games.rivales.observation) written from the
    state without building the view, as :meth:`~kumite.core.observation.Encoding.gather`
    takes it: the flat positions counted once each (``at``: each field's offset;
    ``names``: the position of ``phase:``, ``kind:``, ``fighter:``, ``persona:`` and
    ``ultra:`` names in their fields), and the values of :data:`TABLE_VALUES` and the
    others, in order (a fight not under way: zeros). It reads what :func:`build_view`
    shows ``seat`` and nothing else: the same tensor as encoding the view (tested on random
    states of every mode)."""
    p = state.seat_count
    z = state.zones
    team = state.team_of[seat]
    hot = [at["seat"] + seat, at["phase"] + names["phase:" + state.phase]]
    last = state.last_winner
    hot.append(at["last_winner"] + (2 if last is None else (0 if last == team else 1)))
    values: list[float] = [state.round, state.final, state.clash]
    fighter, ultra, ready, zone = at["fighter"], at["ultra"], at["ready"], at["zone"]
    shown, known_hand = at["shown_to"], at["known_hand"]
    for s in state.seats:
        k = (s - seat) % p
        f = state.fighters[s]
        if f is not None:
            hot.append(fighter + k * 16 + names["fighter:" + f.id])
        hot.append(ultra + k * 4 + names["ultra:" + _ultra(state, s)])
        card = state.ready[s]
        if card is not None:
            hot.append(ready + k * 10 + card.index)
        if state.zone_of[s] >= 0:
            hot.append(zone + k * z + state.zone_of[s])
        for viewer, owner in state.known:
            if owner == s:
                hot.append(shown + k * p + (viewer - seat) % p)
        if s != seat and f is not None:
            ids = state.known.get((seat, s))
            if ids:
                by_id = f.by_id
                hot += [known_hand + k * 10 + by_id[i].index for i in ids]
        carry = state.carry[s]
        values += [
            state.team_of[s] == team,
            Engine.life(state, s),  # through the class: a direct call compiled
            f.life if f else 0,
            min(state.taken[s], f.life) if f else 0,
            f.ultra_at if f else 0,
            state.ko[s],
            len(state.hand[s]),
            len(state.deck[s]),
            state.marker[s] is not None,
            carry[0],
            carry[1],
            carry[2],
            s in state.restricted,
        ]
    base = at["hand"]
    hot += [base + c.index for c in state.hand[seat]]
    marker = state.marker[seat]
    if marker is not None:
        hot.append(at["marker"] + marker.index)
    values += [state.rounds_won[0], state.rounds_won[1]]
    cards, hidden, top, top_owner = (
        at["line_cards"],
        at["line_hidden"],
        at["line_top"],
        at["line_top_owner"],
    )
    starter = at["chain_starter"]
    for zi, lines in enumerate(state.lines):
        for t, line in enumerate(lines):
            row = zi * 2 + (0 if t == team else 1)
            for slot in line:
                owner = (slot.owner - seat) % p
                if slot.side == HIDDEN:
                    hot.append(hidden + row * p + owner)
                else:
                    hot.append(cards + ((row * p + owner) * 10 + slot.card.index) * 3 + slot.side)
            links = 0
            if line:
                last_slot = line[-1]
                if last_slot.side == HIDDEN:
                    hot.append(top + row * 11 + 10)
                else:
                    hot.append(top + row * 11 + last_slot.card.index)
                    start, links = chain(line, len(line) - 1)
                    if links:
                        hot.append(starter + row * p + (line[start].owner - seat) % p)
                hot.append(top_owner + row * p + (last_slot.owner - seat) % p)
            values += [len(line), energy(line), count(line, "exhausted"), links]
    fights: list[Fight | None] = [None] * z
    for fight in state.fights:
        fights[fight.zone] = fight
    seats, persona, boost, attacker = at["fight_seats"], at["persona"], at["boost"], at["attacker"]
    for zi, maybe in enumerate(fights):
        if maybe is None:
            values += [0, 0, 0, 0, 0, 0, 0, 0]
            continue
        fight = maybe
        stats = fight.stats
        for t in (0, 1):
            row = zi * 2 + (0 if t == team else 1)
            hot.append(seats + row * p + (fight.seat(t) - seat) % p)
            name = fight.persona[t]
            if name is not None:
                hot.append(persona + row * 2 + names["persona:" + name])
            hot.append(boost + row * 4 + fight.boost[t])
            values.append(fight.dodge[t])
            values += [0, 0, 0] if stats is None else stats[t]
        if fight.attacker is not None:
            hot.append(attacker + zi * p + (fight.seat(fight.attacker) - seat) % p)
    for maybe in fights:
        if maybe is None:
            values += [0, 0]
        else:
            values += [maybe.stats is not None, maybe.guard_boost]
    pending = state._pending or ()  # State.pending()
    for d in pending:
        hot.append(at["to_decide"] + (d.seat - seat) % p)
        if d.seat == seat:
            hot.append(at["decision"] + names["kind:" + d.kind])
    return hot, values


def value_positions(state: Engine, seat: int, at: dict[str, int]) -> list[int]:
    """Where the values :func:`encode` writes for ``seat`` go: flat positions, in its order
    (the same for every state of a game's mode)."""
    p, team = state.seat_count, state.team_of[seat]

    def rows(spec: tuple[tuple[str, int], ...], row: int) -> list[int]:
        return [at[name] + row * m + j for name, m in spec for j in range(m)]

    def side(t: int) -> int:
        return 0 if t == team else 1

    out = rows(TABLE_VALUES, 0)
    for s in state.seats:
        out += rows(SEAT_VALUES, (s - seat) % p)
    for t in (0, 1):
        out += rows(TEAM_VALUES, side(t))
    for zi in range(state.zones):
        for t in (0, 1):
            out += rows(LINE_VALUES, zi * 2 + side(t))
    for zi in range(state.zones):
        for t in (0, 1):
            out += rows(FIGHT_TEAM_VALUES, zi * 2 + side(t))
    for zi in range(state.zones):
        out += rows(FIGHT_VALUES, zi)
    return out


def public_table(state: Engine) -> tuple[int, tuple[int, int], list[tuple[int, int]]]:
    """What every seat's view shows of the match, for the public-history memory
    (kumite.games.rivales.observation): the round, the rounds each team won, and each card
    shown in the lines (face up or flipped, not played face down this clash) as its owner
    and its slot in the owner's deck."""
    shown = [
        (slot.owner, slot.card.index)
        for lines in state.lines
        for line in lines
        for slot in line
        if slot.side != HIDDEN
    ]
    return state.round, (state.rounds_won[0], state.rounds_won[1]), shown
