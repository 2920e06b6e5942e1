"""What each seat may see, determinisation, and explanations of illegal choices.

Hidden from a seat: the other players' hands, every deck's order (its own included), the main
deck (except a top card revealed and left there), the face-down Super Hero stack and, in the
Secret Heroes variant, face-down Super Heroes and Ultra stacks (``sfdbg.ruling.secret-unknown``).
Everything else is on the table: discard piles, cards in play, cards under Super Heroes, the
Line-Up, the stacks' sizes, the face-up Stage.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, TypeVar

from kumite.core.choice import ChoiceSyntaxError
from kumite.core.decision import pending_view
from kumite.core.memo import Memo
from kumite.core.rng import Rng
from kumite.games.sfdbg.choice import Buy, Challenge, Defend, Play, Reveal, parse
from kumite.games.sfdbg.engine import EMPTY, Engine, Request
from kumite.games.sfdbg.machine import Machine, pending_decisions
from kumite.games.sfdbg.scoring import deck_vp, stage_count
from kumite.games.sfdbg.turn import can_challenge, owned

if TYPE_CHECKING:
    from kumite.games.sfdbg.state import SFDBGState

S = TypeVar("S", bound="SFDBGState")


def _ids(st: Engine, cards: list[int]) -> list[str]:
    c = st.cards
    return [c[x].id for x in cards]


def view(st: SFDBGState, seat: int | None) -> dict[str, Any]:
    secret = st.opts.variant == "secret-heroes"
    players = []
    for s in range(st.seat_count):
        hero = st.heroes[st.hero[s]]
        known = st.hero_up[s] or st.over
        entry: dict[str, Any] = {
            "seat": s,
            "hero": hero.id if known else None,
            "hero_name": hero.name if known else None,
            "hero_face_up": st.hero_up[s],
            "counter_attack": hero.counter_text if known else None,
            "hand_size": len(st.hand[s]),
            "known_in_hand": sorted(_ids(st, st.revealed[s])),
            "deck_size": len(st.deck[s]),
            "discard": _ids(st, st.discard[s]),
            "in_play": _ids(st, st.played[s]),
            "locations": _ids(st, st.locs[s]),
            "under": _ids(st, st.under[s]),
            "counter_attack_used": st.ca_used[s],
            "cannot_avoid": st.cannot_avoid[s],
        }
        if secret:
            entry["ultra_stack"] = len(st.ultras[s])
        # Every card entering or leaving a player's cards is announced by name (only draws
        # are private), so what each player owns -- and what it would score -- is public.
        deck = owned(st, s)
        entry["tally"] = {
            "cards": len(deck),
            "vp": deck_vp(st.catalog, deck),
            "stages": stage_count(st.catalog, deck),
            "weaknesses": deck.count(st.catalog.weakness),
        }
        if s == seat:
            entry["hand"] = sorted(_ids(st, st.hand[s]))
        if st.over:
            deck = owned(st, s)
            entry["vp"] = deck_vp(st.catalog, deck)
            entry["stages"] = stage_count(st.catalog, deck)
            entry["cards"] = len(deck)
        players.append(entry)
    stage = st.stages[-1] if st.stages and st.stage_up else None
    return {
        "game": "sfdbg",
        "seat": seat,
        "variant": st.opts.variant,
        "phase": "over" if st.over else "turn",
        "turn": st.turn,
        "active": st.active,
        "power": st.power,
        "line_up": [None if c == EMPTY else st.cards[c].id for c in st.lineup],
        "main_deck": len(st.main),
        "main_deck_top": st.cards[st.main[-1]].id if st.main and st.main_top_known else None,
        "kicks": st.kicks,
        "weaknesses": st.weak,
        "stages": {
            "top": None if stage is None else st.cards[stage].id,
            "face_up": st.stage_up and bool(st.stages),
            "remaining": len(st.stages),
            "can_challenge": not st.over and can_challenge(st),
        },
        "bosses": {
            "remaining": len(st.bosses),
            "defeated": [st.heroes[h].id for h in st.defeated],
            "current": None if st.boss == EMPTY else st.heroes[st.boss].id,
            "hero_discard": [st.heroes[h].id for h in st.hero_discard],
        },
        "destroyed": _ids(st, st.destroyed),
        "set_aside": _ids(st, st.aside),
        "this_turn": {
            "played": _ids(st, st.plays),
            "stage_defeated": _stage_defeated(st),
            "under_discount": st.discount,
            "cannot_buy": st.no_buy,
        },
        "players": players,
        "pending": pending_view(st.pending(), seat),
        "outcome": None if st.result is None else st.result.to_json(),
    }


Tally = tuple[int, int, int]
"""What a seat's cards score: VP, Stages, Weaknesses."""


def _tally(st: Engine, seat: int, memo: Memo[tuple[int, ...], Tally]) -> Tally:
    """The view's ``tally`` of ``seat``'s cards (their count aside). A seat's cards change
    far less often than they move, so it is looked up by the cards, sorted."""
    deck = owned(st, seat)
    deck.sort()
    key = tuple(deck)
    found = memo.get(key)
    if found is None:
        catalog = st.catalog
        weaknesses = deck.count(catalog.weakness)
        found = memo.put(key, (deck_vp(catalog, deck), stage_count(catalog, deck), weaknesses))
    return found


#: The values :func:`encode` writes, in order: these fields, then these per seat (seats in
#: order, from 0); every other field is a count or a one-hot.
TABLE_VALUES: Final = (
    "turn",
    "power",
    "line_up_empty",
    "main_deck",
    "kicks",
    "weaknesses",
    "stages_remaining",
    "bosses_remaining",
    "under_discount",
)
SEAT_VALUES: Final = (
    "hand_size",
    "deck_size",
    "ultra_stack",
    "tally_cards",
    "tally_vp",
    "tally_stages",
    "tally_weaknesses",
)


def encode(
    st: Machine,
    seat: int,
    at: dict[str, int],
    kinds: dict[str, int],
    tallies: Memo[tuple[int, ...], Tally],
) -> tuple[list[int], list[float]]:
    """``seat``'s observation tensor (kumite.games.sfdbg.observation) written from the state
    without building the view, as :meth:`~kumite.core.observation.Encoding.gather` takes
    it: the flat positions counted once each (``at``: each field's offset; ``kinds``: each
    decision kind's position in its field), and the values of :data:`TABLE_VALUES` and
    :data:`SEAT_VALUES`. It reads what :func:`view` shows ``seat`` and nothing else: the
    same tensor as encoding the view (tested on random states of every mode)."""
    n = st.seat_count
    v = len(st.cards)
    h = len(st.heroes)
    over = st.over
    lineup = st.lineup
    hot = [at["seat"] + seat, at["active"] + (st.active - seat) % n]
    base = at["line_up"]
    hot += [base + c for c in lineup if c != EMPTY]
    if st.main and st.main_top_known:
        hot.append(at["main_deck_top"] + st.main[-1])
    if st.stages and st.stage_up:
        hot.append(at["stage_top"] + st.stages[-1])
    if not over and can_challenge(st):
        hot.append(at["can_challenge"])
    if st.defeated:
        base = at["bosses_defeated"]
        hot += [base + x for x in st.defeated]
    if st.boss != EMPTY:
        hot.append(at["boss_current"] + st.boss)
    if st.hero_discard:
        base = at["hero_discard"]
        hot += [base + x for x in st.hero_discard]
    if st.destroyed:
        base = at["destroyed"]
        hot += [base + c for c in st.destroyed]
    if st.aside:
        base = at["set_aside"]
        hot += [base + c for c in st.aside]
    if st.plays:
        base = at["played_this_turn"]
        hot += [base + c for c in st.plays]
    won = st.stage_won[st.active]
    if won != EMPTY:
        hot.append(at["stage_defeated"] + won)
    if st.no_buy:
        hot.append(at["cannot_buy"])
    if over:
        hot.append(at["over"])
    values: list[float] = [
        st.turn,
        st.power,
        lineup.count(EMPTY),
        len(st.main),
        st.kicks,
        st.weak,
        len(st.stages),
        len(st.bosses),
        st.discount,
    ]
    secret = st.opts.variant == "secret-heroes"
    hero, face_up = at["hero"], at["hero_face_up"]
    piles = (at["known_in_hand"], at["discard"], at["in_play"], at["locations"], at["under"])
    for s in range(n):
        k = (s - seat) % n
        if st.hero_up[s]:
            hot += [hero + k * h + st.hero[s], face_up + k]
        elif over:
            hot.append(hero + k * h + st.hero[s])
        row = k * v
        mine = (st.revealed[s], st.discard[s], st.played[s], st.locs[s], st.under[s])
        for base, pile in zip(piles, mine, strict=True):
            if pile:
                base += row
                hot += [base + c for c in pile]
        if st.ca_used[s]:
            hot.append(at["counter_attack_used"] + k)
        if st.cannot_avoid[s]:
            hot.append(at["cannot_avoid"] + k)
        hand, deck = len(st.hand[s]), len(st.deck[s])
        cards = hand + deck + len(st.discard[s]) + len(st.played[s]) + len(st.locs[s])
        vp, stages, weaknesses = _tally(st, s, tallies)
        ultras = len(st.ultras[s]) if secret else 0
        values += [hand, deck, ultras, cards, vp, stages, weaknesses]
    base = at["hand"]
    hot += [base + c for c in st.hand[seat]]
    for d in pending_decisions(st):
        hot.append(at["to_decide"] + (d.seat - seat) % n)
        if d.seat == seat:
            hot.append(at["decision"] + kinds[d.kind])
    return hot, values


def public_turn(st: Engine) -> tuple[int, int, list[int]]:
    """What every seat's view shows of the turn under way: its number, whose it is and the
    cards played in it (``turn``, ``active``, ``this_turn.played``), for the public-history
    memory (kumite.games.sfdbg.observation)."""
    return st.turn, st.active, st.plays


def _stage_defeated(st: Engine) -> str | None:
    """The Stage the player whose turn it is has defeated this turn (a foe may have been given
    one too: it is in his discard pile, in sight)."""
    won = st.stage_won[st.active]
    return None if won == EMPTY else st.cards[won].id


def determinize(st: S, seat: int, rng: random.Random) -> S:
    """A copy in which everything ``seat`` cannot see is resampled consistently with its
    view: other hands (from each player's hand and deck together), every deck's order, the
    main deck below a known top card, the Super Hero stack and, in Secret Heroes, face-down
    Super Heroes and Ultra stacks. Future chance gets a fresh seed."""
    other = st.clone()
    if st.over:
        return other
    for s in range(st.seat_count):
        if s == seat:
            rng.shuffle(other.deck[s])
            continue
        # Cards known to be in the hand stay there; the rest of hand and deck is reshuffled.
        pool = other.hand[s] + other.deck[s]
        known = other.revealed[s]
        for card in known:
            pool.remove(card)
        rng.shuffle(pool)
        size = len(other.hand[s]) - len(known)
        other.hand[s], other.deck[s] = list(known) + pool[:size], pool[size:]
    main = other.main
    if main and other.main_top_known:
        top = main.pop()
        rng.shuffle(main)
        main.append(top)
    else:
        rng.shuffle(main)
    if st.opts.variant == "secret-heroes":
        hidden = [s for s in range(st.seat_count) if not other.hero_up[s]]
        heroes = other.bosses + [other.hero[s] for s in hidden]
        rng.shuffle(heroes)
        for s in hidden:
            other.hero[s] = heroes.pop()
        other.bosses = heroes
        box_ultras = [c for c in other.box if st.cards[c].pile == "ultra"]
        rest = [c for c in other.box if st.cards[c].pile != "ultra"]
        ultras = [u for s in range(st.seat_count) for u in other.ultras[s]] + box_ultras
        rng.shuffle(ultras)
        for s in range(st.seat_count):
            size = len(other.ultras[s])
            other.ultras[s], ultras = ultras[:size], ultras[size:]
        other.box = rest + ultras
    else:
        rng.shuffle(other.bosses)
    other.rng = Rng(rng.getrandbits(63))
    other._pending = None
    return other


def explain(st: SFDBGState, seat: int, choice: str) -> str:
    """Why ``choice`` is not legal for ``seat`` now (only from what ``seat`` may know)."""
    req = st.request
    if req is None or req.seat != seat:
        return "not among the legal choices"
    if req.kind == "defend":
        return _explain_defense(st, req, choice)
    if req.kind != "turn":
        return f"a {req.kind!r} decision is pending: {st.pending()[0].prompt}"
    try:
        typed = parse(choice)
    except ChoiceSyntaxError as exc:
        return exc.reason
    by_id = st.catalog.by_id
    if isinstance(typed, Play):
        if typed.card not in by_id:
            return f"no card {typed.card!r}"
        return f"{by_id[typed.card].name} is not in your hand"
    if isinstance(typed, Buy):
        if st.no_buy:
            return "you can't buy any more cards this turn"
        where = typed.zone
        card = None if typed.card is None else by_id.get(typed.card)
        if where == "lineup" and card is not None:
            if card.index not in st.lineup:
                return f"{card.name} is not in the Line-Up"
            return f"{card.name} costs {card.cost}; you have {st.power} Power"
        if where == "under" and card is not None:
            if card.index not in st.under[seat]:
                return f"{card.name} is not under your Super Hero"
            if not st.may_defeat(seat, card.index):
                # sfdbg.faq.defeat: buying a Stage is defeating it
                return "a player may only defeat one Stage per turn"
            return f"{card.name} costs {max(0, card.cost - st.discount)}; you have {st.power} Power"
        if where == "kick":
            return "no Kick left" if not st.kicks else f"a Kick costs 3; you have {st.power} Power"
        return "not among the legal choices"
    if isinstance(typed, Challenge):
        if st.no_buy:
            # sfdbg.faq.defeat: "You 'defeat' a Boss/Super Villain/Stage when you buy ... one."
            return (
                "you can't buy any more cards this turn, and defeating a Stage counts as buying it"
            )
        if st.stage_won[seat] != EMPTY:
            return "a player may only defeat one Stage per turn"
        if not st.stage_up or not st.stages:
            return "no Stage is face up"
        cost = st.cards[st.stages[-1]].cost
        return f"the Stage costs {cost}; you have {st.power} Power"
    return "not among the legal choices"


def _explain_defense(st: SFDBGState, req: Request, choice: str) -> str:
    """Why a Defense or a reaction is refused: from the seat's own hand and the table only."""
    a, forced = req.data
    seat = req.seat
    try:
        typed = parse(choice)
    except ChoiceSyntaxError as exc:
        return exc.reason
    if not isinstance(typed, (Defend, Reveal)):
        return (
            "against an Attack, choose defend:<card> (a Defense in your hand), "
            "reveal:<card> (Shinku Hadoken, Galactic Tornado) or no-defense"
        )
    card = st.catalog.by_id.get(typed.card)
    if card is None:
        return f"no card {typed.card!r}"
    if isinstance(typed, Defend):
        if forced:  # sfdbg.clarify.hugo
            return "you cannot avoid this Attack (Hugo): no Defense may be played against it"
        if card.defense is None:
            return f"{card.name} has no Defense"
    else:
        if a.attacker is None:  # sfdbg.ruling.reactions
            return "a Stage Boss is not a foe: nothing may be revealed against its Counter-Attack"
        if not card.reaction:
            return f"{card.name} can't be revealed against an Attack"
        if card.index in a.revealed:
            return f"you have already revealed {card.name} against this Attack"
    if card.index not in st.hand[seat]:
        if card.index in st.played[seat]:  # sfdbg.boss.counter-attack, sfdbg.counter.is-attack
            return (
                f"you have already played {card.name} this turn: a Defense is played from your hand"
            )
        return f"{card.name} is not in your hand"
    return "not among the legal choices"
