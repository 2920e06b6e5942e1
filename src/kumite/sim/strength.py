"""Head-to-head strength table: every pair of agents, in each game, seats alternated.

For each game and each unordered pair of agents ``(a, b)`` the lab plays ``games`` games of
the line-up ``a,b`` with seats rotated from game to game (so each agent sits in each seat
equally often; with characters/fighters/heroes the balanced design plays each pairing
in both seatings), through :func:`kumite.sim.backends.simulate` — seeded, so a table is
reproducible from ``seed`` and the same for any number of jobs.

Each row gives ``a``'s wins, draws and losses against ``b``, its **share of the decisive
games** with a 95% Wilson interval (the interval's lower bound above 0.5 means ``a`` is the
stronger with 95% confidence), and its win rate over all games.

    python benchmarks/strength_table.py --games 40 --seed 1 [--json]
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kumite.agents.registry import agent_names
from kumite.core.registry import specs
from kumite.sim.analysis import rates
from kumite.sim.backends import simulate
from kumite.sim.engine import SimSpec


def default_agents() -> dict[str, tuple[str, ...]]:
    """The agents compared by default, per game: random, the game's rated bots (its spec
    says which), ISMCTS."""
    return {
        game_id: ("random", *(b.name for b in spec.bots if b.rated), "ismcts")
        for game_id, spec in specs().items()
    }


#: Agents that search (slow): their pairs may be given fewer games.
SEARCH_PREFIX = "ismcts"

Progress = Callable[[str, str, str, Mapping[str, Any]], None]
"""Called after each pair with ``(game, a, b, row)``."""


def pair_row(
    game: str,
    a: str,
    b: str,
    games: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
) -> dict[str, Any]:
    """``a`` against ``b`` in ``game``: wins/draws/losses of ``a`` and its rates."""
    spec = SimSpec(
        game=game,
        lineups=((a, b),),
        games=games,
        seed=seed,
        options=dict(options or {}),
        label=f"{a}-{b}",
        stream=f"strength:{a}:{b}",
    )
    start = time.perf_counter()
    result = simulate(spec, jobs=jobs, rows=False, chunk_size=1 if jobs > 1 else None)
    seconds = time.perf_counter() - start
    # Every game of a two-seat line-up is counted once for (a, b), a draw included.
    counts = result.tally.counts("agent_pairs").get((a, b), [0, 0, 0])
    return {
        "game": game,
        "a": a,
        "b": b,
        **rates(counts),
        "seconds": round(seconds, 3),
        "seconds_per_game": round(seconds / games, 4) if games else None,
    }


def strength_table(
    games_by_id: Mapping[str, Sequence[str]],
    games: int,
    seed: int,
    *,
    search_games: int | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Round-robin head-to-head of the agents of each game (``game id -> agent names``).

    Pairs with a search agent play ``search_games`` games (default ``games``)."""
    out: dict[str, Any] = {"seed": seed, "games": games, "jobs": jobs, "tables": {}}
    if search_games is not None:
        out["search_games"] = search_games
    for game, agents in games_by_id.items():
        known = set(agent_names(game))
        unknown = [a for a in agents if a not in known]
        if unknown:
            raise ValueError(f"no agent {', '.join(unknown)} for {game}")
        rows = []
        for a, b in itertools.combinations(agents, 2):
            slow = a.startswith(SEARCH_PREFIX) or b.startswith(SEARCH_PREFIX)
            n = search_games if slow and search_games is not None else games
            row = pair_row(game, a, b, n, seed, jobs=jobs)
            rows.append(row)
            if progress is not None:
                progress(game, a, b, row)
        out["tables"][game] = {"agents": list(agents), "pairs": rows}
    return out


def format_row(row: Mapping[str, Any]) -> str:
    """One line: ``a vs b  W-D-L  share [low, high]  win rate  time``."""
    share = row["share"]
    pct = "   n/a" if share["rate"] is None else f"{100 * share['rate']:5.1f}%"
    return (
        f"{row['a']:>10} vs {row['b']:<10} {row['wins']:>4}-{row['draws']}-{row['losses']:<4} "
        f"decisive won {pct} [{100 * share['low']:5.1f}, {100 * share['high']:5.1f}]  "
        f"{row['seconds_per_game']:.2f} s/game"
    )
