"""SF DBG in the terminal: the table, the cards (with provenance marks) and the human agent."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kumite.agents.base import Agent
from kumite.cards.provenance import LEGEND, mark
from kumite.core.errors import OptionsError
from kumite.core.game import Decision, Game
from kumite.games.sfdbg.cards import Card, Catalog, Hero
from kumite.games.sfdbg.choice import BUY_KICK, Buy, Defend, Play, Reveal, parse
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.labels import choice_label, stage_name
from kumite.tui.console import pick
from kumite.tui.registry import TerminalFrontEnd
from kumite.tui.screen import board

#: Printed instead of a number on cards whose VP depend on the deck at the end of the game.
VARIABLE_VP = "★"
#: What the marks mean, shown under every table and menu that shows one.
MARKS_LEGEND = (
    *LEGEND.values(),
    f"{VARIABLE_VP} VP — printed on the card: its VP depend on your deck at the end of the game",
)


def value(card: Card, field: str) -> str:
    """A card value with its provenance mark (``6*`` for an estimate)."""
    if field == "vp" and card.vp_rule is not None:
        return VARIABLE_VP + mark(card, "vp_rule")
    return f"{getattr(card, field)}{mark(card, field)}"


def text_of(card: Card) -> str:
    return f"{card.text}{mark(card, 'text')}"


def type_of(card: Card) -> str:
    """The card type with its mark (the Kick's is an estimate); a Stage's number too."""
    kind = f"{card.type}{mark(card, 'type')}" if card.type else "no type"
    if card.stage is not None:
        kind += f", Stage {card.stage}{mark(card, 'stage')}"
    return kind


def counter_text(hero: Hero) -> str:
    return f"{hero.counter_text}{mark(hero, 'counter_attack')}"


def legend() -> Text:
    return Text("\n".join(MARKS_LEGEND), style="dim")


def card_line(card: Card, *, cost: bool = True) -> Text:
    return Text(card.name, style="bold").append_text(card_details(card, cost=cost))


def card_details(card: Card, *, cost: bool = True) -> Text:
    """`` (type, cost, VP) — text`` of a card, with provenance marks."""
    line = Text()
    tags = [type_of(card)]
    if cost:
        tags.append(f"cost {value(card, 'cost')}")
    tags.append(f"{value(card, 'vp')} VP")
    line.append(f" ({', '.join(tags)})", style="dim")
    line.append(f" — {text_of(card)}", style="italic")
    return line


def cards_table(cards: Sequence[Card], title: str, *, copies: bool = False) -> Table:
    table = Table(title=title, expand=True, show_lines=False)
    table.add_column("card")
    table.add_column("type")
    table.add_column("cost", justify="right")
    table.add_column("VP", justify="right")
    if copies:
        table.add_column("copies", justify="right")
    table.add_column("text")
    for card in cards:
        row = [
            card.name + mark(card, "name"),
            type_of(card) if card.type else "—",
            value(card, "cost"),
            value(card, "vp"),
        ]
        if copies:
            row.append(f"×{value(card, 'copies')}")
        row.append(text_of(card))
        table.add_row(*row)
    return table


def hand_table(catalog: Catalog, hand: Sequence[str]) -> Table:
    """Your hand, each card once with its copies (``Punch ×3``)."""
    table = Table(title=f"Your hand ({len(hand)})", expand=True, show_lines=False)
    for column in ("card", "type", "cost", "VP", "text"):
        table.add_column(column, justify="right" if column in ("cost", "VP") else "left")
    for card_id, n in sorted(Counter(hand).items(), key=lambda kv: catalog.by_id[kv[0]].index):
        card = catalog.by_id[card_id]
        name = card.name + mark(card, "name") + (f" ×{n}" if n > 1 else "")
        table.add_row(name, type_of(card), value(card, "cost"), value(card, "vp"), text_of(card))
    return table


def _names(catalog: Catalog, ids: Sequence[str]) -> str:
    counts = Counter(ids)
    return (
        ", ".join(f"{catalog.by_id[i].name}{f' ×{n}' if n > 1 else ''}" for i, n in counts.items())
        or "—"
    )


def player_line(p: Mapping[str, Any], view: Mapping[str, Any], catalog: Catalog) -> Group:
    """One player's public state: Super Hero and its Counter-Attack, hand and deck sizes,
    piles, cards in play."""
    seat = view["seat"]
    who = f"Player {p['seat'] + 1}" + (" (you)" if p["seat"] == seat else "")
    playing = p["seat"] == view["active"] and view["phase"] == "turn"
    line = Text(f"{'▶ ' if playing else '  '}{who}: ", style="bold")
    line.append(p["hero_name"] or "(face-down Super Hero)", style="magenta")
    if p["counter_attack_used"]:
        line.append(" (has Counter-Attacked this turn)", style="dim")
    line.append(f" — hand {p['hand_size']}, deck {p['deck_size']}, discard {len(p['discard'])}")
    if "vp" in p:
        line.append(
            f" — {p['vp']} VP, {p['stages']} Stages, {p['cards']} cards", style="bold yellow"
        )
    below: list[RenderableType] = []
    if p["hero"] is not None and p["hero"] in catalog.hero_by_id:
        # Every face-up Super Hero's Counter-Attack: what attacking that player risks.
        below.append(Text(counter_text(catalog.hero_by_id[p["hero"]]), style="magenta"))
    details = []
    if p["discard"]:
        details.append(f"discard pile: {_names(catalog, p['discard'])}")
    if p["in_play"]:
        details.append(f"in play: {_names(catalog, p['in_play'])}")
    if p["locations"]:
        details.append(f"Locations: {_names(catalog, p['locations'])}")
    under = _names(catalog, p["under"]) if p["under"] else ""
    if "ultra_stack" in p:
        under = ", ".join(x for x in (under, f"{p['ultra_stack']} face-down Ultras") if x)
    if under:
        details.append(f"under Super Hero: {under}")
    if p["cannot_avoid"]:
        details.append("cannot avoid the next Attack")
    if details:
        below.append(Text("; ".join(details), style="dim"))
    return Group(line, *(Padding(part, (0, 0, 0, 6)) for part in below))


def render(view: Mapping[str, Any], catalog: Catalog) -> Group:
    """The table as ``view``'s seat sees it: whose turn, the Line-Up, the stacks and the
    Stage, each player, the seat's own hand and the legend."""
    parts: list[RenderableType] = [_heading(view), _line_up(view, catalog)]
    parts.append(_stacks(view, catalog))
    parts.extend(player_line(p, view, catalog) for p in view["players"])
    me = next((p for p in view["players"] if p["seat"] == view["seat"]), None)
    if me is not None and "hand" in me:
        parts.append(hand_table(catalog, me["hand"]))
    parts.append(legend())
    return Group(*parts)


def _heading(view: Mapping[str, Any]) -> Text:
    if view["phase"] == "over":
        return Text(f"Game over after {view['turn']} turns", style="bold cyan")
    head = Text(f"Turn {view['turn']} — Player {view['active'] + 1} to play", style="bold cyan")
    head.append(f"   Power: {view['power']}", style="bold yellow")
    return head


def _line_up(view: Mapping[str, Any], catalog: Catalog) -> Table:
    line_up = Table(title="Line-Up", expand=True)
    line_up.add_column("slot", justify="right")
    line_up.add_column("card")
    for k, card_id in enumerate(view["line_up"], start=1):
        line_up.add_row(
            str(k), card_line(catalog.by_id[card_id]) if card_id else Text("(empty)", style="dim")
        )
    return line_up


def _stacks(view: Mapping[str, Any], catalog: Catalog) -> Text:
    """The Stage on top and the stacks beside the Line-Up: Kicks, Weaknesses, the main deck,
    the Super Hero stack, the Stage Boss and the defeated ones, the destroyed cards."""
    stages = view["stages"]
    top = catalog.by_id[stages["top"]] if stages["top"] else None
    left = f"{stages['remaining']} Stage{'s' if stages['remaining'] != 1 else ''} left"
    stacks = Text()
    if top is not None:
        stacks.append(
            f"{stage_name(top)} (cost {value(top, 'cost')}, {value(top, 'vp')} VP; {left}) — "
            f"{text_of(top)}\n"
        )
    else:
        stacks.append(f"Stage: {'face down' if stages['remaining'] else 'none'} ({left})\n")
    stacks.append(
        f"Kicks {view['kicks']} · Weaknesses {view['weaknesses']} · main deck {view['main_deck']}"
        f" · Super Hero stack {view['bosses']['remaining']}"
    )
    if view["main_deck_top"]:
        stacks.append(f" · top of the main deck: {catalog.by_id[view['main_deck_top']].name}")
    if view["bosses"]["current"]:
        boss = catalog.hero_by_id[view["bosses"]["current"]]
        stacks.append(f"\nStage Boss: {boss.name} — {counter_text(boss)}", style="magenta")
    if view["bosses"]["defeated"]:
        defeated = ", ".join(catalog.hero_by_id[h].name for h in view["bosses"]["defeated"])
        stacks.append(f"\nDefeated Bosses: {defeated}")
    if view["destroyed"]:
        stacks.append(f"\nDestroyed: {_names(catalog, view['destroyed'])}", style="dim")
    return stacks


def label(choice: str, catalog: Catalog, view: Mapping[str, Any]) -> Text:
    """A menu entry for a choice string: the shared plain-English label, with the card's
    details for plays, buys and Defenses."""
    typed = parse(choice)
    plain = Text(choice_label(choice, catalog, view))
    card = typed.card if isinstance(typed, Play | Defend | Reveal | Buy) else None
    if card is not None and card in catalog.by_id:
        return plain.append_text(card_details(catalog.by_id[card], cost=False))
    if choice == BUY_KICK:
        return plain.append(f" — {text_of(catalog.by_id['kick'])}")
    return plain


class HumanSFDBG:
    """A person choosing at the terminal. Sees only the view of their seat."""

    name = "human"

    def __init__(self, console: Console, catalog: Catalog, label: str = "Player 1 (you)") -> None:
        self.console = console
        self.catalog = catalog
        self.label = label

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind in ("turn", "defend"):
            # The whole table for a turn, and to decide a Defense: who attacks, with what,
            # and the Counter-Attack an Ultra would answer with.
            board(self.console, Panel(render(view, self.catalog), title=self.label))
        if len(decision.legal) == 1:
            # Asked for the sake of hidden information (sfdbg.ruling.defense-asked); there is
            # nothing to choose, so don't make the person type it.
            only = decision.legal[0]
            self.console.print(
                Text(f"{self.label}: {decision.prompt} — only choice: ", style="dim").append_text(
                    label(only, self.catalog, view)
                )
            )
            return only
        return pick(
            self.console,
            f"{self.label}: {decision.prompt}",
            list(decision.legal),
            lambda c: label(c, self.catalog, view),
        )


class SFDBGFrontEnd(TerminalFrontEnd):
    """SF DBG on the terminal."""

    def human(
        self, console: Console, game: Game[Any], options: Mapping[str, Any], seat: int, label: str
    ) -> Agent:
        return HumanSFDBG(console, GAME.catalog(options), label)

    def render(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any]
    ) -> RenderableType:
        return render(view, GAME.catalog(options))

    def cards(
        self, game: Game[Any], pack: Path | None, only: str | None, as_json: bool
    ) -> RenderableType | dict[str, Any]:
        catalog = GAME.pack_catalog(pack)
        cards = list(catalog.cards)
        heroes = list(catalog.heroes)
        if only is not None:
            cards = [c for c in cards if c.id == only or c.owner == only]
            heroes = [h for h in heroes if h.id == only]
            if not cards and not heroes:
                raise OptionsError(f"no card or Super Hero {only!r}")
        if as_json:
            return GAME.catalog_json(
                catalog,
                legend=LEGEND,
                cards=[c.to_json() for c in cards],
                heroes=[h.to_json() for h in heroes],
            )
        parts: list[RenderableType] = []
        for pile, title in [
            ("starter", "Starting cards"),
            ("kick", "Kick stack"),
            ("weakness", "Weakness stack"),
            ("main", "Main deck"),
            ("ultra", "Ultras"),
            ("stage", "Stages"),
        ]:
            chosen = [c for c in cards if c.pile == pile]
            if chosen:
                parts.append(cards_table(chosen, title, copies=True))
        if heroes:
            table = Table(title="Super Heroes", expand=True)
            table.add_column("Super Hero")
            table.add_column("Ultra")
            table.add_column("Counter-Attack")
            for h in heroes:
                table.add_row(
                    h.name,
                    catalog.by_id[h.ultra].name + mark(h, "ultra"),
                    counter_text(h),
                )
            parts.append(table)
        parts.append(legend())
        sources = "; ".join(f"[{k}] {v}" for k, v in catalog.pack.sources.items())
        parts.append(
            Text(f"Pack {catalog.pack.id} {catalog.pack.version}. Sources: {sources}", style="dim")
        )
        return Group(*parts)


FRONT_END = SFDBGFrontEnd()
