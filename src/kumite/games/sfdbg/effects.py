"""The closed vocabulary of SF DBG effect primitives, and the decisions they ask for.

Every card text in a pack is a list of these primitives (``op`` = the function's name, see
``docs/packs.md``). A primitive acts for ``ctx.me`` ("you" on your own card; the foe on an
Attack's effects; the attacker on a reaction or a Counter-Attack). Primitives that may need a
decision are *blocking*: they set a :class:`~.engine.Request` (or push frames) and the rest of
the card waits on the stack; they are in :mod:`.choices`, and the Attack in :mod:`.attack`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from kumite.core.events import Event
from kumite.games.sfdbg import events as ev
from kumite.games.sfdbg.cards import Card, Effect
from kumite.games.sfdbg.engine import Ctx, Engine, Frame, draw_cards, ensure_deck, handler
from kumite.games.sfdbg.rules import card_rule, hero_rule

Primitive = Callable[[Engine, Ctx, Effect, list[Event]], None]
PRIMITIVES: Final[dict[str, Primitive]] = {}
BLOCKING: Final[set[str]] = set()


def primitive(blocking: bool = False) -> Callable[[Primitive], Primitive]:
    def register(fn: Primitive) -> Primitive:
        PRIMITIVES[fn.__name__] = fn
        if blocking:
            BLOCKING.add(fn.__name__)
        return fn

    return register


def rule_of(st: Engine, ctx: Ctx) -> str:
    if ctx.card >= 0:
        return card_rule(st.cards[ctx.card].id)
    if ctx.hero >= 0:
        return hero_rule(st.heroes[ctx.hero].id)
    return "sfdbg.turn.play-order"


def source_name(st: Engine, ctx: Ctx) -> str:
    if ctx.card >= 0:
        return st.cards[ctx.card].name
    if ctx.hero >= 0:
        return f"{st.heroes[ctx.hero].name}'s Counter-Attack"
    return "?"


def played_before(st: Engine, ctx: Ctx, match: Callable[[Card], bool]) -> int:
    """How many *other* matching cards the active player has played this turn."""
    cards = st.cards
    count = sum(1 for c in st.plays if match(cards[c]))
    if ctx.card >= 0 and match(cards[ctx.card]):
        count -= 1
    return max(count, 0)


def condition_holds(st: Engine, ctx: Ctx, e: Effect) -> bool:
    if e.if_played_types and not played_before(st, ctx, lambda c: c.type in e.if_played_types):
        return False
    if e.if_played_names and not played_before(st, ctx, lambda c: c.id in e.if_played_names):
        return False
    return not (e.if_location_in_play and not st.locs[ctx.me])


@handler("effects")
def run_effects(st: Engine, frame: Frame, out: list[Event]) -> None:
    """Resolve a card's effects in text order; stop at the first that waits on a decision."""
    # Typed, so that compiled code reads the effects' fields natively.
    ctx: Ctx = frame[1]
    effects: tuple[Effect, ...] = frame[2]
    i: int = frame[3]
    n = len(effects)
    while i < n:
        e = effects[i]
        i += 1
        if (
            e.if_played_types or e.if_played_names or e.if_location_in_play
        ) and not condition_holds(st, ctx, e):
            continue
        target = ctx
        if e.who == "attacker":
            if ctx.other is None:
                continue  # a Stage Boss has no cards
            target = ctx.aimed(ctx.other, ctx.me)
        if e.op in BLOCKING:
            if i < n:
                st.stack.append(("effects", ctx, effects, i))
            PRIMITIVES[e.op](st, target, e, out)
            return
        PRIMITIVES[e.op](st, target, e, out)


# -- Power -------------------------------------------------------------------------------------


def add_power(st: Engine, ctx: Ctx, amount: int, out: list[Event]) -> None:
    if ctx.me != st.active:
        return  # only the player whose turn it is has Power
    st.power += amount
    if not st.quiet:
        out.append(
            ev.PowerChanged(
                rule=rule_of(st, ctx),
                seat=ctx.me,
                amount=amount,
                power=st.power,
                source=source_name(st, ctx),
            )
        )


@primitive()
def power(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """+``amount`` Power."""
    add_power(st, ctx, e.amount, out)


@primitive()
def power_per_played(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """+``amount`` Power for each other card of ``types`` played this turn."""
    count = played_before(st, ctx, lambda c: c.type in e.types or c.id in e.names)
    if count:
        add_power(st, ctx, e.amount * count, out)


@primitive()
def lose_power(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Lose ``amount`` Power (``sfdbg.ruling.power-floor``: not below 0)."""
    if ctx.me != st.active:
        return
    lost = min(st.power, e.amount)
    st.power -= lost
    if not st.quiet:
        out.append(ev.PowerLost(rule=rule_of(st, ctx), seat=ctx.me, amount=lost, power=st.power))


@primitive()
def under_discount(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Cards underneath your Super Hero cost ``amount`` less to buy this turn (Rose)."""
    st.discount += e.amount
    if not st.quiet:
        out.append(
            ev.Noted(
                rule="sfdbg.clarify.rose",
                seat=ctx.me,
                note=f"cards under his Super Hero cost {st.discount} less this turn.",
            )
        )


# -- cards in hand and deck --------------------------------------------------------------------


@primitive()
def draw(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Draw ``amount`` cards."""
    draw_cards(st, ctx.me, e.amount, out, rule_of(st, ctx))


@primitive()
def discard_hand(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Discard your whole hand."""
    hand = st.hand[ctx.me]
    rule = rule_of(st, ctx)
    for card in hand:
        st.moved(ctx.me, card, "discards", "from his hand", rule, out)
    st.discard[ctx.me].extend(hand)
    hand.clear()
    st.revealed[ctx.me].clear()


@primitive()
def discard_named(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Discard every card of the type or cost the attacker named (Psycho Punisher)."""
    if ctx.named is None:
        return
    named = ctx.named
    cards = st.cards
    hand = st.hand[ctx.me]
    if named.kind == "type":
        hit = [c for c in hand if cards[c].type == named.value]
    else:
        hit = [c for c in hand if cards[c].cost == int(named.value)]
    rule = rule_of(st, ctx)
    for card in hit:
        st.from_hand(ctx.me, card)
        st.discard[ctx.me].append(card)
        st.moved(ctx.me, card, "discards", "from his hand", rule, out)


@primitive()
def mill(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Discard the top ``amount`` cards of your deck; with ``min_cost``, gain a Weakness for
    each of them with that cost or more."""
    rule = rule_of(st, ctx)
    for _ in range(e.amount):
        if not ensure_deck(st, ctx.me, out):
            return
        card = st.deck[ctx.me].pop()
        st.discard[ctx.me].append(card)
        st.moved(ctx.me, card, "discards", "from the top of his deck", rule, out)
        if e.min_cost is not None and st.cards[card].cost >= e.min_cost:
            st.gain_weakness(ctx.me, out, rule)


@primitive()
def deck_to_discard(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Place your deck into your discard pile (Ryu's Headband)."""
    deck = st.deck[ctx.me]
    st.discard[ctx.me].extend(deck)
    if not st.quiet:
        out.append(
            ev.Noted(
                rule="sfdbg.clarify.ryus-headband",
                seat=ctx.me,
                note=f"places his deck ({len(deck)} cards) into his discard pile.",
            )
        )
    deck.clear()


@primitive()
def topdeck_at_end(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """At the end of your turn, put this card on top of your deck."""
    st.topdeck.append(ctx.card)


@primitive()
def return_to_stack(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """``sfdbg.weakness.returned``: a played Weakness goes back to the Weakness stack."""
    if ctx.card in st.played[ctx.me]:
        st.played[ctx.me].remove(ctx.card)
        st.weak += 1
        st.moved(
            ctx.me, ctx.card, "returns", "to the Weakness stack", "sfdbg.weakness.returned", out
        )


@primitive()
def gain_weakness(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Gain ``amount`` Weaknesses from the Weakness stack."""
    rule = rule_of(st, ctx)
    for _ in range(e.amount):
        st.gain_weakness(ctx.me, out, rule)


@primitive()
def cannot_buy(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """You can't buy any more cards this turn."""
    if ctx.me == st.active:
        st.no_buy = True
        if not st.quiet:
            out.append(
                ev.Noted(
                    rule=rule_of(st, ctx), seat=ctx.me, note="can't buy any more cards this turn."
                )
            )


@primitive()
def cannot_avoid(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """``sfdbg.clarify.hugo``: this foe may not play a Defense against the next Attack that
    occurs this turn (``sfdbg.ruling.hugo-next-attack``; used up in :func:`.attack.unavoidable`)."""
    st.cannot_avoid[ctx.me] = True
    if not st.quiet:
        out.append(
            ev.Noted(
                rule="sfdbg.clarify.hugo",
                seat=ctx.me,
                note="cannot avoid the next Attack this turn.",
            )
        )


@primitive()
def stage_to_hand(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """``sfdbg.clarify.cammy-delta-red``: a Stage defeated this turn may go to your hand, at
    any time this turn (a ``take:`` choice of the turn)."""
    st.cammy = True


@primitive()
def receive_gift(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Gain the card the attacker set aside for you (Ultimate Atomic Buster)."""
    if ctx.gift >= 0 and ctx.gift in st.aside:
        st.aside.remove(ctx.gift)
        st.discard[ctx.me].append(ctx.gift)
        where = "" if ctx.other is None else f"given by Player {ctx.other + 1}"
        st.moved(ctx.me, ctx.gift, "gains", where, rule_of(st, ctx), out)
        st.gained(ctx.me, ctx.gift, out)
