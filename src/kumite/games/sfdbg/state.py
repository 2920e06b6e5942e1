"""The SF DBG state: set-up and the game contract (pending, apply, clone, actions)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Self, cast

from kumite.core.choice import ChoiceSyntaxError
from kumite.core.errors import MalformedChoiceError
from kumite.core.events import Event
from kumite.core.game import Outcome, State
from kumite.core.rng import Rng, shuffle

# Importing these registers their frames, primitives and decision kinds.
from kumite.games.sfdbg import attack as _attack  # noqa: F401
from kumite.games.sfdbg import choices as _choices  # noqa: F401
from kumite.games.sfdbg import effects as _effects  # noqa: F401
from kumite.games.sfdbg import events as ev
from kumite.games.sfdbg.actions import Vocabulary, vocabulary
from kumite.games.sfdbg.cards import Catalog
from kumite.games.sfdbg.choice import parse
from kumite.games.sfdbg.engine import EMPTY, draw_cards, run_frames
from kumite.games.sfdbg.machine import Machine, answer
from kumite.games.sfdbg.options import Options
from kumite.games.sfdbg.turn import start_turn, tables
from kumite.games.sfdbg.view import determinize, explain, view

if TYPE_CHECKING:
    from kumite.games.sfdbg.game import SFDBG

ULTRAS_PER_SECRET_HERO = 3

_VOCABULARIES: dict[int, tuple[Catalog, Vocabulary]] = {}


def _vocabulary(catalog: Catalog) -> Vocabulary:
    found = _VOCABULARIES.get(id(catalog))
    if found is None or found[0] is not catalog:
        found = _VOCABULARIES[id(catalog)] = (catalog, vocabulary(catalog))
    return found[1]


class SFDBGState(Machine, State):
    """One position of a Street Fighter Deck-Building Game for 2 to 5 players."""

    def __init__(
        self,
        game: SFDBG,
        seed: int,
        options: Options,
        catalog: Catalog,
        *,
        blank: bool = False,
        rng: Rng | None = None,
    ) -> None:
        """The game set up from ``seed`` (or drawing from ``rng``); ``blank``: an empty shell
        for :meth:`clone`."""
        if blank:
            return
        self.game = game
        self.seed = seed
        self.history = []
        self.quiet = False  # State's class default is not seen by a compiled subclass
        self.opts = options
        self.catalog = catalog
        self.cards = catalog.cards
        self.heroes = catalog.heroes
        self.tables = tables(catalog)
        self.seat_count = n = options.players
        self.rng = Rng(seed) if rng is None else rng
        self.result = None
        self.stack = []
        self.request = None
        self.over = False
        self._pending = None
        self.deck, self.hand, self.discard = (
            [[] for _ in range(n)],
            [[] for _ in range(n)],
            [[] for _ in range(n)],
        )
        self.revealed = [[] for _ in range(n)]
        self.played, self.locs, self.under = (
            [[] for _ in range(n)],
            [[] for _ in range(n)],
            [[] for _ in range(n)],
        )
        self.ultras = [[] for _ in range(n)]
        self.destroyed, self.box, self.aside, self.hero_discard, self.defeated = [], [], [], [], []
        self.boss = EMPTY
        self.active = 0
        self.turn = 0
        self.power = 0
        self.plays, self.loc_used, self.topdeck = [], [], []
        self.stage_won = [EMPTY] * n
        self.cammy = self.yogi = self.no_buy = self.hp_ultra = False
        self.discount = 0
        self.ca_used = [False] * n
        self.cannot_avoid = [False] * n
        self._setup()

    # -- set-up ---------------------------------------------------------------------------
    def _setup(self) -> None:
        opts, cat, rng, n = self.opts, self.catalog, self.rng, self.seat_count
        secret = opts.variant == "secret-heroes"
        # sfdbg.setup.heroes: chosen or dealt; the rest make the face-down stack.
        pool = list(range(len(self.heroes)))
        shuffle(rng, pool)
        chosen = list(opts.heroes) if opts.heroes is not None and not secret else [None] * n
        self.hero = [EMPTY] * n
        for s, hero_id in enumerate(chosen):
            if hero_id is not None:
                h = cat.hero_by_id[hero_id].index
                self.hero[s] = h
                pool.remove(h)
        for s in range(n):
            if self.hero[s] == EMPTY:
                self.hero[s] = pool.pop()
        self.hero_up = [not secret] * n
        self.bosses = pool
        first = opts.first_player if opts.first_player is not None else rng.randrange(n)
        order = [(first + i) % n for i in range(n)]
        # sfdbg.setup.ultras (or the Secret Heroes deal).
        ultras = [c.index for c in cat.pile("ultra")]
        if secret:
            shuffle(rng, ultras)
            for k in range(min(len(ultras), ULTRAS_PER_SECRET_HERO * n)):
                self.ultras[order[k % n]].append(ultras[k])
            self.box += ultras[ULTRAS_PER_SECRET_HERO * n :]
        else:
            for s in range(n):
                mine = cat.ultra_of[self.heroes[self.hero[s]].id]
                self.under[s].append(mine)
                ultras.remove(mine)
            self.box += ultras
        # sfdbg.setup.starting-deck
        rules = cat.rules
        punches, vulns = cat.by_id["punch"], cat.by_id["vulnerability"]
        for s in range(n):
            deck = [punches.index] * rules.starting_punches + [
                vulns.index
            ] * rules.starting_vulnerabilities
            shuffle(rng, deck)
            self.deck[s] = deck
        self.box += [punches.index] * (punches.copies - n * rules.starting_punches)
        self.box += [vulns.index] * (vulns.copies - n * rules.starting_vulnerabilities)
        # sfdbg.setup.main-deck, sfdbg.setup.line-up
        self.main = list(self.tables.main_deck)
        shuffle(rng, self.main)
        self.main_top_known = False
        self.lineup = [self.main.pop() for _ in range(rules.line_up)]
        # sfdbg.setup.stacks, sfdbg.setup.stages
        self.kicks = cat.by_id["kick"].copies
        self.weak = cat.by_id["weakness"].copies
        self.stages = [c.index for c in reversed(cat.stages)]
        self.stage_up = True
        out: list[Event] = []
        for s in order:
            draw_cards(self, s, rules.hand_size, out, "sfdbg.setup.hand")
        self.setup_events: list[Event] = (
            []
            if self.quiet
            else [
                ev.GameSetUp(
                    rule="sfdbg.setup.heroes",
                    heroes=tuple(self.heroes[h].name if not secret else "?" for h in self.hero),
                    first=first,
                    line_up=tuple(self.name(c) for c in self.lineup),
                    stage=self.name(self.stages[-1]),
                ),
                *out,
            ]
        )
        start_turn(self, first, self.setup_events)
        run_frames(self, self.setup_events)

    # -- contract -------------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, ...]:
        return tuple(range(self.seat_count))

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    def _apply(self, choices: dict[int, str]) -> list[Event]:
        req = self.request
        assert req is not None
        return answer(self, choices[req.seat])

    def clone(self) -> Self:
        other = type(self)(cast("SFDBG", self.game), self.seed, self.opts, self.catalog, blank=True)
        other.__dict__.update(self.__dict__)  # compiled, only what the engine does not hold
        other.history, other._pending = [dict(step) for step in self.history], self._pending
        other.setup_events = list(self.setup_events)  # a copy shares no mutable object
        other.copy_from(self)
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        return view(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        return determinize(self, seat, rng)

    def explain_illegal(self, seat: int, choice: str) -> str:
        return explain(self, seat, choice)

    # -- actions ----------------------------------------------------------------------------
    @property
    def vocabulary(self) -> Vocabulary:
        return _vocabulary(self.catalog)

    def legal_actions(self, seat: int) -> list[int]:
        ids = self.vocabulary.ids
        return [ids[c] for c in self.legal(seat)]

    def choice_to_action(self, seat: int, choice: str) -> int:
        found = self.vocabulary.ids.get(choice)
        if found is None:
            try:
                parse(choice)
            except ChoiceSyntaxError as exc:
                raise MalformedChoiceError(seat, choice, exc.reason) from None
            raise MalformedChoiceError(seat, choice, "unknown choice")
        return found

    def action_to_choice(self, seat: int, action: int) -> str:
        choices = self.vocabulary.choices
        if type(action) is not int or not 0 <= action < len(choices):
            raise MalformedChoiceError(
                seat, action, f"unknown action id (SF DBG's are 0 to {len(choices) - 1})"
            )
        return choices[action]
