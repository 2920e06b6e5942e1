"""Rivales positions from plain data, and one clash played by name: what a bot's lookahead
builds from its view (``bots/greedy``), and what scenario tests set up.

Cards are named without their fighter prefix (``"latigazo"``, ``"golpe"``) or by full id.
A line is a list of tokens, oldest first: ``"golpe"`` face up, ``"v:golpe"`` face down
(energy), ``"x:golpe"`` exhausted; in 2vs2 a token may name its owner, ``"p2:golpe"``.

>>> s = position(["zorro", "curie"], hands=[["golpe", "bloqueo"], ["patada", "salto"]])
>>> before = s.life(1)
>>> events = clash(s, {0: "golpe", 1: "patada"})  # Golpe is faster: Zorro attacks
>>> before - s.life(1) == s.catalog.cards["basic.golpe"].damage
True

(tests/test_suite.py runs this example, and every other one in a docstring.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kumite.core.events import Event
from kumite.core.memo import Memo
from kumite.core.rng import Rng
from kumite.games.rivales import clash as cl
from kumite.games.rivales import rounds as rd
from kumite.games.rivales.cards import Card, Catalog, Fighter
from kumite.games.rivales.choice import (
    BOOST_LEVELS,
    PASS,
    PERSONA_NAMES,
    Boost,
    CallZone,
    Guard,
    Persona,
    Pick,
    ZoneOrder,
    parse,
)
from kumite.games.rivales.decisions import BOOST, END, ORDER, PERSONA, RESOLVE
from kumite.games.rivales.engine import Engine, clash_copy, refill_for_clash
from kumite.games.rivales.game import GAME
from kumite.games.rivales.lines import DOWN, SPENT, UP, Slot
from kumite.games.rivales.phases import enter_order, on_order, on_persona, on_play, prepare_play
from kumite.games.rivales.state import PLAY, Fight, RivalesState

SIDE: Final = {"": UP, "v": DOWN, "x": SPENT}
BOOST_CHOICE: Final[dict[str, str]] = {level: Boost(level).format() for level in BOOST_LEVELS}
"""The boost choice of each level."""
PERSONA_CHOICE: Final[dict[str, str]] = {name: Persona(name).format() for name in PERSONA_NAMES}
NO_GUARD: Final = Guard(0).format()


def find(fighter: Fighter, name: str) -> Card:
    """A card of ``fighter`` by short name or full id."""
    card = fighter.by_id.get(name)  # a full id (as bots pass): no other key to build
    if card is not None:
        return card
    for key in (f"{fighter.id}.{name}", f"basic.{name}"):
        if key in fighter.by_id:
            return fighter.by_id[key]
    raise ValueError(f"{fighter.id} has no card {name!r}")


def position(
    fighters: Sequence[str],
    *,
    hands: Sequence[Sequence[str] | None] | None = None,
    lines: Mapping[tuple[int, int], Sequence[str | Slot]]
    | Sequence[Sequence[str | Slot]]
    | None = None,
    decks: Sequence[Sequence[str] | None] | None = None,
    taken: Sequence[int] | None = None,
    zones: Sequence[int] | None = None,
    clash: int = 1,
    round: int = 1,
    final: bool = False,
    rounds_won: tuple[int, int] = (0, 0),
    last_winner: int | None = None,
    carry: Mapping[int, tuple[int, int, int]] | None = None,
    ultra_taken: Sequence[int] = (),
    options: Mapping[str, Any] | None = None,
    rng: Rng | None = None,
    catalog: Catalog | None = None,
) -> RivalesState:
    """A position at the start of a clash (cards about to be played).

    ``hands[s]`` lists seat ``s``'s hand (None: four cards from the top of the deck);
    ``lines`` maps ``(zone, team)`` to tokens or slots (copied; 1vs1: a list per seat, a
    bot builds slots from its view); ``decks[s]`` lists
    the deck, top card last (None: every card not placed elsewhere, in pack order, the ultra
    excepted; given, the cards placed nowhere are out of the scenario). A seat's life marker
    is the first card placed nowhere. ``zones[s]`` is each seat's
    zone in 2vs2 (default: seats 0 and 2 in Zone 1). ``rng``: the position's random stream
    (default: its own, a new fight's with seed 0); a lookahead that never draws, as
    :func:`quick_clash`, may pass one stream to every position it builds (restoring a
    stream costs as much as the rest of a position). ``catalog``: the options' pack's catalog
    the caller holds (a bot's, whose cards it passes to :func:`quick_clash`), else the one
    the options load."""
    opts = dict(options or {})
    opts["fighters"] = list(fighters)
    if len(fighters) == 4:
        opts["mode"] = "2v2"
    state = _fresh(opts, rng, catalog)
    # its fields read and written as the engine's (compiled: struct fields, where the
    # state, a Python subclass, would be looked up by name)
    eng: Engine = state
    n = eng.seat_count
    slots_at: dict[tuple[int, int], list[Slot]] = {}
    used: list[list[Card]] = [[] for _ in range(n)]
    if lines is not None:
        items = (
            lines.items()
            if isinstance(lines, dict | Mapping)  # a dict first: cheap to tell
            else (((0, t), toks) for t, toks in enumerate(lines))
        )
        for (z, t), tokens in items:
            row = slots_at.setdefault((z, t), [])
            for token in tokens:
                if isinstance(token, Slot):
                    owner, card = token.owner, token.card
                    row.append(Slot(card, owner, token.side, token.cut))
                else:
                    owner, side, name = _token(token, eng.teams[t][0])
                    card = find(_fighter(eng, owner), name)
                    row.append(Slot(card, owner, SIDE[side]))
                used[owner].append(card)
    for s in eng.seats:
        fighter = _fighter(eng, s)
        hand = (
            [find(fighter, x) for x in (hands[s] or [])] if hands and hands[s] is not None else None
        )
        placed = set(used[s]) if hand is None else {*used[s], *hand}  # cards hash by identity
        rest = [c for c in fighter.cards if c not in placed]
        ultra = fighter.ultra
        in_play = ultra in placed or s in ultra_taken
        if ultra in rest:
            rest.remove(ultra)
        if hand is None:
            hand, rest = rest[:4], rest[4:]
        eng.marker[s] = rest.pop(0) if rest else None
        if decks is not None and decks[s] is not None:
            # an exact deck: cards placed nowhere else are out of the scenario
            rest = [find(fighter, x) for x in decks[s]]  # type: ignore[union-attr]
        eng.deck[s] = rest
        eng.hand[s] = hand
        eng.ultra[s] = None if in_play else ultra
        eng.taken[s] = 0 if taken is None else taken[s]
        eng.ko[s] = eng.taken[s] >= fighter.life
    eng.lines = [[slots_at.get((z, t), []) for t in (0, 1)] for z in range(eng.zones)]
    eng.round = round
    eng.clash = clash
    eng.final = final
    eng.finals = 1 if final else 0
    eng.rounds_won = list(rounds_won)
    eng.last_winner = last_winner
    for s, bonus in (carry or {}).items():
        eng.carry[s] = list(bonus)
    if eng.two_vs_two:
        zone_of = list(zones) if zones is not None else [0, 1, 0, 1]
        eng.zone_of = zone_of
        eng.fights = [
            Fight(
                z,
                (
                    next(s for s in (0, 1) if zone_of[s] == z),
                    next(s for s in (2, 3) if zone_of[s] == z),
                ),
            )
            for z in (0, 1)
        ]
    else:
        eng.zone_of = [0, 0]
        eng.fights = [Fight(0, (0, 1))]
    eng.phase = PLAY
    state._opening = []  # the set-up replaced above is not part of the scenario
    state._pending = None
    state._advance(None)
    return state


_FRESH: Final[Memo[tuple[tuple[str, type, Any], ...], tuple[RivalesState, tuple[Any, ...]]]] = Memo(
    256
)
"""New fights (seed 0) by their options, with the state of their random stream:
:func:`position` starts from a copy of one, the same as a new state but without parsing the
options and setting up the round again (a bot builds a position at each decision)."""


def _fresh(
    opts: dict[str, Any], rng: Rng | None = None, catalog: Catalog | None = None
) -> RivalesState:
    """``GAME.new_state(0, opts)`` on ``catalog`` (default: the options' own), copied from
    :data:`_FRESH` when the options are plain; given ``rng``, with that random stream instead
    of its own.

    A kept fight is used only if its catalog is the very one wanted: the pack loader keeps
    the last 32 packs, and a pack loaded again after leaving it is a new catalog of new
    cards (cards compare by identity), so a fight kept from before would not find the
    caller's cards among its own (a balance search's worker meets hundreds of packs)."""
    if catalog is None:
        catalog = GAME.catalog(opts)
    try:
        # the type too: True == 1, yet an option may accept one and refuse the other
        key = tuple(
            sorted((k, type(v), tuple(v) if type(v) is list else v) for k, v in opts.items())
        )
        hash(key)
    except TypeError:  # an option no key can hold: made anew
        return _new(opts, catalog)
    found = _FRESH.get(key)
    if found is None or found[0].catalog is not catalog:
        new = _new(opts, catalog)
        found = _FRESH.put(key, (new, new.rng.getstate()))
    state = found[0].fork()
    if rng is None:
        # its own random stream, never advanced, as a new state's: set from the saved state
        # (what Rng.clone does, without reading the template's state again each time)
        rng = Rng.__new__(Rng)
        rng.setstate(found[1])
    state.rng = rng
    return state


def _new(opts: dict[str, Any], catalog: Catalog) -> RivalesState:
    """A new fight (seed 0) with these options on ``catalog``."""
    return RivalesState(GAME, 0, GAME.parse_options(opts), catalog)


def _fighter(state: Engine, seat: int) -> Fighter:
    fighter = state.fighters[seat]
    assert fighter is not None, "no fighter chosen yet"
    return fighter


def _token(token: str, owner: int) -> tuple[int, str, str]:
    """``[pN:][v:|x:]name`` -> (owner seat, side prefix, card name)."""
    parts = token.split(":")
    if len(parts) > 1 and parts[0][:1] == "p" and parts[0][1:].isdigit():
        owner = int(parts[0][1:]) - 1
        parts = parts[1:]
    side = parts[0] if len(parts) == 2 else ""
    return owner, side, parts[-1]


def clash(
    state: RivalesState,
    plays: Mapping[int, str],
    *,
    boosts: Mapping[int, str] | None = None,
    guards: Mapping[int, int] | None = None,
    picks: Mapping[int, Sequence[str]] | None = None,
    personas: Mapping[int, str] | None = None,
    zones: Mapping[int, int] | None = None,
    first_zone: int = 1,
) -> list[Event]:
    """Play one clash: seat ``s`` plays ``plays[s]`` (a card name). Other decisions are
    answered from ``boosts`` (``"damage"``, ``"speed"``, ``"both"``; default none),
    ``guards`` (energy to exhaust; default 0), ``picks`` (effect answers in order, card
    names or ``"pass"``/``"count:N"``; default pass, else the first option), ``personas``
    (``"hansel"``/``"gretel"``), ``zones`` (2vs2 callers: zone number 1 or 2) and
    ``first_zone`` (2vs2: the zone resolved first, 1 or 2). Returns every event until the
    next clash begins or the round or fight ends."""
    events: list[Event] = []
    start = (state.round, state.clash)
    queue = {s: list(v) for s, v in (picks or {}).items()}
    while not state.is_terminal and (state.round, state.clash) == start:
        choices: dict[int, str] = {}
        for d in state.pending():
            s = d.seat
            fighter = state.fighter(s)
            if d.kind == "play":
                choices[s] = find(fighter, plays[s]).play
            elif d.kind == "zones":
                choices[s] = CallZone((zones or {}).get(s, 1)).format()
            elif d.kind == "zone-order":
                choices[s] = ZoneOrder(first_zone).format()
            elif d.kind == "persona":
                choices[s] = _persona(personas, s)
            elif d.kind == "boost":
                choices[s] = BOOST_CHOICE[(boosts or {}).get(s, "none")]
            elif d.kind == "guard":
                choices[s] = Guard((guards or {}).get(s, 0)).format()
            elif d.kind == "marker":
                return events
            else:
                choices[s] = _pick(state, d.legal, queue.get(s))
        events += state.apply(choices)
    return events


def _persona(personas: Mapping[int, str] | None, seat: int) -> str:
    """``seat``'s persona choice (default HANSEL)."""
    return PERSONA_CHOICE[(personas or {}).get(seat, "hansel")]


def _pick(state: Engine, legal: Sequence[str], wanted: list[str] | None) -> str:
    if wanted:
        name = wanted.pop(0)
        if name in legal:
            return name
        for choice in legal:
            typed = parse(choice)
            if isinstance(typed, Pick) and typed.card.endswith("." + name):
                return choice
        raise ValueError(f"{name!r} is not among {list(legal)}")
    return PASS if PASS in legal else legal[0]


def with_hands(base: RivalesState, hands: Mapping[int, Sequence[Card]]) -> RivalesState:
    """A copy of ``base`` (a position at the start of a clash) in which each seat of
    ``hands`` holds those cards: what a lookahead supposes they hold."""
    state = base.fork()
    for seat, cards in hands.items():
        state.hand[seat] = list(cards)
    state._pending = None
    state._advance(None)
    return state


def quick_clash(
    base: RivalesState,
    plays: dict[int, Card],
    *,
    boosts: dict[int, str] | None = None,
    personas: dict[int, str] | None = None,
    first_zone: int = 1,
    into: Engine | None = None,
) -> Engine:
    """The lookahead's fast path (issue 19): one clash from ``base`` (a quiet position at
    the start of a clash, as :func:`position` builds), each seat of ``plays`` holding and
    playing its card, every other seat without a card left face up holding and playing its
    fighter's first card. Decisions are answered as :func:`clash` answers them (``boosts``,
    ``personas``, ``first_zone``; Guard 0; effects pass, else their first option).

    Returns a bare copy of ``base``'s engine (:func:`.engine.clash_copy`: the fields of the
    fight, without the game contract; given ``into``, an engine an earlier call returned, the
    copy is written into it: :func:`.engine.refill_for_clash`) at the end of that clash: its
    end-of-clash step done, the round or fight ended if it ends there, the next clash not yet
    begun (no draw, no new decisions). Life, energy, rounds won and the outcome are then those of
    ``clash(with_hands(base, ...), ...)``: the same engine functions run in the same order,
    without the state machine's bookkeeping (no events, no validation, no history, no next
    clash); tests/games/rivales/test_lookahead_fast.py compares the two."""
    if into is None:
        state = clash_copy(base)
    else:
        refill_for_clash(into, base)
        state = into
    hand = state.hand
    for s in state.seats:
        card = plays.get(s)
        if card is not None:
            hand[s] = [card]
        elif base.ready[s] is None:
            hand[s] = [state.fighter(s).cards[0]]
    state._pending = None
    # enter_play without its decisions: who plays is known (every seat without a card left
    # face up by a dodge), and each plays the first card of its hand
    prepare_play(state, None)
    on_play(state, {s: hand[s][0].play for s in state.seats if state.ready[s] is None}, None)
    phase = state.phase
    if phase == PERSONA:
        on_persona(
            state,
            {d.seat: _persona(personas, d.seat) for d in state.persona_decisions},
            None,
        )
        phase = state.phase
    if phase == ORDER:
        asked = enter_order(state, None)
        assert asked is not None  # 2vs2 always asks
        (d,) = asked
        on_order(state, {d.seat: ZoneOrder(first_zone).format()}, None)
        phase = state.phase
    assert phase == BOOST, phase
    # Boosts only when a level is asked for: a boost of none spends nothing and adds nothing
    # (rd.apply_boosts), and most clashes looked ahead ask for none
    if boosts and any(level != "none" for level in boosts.values()):
        while True:
            group = rd.boost_decisions(state)
            if not group:
                break
            rd.apply_boosts(
                state, {d.seat: BOOST_CHOICE[boosts.get(d.seat, "none")] for d in group}, None
            )
    state.phase = RESOLVE
    state.fight_index = 0
    while True:
        asked = cl.resolve(state, None)
        if asked is None:
            break
        for fight in state.fights:
            fight.release()
        (d,) = asked
        answer = NO_GUARD if d.kind == "guard" else _pick(state, d.legal, None)
        cl.on_choice(state, {d.seat: answer}, None)
    state.phase = END
    rd.end_clash(state, None)
    return state


def swing(base: Engine, after: Engine, seat: int, rival: int) -> tuple[bool, int, int, int, int]:
    """What one clash looked ahead from ``base`` (``after``, from :func:`quick_clash`)
    changed for ``seat``, facing ``rival``: whether a round or the fight ended there; the
    rounds its team gained minus the other team's (when the fight ends: 1 for the winning
    team, 0 for the other); the Damage ``rival`` received; the Damage ``seat`` received; the
    energy ``seat`` gained (cards of its own flipped face down, not exhausted)."""
    mine = after.team_of[seat]
    theirs = 1 - mine
    won, before = after.rounds_won, base.rounds_won
    if won[0] != before[0] or won[1] != before[1] or after.is_terminal:
        gained = [won[0] - before[0], won[1] - before[1]]
        outcome = after._outcome
        if after.is_terminal and outcome is not None:
            gained = [1 if outcome.returns[after.teams[t][0]] > 0 else 0 for t in (0, 1)]
        return True, gained[mine] - gained[theirs], 0, 0, 0
    dealt = after.taken[rival] - base.taken[rival]
    received = after.taken[seat] - base.taken[seat]
    return False, 0, dealt, received, _energy(after, seat) - _energy(base, seat)


def _energy(state: Engine, seat: int) -> int:
    """Energy cards of ``seat``'s own in every line. A plain loop, not :func:`.lines.count`
    per line: that slices each line and looks its sides up by name, which cost 8% of a
    greedy fight here (twice per clash looked ahead)."""
    n = 0
    for zone in state.lines:
        for line in zone:
            for slot in line:
                if slot.owner == seat and slot.side == DOWN:
                    n += 1
    return n
