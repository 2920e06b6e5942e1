"""The turn: play, buy, challenge a Stage Boss, end the turn; the end of the game."""

from __future__ import annotations

import dataclasses
from typing import Final

from kumite.core.events import Event
from kumite.core.game import Outcome
from kumite.games.sfdbg import events as ev
from kumite.games.sfdbg.cards import Card, Catalog
from kumite.games.sfdbg.choice import (
    BUY_KICK,
    BUY_ULTRA,
    CHALLENGE,
    END,
    MOVED,
    NO,
    PLAY_POWER,
    YES,
    Buy,
    Defend,
    Discard,
    Gain,
    Moved,
    Play,
    Reveal,
    Take,
)
from kumite.games.sfdbg.engine import (
    EMPTY,
    KINDS,
    Ctx,
    Engine,
    Frame,
    Kind,
    Request,
    ask,
    draw_cards,
    handler,
    push_effects,
)
from kumite.games.sfdbg.scoring import decided_by, deck_vp, ranking_key, stage_count, winners


@dataclasses.dataclass(frozen=True)
class Tables:
    """Choice strings per card index, built once per catalog (the hot loop reuses them)."""

    catalog: Catalog
    play: tuple[str, ...]
    buy_lineup: tuple[str, ...]
    buy_under: tuple[str, ...]
    take: tuple[str, ...]
    parse: dict[str, tuple[str, int]]
    """Turn choice -> (verb, card index)."""
    cost: tuple[int, ...]
    simple: tuple[bool, ...]
    kick_cost: int
    main_deck: tuple[int, ...]
    """The main deck before shuffling: each card of the "main" pile, ``copies`` times."""
    discard: tuple[str, ...]
    defend: tuple[str, ...]
    reveal: tuple[str, ...]
    gain: tuple[str, ...]
    gain_under: tuple[str, ...]
    moved: dict[tuple[type[Moved], str], tuple[str, ...]]
    """``(Destroy, "hand")`` -> ``destroy:hand:<card>`` per card index (and so for each kind
    of :data:`~.choice.Moved` and each of its zones)."""
    read: dict[str, tuple[str, int]]
    """Each of the choices above -> (the zone it takes its card from, the card's index):
    ``hand`` for a discard, a Defense or a reveal; ``under``, else ``lineup``, for a gain."""


_TABLES: Final[dict[int, Tables]] = {}


def tables(catalog: Catalog) -> Tables:
    found = _TABLES.get(id(catalog))
    if found is None or found.catalog is not catalog:
        ids = [c.id for c in catalog.cards]
        play = tuple(Play(i).format() for i in ids)
        buy_lineup = tuple(Buy("lineup", i).format() for i in ids)
        buy_under = tuple(Buy("under", i).format() for i in ids)
        take = tuple(Take(i).format() for i in ids)
        parse: dict[str, tuple[str, int]] = {}
        for k in range(len(ids)):
            parse[play[k]] = ("play", k)
            parse[buy_lineup[k]] = ("buy-lineup", k)
            parse[buy_under[k]] = ("buy-under", k)
            parse[take[k]] = ("take", k)
        parse[BUY_KICK] = ("buy-kick", catalog.kick)
        parse[BUY_ULTRA] = ("buy-ultra", EMPTY)
        parse[CHALLENGE] = ("challenge", EMPTY)
        parse[END] = ("end", EMPTY)
        parse[PLAY_POWER] = ("play-power", EMPTY)
        discard = tuple(Discard(i).format() for i in ids)
        defend = tuple(Defend(i).format() for i in ids)
        reveal = tuple(Reveal(i).format() for i in ids)
        gain = tuple(Gain(i).format() for i in ids)
        gain_under = tuple(Gain(i, under=True).format() for i in ids)
        moved = {
            (kind, zone): tuple(kind(zone, i).format() for i in ids)
            for kind in MOVED
            for zone in kind.zones
        }
        zones = [("hand", discard), ("hand", defend), ("hand", reveal), ("lineup", gain)]
        zones += [("under", gain_under), *((zone, s) for (_, zone), s in moved.items())]
        read = {s: (zone, k) for zone, strings in zones for k, s in enumerate(strings)}
        found = Tables(
            catalog,
            play,
            buy_lineup,
            buy_under,
            take,
            parse,
            tuple(c.cost for c in catalog.cards),
            tuple(c.simple_power >= 0 for c in catalog.cards),
            catalog.cards[catalog.kick].cost,
            tuple(c.index for c in catalog.pile("main") for _ in range(c.copies)),
            discard,
            defend,
            reveal,
            gain,
            gain_under,
            moved,
            read,
        )
        _TABLES[id(catalog)] = found
    return found


# -- the turn decision -------------------------------------------------------------------------


def turn_legal(st: Engine, req: Request) -> tuple[str, ...]:
    """Every choice of the player whose turn it is (``sfdbg.turn.*``). This runs once per
    decision of every simulated game, hence the plain loops: on CPython 3.11 they cost less
    than ``sorted(set(...))``, ``map`` or a comprehension on these few cards."""
    seat = req.seat
    t: Tables = st.tables
    simple = t.simple
    play = t.play
    out: list[str] = []
    count = 0
    last = EMPTY
    for c in sorted(st.hand[seat]):
        if c != last:  # each distinct card once, in card order
            out.append(play[c])
            last = c
        if simple[c]:
            count += 1
    if count >= 2:
        out.append(PLAY_POWER)
    if not st.no_buy:
        cost = t.cost
        power = st.power
        affordable: list[int] = []
        for c in st.lineup:
            if c != EMPTY and cost[c] <= power and c not in affordable:
                affordable.append(c)
        if affordable:
            affordable.sort()
            buy = t.buy_lineup
            for c in affordable:
                out.append(buy[c])
        if st.kicks and t.kick_cost <= power:
            out.append(BUY_KICK)
        under = st.under[seat]
        if under:
            discount = st.discount
            buy = t.buy_under
            if len(under) == 1:  # usually just the Ultra
                if cost[under[0]] - discount <= power and st.may_defeat(seat, under[0]):
                    out.append(buy[under[0]])
            else:
                for c in sorted(set(under)):
                    if cost[c] - discount <= power and st.may_defeat(seat, c):
                        out.append(buy[c])
        ultras = st.ultras[seat]
        if ultras and cost[ultras[-1]] - st.discount <= power:
            out.append(BUY_ULTRA)
        # can_challenge(st), inlined (no_buy is checked above: sfdbg.ruling.cannot-buy-stage).
        stages = st.stages
        if (
            st.stage_up
            and stages
            and st.stage_won[seat] == EMPTY
            and power >= cost[stages[-1]]
            and (st.bosses or st.hero_discard)
        ):
            out.append(CHALLENGE)
    won = st.stage_won[seat]
    if won != EMPTY and st.cammy and won in st.discard[seat]:
        out.append(t.take[won])
    out.append(END)
    return tuple(out)


def can_challenge(st: Engine) -> bool:
    """``sfdbg.boss.challenge`` / ``sfdbg.boss.one-per-turn``; not after "can't buy"
    (``sfdbg.ruling.cannot-buy-stage``)."""
    return (
        not st.no_buy
        and st.stage_up
        and bool(st.stages)
        and st.stage_won[st.active] == EMPTY
        and st.power >= st.cards[st.stages[-1]].cost
        and bool(st.bosses or st.hero_discard)
    )


def turn_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    verb, card = st.tables.parse[choice]
    seat = req.seat
    if verb == "play":
        play_card(st, seat, card, out)
    elif verb == "buy-lineup":
        st.lineup[st.lineup.index(card)] = EMPTY
        _bought(st, seat, card, st.cards[card].cost, "from the Line-Up", out)
    elif verb == "buy-kick":
        st.kicks -= 1
        _bought(st, seat, card, st.cards[card].cost, "from the Kick stack", out)
    elif verb == "buy-under":
        st.under[seat].remove(card)
        price = max(0, st.cards[card].cost - st.discount)
        _bought(st, seat, card, price, "from under his Super Hero", out, "sfdbg.under.buy")
    elif verb == "buy-ultra":
        card = st.ultras[seat].pop()
        price = max(0, st.cards[card].cost - st.discount)
        _bought(
            st, seat, card, price, "from his Ultra stack", out, "sfdbg.variant.secret-heroes.buy"
        )
    elif verb == "challenge":
        challenge(st, seat, out)
    elif verb == "play-power":
        st.stack.append(("play-power", seat))
    elif verb == "take":
        st.discard[seat].remove(card)
        st.to_hand_in_sight(seat, card)
        st.moved(
            seat,
            card,
            "puts",
            "from his discard pile into his hand",
            "sfdbg.clarify.cammy-delta-red",
            out,
        )
    else:
        st.stack.append(("end-turn", 0))


def turn_prompt(st: Engine, req: Request) -> str:
    return TURN_PROMPT


TURN_PROMPT: Final = "Your turn: play a card, buy, challenge the Stage Boss, or end your turn"


KINDS["turn"] = Kind(turn_legal, turn_answer, turn_prompt)


def _bought(
    st: Engine,
    seat: int,
    card: int,
    price: int,
    where: str,
    out: list[Event],
    rule: str = "sfdbg.turn.buy",
) -> None:
    """``sfdbg.turn.buy-any-number`` / ``sfdbg.turn.to-discard``; a Stage bought is defeated
    (``sfdbg.faq.defeat``)."""
    st.power -= price
    st.discard[seat].append(card)
    st.moved(seat, card, "buys", f"{where} for {price} Power", rule, out)
    st.gained(seat, card, out)


# -- playing a card ----------------------------------------------------------------------------


def play_card(st: Engine, seat: int, card: int, out: list[Event]) -> None:
    """``sfdbg.turn.play-order``: the card's text resolves at once; a Location stays in play
    (``sfdbg.location.in-play``) and Locations already in play may trigger
    (``sfdbg.ruling.location-trigger``)."""
    st.hand[seat].remove(card)  # st.from_hand(seat, card), inlined
    known = st.revealed[seat]
    if known and card in known:
        known.remove(card)
    c = st.cards[card]
    locs = st.locs[seat]
    triggers = [loc for loc in locs if _triggers(st, loc, c)] if locs else None
    if c.is_location:
        locs.append(card)
    else:
        st.played[seat].append(card)
    st.plays.append(card)
    if (
        c.type == "Ultra"
        and st.opts.variant == "high-powered"
        and card == st.catalog.ultra_of.get(st.heroes[st.hero[seat]].id)
    ):
        st.hp_ultra = True
    simple = c.simple_power
    if simple >= 0:
        st.power += simple  # a "+N Power" card: no need to go through the effect machine
    if not st.quiet:
        out.append(
            ev.CardPlayed(
                rule=_card_rule(c.id),
                seat=seat,
                card=c.id,
                name=c.name,
                power=st.power,
                gained=simple if simple > 0 else 0,
            )
        )
    for loc in reversed(triggers) if triggers else ():
        st.loc_used.append(loc)
        ongoing = st.cards[loc].ongoing
        assert ongoing is not None
        if not st.quiet:
            out.append(
                ev.Noted(
                    rule="sfdbg.ruling.location-trigger",
                    seat=seat,
                    note=f"{st.cards[loc].name} triggers on {c.name}.",
                )
            )
        push_effects(st, Ctx(me=seat, card=loc, trigger=card), ongoing.effects)
    if simple < 0:
        push_effects(st, Ctx(me=seat, card=card), c.play)


@handler("play-power")
def play_power(st: Engine, frame: Frame, out: list[Event]) -> None:
    """Play the next card of the hand whose whole text is +N Power (Location triggers it
    causes resolve before the next one is played)."""
    seat = frame[1]
    simple = st.tables.simple
    hand = st.hand[seat]
    stack = st.stack
    while True:
        for card in hand:
            if simple[card]:
                break
        else:
            return
        stack.append(frame)
        depth = len(stack)
        play_card(st, seat, card, out)
        if len(stack) != depth or st.request is not None:
            return  # a Location triggered: its effects first, then this frame again
        # Nothing to resolve: the machine would pop this frame at once; go on directly.
        stack.pop()


def _triggers(st: Engine, loc: int, card: Card) -> bool:
    ongoing = st.cards[loc].ongoing
    return loc not in st.loc_used and ongoing is not None and ongoing.matches(card)


def _card_rule(card_id: str) -> str:
    return f"sfdbg.card.{card_id}"


# -- challenging a Stage Boss ------------------------------------------------------------------


def challenge(st: Engine, seat: int, out: list[Event]) -> None:
    """``sfdbg.boss.challenge``: pay the Stage's cost, flip the top Super Hero: its
    Counter-Attack hits the challenger before the Stage is won (``sfdbg.boss.counter-attack``)."""
    stage = st.stages[-1]
    st.power -= st.cards[stage].cost
    boss = st.next_hero()
    st.boss = boss
    if not st.quiet:
        out.append(
            ev.StageChallenged(
                rule="sfdbg.boss.challenge",
                seat=seat,
                stage=st.name(stage),
                cost=st.cards[stage].cost,
                boss=st.heroes[boss].name,
            )
        )
    st.stack.append(("stage-won", seat))
    st.stack.append(("counter", None, boss, seat))


@handler("stage-won")
def stage_won(st: Engine, frame: Frame, out: list[Event]) -> None:
    """``sfdbg.boss.defeated``: the Stage goes to the discard pile, the Boss leaves play and
    the next Stage stays face down until the end of the turn."""
    seat = frame[1]
    stage = st.stages.pop()
    st.discard[seat].append(stage)
    st.stage_up = False
    st.stage_won[seat] = stage
    boss = st.boss
    st.defeated.append(boss)
    st.boss = EMPTY
    if not st.quiet:
        out.append(
            ev.StageDefeated(
                rule="sfdbg.boss.defeated",
                seat=seat,
                stage=st.name(stage),
                boss=st.heroes[boss].name,
            )
        )


# -- the end of the turn -----------------------------------------------------------------------


@handler("end-turn")
def end_turn(st: Engine, frame: Frame, out: list[Event]) -> None:
    """The four steps of Ending Your Turn; then the next player's turn."""
    step = frame[1]
    seat = st.active
    if step == 0:
        # 1. "At the end of your turn" effects (sfdbg.ruling.end-of-turn-order).
        if st.hp_ultra:
            ultra = st.catalog.ultra_of.get(st.heroes[st.hero[seat]].id, EMPTY)
            if ultra in st.played[seat]:
                st.stack.append(("end-turn", 1))
                ask(st, seat, "hp-ultra", (ultra,))
                return
        step = 1
    if step == 1:
        on_top: list[int] = []
        for card in st.topdeck if st.topdeck else ():
            if card in st.played[seat]:
                st.played[seat].remove(card)
                st.deck[seat].append(card)
                on_top.append(card)
                st.moved(
                    seat, card, "puts", "on top of his deck", "sfdbg.ruling.end-of-turn-order", out
                )
        # 2. Discard played cards and hand; unspent Power is lost; draw five.
        played, hand, discard = st.played[seat], st.hand[seat], st.discard[seat]
        discard += played
        discard += hand
        played.clear()
        hand.clear()
        st.revealed[seat].clear()
        st.power = 0
        if not st.quiet:
            out.append(ev.TurnEnded(rule="sfdbg.end-turn.discard-draw", seat=seat))
        drawn = draw_cards(st, seat, st.catalog.rules.hand_size, out, "sfdbg.end-turn.discard-draw")
        if on_top:
            # Cards put on top of the deck in sight are drawn first: everyone knows them.
            st.revealed[seat] += on_top[::-1][:drawn]
        # 3. Refill the Line-Up.
        if EMPTY in st.lineup:
            added: list[int] = []
            for slot, card in enumerate(st.lineup):
                if card == EMPTY:
                    if not st.main:
                        _reveal_added(st, added, out)
                        finish(st, "the Line-Up cannot be refilled", "sfdbg.end.line-up", out)
                        return
                    new = st.main.pop()
                    st.lineup[slot] = new
                    added.append(new)
            st.main_top_known = False  # the known top card (if any) went to the Line-Up
            _reveal_added(st, added, out)
        # 4. Flip the Stage.
        if not st.stage_up:
            if not st.stages:
                finish(st, "no Stage is left to flip", "sfdbg.end.no-stage", out)
                return
            st.stage_up = True
            if not st.quiet:
                top = st.stages[-1]
                out.append(
                    ev.StageFlipped(
                        rule="sfdbg.end-turn.flip", stage=st.name(top), cost=st.cards[top].cost
                    )
                )
        start_turn(st, (seat + 1) % st.seat_count, out)


def _reveal_added(st: Engine, added: list[int], out: list[Event]) -> None:
    if added and not st.quiet:
        out.append(
            ev.LineUpRefilled(rule="sfdbg.end-turn.refill", cards=tuple(st.name(c) for c in added))
        )


def _hp_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    (ultra,) = req.data
    if choice == YES and ultra in st.played[req.seat]:
        st.played[req.seat].remove(ultra)
        st.shuffle_into_deck(req.seat, ultra)
        st.moved(req.seat, ultra, "shuffles", "into his deck", "sfdbg.variant.high-powered", out)


KINDS["hp-ultra"] = Kind(
    lambda st, req: (YES, NO),
    _hp_answer,
    lambda st, req: (
        f"High-Powered Heroes: shuffle {st.name(req.data[0])} into your deck (not discard it)?"
    ),
)


def start_turn(st: Engine, seat: int, out: list[Event]) -> None:
    """Pass the turn to ``seat`` (``sfdbg.setup.first-player``: clockwise)."""
    if st.turn >= st.seat_count * st.opts.round_limit:
        finish(
            st, f"{st.opts.round_limit} full rounds were played", "sfdbg.ruling.round-limit", out
        )
        return
    st.active = seat
    st.turn += 1
    st.power = 0
    st.plays = []
    st.stage_won = [EMPTY] * st.seat_count
    st.cammy = False
    st.yogi = False
    st.loc_used = []
    st.discount = 0
    st.no_buy = False
    st.ca_used = [False] * st.seat_count
    st.cannot_avoid = [False] * st.seat_count
    st.topdeck = []
    st.hp_ultra = False
    if not st.quiet:
        out.append(ev.TurnStarted(rule="sfdbg.setup.first-player", seat=seat, turn=st.turn))


# -- the end of the game -----------------------------------------------------------------------


def owned(st: Engine, seat: int) -> list[int]:
    """``sfdbg.end.score``: Locations in play, hand and discard pile return to the deck (cards
    under the Super Hero do not count: ``sfdbg.under.not-counted``)."""
    return st.deck[seat] + st.hand[seat] + st.discard[seat] + st.played[seat] + st.locs[seat]


def finish(st: Engine, reason: str, rule: str, out: list[Event]) -> None:
    st.over = True
    st.stack.clear()
    st.request = None
    n = st.seat_count
    decks = [owned(st, s) for s in range(n)]
    vp = tuple(deck_vp(st.catalog, d) for d in decks)
    stages = tuple(stage_count(st.catalog, d) for d in decks)
    sizes = tuple(len(d) for d in decks)
    keys = [ranking_key(vp[s], stages[s], sizes[s]) for s in range(n)]
    won = winners(keys)
    draw = len(won) == n
    returns = tuple(0.0 if draw else (1.0 if s in won else -1.0) for s in range(n))
    st.result = Outcome(
        winners=won,
        draw=draw,
        returns=returns,
        reason=reason,
        rule=rule,
        detail={
            "vp": vp,
            "stages": stages,
            "cards": sizes,
            "decided_by": decided_by(keys),
            "turns": st.turn,
            "heroes": tuple(st.heroes[h].id for h in st.hero),
        },
    )
    if not st.quiet:
        out.append(ev.GameEnded(rule=rule, reason=reason, vp=vp, winners=won))
