"""The effect primitives that ask a player to choose, and their decisions.

Each registers a blocking primitive (see :mod:`.effects`) and a decision kind (see
:data:`.engine.KINDS`): how to list its legal choices from the state, apply one, and word the
question. Whether a decision is asked at all depends only on public information (hand sizes,
public piles); its choices may depend on the deciding player's hand.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from kumite.core.events import Event
from kumite.games.sfdbg import events as ev
from kumite.games.sfdbg.attack import start_attack
from kumite.games.sfdbg.cards import Card, Effect
from kumite.games.sfdbg.choice import (
    DESTROY_NONE,
    DISCARD_NONE,
    GAIN_NONE,
    NO,
    UNDER_NONE,
    YES,
    Bottom,
    Destroy,
    Foe,
    Moved,
    Under,
)
from kumite.games.sfdbg.effects import primitive, rule_of, source_name
from kumite.games.sfdbg.engine import EMPTY, KINDS, Ctx, Engine, Kind, Request, ask, push_effects


def _matches(card: Card, e: Effect) -> bool:
    if e.min_cost is not None and card.cost < e.min_cost:
        return False
    if e.max_cost is not None and card.cost > e.max_cost:
        return False
    if e.types and card.type not in e.types:
        return False
    return not (e.names and card.id not in e.names)


def zone_cards(st: Engine, seat: int, zone: str) -> list[int]:
    if zone == "hand":
        return st.hand[seat]
    if zone == "discard":
        return st.discard[seat]
    if zone == "play":
        return st.in_play(seat)
    return [c for c in st.lineup if c != EMPTY]


def candidates(st: Engine, seat: int, e: Effect, kind: type[Moved]) -> list[str]:
    """``<verb>:<zone>:<card>`` (a choice of ``kind``) for each distinct matching card in
    ``e.zones``."""
    cards = st.cards
    moved = st.tables.moved
    out: list[str] = []
    for zone in e.zones:
        seen: set[int] = set()
        strings = moved[kind, zone]
        for c in zone_cards(st, seat, zone):
            if c not in seen and _matches(cards[c], e):
                seen.add(c)
                out.append(strings[c])
    return out


def _remove_from(st: Engine, seat: int, zone: str, card: int) -> None:
    if zone == "hand":
        st.from_hand(seat, card)
    elif zone == "discard":
        st.discard[seat].remove(card)
    elif zone == "play":
        st.take_from_play(seat, card)
    else:
        st.lineup[st.lineup.index(card)] = EMPTY


FOES: Final = tuple(Foe(s).format() for s in range(8))
"""Each seat's ``foe:<seat>`` choice."""
_WHERE: Final = {
    "hand": "from his hand",
    "discard": "from his discard pile",
    "play": "from play",
    "lineup": "from the Line-Up",
    "main_top": "from the top of the main deck",
}


# discard ------------------------------------------------------------------------------------


@primitive(blocking=True)
def discard(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Discard ``amount`` cards of your choice from your hand (``min_cost``: only such cards;
    ``else_weakness``: gain a Weakness if you can't, an empty hand included)."""
    if st.hand[ctx.me]:
        ask(st, ctx.me, "discard", (ctx, e, e.amount), private=True)
    elif e.else_weakness:
        st.gain_weakness(ctx.me, out, rule_of(st, ctx))


def _discard_legal(st: Engine, req: Request) -> tuple[str, ...]:
    ctx, e, _ = req.data
    cards = st.cards
    seen: list[int] = []
    for c in st.hand[ctx.me]:
        if c not in seen and _matches(cards[c], e):
            seen.append(c)
    seen.sort()
    strings = st.tables.discard
    return tuple([strings[c] for c in seen]) or (DISCARD_NONE,)


def _discard_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, e, left = req.data
    rule = rule_of(st, ctx)
    if choice == DISCARD_NONE:
        if e.else_weakness:
            st.gain_weakness(ctx.me, out, rule)
        return
    _, card = st.tables.read[choice]
    st.from_hand(ctx.me, card)
    st.discard[ctx.me].append(card)
    st.moved(ctx.me, card, "discards", "from his hand", rule, out)
    if left > 1 and st.hand[ctx.me]:
        ask(st, ctx.me, "discard", (ctx, e, left - 1), private=True)


def _discard_prompt(st: Engine, req: Request) -> str:
    ctx, e, left = req.data
    what = " with cost 1 or greater" if e.min_cost else ""
    return f"{source_name(st, ctx)}: discard a card{what} ({left} to go)"


KINDS["discard"] = Kind(_discard_legal, _discard_answer, _discard_prompt)


# destroy ------------------------------------------------------------------------------------


@primitive(blocking=True)
def destroy(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Destroy a matching card from ``zones`` (``may``: optionally; ``up_to``: that many)."""
    _ask_destroy(st, ctx, e, e.up_to)


def _ask_destroy(st: Engine, ctx: Ctx, e: Effect, left: int) -> None:
    private = "hand" in e.zones
    if private and st.hand[ctx.me]:
        ask(st, ctx.me, "destroy", (ctx, e, left), private=True)
    elif candidates(st, ctx.me, e, Destroy):
        ask(st, ctx.me, "destroy", (ctx, e, left), private=private)


def _destroy_legal(st: Engine, req: Request) -> tuple[str, ...]:
    ctx, e, _ = req.data
    options = candidates(st, ctx.me, e, Destroy)
    if e.may or not options:
        options.append(DESTROY_NONE)
    return tuple(options)


def _destroy_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, e, left = req.data
    if choice == DESTROY_NONE:
        return
    zone, card = st.tables.read[choice]
    _remove_from(st, ctx.me, zone, card)
    st.destroy(ctx.me, card, _WHERE[zone], rule_of(st, ctx), out)
    if left > 1:
        _ask_destroy(st, ctx, e, left - 1)


def _destroy_prompt(st: Engine, req: Request) -> str:
    ctx, e, left = req.data
    # "at most" only where none may be chosen: a forced destroy is one card at a time.
    if e.may:
        return f"{source_name(st, ctx)}: you may destroy a card ({left} at most)"
    more = f" ({left} to go)" if left > 1 else ""
    return f"{source_name(st, ctx)}: destroy a card{more}"


KINDS["destroy"] = Kind(_destroy_legal, _destroy_answer, _destroy_prompt)


@primitive(blocking=True)
def destroy_trigger(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """You may destroy the card that triggered this Location (India)."""
    if ctx.trigger >= 0 and ctx.trigger in st.in_play(ctx.me):
        ask(st, ctx.me, "destroy-trigger", (ctx,))


def _trigger_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    (ctx,) = req.data
    if choice == YES and st.take_from_play(ctx.me, ctx.trigger):
        st.destroy(ctx.me, ctx.trigger, "from play", rule_of(st, ctx), out)


KINDS["destroy-trigger"] = Kind(
    lambda st, req: (YES, NO),
    _trigger_answer,
    lambda st, req: (
        f"{st.name(req.data[0].card)}: destroy the {st.name(req.data[0].trigger)} you played?"
    ),
)


# to the bottom of the main deck, under a Super Hero -----------------------------------------


@primitive(blocking=True)
def to_main_bottom(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Put a matching card from ``zones`` on the bottom of the main deck (Dhalsim)."""
    if _bottom_legal(st, ctx, e):
        ask(st, ctx.me, "bottom", (ctx, e))


def _bottom_legal(st: Engine, ctx: Ctx, e: Effect) -> tuple[str, ...]:
    """``sfdbg.ruling.never-into-main-deck``: only cards that started in the main deck may
    go into it, whatever the pack's effect says -- "None of the following cards should ever
    be placed into the main deck: Stage, Punch, Vulnerability, Kick, Ultra, Weakness"."""
    cards, read = st.cards, st.tables.read
    options = candidates(st, ctx.me, e, Bottom)
    return tuple(c for c in options if cards[read[c][1]].pile == "main")


def _bottom_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, _ = req.data
    zone, card = st.tables.read[choice]
    _remove_from(st, ctx.me, zone, card)
    st.main.insert(0, card)
    if len(st.main) == 1:
        st.main_top_known = True
    st.moved(
        ctx.me,
        card,
        "puts",
        f"{_WHERE[zone]} on the bottom of the main deck",
        rule_of(st, ctx),
        out,
    )


KINDS["bottom"] = Kind(
    lambda st, req: _bottom_legal(st, req.data[0], req.data[1]),
    _bottom_answer,
    lambda st, req: (
        f"{source_name(st, req.data[0])}: choose a card to put on the bottom of the main deck"
    ),
)


@primitive(blocking=True)
def give_under(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Put a matching card from ``zones`` under the attacker's Super Hero (Bloody High Claw)."""
    if ctx.other is not None and candidates(st, ctx.me, e, Under):
        ask(st, ctx.me, "under", (ctx, e, ctx.other))


@primitive(blocking=True)
def under_hero(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """You may put a card from ``source`` (the Line-Up, or the revealed top card of the main
    deck) under your Super Hero."""
    if e.source == "main_top":
        if not _reveal_main_top(st, ctx, out):
            return
    elif not candidates(st, ctx.me, _lineup(e), Under):
        return
    ask(st, ctx.me, "under", (ctx, e, ctx.me))


def _lineup(e: Effect) -> Effect:
    return dataclasses.replace(e, zones=("lineup",))


def _under_legal(st: Engine, req: Request) -> tuple[str, ...]:
    ctx, e, _ = req.data
    if e.op == "give_under":
        return tuple(candidates(st, ctx.me, e, Under))
    if e.source == "main_top":
        options = [st.tables.moved[Under, "main_top"][st.main[-1]]] if st.main else []
    else:
        options = candidates(st, ctx.me, _lineup(e), Under)
    if e.may or not options:
        options.append(UNDER_NONE)
    return tuple(options)


def _under_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, _, owner = req.data
    if choice == UNDER_NONE:
        return
    zone, card = st.tables.read[choice]
    if zone == "main_top":
        st.main.pop()
        st.main_top_known = False
    else:
        _remove_from(st, ctx.me, zone, card)
    st.under[owner].append(card)
    hero = "his" if owner == ctx.me else f"Player {owner + 1}'s"
    st.moved(ctx.me, card, "puts", f"{_WHERE[zone]} under {hero} Super Hero", rule_of(st, ctx), out)


KINDS["under"] = Kind(
    _under_legal,
    _under_answer,
    lambda st, req: f"{source_name(st, req.data[0])}: choose a card to put under a Super Hero",
)


def _reveal_main_top(st: Engine, ctx: Ctx, out: list[Event]) -> bool:
    if not st.main:
        return False
    st.main_top_known = True
    if not st.quiet:
        top = st.main[-1]
        out.append(
            ev.CardRevealed(
                rule=rule_of(st, ctx),
                seat=ctx.me,
                card=st.id(top),
                name=st.name(top),
                where="from the top of the main deck",
            )
        )
    return True


# gain -----------------------------------------------------------------------------------------


@primitive(blocking=True)
def gain(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Gain a card from ``source``: a Kick, a matching Line-Up card, or the top card of the
    main deck if it matches (``sfdbg.gain.main-top-stays`` otherwise)."""
    if e.source == "main_top":
        if not _reveal_main_top(st, ctx, out):
            return
        top = st.main[-1]
        if _matches(st.cards[top], e) and st.may_defeat(ctx.me, top):
            st.main.pop()
            st.main_top_known = False
            st.discard[ctx.me].append(top)
            st.moved(ctx.me, top, "gains", "from the top of the main deck", rule_of(st, ctx), out)
            st.gained(ctx.me, top, out)
        elif not st.quiet:
            out.append(
                ev.Noted(
                    rule="sfdbg.gain.main-top-stays",
                    seat=ctx.me,
                    note=f"leaves {st.name(top)} on top of the main deck.",
                )
            )
        return
    if _gain_legal(st, Request(ctx.me, "gain", (ctx, e))) != (GAIN_NONE,):
        ask(st, ctx.me, "gain", (ctx, e))
    elif not st.quiet:
        out.append(
            ev.Noted(rule="sfdbg.gain.unavailable", seat=ctx.me, note="has no such card to gain.")
        )


def _gain_legal(st: Engine, req: Request) -> tuple[str, ...]:
    ctx, e = req.data
    options: list[str] = []
    if e.source == "kick":
        if st.kicks > 0:
            options.append(st.tables.gain[st.catalog.kick])
    else:
        seen: set[int] = set()
        # a Stage gained is a Stage defeated: not a second one this turn (st.may_defeat)
        for c in st.lineup:
            if (
                c != EMPTY
                and c not in seen
                and _matches(st.cards[c], e)
                and st.may_defeat(ctx.me, c)
            ):
                seen.add(c)
                options.append(st.tables.gain[c])
        # sfdbg.under.buy: "You may buy or gain any cards that are underneath your Super Hero
        # as if they were in the Line-Up."
        options += [
            st.tables.gain_under[c]
            for c in sorted(set(st.under[ctx.me]))
            if _matches(st.cards[c], e) and st.may_defeat(ctx.me, c)
        ]
    if e.may or not options:
        options.append(GAIN_NONE)
    return tuple(options)


def _gain_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, e = req.data
    if choice == GAIN_NONE:
        return
    zone, card = st.tables.read[choice]
    if e.source == "kick":
        st.kicks -= 1
        where = "from the Kick stack"
    elif zone == "under":
        st.under[ctx.me].remove(card)
        where = "from under his Super Hero"
    else:
        st.lineup[st.lineup.index(card)] = EMPTY
        where = "from the Line-Up"
    st.discard[ctx.me].append(card)
    st.moved(ctx.me, card, "gains", where, rule_of(st, ctx), out)
    st.gained(ctx.me, card, out)


KINDS["gain"] = Kind(
    _gain_legal, _gain_answer, lambda st, req: f"{source_name(st, req.data[0])}: gain a card?"
)


# choose a foe, return to hand -------------------------------------------------------------------


@primitive(blocking=True)
def foe(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Choose a foe; ``effects`` apply to that foe (not an Attack: it cannot be avoided)."""
    ask(st, ctx.me, "foe", (ctx, e))


def _foe_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, e = req.data
    target = FOES.index(choice)
    if e.op == "attack":
        start_attack(st, ctx, e, (target,), out)
    else:
        push_effects(st, ctx.aimed(target, ctx.me), e.effects)


KINDS["foe"] = Kind(
    lambda st, req: tuple([FOES[s] for s in st.clockwise(req.data[0].me)]),
    _foe_answer,
    lambda st, req: f"{source_name(st, req.data[0])}: choose a foe",
)


@primitive(blocking=True)
def return_to_hand(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """The first time you play this card's name each turn, you may return it to your hand."""
    if st.yogi:
        return
    st.yogi = True
    if ctx.card in st.played[ctx.me]:
        ask(st, ctx.me, "return-to-hand", (ctx,))


def _return_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    (ctx,) = req.data
    if choice == YES and ctx.card in st.played[ctx.me]:
        st.played[ctx.me].remove(ctx.card)
        st.to_hand_in_sight(ctx.me, ctx.card)
        st.moved(ctx.me, ctx.card, "returns", "to his hand", "sfdbg.clarify.mystic-yogi", out)


KINDS["return-to-hand"] = Kind(
    lambda st, req: (YES, NO),
    _return_answer,
    lambda st, req: f"Return {st.name(req.data[0].card)} to your hand?",
)
