"""SF Rivals in the terminal: the table, the cards and the human agent."""

from __future__ import annotations

from collections import Counter  # card id -> copies, in first-seen order
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kumite.agents.base import Agent
from kumite.cards.provenance import LEGEND, mark
from kumite.core.errors import OptionsError
from kumite.core.game import Decision, Game
from kumite.games.sfrivals.cards import Card, Catalog
from kumite.games.sfrivals.choice import PickCharacter, Play, SetUp
from kumite.games.sfrivals.game import GAME
from kumite.tui.console import pick
from kumite.tui.registry import TerminalFrontEnd
from kumite.tui.screen import board

#: The card fields shown at the terminal, each with its provenance mark.
SHOWN_FIELDS = ("name", "initiative", "damage", "text")


def value(card: Card, field: str) -> str:
    """A card value with its provenance mark (``3*`` for an estimate)."""
    return f"{getattr(card, field)}{mark(card, field)}"


def marks(cards: Iterable[Card]) -> set[str]:
    """The provenance marks the shown fields of ``cards`` carry."""
    return {
        prov.mark
        for card in cards
        for field in SHOWN_FIELDS
        if (prov := card.provenance.get(field)) is not None and prov.mark
    }


def legend(shown: set[str] | None = None) -> Text:
    """The meaning of each mark in ``shown`` (None: every mark)."""
    lines = [line for line in LEGEND.values() if shown is None or line[0] in shown]
    return Text("\n".join(lines), style="dim")


def named(card: Card, copies: int = 1) -> str:
    """The card's name with its mark and, for several copies, ``×2``."""
    return value(card, "name") + (f" ×{copies}" if copies > 1 else "")


def card_label(card: Card, copies: int = 1) -> Text:
    kind = {"ultra": " [ULTRA]", "super": " [SUPER]"}.get(card.kind, "")
    text = Text()
    text.append(named(card, copies), style="bold")
    text.append(kind, style="magenta")
    text.append(f"  init {value(card, 'initiative')}  dmg {value(card, 'damage')}")
    if card.text:
        text.append(f"  — {value(card, 'text')}", style="italic")
    return text


def cards_table(cards: list[Card], title: str, copies: Mapping[str, int] | None = None) -> Table:
    """One row per card type; ``copies`` (default: the deck's) shown as ``×2``."""
    table = Table(title=title, show_lines=False, expand=True)
    table.add_column("card")
    table.add_column("init", justify="right")
    table.add_column("dmg", justify="right")
    table.add_column("power")
    for card in cards:
        kind = {"ultra": " (Ultra Combo)", "super": " (Super Combo)"}.get(card.kind, "")
        n = card.copies if copies is None else copies[card.id]
        table.add_row(
            named(card, n) + kind,
            value(card, "initiative"),
            value(card, "damage"),
            value(card, "text") if card.text else "—",
        )
    return table


def names(catalog: Catalog, ids: Iterable[str]) -> str:
    """``Hadouken ×2, Guard``: each card once, with its copies."""
    return ", ".join(named(catalog.cards[i], n) for i, n in Counter(ids).items())


def move_lists(catalog: Catalog, mine: str, theirs: str) -> Group:
    """The matchup's two move lists (one for a mirror match), with the legend of their marks."""
    own, other = catalog.characters[mine], catalog.characters[theirs]
    if own is other:
        tables = [cards_table(list(own.cards), f"{own.name}'s move list (both of you)")]
    else:
        tables = [
            cards_table(list(own.cards), f"Your move list: {own.name}"),
            cards_table(list(other.cards), f"Your opponent's move list: {other.name}"),
        ]
    return Group(*tables, legend(marks([*own.cards, *other.cards])))


def life_gauge(life: int, maximum: int) -> Text:
    bar = Text()
    bar.append("█" * life, style="green" if life > maximum // 2 else "red")
    bar.append("░" * (maximum - life), style="dim")
    bar.append(f" {life}/{maximum}")
    return bar


def render(view: Mapping[str, Any], catalog: Catalog) -> Group:
    """The table as ``view``'s seat sees it: the round, each fighter, the seat's own hand,
    and the legend of the marks shown."""
    parts: list[RenderableType] = [_heading(view)]
    for p in view["players"]:
        parts.extend(_fighter_lines(p, view, catalog))
    parts.extend(_own_hand(view, catalog))
    parts.extend(_marks_legend(view, catalog))
    return Group(*parts)


def _heading(view: Mapping[str, Any]) -> Text:
    return Text(
        f"Round {view['round']} of {view['rounds']}"
        if view["phase"] == "play"
        else view["phase"].capitalize(),
        style="bold cyan",
    )


def _fighter_lines(
    p: Mapping[str, Any], view: Mapping[str, Any], catalog: Catalog
) -> list[RenderableType]:
    """One fighter: life, hand size and carried effects, then the cards on the table."""
    seat = view["seat"]
    name = p["character_name"] or "?"
    you = ", you" if p["seat"] == seat else ""
    line = Text(f"Player {p['seat'] + 1} ({name}{you}) ", style="bold")
    line.append(life_gauge(p["life"], view["life_max"]))
    line.append(f"  cards in hand: {p['hand_size']}")
    extras = _carried(p)
    if extras:
        line.append("  [" + "; ".join(extras) + "]", style="yellow")
    parts: list[RenderableType] = [line]
    if p["shown"]:
        parts.append(Text(f"    set aside: {catalog.cards[p['shown']].name}", style="dim"))
    if p["played"]:
        parts.append(Text(f"    played: {names(catalog, p['played'])}", style="dim"))
    if p["revealed"]:
        parts.append(
            Text(
                f"    revealed first: {card_label(catalog.cards[p['revealed']])}",
                style="bold yellow",
            )
        )
    if p["seat"] != seat and view["phase"] == "play" and catalog.unseen(p):
        unseen = names(catalog, [c.id for c in catalog.unseen(p)])
        parts.append(Text(f"    unseen (hand + hidden cover): {unseen}", style="dim"))
    return parts


def _carried(p: Mapping[str, Any]) -> list[str]:
    """What a fighter carries into this round (initiative, Feng Shui, revealing first)."""
    extras = []
    carry = p["carry"]
    if carry["initiative_next_round"]:
        extras.append(f"+{carry['initiative_next_round']} initiative this round")
    if carry["lasting_initiative"] or carry["lasting_damage"]:
        extras.append(
            f"Feng Shui: +{carry['lasting_initiative']} init "
            f"+{carry['lasting_damage']} dmg every round"
        )
    if p["must_reveal_first"]:
        extras.append("must reveal first")
    return extras


def _own_hand(view: Mapping[str, Any], catalog: Catalog) -> list[RenderableType]:
    me = next((p for p in view["players"] if p["seat"] == view["seat"]), None)
    if me is None or not me.get("hand"):
        return []
    held = Counter(me["hand"])
    parts: list[RenderableType] = [cards_table([catalog.cards[c] for c in held], "Your hand", held)]
    if me.get("cover"):
        cover = catalog.cards[me["cover"]].name
        parts.append(Text(f"Covering your life gauge (hidden): {cover}", style="dim"))
    return parts


def _marks_legend(view: Mapping[str, Any], catalog: Catalog) -> list[RenderableType]:
    # the marks of the fighters' cards: this view and the events around it show their values
    decks = [
        card
        for p in view["players"]
        if p["character"] is not None
        for card in catalog.characters[p["character"]].cards
    ]
    return [legend(marks(decks))] if marks(decks) else []


class HumanSFRivals:
    """A person choosing at the terminal. Sees only the view of their seat."""

    name = "human"

    def __init__(self, console: Console, catalog: Catalog, label: str = "Player 1 (you)") -> None:
        self.console = console
        self.catalog = catalog
        self.label = label

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        c = self.console
        if decision.kind == "character":
            # names only: the matchup's two move lists follow at the set-up
            chars = [
                self.catalog.characters[PickCharacter.parse(x).character] for x in decision.legal
            ]
            chosen = pick(c, f"{self.label}: choose your character", chars, lambda ch: ch.name)
            return PickCharacter(chosen.id).format()
        table = Panel(render(view, self.catalog), title=self.label)
        if decision.kind == "setup":
            mine, theirs = (
                view["players"][s]["character"] for s in (decision.seat, 1 - decision.seat)
            )
            board(c, Group(move_lists(self.catalog, mine, theirs), table))
        else:
            board(c, table)
        if decision.kind == "setup":
            return self._setup(decision)
        return self._play(view, decision)

    def _play(self, view: Mapping[str, Any], decision: Decision) -> str:
        """Every card in hand is listed; an Ultra or Super Combo that may not be played yet
        is greyed with the reason, and a pick of it is refused."""
        me = view["players"][decision.seat]
        held = Counter(me.get("hand", []))
        legal = {Play.parse(x).card for x in decision.legal}
        cards = [self.catalog.cards[i] for i in held]
        rules = self.catalog.rules

        def unavailable(card: Card) -> str | None:
            """Why the card may not be played, in its rule's words (sfr.ruling.ultra-play,
            sfr.layout.super-combo), with the figure that keeps it back."""
            if card.id in legal:
                return None
            if card.is_ultra and me["life"] > rules.ultra_life_at_most:
                return (
                    f"an Ultra Combo may only be played while your life is "
                    f"{rules.ultra_life_at_most} or under; yours is {me['life']}"
                )
            if card.is_super and view["round"] < rules.super_round_at_least:
                return (
                    f"a Super Combo may only be played from round {rules.super_round_at_least} "
                    f"on; this is round {view['round']}"
                )
            return "not playable now"

        def label(card: Card) -> Text:
            text = card_label(card, held[card.id])
            if card.is_ultra and card.id in legal and me["life"] > rules.ultra_life_at_most:
                # ultra_rule=power (sfr.layout.ultra-combo): playable, its power is not yet
                text.append(
                    f"  (its power works only while your life is {rules.ultra_life_at_most} "
                    "or under)",
                    style="dim",
                )
            return text

        title = (
            "Play a card — it is shown to your opponent before they choose"
            if decision.kind == "play-first"
            else "Play a card face down"
        )
        played = pick(self.console, f"{self.label}: {title}", cards, label, unavailable)
        return played.choice

    def _setup(self, decision: Decision) -> str:
        pairs = [SetUp.parse(x) for x in decision.legal]
        covers = list(dict.fromkeys(p.cover for p in pairs))
        c = self.console
        c.print(
            "Keep 8 of your 10 cards: one of the other two covers your life gauge "
            "(hidden), the other is shown to your opponent."
        )
        cover = pick(
            c,
            "Card to put face down on your life gauge",
            covers,
            lambda x: card_label(self.catalog.cards[x], self.catalog.cards[x].copies),
        )
        shows = [p.shown for p in pairs if p.cover == cover]
        shown = pick(
            c,
            "Card to show your opponent (also unused)",
            shows,
            lambda x: card_label(self.catalog.cards[x]),
        )
        return SetUp(cover, shown).format()


class SFRivalsFrontEnd(TerminalFrontEnd):
    """SF Rivals on the terminal."""

    def human(
        self, console: Console, game: Game[Any], options: Mapping[str, Any], seat: int, label: str
    ) -> Agent:
        return HumanSFRivals(console, GAME.catalog(options), label)

    def seat_names(self, view: Mapping[str, Any]) -> list[str | None]:
        """Each seat's character (``kumite play`` names the winner by it)."""
        return [p["character_name"] for p in view["players"]]

    def render(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any]
    ) -> RenderableType:
        return render(view, GAME.catalog(options))

    def cards(
        self, game: Game[Any], pack: Path | None, only: str | None, as_json: bool
    ) -> RenderableType | dict[str, Any]:
        catalog = GAME.pack_catalog(pack)
        chars = list(catalog.characters.values())
        if only is not None:
            if only not in catalog.characters:
                raise OptionsError(f"unknown character {only!r}")
            chars = [catalog.characters[only]]
        if as_json:
            return GAME.catalog_json(
                catalog,
                characters=[{"id": c.id, "name": c.name} for c in chars],
                cards=[card.to_json() for c in chars for card in c.cards],
            )
        parts: list[RenderableType] = [
            cards_table(list(char.cards), f"{char.name} ({char.id})") for char in chars
        ]
        parts.append(Text(f"Life: {catalog.rules.life} ({catalog.rule_provenance['life']})"))
        parts.append(legend())
        sources = "; ".join(f"[{k}] {v}" for k, v in catalog.pack.sources.items())
        parts.append(
            Text(f"Pack {catalog.pack.id} {catalog.pack.version}. Sources: {sources}", style="dim")
        )
        return Group(*parts)


FRONT_END = SFRivalsFrontEnd()
