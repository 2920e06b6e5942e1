"""Shipped books (``games/sfrivals/solver/book.py``): a side's nodes of the first rounds,
written from a solve, read back the same; ``bounded`` plays the same games from them as
from the solver, and answers their rounds without solving anything."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from kumite.agents import make_agent
from kumite.agents.base import decide
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver import background, book
from kumite.games.sfrivals.solver.book import Book, build_side, side_book
from kumite.games.sfrivals.solver.setup import known_solution, shared_solution
from tests.games.sfrivals.solver.conftest import shared_cache

__all__ = ["shared_cache"]
HAND3_PACK = '[pack]\nid = "hand3"\ngame = "sfrivals"\n[rules]\nhand = 3\nlife = 4\n'
PAIR = ("ryu", "zangief")
OPTIONS = {"characters": list(PAIR), "pack": HAND3_PACK}


@pytest.fixture
def written(shared_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """Books of rounds 1-2 of both sides of a three-round variant, read from ``tmp_path``
    (the process's solver memory emptied first: nothing solved by an earlier test)."""
    from kumite.games.sfrivals.solver.resident import MEMORY

    MEMORY.clear()
    sol = shared_solution(PAIR, {"pack": HAND3_PACK})
    books = {}
    for seat in (0, 1):
        made = build_side(sol, seat, rounds=2)
        path = tmp_path / f"{made.characters[0]}~{made.characters[1]}.npz"
        made.save(path)
        books[made.characters] = Book.load(path)
    monkeypatch.setattr(book, "_book_file", lambda a, b: books.get((a, b)))
    return books


def test_a_book_holds_the_solver_s_nodes_of_its_rounds(written: dict) -> None:
    """Every node a book holds is the bound solver's, float for float: rows, strategy,
    switch, and the answer to each card the opponent may reveal first."""
    from kumite.games.sfrivals.solver.tight import answer_row

    sol = shared_solution(PAIR, {"pack": HAND3_PACK})
    checked = 0
    for seat in (0, 1):
        found = side_book(sol, seat)
        assert found is not None
        side = sol.side(seat)
        for key in found.book.keys.tolist():
            mine, theirs = found.node(key), side.node(key)
            assert (key >> 48) & 15 <= 2
            np.testing.assert_array_equal(mine.row_cards, theirs.row_cards)
            np.testing.assert_array_equal(mine.strategy, theirs.strategy)
            assert (mine.s_move, mine.switched) == (theirs.s_move, theirs.switched)
            if mine.answers is not None:
                for card in set(theirs.col_card.tolist()):
                    assert answer_row(mine, card) == answer_row(theirs, card)
            checked += 1
    assert checked > 20


def _games(seeds: range, use_books: bool, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    from kumite.games.sfrivals.solver import equilibrium

    with monkeypatch.context() as mp:
        if not use_books:
            mp.setattr(equilibrium, "side_book", lambda sol, seat: None)
        out = []
        for seed in seeds:
            state = GAME.new_state(seed, OPTIONS)
            state.quiet = True
            seat = seed % 2
            bot = make_agent("bounded", GAME, state.options_json, seat, seed)
            rng = random.Random(seed)
            mine = []
            while state.pending():
                choices = {}
                for d in state.pending():
                    if d.seat == seat:
                        choices[seat] = decide(bot, state, d)
                        mine.append(choices[seat])
                    else:
                        choices[d.seat] = rng.choice(d.legal)
                state.apply(choices)
            out.append(mine)
    return out


def test_bounded_plays_the_same_games_from_its_books(
    written: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Books only make ``bounded`` faster: with them and without (the solver solving what
    each decision reads), the same seeds give the same choices, in both seats."""
    with_books = _games(range(16), True, monkeypatch)
    without = _games(range(16), False, monkeypatch)
    assert with_books == without
    assert sum(len(g) for g in with_books) > 40


@pytest.fixture
def nothing_may_be_solved(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A table move in a process whose kernels are not loaded: any solve is refused."""
    monkeypatch.setattr(background, "KERNELS", background._Kernels())
    with background.table_move(small_from=99):
        yield


def test_the_book_s_rounds_are_answered_without_solving(
    written: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the table, ``bounded``'s set-up and its decisions of the book's rounds are look-ups:
    with every solve refused (no kernel loaded either), none raises; the next round,
    past the book, would have to solve."""
    past_the_book = 0
    for seed in range(6):
        state = GAME.new_state(seed, OPTIONS)
        seat = seed % 2
        bot = make_agent("bounded", GAME, state.options_json, seat, seed)
        rng = random.Random(seed)
        while state.pending() and state.round <= 2:
            choices = {}
            for d in state.pending():
                if d.seat == seat:
                    with monkeypatch.context():
                        monkeypatch.setattr(background, "KERNELS", background._Kernels())
                        with background.table_move(small_from=99):
                            probs = bot.distribution(state.view(seat), d)
                    assert sum(probs) == pytest.approx(1.0)
                    choices[seat] = bot._draw(d.legal, probs)  # its own strategy's card
                else:
                    choices[d.seat] = rng.choice(d.legal)
            state.apply(choices)
        d = next((d for d in state.pending() if d.seat == seat), None)
        if d is not None and state.round == 3:
            past_the_book += 1
            with monkeypatch.context():
                monkeypatch.setattr(background, "KERNELS", background._Kernels())
                with background.table_move(small_from=99), pytest.raises(background.NotPrepared):
                    bot.distribution(state.view(seat), d)
    assert past_the_book > 0


def test_a_book_is_used_only_for_the_solution_it_was_written_from(
    written: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another set-up mix (a solution solved again differently, say): the book is stale and
    the solver solves instead."""
    sol = shared_solution(PAIR, {"pack": HAND3_PACK})
    assert side_book(sol, 0) is not None
    assert sol.plans is not None
    other = dataclasses.replace(sol, plans=({**sol.plans[0], "x": 1.0}, sol.plans[1]))
    assert side_book(other, 0) is None


def _ordered_pairs() -> list[tuple[str, str]]:
    chars = list(GAME.catalog(GAME.parse_options({})).characters)
    return [(a, b) for a in chars for b in chars]


def test_every_side_of_every_shipped_matchup_has_its_book(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """64 books ship (``solver/books/X~Y.npz``): each ordered matchup's two seats find theirs,
    written from the very solution shipped (digest, classes, rules), of rounds 1 to
    ``book.ROUNDS``."""
    monkeypatch.setenv("KUMITE_CACHE_DIR", str(tmp_path))
    assert background.SMALL_FROM == book.ROUNDS + 1  # a table move solves what follows them
    for a, b in _ordered_pairs():
        sol = known_solution((a, b), GAME.parse_options({"characters": [a, b]}))
        assert sol is not None
        for seat in (0, 1):
            found = side_book(sol, seat)
            assert found is not None, (a, b, seat)
            assert found.book.rounds == book.ROUNDS
            assert found.book.characters == (sol.characters[seat], sol.characters[1 - seat])


def test_books_and_the_bound_solver_share_one_key_layout() -> None:
    """A book side and the bound solver key a state by one function (fight.secret_root_key),
    whose secret-mask field is where the compiled kernels read it."""
    from kumite.games.sfrivals.solver import bounds_kernels
    from kumite.games.sfrivals.solver.fight import SECRET_SHIFT

    assert bounds_kernels._MASK == SECRET_SHIFT


def test_a_book_only_side_answers_its_nodes_and_refuses_a_plan_off_the_book(
    written: dict,
) -> None:
    """``belief``'s opponent model reads a side through :class:`book.BookOnly`: a node the
    book holds is the book's, float for float; a node of the book's rounds that it lacks
    (a plan the strategy never follows) raises ``OffBook`` at once, solving nothing."""
    sol = shared_solution(PAIR, {"pack": HAND3_PACK})
    side = side_book(sol, 0)
    assert side is not None
    only = book.BookOnly(side)
    keys = side.book.keys.tolist()
    for key in keys[:: max(1, len(keys) // 25)]:
        got, want = only.node(key), side.book.find(key)
        assert want is not None
        assert got.row_cards.tolist() == want.row_cards.tolist()
        assert got.strategy.tolist() == want.strategy.tolist()
    held = set(keys)
    missing = next(k + 1 for k in keys if k + 1 not in held)  # a state the book lacks
    assert (missing >> book._R) & 15 <= side.book.rounds
    late_before = side.late_nodes
    with pytest.raises(book.OffBook):
        only.node(missing)
    assert side.late_nodes == late_before  # nothing was solved for it
