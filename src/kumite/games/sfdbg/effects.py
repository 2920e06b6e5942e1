"""The closed vocabulary of SF DBG effect primitives, and the decisions they ask for.

Every card text in a pack is a list of these primitives (``op`` = the function's name, see
``docs/packs.md``). A primitive acts for ``ctx.me`` ("you" on your own card; the foe on an
Attack's effects; the attacker on a reaction or a Counter-Attack). Primitives that may need a
decision are *blocking*: they set a :class:`~.engine.Request` (or push frames) and the rest of
the card waits on the stack. The Attack primitive is in :mod:`.attack`.
"""

from __future__ import annotations

from collections.abc import Callable

from kumite.core.events import Event
from kumite.games.sfdbg import events as ev
from kumite.games.sfdbg.cards import Card, Effect
from kumite.games.sfdbg.engine import EMPTY, KINDS, Ctx, Engine, Frame, Kind, Request, handler
from kumite.games.sfdbg.rules import card_rule, hero_rule

Primitive = Callable[[Engine, Ctx, Effect, list[Event]], None]
PRIMITIVES: dict[str, Primitive] = {}
BLOCKING: set[str] = set()


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
    _, ctx, effects, i = frame
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
            target = ctx._replace(me=ctx.other, other=ctx.me)
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
                text=f"cards under his Super Hero cost {st.discount} less this turn.",
            )
        )


# -- cards in hand and deck --------------------------------------------------------------------


@primitive()
def draw(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Draw ``amount`` cards."""
    st.draw(ctx.me, e.amount, out, rule_of(st, ctx))


@primitive()
def discard_hand(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Discard your whole hand."""
    hand = st.hand[ctx.me]
    rule = rule_of(st, ctx)
    for card in hand:
        st.moved(ctx.me, card, "discards", "from his hand", rule, out)
    st.discard[ctx.me].extend(hand)
    hand.clear()


@primitive()
def discard_named(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Discard every card of the type or cost the attacker named (Psycho Punisher)."""
    if ctx.named is None:
        return
    kind, _, value = ctx.named.partition(":")
    cards = st.cards
    hand = st.hand[ctx.me]
    if kind == "type":
        hit = [c for c in hand if cards[c].type == value]
    else:
        hit = [c for c in hand if cards[c].cost == int(value)]
    rule = rule_of(st, ctx)
    for card in hit:
        hand.remove(card)
        st.discard[ctx.me].append(card)
        st.moved(ctx.me, card, "discards", "from his hand", rule, out)


@primitive()
def mill(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Discard the top ``amount`` cards of your deck; with ``min_cost``, gain a Weakness for
    each of them with that cost or more."""
    rule = rule_of(st, ctx)
    for _ in range(e.amount):
        if not st.ensure_deck(ctx.me, out):
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
                text=f"places his deck ({len(deck)} cards) into his discard pile.",
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
                    rule=rule_of(st, ctx), seat=ctx.me, text="can't buy any more cards this turn."
                )
            )


@primitive()
def cannot_avoid(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """``sfdbg.clarify.hugo``: this foe may not play a Defense against the next Attack."""
    st.cannot_avoid[ctx.me] = True
    if not st.quiet:
        out.append(
            ev.Noted(
                rule="sfdbg.clarify.hugo",
                seat=ctx.me,
                text="cannot avoid the next Attack this turn.",
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


# -- choices -----------------------------------------------------------------------------------


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


def candidates(st: Engine, seat: int, e: Effect, verb: str) -> list[str]:
    """``<verb>:<zone>:<card>`` for each distinct matching card in ``e.zones``."""
    cards = st.cards
    out: list[str] = []
    for zone in e.zones:
        seen: set[int] = set()
        for c in zone_cards(st, seat, zone):
            if c not in seen and _matches(cards[c], e):
                seen.add(c)
                out.append(f"{verb}:{zone}:{cards[c].id}")
    return out


def _card_of(st: Engine, card_id: str) -> int:
    return st.catalog.by_id[card_id].index


def _remove_from(st: Engine, seat: int, zone: str, card: int) -> None:
    if zone == "hand":
        st.hand[seat].remove(card)
    elif zone == "discard":
        st.discard[seat].remove(card)
    elif zone == "play":
        st.take_from_play(seat, card)
    else:
        st.lineup[st.lineup.index(card)] = EMPTY


_WHERE = {
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
    ``else_weakness``: gain a Weakness if you have none)."""
    if st.hand[ctx.me]:
        st.ask(ctx.me, "discard", (ctx, e, e.amount), private=True)


def _discard_legal(st: Engine, req: Request) -> tuple[str, ...]:
    ctx, e, _ = req.data
    cards = st.cards
    seen: list[int] = []
    for c in st.hand[ctx.me]:
        if c not in seen and _matches(cards[c], e):
            seen.append(c)
    seen.sort()
    return tuple(f"discard:{cards[c].id}" for c in seen) or ("discard:none",)


def _discard_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, e, left = req.data
    rule = rule_of(st, ctx)
    if choice == "discard:none":
        if e.else_weakness:
            st.gain_weakness(ctx.me, out, rule)
        return
    card = _card_of(st, choice[8:])
    st.hand[ctx.me].remove(card)
    st.discard[ctx.me].append(card)
    st.moved(ctx.me, card, "discards", "from his hand", rule, out)
    if left > 1 and st.hand[ctx.me]:
        st.ask(ctx.me, "discard", (ctx, e, left - 1), private=True)


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
        st.ask(ctx.me, "destroy", (ctx, e, left), private=True)
    elif candidates(st, ctx.me, e, "destroy"):
        st.ask(ctx.me, "destroy", (ctx, e, left), private=private)


def _destroy_legal(st: Engine, req: Request) -> tuple[str, ...]:
    ctx, e, _ = req.data
    options = candidates(st, ctx.me, e, "destroy")
    if e.may or not options:
        options.append("destroy:none")
    return tuple(options)


def _destroy_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, e, left = req.data
    if choice == "destroy:none":
        return
    _, zone, card_id = choice.split(":")
    card = _card_of(st, card_id)
    _remove_from(st, ctx.me, zone, card)
    st.destroy(ctx.me, card, _WHERE[zone], rule_of(st, ctx), out)
    if left > 1:
        _ask_destroy(st, ctx, e, left - 1)


def _destroy_prompt(st: Engine, req: Request) -> str:
    ctx, e, left = req.data
    may = "you may " if e.may else ""
    return f"{source_name(st, ctx)}: {may}destroy a card ({left} at most)"


KINDS["destroy"] = Kind(_destroy_legal, _destroy_answer, _destroy_prompt)


@primitive(blocking=True)
def destroy_trigger(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """You may destroy the card that triggered this Location (India)."""
    if ctx.trigger >= 0 and ctx.trigger in st.in_play(ctx.me):
        st.ask(ctx.me, "destroy-trigger", (ctx,))


def _trigger_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    (ctx,) = req.data
    if choice == "yes" and st.take_from_play(ctx.me, ctx.trigger):
        st.destroy(ctx.me, ctx.trigger, "from play", rule_of(st, ctx), out)


KINDS["destroy-trigger"] = Kind(
    lambda st, req: ("yes", "no"),
    _trigger_answer,
    lambda st, req: (
        f"{st.name(req.data[0].card)}: destroy the {st.name(req.data[0].trigger)} you played?"
    ),
)


# to the bottom of the main deck, under a Super Hero -----------------------------------------


@primitive(blocking=True)
def to_main_bottom(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Put a matching card from ``zones`` on the bottom of the main deck (Dhalsim)."""
    if candidates(st, ctx.me, e, "bottom"):
        st.ask(ctx.me, "bottom", (ctx, e))


def _bottom_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, _ = req.data
    _, zone, card_id = choice.split(":")
    card = _card_of(st, card_id)
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
    lambda st, req: tuple(candidates(st, req.data[0].me, req.data[1], "bottom")),
    _bottom_answer,
    lambda st, req: (
        f"{source_name(st, req.data[0])}: choose a card to put on the bottom of the main deck"
    ),
)


@primitive(blocking=True)
def give_under(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Put a matching card from ``zones`` under the attacker's Super Hero (Bloody High Claw)."""
    if ctx.other is not None and candidates(st, ctx.me, e, "under"):
        st.ask(ctx.me, "under", (ctx, e, ctx.other))


@primitive(blocking=True)
def under_hero(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """You may put a card from ``source`` (the Line-Up, or the revealed top card of the main
    deck) under your Super Hero."""
    if e.source == "main_top":
        if not _reveal_main_top(st, ctx, out):
            return
    elif not candidates(st, ctx.me, _lineup(e), "under"):
        return
    st.ask(ctx.me, "under", (ctx, e, ctx.me))


def _lineup(e: Effect) -> Effect:
    from dataclasses import replace

    return replace(e, zones=("lineup",))


def _under_legal(st: Engine, req: Request) -> tuple[str, ...]:
    ctx, e, _ = req.data
    if e.op == "give_under":
        return tuple(candidates(st, ctx.me, e, "under"))
    if e.source == "main_top":
        options = [f"under:main_top:{st.id(st.main[-1])}"] if st.main else []
    else:
        options = candidates(st, ctx.me, _lineup(e), "under")
    if e.may or not options:
        options.append("under:none")
    return tuple(options)


def _under_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, _, owner = req.data
    if choice == "under:none":
        return
    _, zone, card_id = choice.split(":")
    card = _card_of(st, card_id)
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
        if _matches(st.cards[top], e):
            st.main.pop()
            st.main_top_known = False
            st.discard[ctx.me].append(top)
            st.moved(ctx.me, top, "gains", "from the top of the main deck", rule_of(st, ctx), out)
        elif not st.quiet:
            out.append(
                ev.Noted(
                    rule="sfdbg.gain.main-top-stays",
                    seat=ctx.me,
                    text=f"leaves {st.name(top)} on top of the main deck.",
                )
            )
        return
    if _gain_legal(st, Request(ctx.me, "gain", (ctx, e))) != ("gain:none",):
        st.ask(ctx.me, "gain", (ctx, e))
    elif not st.quiet:
        out.append(
            ev.Noted(rule="sfdbg.gain.unavailable", seat=ctx.me, text="has no such card to gain.")
        )


def _gain_legal(st: Engine, req: Request) -> tuple[str, ...]:
    _, e = req.data
    options: list[str] = []
    if e.source == "kick":
        if st.kicks > 0:
            options.append(f"gain:{st.id(st.catalog.kick)}")
    else:
        seen: set[int] = set()
        for c in st.lineup:
            if c != EMPTY and c not in seen and _matches(st.cards[c], e):
                seen.add(c)
                options.append(f"gain:{st.id(c)}")
    if e.may or not options:
        options.append("gain:none")
    return tuple(options)


def _gain_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, e = req.data
    if choice == "gain:none":
        return
    card = _card_of(st, choice[5:])
    if e.source == "kick":
        st.kicks -= 1
        where = "from the Kick stack"
    else:
        st.lineup[st.lineup.index(card)] = EMPTY
        where = "from the Line-Up"
    st.discard[ctx.me].append(card)
    st.moved(ctx.me, card, "gains", where, rule_of(st, ctx), out)


KINDS["gain"] = Kind(
    _gain_legal, _gain_answer, lambda st, req: f"{source_name(st, req.data[0])}: gain a card?"
)


# choose a foe, return to hand -------------------------------------------------------------------


@primitive(blocking=True)
def foe(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """Choose a foe; ``effects`` apply to that foe (not an Attack: it cannot be avoided)."""
    st.ask(ctx.me, "foe", (ctx, e))


def _foe_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, e = req.data
    target = int(choice[4:])
    if e.op == "attack":
        from kumite.games.sfdbg.attack import start_attack

        start_attack(st, ctx, e, (target,), out)
    else:
        st.push_effects(ctx._replace(me=target, other=ctx.me), e.effects)


KINDS["foe"] = Kind(
    lambda st, req: tuple(f"foe:{s}" for s in st.clockwise(req.data[0].me)),
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
        st.ask(ctx.me, "return-to-hand", (ctx,))


def _return_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    (ctx,) = req.data
    if choice == "yes" and ctx.card in st.played[ctx.me]:
        st.played[ctx.me].remove(ctx.card)
        st.hand[ctx.me].append(ctx.card)
        st.moved(ctx.me, ctx.card, "returns", "to his hand", "sfdbg.clarify.mystic-yogi", out)


KINDS["return-to-hand"] = Kind(
    lambda st, req: ("yes", "no"),
    _return_answer,
    lambda st, req: f"Return {st.name(req.data[0].card)} to your hand?",
)
