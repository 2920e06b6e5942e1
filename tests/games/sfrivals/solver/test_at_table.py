"""SF Rivals' solver bots at the web table (issue 28): a move never waits on a solve — the
declared fallback plays while the solve runs in the background — and what they keep is
shared between tables and bounded by a memory cap, the least recently used let go of."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from kumite.agents import make_agent
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver import background, resident
from kumite.games.sfrivals.solver.belief import BeliefAgent
from kumite.games.sfrivals.solver.fight import FightSolver
from kumite.games.sfrivals.solver.hidden import mini_pack
from kumite.games.sfrivals.solver.resident import MEMORY, Memory
from kumite.games.sfrivals.solver.setup import shared_solution, solve_matchup
from tests.games.sfrivals.solver.conftest import shared_cache

__all__ = ["shared_cache"]
PACK = mini_pack() + "\n[rules]\nhand = 6\n"
OPTIONS = {"characters": ["ryu-mini", "ken-mini"], "pack": PACK}


@pytest.fixture
def kernels_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels loaded in this process (as the background thread does, without its
    subprocess: the test process may compile them itself)."""
    from kumite.games.sfrivals.solver import warm

    warm.load()
    ready = background._Kernels()
    ready.ready.set()
    monkeypatch.setattr(background, "KERNELS", ready)


def _after_setups() -> tuple[object, int]:
    state = GAME.new_state(3, OPTIONS)
    state.apply(
        {
            0: "setup:ryu-mini.guard:ryu-mini.jab",
            1: "setup:ken-mini.shoryuken:ken-mini.weak-shoryuken",
        }
    )
    return state, 1


def test_a_solver_bot_at_the_table_never_waits_for_a_solve(
    shared_cache: Path, kernels_loaded: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing solved yet and every solve slow: the table's move is answered at once (the
    fallback's card), the solve is done in the background, and the next move of the same
    position is the bot's own — the card it plays away from the table."""
    solve_matchup(("ryu-mini", "ken-mini"), {"pack": PACK})  # known (cached), unsolved fights
    MEMORY.clear()
    slow = FightSolver._solve

    def slowed(self: FightSolver, *args: object) -> None:
        time.sleep(1.5)
        slow(self, *args)

    monkeypatch.setattr(FightSolver, "_solve", slowed)
    state, seat = _after_setups()
    decision = next(d for d in state.pending() if d.seat == seat)  # type: ignore[attr-defined]
    view = state.view(seat)  # type: ignore[attr-defined]
    agent = make_agent("belief", GAME, OPTIONS, seat, 7)
    assert isinstance(agent, BeliefAgent)
    agent.prepare_in_background = True
    asked = time.monotonic()
    first = agent.choose(view, decision)
    assert time.monotonic() - asked < 1.0
    assert first in decision.legal
    assert background.PREPARER.wait_idle(120)
    asked = time.monotonic()
    own = agent.choose(view, decision)
    assert time.monotonic() - asked < 1.0  # looked up: nothing left to solve
    away = BeliefAgent({"pack": PACK}, seat, 7)  # away from the table: solves on the move
    assert own == away.choose(view, decision)


def test_two_tables_of_one_matchup_share_what_their_bots_keep(shared_cache: Path) -> None:
    solve_matchup(("ryu-mini", "ken-mini"), {"pack": PACK})
    a = make_agent("bounded", GAME, OPTIONS, 0, 1)
    b = make_agent("bounded", GAME, OPTIONS, 1, 2)
    state, _ = _after_setups()
    views = [state.view(0), state.view(1)]  # type: ignore[attr-defined]
    assert a.solution(views[0]) is b.solution(views[1])  # type: ignore[attr-defined]


class _Kept:
    def __init__(self, size: int) -> None:
        self.size = size
        self.lock = threading.RLock()
        self.released = False

    def resident_bytes(self) -> int:
        return 0 if self.released else self.size

    def release(self) -> None:
        self.released = True


def test_memory_over_its_cap_lets_go_of_the_least_recently_used_not_in_use() -> None:
    memory = Memory(cap=int(250 / resident.KEPT_SHARE), process=False)  # keeps 250 bytes
    one, two, three = _Kept(100), _Kept(100), _Kept(100)
    assert memory.get("one", lambda: one) is one
    memory.get("two", lambda: two)
    assert memory.get("one", lambda: _Kept(1)) is one  # one object per key; one used last
    held, done = threading.Event(), threading.Event()

    def use_two() -> None:  # a move of another table, or the background, using it
        with two.lock:
            held.set()
            done.wait(10)

    user = threading.Thread(target=use_two)
    user.start()
    held.wait(10)
    memory.get("three", lambda: three)
    assert not two.released and one.released  # in use: kept; the oldest free one went
    done.set()
    user.join()
    assert memory.kept_keys() == ["two", "three"]
    assert memory.total() <= 250
    memory.cap = int(150 / resident.KEPT_SHARE)
    memory.trim()
    assert two.released and memory.kept_keys() == ["three"]
    assert memory.evicted == 2


def test_memory_counts_how_much_the_process_grew_not_only_its_objects_counts() -> None:
    """Objects may hold more than they count (Python's own objects, freed memory the heap
    keeps): the process's growth since the memory was made counts against the cap too."""
    import numpy as np

    memory = Memory(cap=int(20 * 2**20 / resident.KEPT_SHARE))  # 20 MB kept at most
    kept = [_Kept(0) for _ in range(3)]  # they count nothing
    for n, item in enumerate(kept):
        memory.get(n, lambda item=item: item)
    grown = np.ones(64 * 2**20 // 8)  # 64 MB the objects do not count
    memory.trim()
    assert grown.sum() > 0
    assert kept[0].released and kept[1].released and not kept[2].released  # the last kept


def test_a_matchup_let_go_of_is_made_again_when_asked(shared_cache: Path) -> None:
    """Over the cap, an unused matchup's solved positions are dropped and it is forgotten
    (the one used last is kept); the next bot that asks gets a fresh one (its positions
    solved again when asked)."""
    solve_matchup(("ryu-mini", "ken-mini"), {"pack": PACK})
    MEMORY.clear()
    first = shared_solution(("ryu-mini", "ken-mini"), {"pack": PACK})
    agent = make_agent("belief", GAME, OPTIONS, 1, 3)
    state, seat = _after_setups()
    decision = next(d for d in state.pending() if d.seat == seat)  # type: ignore[attr-defined]
    agent.choose(state.view(seat), decision)  # type: ignore[attr-defined]
    assert first.solver.levels and first.resident_bytes() > 0
    later = shared_solution(("ken-mini", "ryu-mini"), {"pack": PACK})  # used since: kept
    try:
        resident.set_cap(first.resident_bytes() / 2**20 / 4)
        assert MEMORY.peek(("matchup", later_key(later))) is later
        assert not first.solver.levels  # released
        again = shared_solution(("ryu-mini", "ken-mini"), {"pack": PACK})
        assert again is not first and not again.solver.levels
    finally:
        resident.set_cap(None)


def later_key(sol: object) -> str:
    from kumite.games.sfrivals.solver.setup import cache_key

    return cache_key(sol.characters, sol.options)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_the_kernels_are_compiled_and_loaded_off_the_move_path(
    shared_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a process that has not loaded the compiled kernels, a table move does not load
    them (a cold compile took 297 s in issue 28): it plays the fallback and the background
    thread compiles them in a subprocess (if the machine's cache lacks them), then loads
    them."""
    solve_matchup(("ryu-mini", "ken-mini"), {"pack": PACK})
    MEMORY.clear()
    monkeypatch.setattr(background, "KERNELS", background._Kernels())
    state, seat = _after_setups()
    decision = next(d for d in state.pending() if d.seat == seat)  # type: ignore[attr-defined]
    agent = make_agent("belief", GAME, OPTIONS, seat, 7)
    agent.prepare_in_background = True  # type: ignore[attr-defined]
    asked = time.monotonic()
    assert agent.choose(state.view(seat), decision) in decision.legal  # type: ignore[attr-defined]
    assert time.monotonic() - asked < 1.0
    assert background.PREPARER.wait_idle(900)
    assert background.KERNELS.ready.is_set()


def test_belief_in_a_shipped_matchup_never_falls_back_and_plays_its_book_then_its_own(
    shared_cache: Path, kernels_loaded: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 31, the ladder's "under 50 ms, nothing solved on demand": in a shipped matchup
    ``belief`` (belief-2) plays rounds 1-3 from ``bounded``'s book and its own exact choice
    from round 4, where a table move may solve (the small subtrees): so at the table it
    never plays the fallback. Its round-1-3 cards are ones ``bounded`` plays; its later
    cards are the best of its scores, as away from the table."""
    from kumite.games.sfrivals.solver.equilibrium import BoundedAgent

    fallbacks: list[str] = []
    monkeypatch.setattr(background, "fell_back", fallbacks.append)
    options = {"characters": ["ryu", "ken"]}
    late = 0
    for seed in range(3):
        state = GAME.new_state(seed, options)
        seat = seed % 2
        agent = make_agent("belief", GAME, options, seat, seed)
        assert isinstance(agent, BeliefAgent)
        agent.prepare_in_background = True
        book = BoundedAgent(options, seat, seed)
        away = BeliefAgent(options, seat, seed)
        other = make_agent("random", GAME, options, 1 - seat, seed)
        while state.pending():
            choices = {}
            for decision in state.pending():
                view = state.view(decision.seat)
                if decision.seat != seat:
                    choices[decision.seat] = other.choose(view, decision)
                    continue
                choice = agent.choose(view, decision)
                if decision.kind.startswith("play"):
                    if view["round"] <= 3:
                        probs = book.distribution(view, decision)
                        assert probs[decision.legal.index(choice)] > 0
                    else:
                        late += 1
                        scores = away.scores(view, away.solution(view))
                        assert choice == max(decision.legal, key=lambda c: scores.get(c, -1e9))
                choices[decision.seat] = choice
            state.apply(choices)
    assert late > 0
    assert fallbacks == []
