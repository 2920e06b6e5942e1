"""Attacks, Defenses, reactions and Counter-Attacks.

An Attack resolves in the order the rulebook and its clarifications give:

1. the attacker picks its targets (a chosen foe; Ultimate Atomic Buster names each foe and
   the card for him first — ``sfdbg.clarify.ultimate-atomic-buster``);
2. each affected foe, in clockwise order (``sfdbg.resolve.clockwise``), may reveal non-Defense
   reactions (``sfdbg.clarify.reveal-before-defense``) and then plays at most one Defense from
   his hand or none (``sfdbg.attack.one-defense``); an Ultra used as a Defense makes his Super
   Hero Counter-Attack the attacker at once (``sfdbg.counter.ultra``);
3. the attacker names a type or cost if the card asks (``sfdbg.clarify.naming``);
4. the Attack's effects apply to each foe who did not avoid it, in clockwise order, each foe
   making his own choices;
5. abilities counting the foes hit apply (``sfdbg.attack.other-abilities``).

A Counter-Attack is an Attack on one player (``sfdbg.counter.is-attack``) by a player or a
Stage Boss (``attacker`` is ``None``).
"""

from __future__ import annotations

from typing import Final

from kumite.core.events import Event
from kumite.games.sfdbg import events as ev
from kumite.games.sfdbg.cards import CARD_TYPES, Effect
from kumite.games.sfdbg.choice import GIVE_NONE, NO_DEFENSE, Give, Name
from kumite.games.sfdbg.effects import primitive
from kumite.games.sfdbg.engine import (
    KINDS,
    Ctx,
    Engine,
    Frame,
    Kind,
    Request,
    ask,
    handler,
    push_effects,
)
from kumite.games.sfdbg.rules import hero_rule

#: Costs a player may name (Rekkashingeki).
NAMEABLE_COSTS: Final = tuple(range(13))
NAME_TYPES: Final = tuple(Name("type", t).format() for t in CARD_TYPES)
NAME_COSTS: Final = tuple(Name("cost", str(c)).format() for c in NAMEABLE_COSTS)
NAMED: Final = {choice: Name.parse(choice) for choice in (*NAME_TYPES, *NAME_COSTS)}
"""What each name choice names (the attack's effects read it)."""


class Attack:
    """One Attack in progress. Immutable: each step makes a new one (a plain slotted class
    with ``Final`` fields, as :class:`~kumite.games.sfdbg.engine.Ctx` is, for the compiled
    build)."""

    __slots__ = (
        "attacker",
        "avoided",
        "card",
        "effects",
        "gifts",
        "hero",
        "k",
        "name",
        "per_hit",
        "revealed",
        "targets",
        "unavoidable",
    )

    attacker: Final[int | None]
    card: Final[int]
    """The attacking card, or -1 for a Counter-Attack."""
    hero: Final[int]
    """The counter-attacking Super Hero, or -1."""
    effects: Final[tuple[Effect, ...]]
    targets: Final[tuple[int, ...]]
    k: Final[int]
    """Index of the target now deciding whether to avoid the Attack."""
    avoided: Final[tuple[int, ...]]
    revealed: Final[tuple[int, ...]]
    """Reactions the current target has revealed against this Attack."""
    name: Final[str | None]
    per_hit: Final[tuple[Effect, ...]]
    gifts: Final[tuple[tuple[int, str, int], ...]]
    """(foe, zone, card) set aside for each foe (Ultimate Atomic Buster)."""
    unavoidable: Final[tuple[int, ...]]
    """The seats that cannot avoid this Attack (Hugo: ``sfdbg.ruling.hugo-next-attack``)."""

    def __init__(
        self,
        attacker: int | None,
        card: int,
        hero: int,
        effects: tuple[Effect, ...],
        targets: tuple[int, ...],
        k: int = 0,
        avoided: tuple[int, ...] = (),
        revealed: tuple[int, ...] = (),
        name: str | None = None,
        per_hit: tuple[Effect, ...] = (),
        gifts: tuple[tuple[int, str, int], ...] = (),
        unavoidable: tuple[int, ...] = (),
    ) -> None:
        self.attacker = attacker
        self.card = card
        self.hero = hero
        self.effects = effects
        self.targets = targets
        self.k = k
        self.avoided = avoided
        self.revealed = revealed
        self.name = name
        self.per_hit = per_hit
        self.gifts = gifts
        self.unavoidable = unavoidable

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _ATTACK_FIELDS)
        return f"Attack({fields})"

    def _progressed(self, k: int, avoided: tuple[int, ...], revealed: tuple[int, ...]) -> Attack:
        """This Attack with its progress through the targets changed (the rest is fixed)."""
        return Attack(
            self.attacker,
            self.card,
            self.hero,
            self.effects,
            self.targets,
            k,
            avoided,
            revealed,
            self.name,
            self.per_hit,
            self.gifts,
            self.unavoidable,
        )

    def next_target(self, avoided: bool) -> Attack:
        """This Attack moved on to its next target."""
        done = (*self.avoided, self.targets[self.k]) if avoided else self.avoided
        return self._progressed(self.k + 1, done, ())

    def revealing(self, card: int) -> Attack:
        """This Attack once its current target has revealed ``card`` against it."""
        return self._progressed(self.k, self.avoided, (*self.revealed, card))


#: In the order of the constructor's parameters, for ``repr``.
_ATTACK_FIELDS: Final = (
    "attacker",
    "card",
    "hero",
    "effects",
    "targets",
    "k",
    "avoided",
    "revealed",
    "name",
    "per_hit",
    "gifts",
    "unavoidable",
)


@primitive(blocking=True)
def attack(st: Engine, ctx: Ctx, e: Effect, out: list[Event]) -> None:
    """``Attack:`` the foes of ``target`` (``each_foe``, ``chosen_foe`` or ``give``)."""
    foes = st.clockwise(ctx.me)
    if e.target == "chosen_foe":
        ask(st, ctx.me, "foe", (ctx, e))
    elif e.target == "give":
        st.stack.append(("give", ctx, e, foes, 0, ()))
    else:
        start_attack(st, ctx, e, foes, out)


def unavoidable(st: Engine) -> tuple[int, ...]:
    """The seats that cannot avoid the Attack now starting; their "cannot avoid" is used up.

    ``sfdbg.clarify.hugo``: "that foe may not play a Defense card at all against the next
    attack that occurs during that turn" -- the next Attack anyone makes, a Counter-Attack
    included, whether or not it affects that foe (``sfdbg.ruling.hugo-next-attack``)."""
    flags = st.cannot_avoid
    if True not in flags:
        return ()
    seats = tuple(s for s in range(st.seat_count) if flags[s])
    st.cannot_avoid = [False] * st.seat_count
    return seats


def start_attack(
    st: Engine,
    ctx: Ctx,
    e: Effect,
    targets: tuple[int, ...],
    out: list[Event],
    gifts: tuple[tuple[int, str, int], ...] = (),
) -> None:
    if not st.quiet:
        out.append(
            ev.AttackMade(
                rule="sfdbg.attack.defense", seat=ctx.me, source=st.name(ctx.card), targets=targets
            )
        )
    st.stack.append(
        (
            "atk",
            Attack(
                attacker=ctx.me,
                card=ctx.card,
                hero=-1,
                effects=e.effects,
                targets=targets,
                name=e.name,
                per_hit=e.per_hit,
                gifts=gifts,
                unavoidable=unavoidable(st),
            ),
        )
    )


# -- Ultimate Atomic Buster: name each foe and the card to give him first ----------------------


@handler("give")
def give_step(st: Engine, frame: Frame, out: list[Event]) -> None:
    _, ctx, e, foes, i, gifts = frame
    if i < len(foes):
        if st.hand[ctx.me] or st.discard[ctx.me]:
            ask(st, ctx.me, "give", (ctx, e, foes, i, gifts), private=True)
        else:
            st.stack.append(("give", ctx, e, foes, i + 1, gifts))
        return
    targets = tuple(g[0] for g in gifts)
    start_attack(st, ctx, e, targets, out, gifts)


def _give_legal(st: Engine, req: Request) -> tuple[str, ...]:
    ctx, _, foes, i, _ = req.data
    hand, discard = st.tables.moved[Give, "hand"], st.tables.moved[Give, "discard"]
    # the foe gains the card: not a second Stage for him this turn (st.may_defeat)
    foe = foes[i]
    options = [hand[c] for c in sorted(set(st.hand[ctx.me])) if st.may_defeat(foe, c)]
    options += [discard[c] for c in sorted(set(st.discard[ctx.me])) if st.may_defeat(foe, c)]
    options.append(GIVE_NONE)
    return tuple(options)


def _give_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    ctx, e, foes, i, gifts = req.data
    if choice != GIVE_NONE:
        zone, card = st.tables.read[choice]
        if zone == "hand":
            st.from_hand(ctx.me, card)
        else:
            st.discard[ctx.me].remove(card)
        st.aside.append(card)
        gifts = (*gifts, (foes[i], zone, card))
        if not st.quiet:
            out.append(
                ev.Noted(
                    rule="sfdbg.clarify.ultimate-atomic-buster",
                    seat=ctx.me,
                    note=f"sets aside {st.name(card)} to give to Player {foes[i] + 1}.",
                )
            )
    st.stack.append(("give", ctx, e, foes, i + 1, gifts))


KINDS["give"] = Kind(
    _give_legal,
    _give_answer,
    lambda st, req: (
        f"Ultimate Atomic Buster: the card to give Player {req.data[2][req.data[3]] + 1}"
    ),
)


# -- each target: reactions and one Defense ----------------------------------------------------


@handler("atk")
def attack_step(st: Engine, frame: Frame, out: list[Event]) -> None:
    a: Attack = frame[1]
    if a.k < len(a.targets):
        target = a.targets[a.k]
        ask(st, target, "defend", (a, target in a.unavoidable), private=True)
        return
    hits = tuple(t for t in a.targets if t not in a.avoided)
    for foe_seat, zone, card in a.gifts:
        if foe_seat in a.avoided and card in st.aside and a.attacker is not None:
            st.aside.remove(card)
            if zone == "hand":
                st.to_hand_in_sight(a.attacker, card)
            else:
                st.discard[a.attacker].append(card)
            st.moved(
                a.attacker,
                card,
                "takes back",
                f"into his {zone}",
                "sfdbg.clarify.ultimate-atomic-buster",
                out,
            )
    if a.name is not None and hits and a.attacker is not None:
        ask(st, a.attacker, "name", (a, hits))
        return
    resolve(st, a, hits, None)


def resolve(st: Engine, a: Attack, hits: tuple[int, ...], named: Name | None) -> None:
    """Push each hit foe's effects (clockwise) and the per-hit bonus (last)."""
    if a.per_hit and hits and a.attacker is not None:
        push_effects(st, Ctx(me=a.attacker, card=a.card), a.per_hit * len(hits))
    gift = {g[0]: g[2] for g in a.gifts}
    for victim in reversed(hits):
        ctx = Ctx(
            me=victim,
            card=a.card,
            other=a.attacker,
            hero=a.hero,
            named=named,
            gift=gift.get(victim, -1),
        )
        push_effects(st, ctx, a.effects)


def _defend_legal(st: Engine, req: Request) -> tuple[str, ...]:
    a, forced = req.data
    target = req.seat
    cards = st.cards
    hand = sorted(set(st.hand[target]))
    options: list[str] = []
    if a.attacker is not None:  # a Stage Boss is not a foe (sfdbg.ruling.reactions)
        reveal = st.tables.reveal
        options += [reveal[c] for c in hand if cards[c].reaction and c not in a.revealed]
    if not forced:
        defend = st.tables.defend
        options += [defend[c] for c in hand if cards[c].defense is not None]
    options.append(NO_DEFENSE)
    return tuple(options)


def _defend_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    a, forced = req.data
    target = req.seat
    if choice == NO_DEFENSE:
        if not st.quiet:
            out.append(
                ev.AttackNotAvoided(
                    rule="sfdbg.clarify.hugo" if forced else "sfdbg.attack.defense",
                    seat=target,
                    forced=forced,
                )
            )
        st.stack.append(("atk", a.next_target(avoided=False)))
        return
    _, index = st.tables.read[choice]  # a Defense or a reveal of a card in hand
    card = st.cards[index]
    if choice == st.tables.reveal[index]:
        if not st.quiet:
            out.append(
                ev.CardRevealed(
                    rule="sfdbg.clarify.reveal-before-defense",
                    seat=target,
                    card=card.id,
                    name=card.name,
                    where="from his hand against the Attack",
                )
            )
        st.stack.append(("atk", a.revealing(card.index)))
        st.known_in_hand(target, card.index)  # it stays in his hand, now known
        # sfdbg.clarify.attacker-cannot-avoid: not an Attack, so no Defense against it.
        assert a.attacker is not None  # reactions are only offered against players
        push_effects(st, Ctx(me=a.attacker, card=card.index, other=target), card.reaction)
        return
    defense = card.defense
    assert defense is not None
    st.from_hand(target, card.index)
    ultra = defense.mode == "ultra"
    secret = st.opts.variant == "secret-heroes"
    if ultra and not secret:
        st.shuffle_into_deck(target, card.index)
    else:
        st.discard[target].append(card.index)
    if not st.quiet:
        out.append(
            ev.AttackAvoided(
                rule="sfdbg.attack.defense",
                seat=target,
                card=card.id,
                name=card.name,
                where=(
                    "is discarded (Secret Heroes)"
                    if ultra and secret
                    else ("is shuffled into his deck" if ultra else "is discarded")
                ),
            )
        )
    st.stack.append(("atk", a.next_target(avoided=True)))
    if ultra:
        if secret:
            st.stack.append(("secret-replace", target))
            st.hero_up[target] = True
            if not st.quiet:
                out.append(
                    ev.HeroRevealed(
                        rule="sfdbg.variant.secret-heroes.defense",
                        seat=target,
                        hero=st.heroes[st.hero[target]].name,
                    )
                )
        if a.attacker is not None and not st.ca_used[target]:
            st.stack.append(("counter", target, st.hero[target], a.attacker))
        elif not st.quiet:
            rule = (
                "sfdbg.ruling.counter-vs-boss"
                if a.attacker is None
                else "sfdbg.ruling.ultra-after-counter"
            )
            out.append(
                ev.Noted(
                    rule=rule, seat=target, note="avoids the Attack without Counter-Attacking."
                )
            )
    push_effects(st, Ctx(me=target, card=card.index, other=a.attacker), defense.effects)


def _what_it_does(text: str, keyword: str) -> str:
    """What an Attack does, in its card's own words: the text after ``Attack:`` (or
    ``Counter-Attack:``), up to the next keyword of the card (``Defense:``)."""
    found = text.find(f"{keyword}:")
    if found < 0:
        return ""
    what = text[found + len(keyword) + 1 :]
    cut = what.find("Defense:")
    return (what if cut < 0 else what[:cut]).strip().rstrip(".")


def _defend_prompt(st: Engine, req: Request) -> str:
    """What the Attack does to the seat asked, and what avoiding it takes (and gives)."""
    a, forced = req.data
    if a.hero >= 0:
        source = f"{st.heroes[a.hero].name}'s Counter-Attack"
        what = _what_it_does(st.heroes[a.hero].counter_text, "Counter-Attack")
    else:
        source = st.name(a.card)
        what = _what_it_does(st.cards[a.card].text, "Attack")
    by = "The Stage Boss" if a.attacker is None else f"Player {a.attacker + 1}"
    attacks = f"{by} attacks you with {source}" + (f" ({what})" if what else "")
    if forced:
        return f"{attacks}; you cannot avoid it (you may reveal reactions)"
    # Nothing about the hand: every seat's view shows the pending prompt (hidden information).
    return (
        f"{attacks}. A Defense from your hand avoids it (and gives what its text says); or take it"
    )


KINDS["defend"] = Kind(_defend_legal, _defend_answer, _defend_prompt)


# -- naming a type or a cost -------------------------------------------------------------------


def _name_legal(st: Engine, req: Request) -> tuple[str, ...]:
    a: Attack = req.data[0]
    return NAME_TYPES if a.name == "type" else NAME_COSTS


def _name_answer(st: Engine, req: Request, choice: str, out: list[Event]) -> None:
    a, hits = req.data
    named = NAMED[choice]
    if not st.quiet:
        what = f"the {named.kind} {named.value}"
        out.append(ev.Named(rule="sfdbg.clarify.naming", seat=req.seat, what=what))
    resolve(st, a, hits, named)


KINDS["name"] = Kind(
    _name_legal,
    _name_answer,
    lambda st, req: f"{st.name(req.data[0].card)}: name a card {req.data[0].name}",
)


# -- Counter-Attacks ---------------------------------------------------------------------------


@handler("counter")
def counter_attack(st: Engine, frame: Frame, out: list[Event]) -> None:
    """``("counter", by, hero, victim)``: ``hero``'s Counter-Attack against ``victim``, by a
    player (``sfdbg.counter.ultra``, once per turn) or a Stage Boss (``by`` is ``None``)."""
    _, by, hero, victim = frame
    if by is not None:
        st.ca_used[by] = True
    if not st.quiet:
        out.append(
            ev.AttackMade(
                rule=hero_rule(st.heroes[hero].id),
                seat=by,
                source=st.heroes[hero].name,
                targets=(victim,),
                counter=True,
            )
        )
    st.stack.append(
        (
            "atk",
            Attack(
                attacker=by,
                card=-1,
                hero=hero,
                effects=st.heroes[hero].counter,
                targets=(victim,),
                unavoidable=unavoidable(st),
            ),
        )
    )


@handler("secret-replace")
def secret_replace(st: Engine, frame: Frame, out: list[Event]) -> None:
    """``sfdbg.variant.secret-heroes.defense``: a new face-down Super Hero; discard the old."""
    seat = frame[1]
    old = st.hero[seat]
    new = st.next_hero()
    if new < 0:
        st.hero_up[seat] = False  # no other Super Hero left: keep this one (cannot happen with 14)
        return
    st.hero[seat] = new
    st.hero_up[seat] = False
    st.hero_discard.append(old)
    if not st.quiet:
        out.append(
            ev.HeroReplaced(
                rule="sfdbg.variant.secret-heroes.defense", seat=seat, old=st.heroes[old].name
            )
        )


__all__ = ["Attack", "attack", "resolve", "start_attack", "unavoidable"]
