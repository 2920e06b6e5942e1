"""How far two bots read the Rivales pairings apart, and the chance the balance check passes.

Reads the ``--json`` lines of ``scripts/rivales_balance.py`` (one line per agent, one pack, the
same fighters and fights per pairing) and prints:

- each agent's **spread**: the standard deviation of its pairings' scores, and the part of it
  that is not sampling noise, ``sqrt(max(0, sd² - se²))`` with ``se = 1/(2 sqrt(n))`` at ``n``
  fights a pairing (draws, which count ½, make the true noise a little smaller);
- for several agents, their **disagreement**: how far each pairing's score under one agent lies
  from the agents' mean score for it — the standard deviation, its part that is not noise, and
  the pairings read furthest apart;
- the **chance the check passes** (every pairing within [0.40, 0.60] and every fighter's 95%
  Wilson interval containing ½, under every agent) at ``--fights`` a pairing, by simulating
  ``--trials`` checks: (1) for a pack whose every pairing is exactly ½ under every agent, the
  best case; (2) for this pack, each agent's pairings taken as ½ plus their
  measured departures shrunk by the share that is not noise (an empirical-Bayes estimate of
  the true scores); (3) for a pack that leaves the agents' disagreement as it is but puts
  every pairing halfway between them (their mean reads it ½), so that each agent reads it ½
  plus its (shrunk) disagreement — about the best card values can do without changing how
  the agents differ.

    python scripts/rivales_balance.py --agent greedy,ismcts-easy --fights 200 \
        --pack examples/packs/rivales_screened2.toml --save table.jsonl
    python scripts/rivales_odds.py table.jsonl [--fights 200] [--trials 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rivales_balance import PAIRING, wilson  # scripts/, the directory of this script

Floats = NDArray[np.float64]


class TableError(ValueError):
    """A table file this script cannot read."""


def read_tables(path: Path) -> tuple[list[str], list[str], Floats, int]:
    """Agents, pairings (``a|b`` with ``a`` before ``b`` in the table's fighter order), their
    scores (one row per agent) and the fights per pairing of a ``--json`` table file."""
    try:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        tables = [json.loads(line) for line in lines]
        agents = [t["agent"] for t in tables]
        fighters = list(tables[0]["fighters"])
        fights = {int(t["fights_per_pair"]) for t in tables}
        keys = [f"{a}|{b}" for i, a in enumerate(fighters) for b in fighters[i + 1 :]]
        scores = np.array([[float(t["matchups"][k]) for k in keys] for t in tables])
    except OSError as exc:
        raise TableError(f"{path}: {exc.strerror}") from None
    except (json.JSONDecodeError, KeyError, IndexError, TypeError, ValueError) as exc:
        raise TableError(f"{path}: not rivales_balance.py --json output ({exc!r})") from None
    if len(fights) != 1:
        raise TableError(f"{path}: the tables differ in fights per pairing: {sorted(fights)}")
    if len(set(agents)) != len(agents):
        raise TableError(f"{path}: an agent appears twice: {agents}")
    return agents, keys, scores, fights.pop()


def rms(values: Floats) -> float:
    """The root mean square of ``values`` (their standard deviation around zero)."""
    return float(np.sqrt(np.mean(values**2)))


def signal_sd(observed: Floats, noise: float) -> float:
    """The part of ``observed``'s standard deviation around zero that sampling noise of
    standard deviation ``noise`` does not explain."""
    return float(np.sqrt(max(0.0, rms(observed) ** 2 - noise * noise)))


def shrink(departures: Floats, noise: float) -> Floats:
    """``departures`` scaled by the share of their variance that is not noise."""
    var = rms(departures) ** 2
    return departures * (max(0.0, var - noise * noise) / var if var > 0 else 0.0)


def check_chance(truth: Floats, keys: Sequence[str], fights: int, trials: int, seed: int) -> float:
    """The share of ``trials`` simulated checks that pass when the true pairing scores are
    ``truth`` (one row per agent): every pairing within ``PAIRING`` and every fighter's Wilson
    interval containing ½, under every agent."""
    rng = np.random.default_rng(seed)
    fighters = sorted({f for k in keys for f in k.split("|")})
    index = {f: i for i, f in enumerate(fighters)}
    first = np.array([index[k.split("|")[0]] for k in keys])
    second = np.array([index[k.split("|")[1]] for k in keys])
    low, high = PAIRING
    played = fights * (len(fighters) - 1)
    passed = np.ones(trials, dtype=bool)
    for row in truth:
        wins = rng.binomial(fights, np.clip(row, 0.0, 1.0), size=(trials, len(keys)))
        rate = wins / fights
        passed &= np.all((rate >= low) & (rate <= high), axis=1)
        totals = np.zeros((trials, len(fighters)))
        np.add.at(totals.T, first, wins.T)
        np.add.at(totals.T, second, (fights - wins).T)
        lo, hi = wilson(totals, played)
        passed &= np.all((lo <= 0.5) & (hi >= 0.5), axis=1)
    return float(passed.mean())


def odds(
    agents: list[str],
    keys: list[str],
    scores: Floats,
    measured: int,
    fights: int,
    trials: int,
    seed: int,
) -> dict[str, Any]:
    """The spread, disagreement and check chances of ``scores`` (one row per agent, measured
    at ``measured`` fights a pairing) for a check at ``fights`` a pairing."""
    noise = 0.5 / np.sqrt(measured)
    departures = scores - 0.5
    spread = {
        a: {"sd": round(rms(d), 3), "not_noise": round(signal_sd(d, noise), 3)}
        for a, d in zip(agents, departures, strict=True)
    }
    shrunk = np.array([shrink(d, noise) for d in departures])
    out: dict[str, Any] = {
        "agents": agents,
        "measured_per_pair": measured,
        "fights_per_pair": fights,
        "spread": spread,
    }
    balanced = np.full_like(scores, 0.5)
    out["chance_all_half"] = check_chance(balanced, keys, fights, trials, seed)
    out["chance_this_pack"] = check_chance(0.5 + shrunk, keys, fights, trials, seed)
    if len(agents) > 1:
        # each agent's reading apart from the agents' mean: its noise is se² (1 - 1/m)
        apart = scores - scores.mean(axis=0)
        apart_noise = noise * np.sqrt(1 - 1 / len(agents))
        widest = np.argsort(-np.abs(apart).max(axis=0), kind="stable")[:3]
        out["disagreement"] = {
            "sd": round(rms(apart), 3),
            "not_noise": round(signal_sd(apart, apart_noise), 3),
            "widest": {keys[i]: [round(float(s), 3) for s in scores[:, i]] for i in widest},
        }
        best = 0.5 + np.array([shrink(row, apart_noise) for row in apart])
        out["chance_halfway"] = check_chance(best, keys, fights, trials, seed)
    return out


def show(out: dict[str, Any], trials: int) -> None:
    n = out["fights_per_pair"]
    print(f"{' and '.join(out['agents'])}, {n} fights a pairing ({trials} simulated checks)")
    for agent, s in out["spread"].items():
        sd, real = s["sd"], s["not_noise"]
        print(f"  {agent} pairings' spread around 1/2: sd {sd:.3f}, not noise {real:.3f}")
    if "disagreement" in out:
        d = out["disagreement"]
        widest = "; ".join(
            f"{k.replace('|', ' against ')} " + " / ".join(f"{s:.2f}" for s in v)
            for k, v in d["widest"].items()
        )
        print(
            f"  the agents read a pairing apart by sd {d['sd']:.3f}, not noise {d['not_noise']:.3f}"
        )
        print(f"  furthest apart: {widest}")
    print(f"chance the check passes under every agent, at {n} fights a pairing:")
    print(f"  every pairing exactly 1/2 for every agent:    {out['chance_all_half']:.3f}")
    print(f"  this pack (its departures shrunk by noise):   {out['chance_this_pack']:.3f}")
    if "chance_halfway" in out:
        print(f"  every pairing halfway between the agents:     {out['chance_halfway']:.3f}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("table", type=Path, help="rivales_balance.py --json output")
    parser.add_argument("--fights", type=int, default=None, help="per pairing (the table's)")
    parser.add_argument("--trials", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        agents, keys, scores, measured = read_tables(args.table)
    except TableError as exc:
        sys.exit(f"rivales_odds.py: {exc}")
    fights = args.fights or measured
    if fights < 1 or args.trials < 1:
        parser.error("--fights and --trials must be at least 1")
    out = odds(agents, keys, scores, measured, fights, args.trials, args.seed)
    if args.json:
        print(json.dumps(out))
    else:
        show(out, args.trials)


if __name__ == "__main__":
    main()
