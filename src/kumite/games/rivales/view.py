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

from typing import Any

from kumite.core.decision import pending_view
from kumite.games.rivales.engine import Engine
from kumite.games.rivales.table import HIDDEN, SIDES, chain, count, energy


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
        if state.two and state.phase in ("boost", "resolve")
        else None,
        "pending": pending_view(state._pending or (), seat),  # State.pending()
        "outcome": None if outcome is None else outcome.to_json(),
    }


def _ultra(state: Engine, seat: int) -> str:
    if state.ultra[seat] is None:
        return "taken" if state.fighters[seat] is not None and state.round else "none"
    return "due" if state.ultra_due[seat] else "aside"
