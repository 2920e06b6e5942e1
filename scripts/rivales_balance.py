"""Balance of the Rivales fighters: win rates of every pair of different fighters, 1vs1.

Method (the one the pack's reconstructed values are checked with, see docs/packs.md): every
unordered pair of different fighters plays ``--fights`` fights between two bots of the same
kind (``--agent``: ``greedy``, ``ismcts-easy`` or any other Rivales bot — a stronger search
bot, ``ismcts`` or ``ismcts-hard``, shows which of two bots' readings of a fight holds up;
repeat it, or ``--agent greedy,ismcts-easy``, for a table per agent), each fighter taking
seat 1 in half of them.
Fight ``n`` of pair ``(a, b)`` uses the seed ``derive_seed(--seed, a, b, n)`` and each bot the
seed ``derive_seed(that, seat)``, so a run is reproducible whatever ``--jobs`` is. A win counts
1, a draw 1/2. A fighter's score is its mean result against the five others; the table gives
each matchup (row fighter's score against the column fighter) and each score with a 95%
Wilson interval. The last lines check the balance targets: every pairing within
[0.40, 0.60] and every fighter's interval containing 1/2. These seeds are fresh for
``kumite balance``, whose fights are seeded ``derive_seed(seed, stream, judge, pairing)``.

    python scripts/rivales_balance.py [--agent greedy[,ismcts-easy]] [--fights 200]
                                      [--seed 2026] [--jobs 2] [--pack FILE]
                                      [--fighters a,b,...] [--of FIGHTER] [--json]
                                      [--save FILE]
                                      [--set ID.FIELD=VALUE ...]

``--set`` measures the pack (or the shipped values) with a few values moved, without writing
an overlay first: ``--set zorro.ultra_at=3 --set hansel-gretel.baston.damage=1`` (a card's or
a fighter's integer field; each moved value keeps its provenance and notes what it was), or
a number inside a card's effects, its text said anew: ``--set curie.isotopos.effects.0.max=1``
(Isótopos Cargados' "(at most +2)" becomes "(at most +1)"; ``kumite balance --vary`` names them
alike).
``--of FIGHTER`` plays that fighter's pairings alone (a third of the table's fights with six
fighters): its row, its score and the check of its pairings and interval — a quick reading
of moves of one fighter's cards under a slow bot, never the whole check.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
from pathlib import Path
from typing import Any

import numpy as np

from kumite.agents import make_agent, run_game
from kumite.agents.ismcts import untimed
from kumite.agents.registry import agent_names
from kumite.cards.pack import parse_toml
from kumite.core.errors import KumiteError, OptionsError
from kumite.core.rng import derive_seed
from kumite.games.rivales.cards import PACKS, read_overlay
from kumite.games.rivales.game import GAME
from kumite.sim.adapters import adapter_for
from kumite.sim.balance import knobs_of, overlay_text, pack_of

PAIRING = (0.40, 0.60)
"""Target: every pairing's score within these bounds."""
CHUNK = 10
"""Fights per job (jobs are spread over the workers)."""

Job = tuple[str, str, int, int, str, int, str | None]


def wilson(score: Any, n: int, z: float = 1.96) -> tuple[Any, Any]:
    """The 95% Wilson interval of ``score`` successes in ``n`` (a number, or a NumPy array of
    them)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = p + z * z / (2 * n)
    margin = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n), (centre + margin) / (1 + z * z / n)


def with_values(start: str | None, sets: list[str]) -> str:
    """An overlay: ``start`` (overlay TOML text, or none: the shipped values) with each
    ``ID.FIELD=VALUE`` of ``sets`` written over it."""
    pack = pack_of("rivales", start)
    fighters = list(GAME.catalog(GAME.parse_options({"pack": start} if start else {})).fighters)
    adapter = adapter_for("rivales")
    changes = []
    for item in sets:
        key, _, text = item.partition("=")
        ident, inside, path = key.partition(".effects.")  # a number inside a card's effects
        ident, field = (ident, f"effects.{path}") if inside else key.rpartition(".")[::2]
        if not ident or not text.lstrip("-").isdigit():
            raise OptionsError(f"bad --set {item!r}: use ID.FIELD=VALUE, e.g. zorro.ultra_at=3")
        try:
            knobs = knobs_of(pack, [f"{ident}:{field}"], fighters, adapter=adapter)
        except OptionsError:
            knobs = []
        if [k.key for k in knobs] != [key]:
            raise OptionsError(f"bad --set {item!r}: {key} is no integer value of the pack")
        changes.append((knobs[0], int(text)))
    start_data = None if start is None else parse_toml(start, "start").data
    text = overlay_text(
        pack,
        changes,
        "rivales-set",
        note="rivales_balance.py --set",
        start=start_data,
        adapter=adapter,
    )
    PACKS.load(text, "--set")  # a value out of its bounds: one line naming card and field
    return text


def fight(a: str, b: str, n: int, agent: str, fight_seed: int, pack: str | None) -> float:
    """``a``'s result (1 a win, 1/2 a draw) in fight ``n`` against ``b``: ``a`` takes seat 1
    when ``n`` is even."""
    first = n % 2 == 0
    options: dict[str, Any] = {"fighters": [a, b] if first else [b, a]}
    if pack:
        options["pack"] = pack
    state = GAME.new_state(fight_seed, options)
    state.quiet = True
    # untimed: a search bot keeps its iteration cap alone, whatever the machine's load
    # (its time limit would make the table depend on the load)
    agents = [
        untimed(make_agent(agent, GAME, state.options_json, s, derive_seed(fight_seed, s)))
        for s in (0, 1)
    ]
    outcome = run_game(state, agents)
    return (outcome.returns[0 if first else 1] + 1) / 2


def results(
    a: str, b: str, start: int, stop: int, agent: str, pack: str | None, seed: int, *label: str
) -> list[float]:
    """``a``'s result in each of the fights ``start .. stop - 1`` against ``b``, fight ``n``
    seeded ``derive_seed(seed, *label, a, b, n)`` (a script's own label keeps its seeds its
    own)."""
    return [
        fight(a, b, n, agent, derive_seed(seed, *label, a, b, n), pack) for n in range(start, stop)
    ]


def fights(job: Job) -> tuple[str, str, float, int]:
    """``a``'s score against ``b`` over fights ``start .. stop - 1``, seats alternating."""
    a, b, start, stop, agent, seed, pack = job
    return a, b, sum(results(a, b, start, stop, agent, pack, seed)), stop - start


def measure(
    agent: str,
    per_pair: int,
    seed: int,
    jobs: int,
    pack: str | None,
    only: list[str] | None = None,
    of: str | None = None,
) -> tuple[list[str], dict[tuple[str, str], tuple[float, int]]]:
    fighters = list(GAME.catalog(GAME.parse_options({"pack": pack} if pack else {})).fighters)
    if only:
        fighters = [f for f in fighters if f in only]
    work: list[Job] = [
        (a, b, start, min(start + CHUNK, per_pair), agent, seed, pack)
        for a, b in itertools.combinations(fighters, 2)
        if of is None or of in (a, b)
        for start in range(0, per_pair, CHUNK)
    ]
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(fights, work, chunksize=1)
    pairs: dict[tuple[str, str], tuple[float, int]] = {}
    for a, b, score, n in results:
        s, m = pairs.get((a, b), (0.0, 0))
        pairs[(a, b)] = (s + score, m + n)
    return fighters, pairs


def report(
    agent: str,
    per_pair: int,
    seed: int,
    fighters: list[str],
    pairs: dict[tuple[str, str], Any],
    of: str | None = None,
) -> dict[str, Any]:
    rate: dict[tuple[str, str], float] = {}
    totals: dict[str, list[float]] = {f: [0.0, 0] for f in fighters}
    for (a, b), (score, n) in pairs.items():
        rate[(a, b)] = score / n
        rate[(b, a)] = 1 - score / n
        totals[a][0] += score
        totals[a][1] += n
        totals[b][0] += n - score
        totals[b][1] += n
    scores: dict[str, dict[str, Any]] = {
        f: {
            "score": round(s / n, 3),
            "ci95": [round(x, 3) for x in wilson(s, int(n))],
            "fights": int(n),
        }
        for f, (s, n) in totals.items()
        if of is None or f == of  # with --of, the others' scores are against it alone
    }
    worst = max(pairs, key=lambda p: abs(rate[p] - 0.5))
    lo, hi = PAIRING
    return {
        "agent": agent,
        "fights_per_pair": per_pair,
        "seed": seed,
        "fighters": scores,
        "matchups": {f"{a}|{b}": round(r, 3) for (a, b), r in sorted(rate.items())},
        "most_lopsided": [worst[0], worst[1], round(rate[worst], 3)],
        "pairings_within": all(lo <= rate[p] <= hi for p in pairs),
        "intervals_contain_half": all(s["ci95"][0] <= 0.5 <= s["ci95"][1] for s in scores.values()),
    } | ({"of": of} if of else {})


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--agent",
        action="append",
        help="greedy (default), ismcts-easy, ismcts, ismcts-hard (any Rivales bot); repeatable",
    )
    parser.add_argument("--fights", type=int, default=200, help="fights per pair of fighters")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument("--pack", type=Path, default=None)
    parser.add_argument("--fighters", default=None, help="only these (comma-separated): a part")
    parser.add_argument("--of", default=None, help="only this fighter's pairings (its row)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--save", type=Path, default=None, help="also write the --json lines to this file"
    )
    parser.add_argument(
        "--set", action="append", default=[], help="ID.FIELD=VALUE over the pack; repeatable"
    )
    args = parser.parse_args()
    try:
        pack = read_overlay(args.pack) if args.pack else None
        if args.set:
            pack = with_values(pack, args.set)
    except KumiteError as error:
        parser.error(str(error))
    only = args.fighters.split(",") if args.fighters else None
    if args.of is not None and args.of not in (only or GAME.catalog().fighters):
        parser.error(f"--of {args.of!r}: not one of the fighters played")
    agents = [a for item in args.agent or ["greedy"] for a in item.split(",") if a]
    bots = [name for name in agent_names(GAME.info.id) if name != "human"]
    for agent in agents:
        if agent not in bots:
            parser.error(f"unknown agent {agent!r}: one of {', '.join(bots)}")
    done: list[dict[str, Any]] = []
    for agent in agents:
        fighters, pairs = measure(agent, args.fights, args.seed, args.jobs, pack, only, args.of)
        out = report(agent, args.fights, args.seed, fighters, pairs, args.of)
        if pack is not None:  # a saved table names the overlay it played: id and content hash
            out["pack"] = parse_toml(pack, "overlay").ref()
        if args.set:
            out["set"] = args.set  # a saved table says which values it moved
        done.append(out)
        if args.save:  # after each agent: a long run's first tables survive an interruption
            args.save.write_text("".join(json.dumps(o) + "\n" for o in done), encoding="utf-8")
        if args.json:
            print(json.dumps(out))
            continue
        show(out, fighters, args.pack, args.set)


def show(out: dict[str, Any], fighters: list[str], pack: Path | None, sets: list[str]) -> None:
    agent = out["agent"]
    width = max(len(f) for f in fighters)
    where = (", pack " + pack.name if pack else "") + (", set " + " ".join(sets) if sets else "")
    print(
        f"{agent} vs {agent}, {out['fights_per_pair']} fights per pair (seats alternating), "
        f"seed {out['seed']}{where}; row fighter's score"
    )
    print(" " * width + "  " + "  ".join(f"{f[:6]:>6}" for f in fighters) + "   score  95% CI")
    for a in out["fighters"]:  # with --of, its row alone
        cells = "  ".join(
            "     -" if a == b else f"{out['matchups'][f'{a}|{b}']:6.2f}" for b in fighters
        )
        s = out["fighters"][a]
        lo, hi = s["ci95"]
        print(f"{a:>{width}}  {cells}   {s['score']:.3f}  [{lo:.3f}, {hi:.3f}]")
    a, b, r = out["most_lopsided"]
    low, high = PAIRING
    print(
        f"{'its pairings' if 'of' in out else 'every pairing'} within [{low:.2f}, {high:.2f}]: "
        f"{'yes' if out['pairings_within'] else 'NO'}"
        f" (most lopsided: {a} against {b} {r:.3f})"
    )
    who = f"{out['of']}'s" if "of" in out else "every fighter's"
    print(f"{who} 95% interval contains 0.5: " + ("yes" if out["intervals_contain_half"] else "NO"))


if __name__ == "__main__":
    main()
