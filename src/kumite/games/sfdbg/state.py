"""The SF DBG state: set-up and the game contract (pending, apply, clone, actions)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self

from kumite.core.errors import MalformedChoiceError
from kumite.core.events import Event
from kumite.core.game import Decision, Outcome, State, new_decision
from kumite.core.memo import Memo
from kumite.core.rng import Rng

# Importing these registers their frames, primitives and decision kinds.
from kumite.games.sfdbg import attack as _attack  # noqa: F401
from kumite.games.sfdbg import choices as _choices  # noqa: F401
from kumite.games.sfdbg import effects as _effects  # noqa: F401
from kumite.games.sfdbg import events as ev
from kumite.games.sfdbg.actions import Vocabulary, vocabulary
from kumite.games.sfdbg.cards import Catalog
from kumite.games.sfdbg.engine import EMPTY, KINDS, TURN_REQUESTS, Engine, shuffle
from kumite.games.sfdbg.options import Options
from kumite.games.sfdbg.turn import TURN_PROMPT, start_turn, tables, turn_answer, turn_legal
from kumite.games.sfdbg.view import determinize, explain, view

if TYPE_CHECKING:
    from kumite.games.sfdbg.game import SFDBG

ULTRAS_PER_SECRET_HERO = 3
#: Decisions are immutable, so the engine reuses them (as ``pending()``'s tuple), keyed by
#: (seat, kind, legal, prompt); turn decisions by their legal choices, per seat.
_MAX_CACHED = 50_000
_DECISIONS: Memo[tuple[int, str, tuple[str, ...], str], tuple[Decision]] = Memo(_MAX_CACHED)
_TURN_PENDING: tuple[Memo[tuple[str, ...], tuple[Decision]], ...] = tuple(
    Memo(_MAX_CACHED) for _ in range(8)
)


_VOCABULARIES: dict[int, tuple[Catalog, Vocabulary]] = {}


def _vocabulary(catalog: Catalog) -> Vocabulary:
    found = _VOCABULARIES.get(id(catalog))
    if found is None or found[0] is not catalog:
        found = _VOCABULARIES[id(catalog)] = (catalog, vocabulary(catalog))
    return found[1]


class SFDBGState(Engine, State):
    """One position of a Street Fighter Deck-Building Game for 2 to 5 players."""

    def __init__(self, game: SFDBG, seed: int, options: Options, catalog: Catalog) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        self.opts = options
        self.catalog = catalog
        self.cards = catalog.cards
        self.heroes = catalog.heroes
        self.tables = tables(catalog)
        self.n = n = options.players
        self.rng = Rng(seed)
        self.result = None
        self.stack = []
        self.request = None
        self.over = False
        self._pending: tuple[Decision, ...] | None = None
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
        self.stage_won = EMPTY
        self.cammy = self.yogi = self.no_buy = self.hp_ultra = False
        self.discount = 0
        self.ca_used = [False] * n
        self.cannot_avoid = [False] * n
        self._setup()

    # -- set-up ---------------------------------------------------------------------------
    def _setup(self) -> None:
        opts, cat, rng, n = self.opts, self.catalog, self.rng, self.n
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
            self.draw(s, rules.hand_size, out, "sfdbg.setup.hand")
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
        self.run(self.setup_events)

    # -- contract -------------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, ...]:
        return tuple(range(self.n))

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    @property
    def options_json(self) -> dict[str, Any]:
        return self.game.options_to_json(self.opts)

    def pending(self) -> tuple[Decision, ...]:
        found = self._pending
        if found is None:
            req = self.request
            if req is None:
                found = ()
            elif req.kind == "turn":  # most decisions: a constant prompt, one lookup
                legal = turn_legal(self, req)
                turns = _TURN_PENDING[req.seat]
                found = turns.get(legal)
                if found is None:
                    found = turns.put(legal, (new_decision(req.seat, "turn", legal, TURN_PROMPT),))
            else:
                kind = KINDS[req.kind]
                legal = kind.legal(self, req)
                prompt = kind.prompt(self, req)
                key = (req.seat, req.kind, legal, prompt)
                found = _DECISIONS.get(key)
                if found is None:
                    found = _DECISIONS.put(key, (new_decision(req.seat, req.kind, legal, prompt),))
            self._pending = found
        return found

    def _common_choice(self, choices: Mapping[int, str]) -> str | None:
        """The choice, if ``choices`` is the common case (a plain dict of the one pending
        seat's legal choice); None for anything else, left to the general validation."""
        if type(choices) is dict and len(choices) == 1:
            found = self._pending
            if found is None:
                found = self.pending()
            if len(found) == 1:
                choice = choices.get(found[0].seat)
                if type(choice) is str and choice in found[0].legal:
                    return choice
        return None

    def validate(self, choices: Mapping[int, str]) -> dict[int, str]:
        """:meth:`State.validate`, without the general checks in the common case."""
        if self._common_choice(choices) is not None:
            return dict(choices)
        return super().validate(choices)

    def apply(self, choices: Mapping[int, str]) -> list[Event]:
        """:meth:`State.apply`, going straight to :meth:`_answer` in the common case;
        anything else goes through the general validation unchanged."""
        choice = self._common_choice(choices)
        if choice is None:
            return super().apply(choices)
        req = self.request
        assert req is not None
        out = self._answer(choice)
        self.history.append({req.seat: choice})
        return out

    def _apply(self, choices: dict[int, str]) -> list[Event]:
        req = self.request
        assert req is not None
        return self._answer(choices[req.seat])

    def _answer(self, choice: str) -> list[Event]:
        """Answer the pending request with a legal ``choice`` and play on to the next one."""
        self._pending = None
        req = self.request
        assert req is not None
        self.request = None
        out: list[Event] = []
        if req.kind == "turn":
            turn_answer(self, req, choice, out)
        else:
            KINDS[req.kind].answer(self, req, choice, out)
        if self.stack or self.request is not None or self.over:
            self.run(out)
        else:  # what run() does when nothing is left to resolve
            self.request = TURN_REQUESTS[self.active]
        return out

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.copy_zones_from(self)
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
            raise MalformedChoiceError(seat, choice, "unknown choice")
        return found

    def action_to_choice(self, seat: int, action: int) -> str:
        choices = self.vocabulary.choices
        if not 0 <= action < len(choices):
            raise KeyError(action)
        return choices[action]
