"""A designed experiment on a Rivales pack: many one-value moves read at once under each bot,
and the combinations of them with the best predicted odds of the balance check.

A screen (``rivales_screen.py``) reads one move at a time. Here ``--runs`` packs are played:
the first is the starting pack, each other one the start with a random part of the moves
(``ID.FIELD=VALUE``, the syntax of ``rivales_balance.py --set``), each move in the same
number of packs (``--share`` of them). Every pairing is played ``--fights`` times a pack by
each ``--agent`` against itself, seats alternating. A fight involves only its two fighters'
cards, so for each agent and pairing the scores are fitted by least squares on the moves of
those two fighters alone: the start's score and each move's effect, with standard errors.
Every pack plays the same fight seeds (``derive_seed(--seed, "design", a, b, n)``): that
sharpens the effects, but the start's own reading is then worth about one pack's fights, so
``--base`` adds independent tables of the start (``rivales_balance.py --save``) to the fit.
``--save`` keeps the fights; ``--load`` fits saved designs without playing, several at once:
of other agents, or of one agent on other seeds (each fitted alone, then merged: the start
averaged, a move read twice taken at its precision-weighted mean).

Then every combination of at most ``--max-moves`` moves (of those read under every agent
and read apart from noise by one of them: two standard errors on some pairing) is predicted
under every agent (the start plus the moves' effects, added) and ranked by the chance that
the balance check passes at ``--check`` fights a pairing (``rivales_odds.py``'s check: every
pairing within [0.40, 0.60] and every fighter's 95% interval containing ½, under every
agent) at the fitted scores; a move stays in a combination only if it raises the chance by
2% of itself. The chance with the fit's own uncertainty is given beside (the honest one,
but ranking by it would favour moves the fit is unsure of). The best few are printed with
their predicted scores: candidates for a check on fresh seeds, not results.

    python scripts/rivales_design.py --start examples/packs/rivales_screened2.toml \\
        --move zorro.amague.damage=3 --move curie.ultra_at=6 ... [--moves FILE] \\
        [--agent greedy,ismcts-easy] [--runs 20] [--share 0.3] [--fights 40] [--seed 5101] \\
        [--plan-seed N] [--base check.jsonl] [--max-moves 3] [--jobs 2] \\
        [--save raw.json | --load raw.json ...] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from rivales_balance import CHUNK, PAIRING, results, with_values  # scripts/, this directory
from rivales_odds import check_chance
from scipy.stats import norm

from kumite.agents.registry import agent_names
from kumite.core.errors import KumiteError, OptionsError
from kumite.games.rivales.cards import read_overlay
from kumite.games.rivales.game import GAME

Floats = NDArray[np.float64]
Pair = tuple[str, str]
Job = tuple[str, int, str, str, int, int, int, str | None]


def plan(moves: Sequence[str], runs: int, share: float, seed: int) -> list[list[str]]:
    """The packs' moves: the first pack none, then each move in ``round(share * (runs - 1))``
    of the others, chosen at random from ``seed``."""
    rng = random.Random(seed)
    k = max(1, round(share * (runs - 1)))
    on = {m: set(rng.sample(range(1, runs), k)) for m in moves}
    return [[]] + [[m for m in moves if r in on[m]] for r in range(1, runs)]


def owner(move: str, fighters: Sequence[str]) -> str:
    """The fighter whose value ``move`` changes (a fighter's own field, or one of its cards)."""
    key = move.partition("=")[0]
    ident = key.partition(".effects.")[0] if ".effects." in key else key.rpartition(".")[0]
    if ident in fighters:
        return ident
    card = GAME.catalog().cards.get(ident)
    if card is not None and card.fighter == "basic":
        raise OptionsError(f"bad --move {move!r}: a basic card is every fighter's; move its own")
    if card is None or card.fighter not in fighters:
        raise OptionsError(f"bad --move {move!r}: not a value of one of {', '.join(fighters)}")
    return card.fighter


def play_job(job: Job) -> tuple[str, int, str, str, list[float]]:
    agent, run, a, b, start, stop, seed, pack = job
    return agent, run, a, b, results(a, b, start, stop, agent, pack, seed, "design")


def play(
    agents: Sequence[str],
    packs: Sequence[str | None],
    pairs: Sequence[Pair],
    fights: int,
    seed: int,
    jobs: int,
) -> dict[tuple[str, int, str, str], list[float]]:
    """Every pairing of every pack played ``fights`` times by each agent: scores by
    ``(agent, pack, a, b)``, in fight order."""
    work: list[Job] = [
        (agent, run, a, b, lo, min(lo + CHUNK, fights), seed, pack)
        for agent in agents
        for lo in range(0, fights, CHUNK)
        for run, pack in enumerate(packs)
        for a, b in pairs
    ]
    out: dict[tuple[str, int, str, str], list[float]] = {}
    with multiprocessing.Pool(jobs) as pool:  # chunks in fight order: results stay ordered
        for agent, run, a, b, scores in pool.imap(play_job, work, chunksize=1):
            out.setdefault((agent, run, a, b), []).extend(scores)
    return out


@dataclass
class Model:
    """One agent's fit: each pairing's start score and each move's effect on it (the first
    fighter's score), with the covariance of the pairing's coefficients."""

    pairs: list[Pair]
    moves: list[str]
    start: Floats
    effect: Floats  # pairings x moves
    relevant: list[list[int]]  # per pairing, the moves of its two fighters
    cov: list[Floats]  # per pairing: start and its relevant moves
    weight: Floats  # per pairing: the fights the start's reading is worth

    def predict(self, names: Sequence[str]) -> tuple[Floats, Floats]:
        """Predicted scores of the start with the moves ``names``, and their variances under
        the fit."""
        chosen = [self.moves.index(m) for m in names]
        mean = self.start + self.effect[:, chosen].sum(axis=1)
        var = np.empty(len(self.pairs))
        for i, rel in enumerate(self.relevant):
            v = np.array([1.0] + [1.0 if j in chosen else 0.0 for j in rel])
            var[i] = v @ self.cov[i] @ v
        return mean, var

    def clear(self, move: str, z: float = 2.0) -> bool:
        """Whether ``move``'s effect on some pairing is ``z`` standard errors from none."""
        j = self.moves.index(move)
        return any(
            abs(self.effect[i, j]) >= z * self.se(i, j)
            for i, rel in enumerate(self.relevant)
            if j in rel
        )

    def se(self, i: int, j: int) -> float:
        """The standard error of move ``j``'s effect on pairing ``i``."""
        k = 1 + self.relevant[i].index(j)
        return float(np.sqrt(self.cov[i][k, k]))


def fit(
    moves: list[str],
    owners: list[str],
    packs: list[list[str]],
    pairs: list[Pair],
    scores: dict[tuple[int, str, str], list[float]],
    base: Sequence[tuple[dict[str, float], int]] = (),
) -> Model:
    """Least squares per pairing on the moves of its two fighters. The packs share their
    fight seeds, so the fitted start counts as one pack's fights (its seeds' luck is every
    pack's): it is averaged with ``base``, readings of the start on other seeds (a table's
    ``a|b`` scores and its fights a pairing), the moves' effects staying the fit's."""
    start = np.zeros(len(pairs))
    effect = np.zeros((len(pairs), len(moves)))
    relevant: list[list[int]] = []
    cov: list[Floats] = []
    weight = np.zeros(len(pairs))
    for i, (a, b) in enumerate(pairs):
        rel = [j for j, o in enumerate(owners) if o in (a, b)]
        rows: list[list[float]] = []
        ys: list[float] = []
        for run, sets in enumerate(packs):
            x = [1.0] + [1.0 if moves[j] in sets else 0.0 for j in rel]
            got = scores.get((run, a, b), [])
            rows.extend([x] * len(got))
            ys.extend(got)
        design, target = np.array(rows), np.array(ys)
        coef, *_ = np.linalg.lstsq(design, target, rcond=None)
        res = target - design @ coef
        s2 = float(res @ res) / max(1, len(ys) - design.shape[1])
        c = np.linalg.pinv(design.T @ design) * max(s2, 1e-6)
        one_pack = max(1, len(scores.get((0, a, b), [])) or len(ys) // len(packs))
        known = [(t[f"{a}|{b}"], n) for t, n in base if f"{a}|{b}" in t]  # a part's table
        weights = [one_pack] + [n for _, n in known]
        reads = [float(coef[0])] + [r for r, _ in known]
        start[i] = sum(w * r for w, r in zip(weights, reads, strict=True)) / sum(weights)
        c[0, :] = c[:, 0] = 0.0  # the start's uncertainty: its readings' binomial noise
        c[0, 0] = max(start[i] * (1 - start[i]), 0.01) / sum(weights)
        effect[i, rel] = coef[1:]
        relevant.append(rel)
        cov.append(c)
        weight[i] = sum(weights)
    return Model(pairs, moves, start, effect, relevant, cov, weight)


def merge(models: Sequence[Model], base: Sequence[tuple[dict[str, float], int]] = ()) -> Model:
    """One agent's designs of the same start on different seeds, each fitted without ``base``,
    as one fit: the start is the mean of their starts (each worth one pack's fights) and of
    ``base``; a move read by several designs, the inverse-variance mean of its readings. The
    designs are independent and a balanced random plan leaves a design's effects nearly
    uncorrelated, so the merged covariance is taken as diagonal."""
    pairs = models[0].pairs
    moves = list(dict.fromkeys(m for model in models for m in model.moves))
    start = np.zeros(len(pairs))
    weight = np.zeros(len(pairs))
    effect = np.zeros((len(pairs), len(moves)))
    relevant: list[list[int]] = []
    cov: list[Floats] = []
    for i, (a, b) in enumerate(pairs):
        reads = [(float(m.start[i]), float(m.weight[i])) for m in models]
        reads += [(t[f"{a}|{b}"], n) for t, n in base if f"{a}|{b}" in t]
        weight[i] = sum(n for _, n in reads)
        start[i] = sum(r * n for r, n in reads) / weight[i]
        rel: list[int] = []
        var = [max(start[i] * (1 - start[i]), 0.01) / weight[i]]
        for j, move in enumerate(moves):
            got = [
                (float(m.effect[i, k]), m.se(i, k) ** 2)
                for m in models
                if move in m.moves and (k := m.moves.index(move)) in m.relevant[i]
            ]
            if got:
                precision = sum(1 / v for _, v in got)
                effect[i, j] = sum(e / v for e, v in got) / precision
                rel.append(j)
                var.append(1 / precision)
        relevant.append(rel)
        cov.append(np.diag(var))
    return Model(list(pairs), moves, start, effect, relevant, cov, weight)


def fighter_effect(model: Model, fighters: Sequence[str], j: int, who: str) -> tuple[float, float]:
    """Move ``j``'s effect on ``who``'s score over its pairings, and its standard error."""
    total, var = 0.0, 0.0
    for i, (a, b) in enumerate(model.pairs):
        if who in (a, b) and j in model.relevant[i]:
            sign = 1.0 if a == who else -1.0
            total += sign * float(model.effect[i, j])
            var += model.se(i, j) ** 2
    n = len(fighters) - 1
    return total / n, float(np.sqrt(var)) / n


def fighter_scores(mean: Floats, pairs: Sequence[Pair], fighters: Sequence[str]) -> Floats:
    out = np.zeros(len(fighters))
    for (a, b), s in zip(pairs, mean, strict=True):
        out[fighters.index(a)] += s
        out[fighters.index(b)] += 1 - s
    return out / (len(fighters) - 1)


def quick_chance(
    means: Sequence[Floats],
    variances: Sequence[Floats],
    pairs: Sequence[Pair],
    fighters: Sequence[str],
    fights: int,
) -> float:
    """A normal approximation of the check's chance (pairings and fighters taken as
    independent): ranks the combinations; the best few are then simulated."""
    low, high = PAIRING
    half = 1.96 * np.sqrt(0.25 / (fights * (len(fighters) - 1)))
    chance = 1.0
    for mean, var in zip(means, variances, strict=True):
        # a combination may predict a score at or past 0 or 1: its spread is then ~0, not 0
        sd = np.sqrt(np.clip(mean * (1 - mean), 1e-12, None) / fights + var)
        chance *= float(np.prod(norm.cdf((high - mean) / sd) - norm.cdf((low - mean) / sd)))
        f = fighter_scores(mean, pairs, fighters)
        fsd = np.sqrt(
            np.array(
                [
                    sum(0.25 / fights + var[i] for i, p in enumerate(pairs) if who in p)
                    for who in fighters
                ]
            )
        ) / (len(fighters) - 1)
        chance *= float(
            np.prod(norm.cdf((0.5 + half - f) / fsd) - norm.cdf((0.5 - half - f) / fsd))
        )
    return chance


def simulated_chance(
    means: Sequence[Floats],
    variances: Sequence[Floats],
    pairs: Sequence[Pair],
    fights: int,
    trials: int,
    seed: int,
) -> float:
    """The check's chance when the true scores are drawn from the fit (``rivales_odds.py``'s
    simulated check, 20 checks a draw)."""
    rng = np.random.default_rng(seed)
    keys = [f"{a}|{b}" for a, b in pairs]
    draws = max(1, trials // 20)
    passed = 0.0
    for d in range(draws):
        truth = np.array(
            [
                np.clip(m + rng.normal(size=len(m)) * np.sqrt(v), 0.0, 1.0)
                for m, v in zip(means, variances, strict=True)
            ]
        )
        passed += check_chance(truth, keys, fights, 20, seed + d)
    return passed / draws


def combinations(moves: Sequence[str], most: int) -> list[tuple[int, ...]]:
    """Every set of at most ``most`` moves (their indices), one value a field."""
    field = [m.partition("=")[0] for m in moves]
    return [
        combo
        for k in range(most + 1)
        for combo in itertools.combinations(range(len(moves)), k)
        if len({field[j] for j in combo}) == k
    ]


def read_base(
    paths: Sequence[Path], agents: Sequence[str]
) -> dict[str, list[tuple[dict[str, float], int]]]:
    """Each agent's tables of the start from ``rivales_balance.py --save``/``--json`` files."""
    out: dict[str, list[tuple[dict[str, float], int]]] = {a: [] for a in agents}
    for path in paths:
        try:
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    t = json.loads(line)
                    if t["agent"] in out:
                        out[t["agent"]].append((dict(t["matchups"]), int(t["fights_per_pair"])))
        except OSError as exc:
            raise OptionsError(f"--base {path}: {exc.strerror}") from None
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise OptionsError(f"--base {path}: not rivales_balance.py --json output") from None
    return out


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--start", type=Path, default=None, help="overlay pack (default: shipped)")
    parser.add_argument("--move", action="append", default=[], help="ID.FIELD=VALUE; repeatable")
    parser.add_argument("--moves", type=Path, default=None, help="a file of moves, one a line")
    parser.add_argument("--agent", action="append", help="greedy (default), ismcts-easy, ...")
    parser.add_argument("--runs", type=int, default=20, help="packs, the start included")
    parser.add_argument("--share", type=float, default=0.3, help="of the packs each move is in")
    parser.add_argument("--fights", type=int, default=40, help="per pairing, pack and agent")
    parser.add_argument("--seed", type=int, default=5101)
    parser.add_argument("--plan-seed", type=int, default=None, help="the packs' (--seed)")
    parser.add_argument("--fighters", default=None, help="only these (comma-separated)")
    parser.add_argument("--base", type=Path, action="append", default=[])
    parser.add_argument("--max-moves", type=int, default=3)
    parser.add_argument("--check", type=int, default=200, help="the check's fights a pairing")
    parser.add_argument("--show", type=int, default=3, help="combinations printed")
    parser.add_argument("--trials", type=int, default=4000, help="simulated checks each")
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument("--save", type=Path, default=None, help="write the fights played")
    parser.add_argument(
        "--load", type=Path, action="append", default=[], help="fit --save files, no play"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.runs < 2 or not 0 < args.share < 1 or args.fights < 1 or args.max_moves < 0:
        parser.error("need --runs >= 2, 0 < --share < 1, --fights >= 1, --max-moves >= 0")
    args.error = parser.error
    return args


@dataclass
class Source:
    """Fights played (or loaded): one plan of packs, read by one or more agents."""

    start: str | None
    moves: list[str]
    packs: list[list[str]]
    agents: list[str]
    fighters: list[str]
    fights: int
    seed: int
    scores: dict[tuple[str, int, str, str], list[float]]

    def saved(self) -> str:
        return json.dumps(
            {
                "start": self.start,
                "moves": self.moves,
                "packs": self.packs,
                "agents": self.agents,
                "fighters": self.fighters,
                "fights": self.fights,
                "seed": self.seed,
                "scores": [[*k, v] for k, v in self.scores.items()],
            }
        )


def load(path: Path) -> Source:
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
        scores = {(r[0], int(r[1]), r[2], r[3]): [float(x) for x in r[4]] for r in d["scores"]}
        return Source(
            d["start"],
            list(d["moves"]),
            [list(p) for p in d["packs"]],
            list(d["agents"]),
            list(d["fighters"]),
            int(d["fights"]),
            int(d["seed"]),
            scores,
        )
    except OSError as exc:
        raise OptionsError(f"--load {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, KeyError, IndexError, TypeError, ValueError):
        raise OptionsError(f"--load {path}: not a rivales_design.py --save file") from None


def played(args: argparse.Namespace) -> Source:
    """The design the arguments name, played."""
    start = read_overlay(args.start) if args.start else None
    moves = list(args.move)
    if args.moves:
        try:
            moves += args.moves.read_text(encoding="utf-8").split()
        except OSError as exc:
            raise OptionsError(f"--moves {args.moves}: {exc.strerror}") from None
    agents = [a for item in args.agent or ["greedy"] for a in item.split(",") if a]
    bots = [name for name in agent_names(GAME.info.id) if name != "human"]
    for agent in agents:
        if agent not in bots:
            raise OptionsError(f"unknown agent {agent!r}: one of {', '.join(bots)}")
    fighters = list(GAME.catalog().fighters)
    if args.fighters:
        fighters = [f for f in fighters if f in args.fighters.split(",")]
    if not moves or len(fighters) < 2:
        raise OptionsError("give at least one --move and two fighters")
    fields = [m.partition("=")[0] for m in moves]
    twice = sorted({f for f in fields if fields.count(f) > 1})
    if twice:
        raise OptionsError("one --move a field: " + ", ".join(twice))
    for m in moves:  # a bad value: one line naming it, before anything is played
        owner(m, fighters)
        with_values(start, [m])
    packs = plan(
        moves, args.runs, args.share, args.seed if args.plan_seed is None else args.plan_seed
    )
    texts = [with_values(start, sets) if sets else start for sets in packs]
    pairs = list(itertools.combinations(fighters, 2))
    scores = play(agents, texts, pairs, args.fights, args.seed, args.jobs)
    return Source(start, moves, packs, agents, fighters, args.fights, args.seed, scores)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        sources = [load(p) for p in args.load] if args.load else [played(args)]
        first = sources[0]
        for other in sources[1:]:
            if (other.start, other.fighters) != (first.start, first.fighters):
                raise OptionsError("--load: the files start from different packs or fighters")
        agents = list(dict.fromkeys(a for src in sources for a in src.agents))
        for agent in agents:  # two designs on one seed share their luck: not two readings
            seeds = [src.seed for src in sources if agent in src.agents]
            if len(set(seeds)) < len(seeds):
                raise OptionsError(f"--load: two files of {agent} were played on one --seed")
        base = read_base(args.base, agents)
    except KumiteError as exc:
        args.error(str(exc).replace("--set", "--move"))
    if args.save:
        args.save.write_text(sources[0].saved(), encoding="utf-8")
    fighters = first.fighters
    pairs = list(itertools.combinations(fighters, 2))
    models: dict[str, Model] = {}
    for agent in agents:
        mine = [src for src in sources if agent in src.agents]
        fits = []
        for src in mine:
            owners = [owner(m, fighters) for m in src.moves]
            scores = {(r, a, b): v for (g, r, a, b), v in src.scores.items() if g == agent}
            alone = base[agent] if len(mine) == 1 else ()
            fits.append(fit(src.moves, owners, src.packs, pairs, scores, alone))
        models[agent] = fits[0] if len(fits) == 1 else merge(fits, base[agent])
    # a combination is predicted under every agent: of the moves each agent has read, and
    # that one of them read apart from noise (on some pairing, two standard errors)
    moves = [
        m
        for m in dict.fromkeys(m for src in sources for m in src.moves)
        if all(m in model.moves for model in models.values())
        and any(model.clear(m) for model in models.values())
    ]
    # ranked at the fitted scores (a move the fit is unsure of must not look better for
    # it); a move is kept in a combination only if it raises the chance by 2% of itself
    chance: dict[tuple[int, ...], float] = {}
    for combo in combinations(moves, args.max_moves):
        means = [m.predict([moves[j] for j in combo])[0] for m in models.values()]
        zeros = [np.zeros(len(pairs)) for _ in means]
        chance[combo] = quick_chance(means, zeros, pairs, fighters, args.check)
    worth = [
        c
        for c in chance
        if all(chance[c] > 1.02 * chance[c[:k] + c[k + 1 :]] + 1e-12 for k in range(len(c)))
    ]
    worth.sort(key=lambda c: (-chance[c], len(c)))
    best = [[moves[j] for j in c] for c in worth[: args.show]]
    if [] not in best:
        best.append([])
    out = report(models, fighters, best, args.check, args.trials, first.seed)
    if args.json:
        print(json.dumps(out))
    else:
        sizes = {a: [(len(s.packs), s.fights) for s in sources if a in s.agents] for a in agents}
        show(out, fighters, sizes)


def report(
    models: dict[str, Model],
    fighters: list[str],
    best: list[list[str]],
    check: int,
    trials: int,
    seed: int,
) -> dict[str, Any]:
    effects: dict[str, Any] = {}
    for agent, model in models.items():
        rows = {}
        for j, m in enumerate(model.moves):
            who = owner(m, fighters)
            total, se = fighter_effect(model, fighters, j, who)
            against = {}
            for i, (a, b) in enumerate(model.pairs):
                if who in (a, b):
                    sign = 1.0 if a == who else -1.0
                    against[b if a == who else a] = [
                        round(sign * model.effect[i, j], 3),
                        round(model.se(i, j), 3),
                    ]
            rows[m] = {
                "fighter": who,
                "effect": round(total, 3),
                "se": round(se, 3),
                "against": against,
            }
        effects[agent] = rows
    proposals: list[dict[str, Any]] = []
    for combo in best:
        predicted = [m.predict(combo) for m in models.values()]
        means, variances = [p[0] for p in predicted], [p[1] for p in predicted]
        pairs = next(iter(models.values())).pairs
        zeros = [np.zeros(len(pairs)) for _ in means]
        chance = simulated_chance(means, zeros, pairs, check, trials, seed)
        unsure = simulated_chance(means, variances, pairs, check, trials, seed)
        proposals.append(
            {
                "moves": combo,
                "chance": round(chance, 3),
                "chance_with_uncertainty": round(unsure, 3),
                "predicted": {
                    agent: {
                        "fighters": dict(
                            zip(
                                fighters,
                                np.round(fighter_scores(p[0], model.pairs, fighters), 3).tolist(),
                                strict=True,
                            )
                        ),
                        "matchups": {
                            f"{a}|{b}": round(float(s), 3)
                            for (a, b), s in zip(model.pairs, p[0], strict=True)
                        },
                    }
                    for (agent, model), p in zip(models.items(), predicted, strict=True)
                },
            }
        )
    proposals.sort(key=lambda p: (-p["chance"], len(p["moves"])))
    return {"agents": list(models), "check": check, "effects": effects, "proposals": proposals}


def show(out: dict[str, Any], fighters: list[str], sizes: dict[str, list[tuple[int, int]]]) -> None:
    width = max(len(m) for rows in out["effects"].values() for m in rows)
    for agent, rows in out["effects"].items():
        designs = " and ".join(f"{p} packs of {f} fights a pairing" for p, f in sizes[agent])
        print(
            f"{agent}: {designs}; a move's effect on its "
            "fighter's score (± its standard error), overall and against each"
        )
        print(" " * width + "    fighter       " + "  ".join(f"{f[:6]:>6}" for f in fighters))
        for m, r in rows.items():
            cells = "  ".join(
                "     -" if f not in r["against"] else f"{r['against'][f][0]:+6.2f}"
                for f in fighters
            )
            print(f"{m:>{width}}  {r['effect']:+.3f}±{r['se']:.3f}  {cells}")
    low, high = PAIRING
    print(
        f"the best combinations by the chance the check passes ({out['check']} fights a pairing, "
        f"every pairing within [{low:.2f}, {high:.2f}], every interval containing 1/2) at the "
        "fitted scores (and with the fit's uncertainty):"
    )
    for p in out["proposals"]:
        moved = " + ".join(p["moves"]) or "(the start)"
        print(f"  {p['chance']:.3f} ({p['chance_with_uncertainty']:.3f})  {moved}")
        for agent, pred in p["predicted"].items():
            worst = max(pred["matchups"].items(), key=lambda kv: abs(kv[1] - 0.5))
            scores = " ".join(f"{f[:6]} {s:.3f}" for f, s in pred["fighters"].items())
            pairing = worst[0].replace("|", " against ")
            print(f"         {agent}: {scores}; most lopsided {pairing} {worst[1]:.3f}")


if __name__ == "__main__":
    main()
