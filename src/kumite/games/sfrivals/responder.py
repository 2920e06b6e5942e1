"""Bounds on a policy's exploitability in a full SF Rivals matchup (docs/envs.md,
"Exploitability of your policy"), whose whole game (10^11 nodes) is far too large for the
exact computation of :mod:`.exploit`.

**Lower bound: a concrete best response, valued exactly.** The responder knows the policy
(as a best response may) and decides from its own view only. It commits to one set-up, then
at each of its decisions picks the card with the best one-step look-ahead: over every node
of its information set it meets (each weighted by the probability the policy gave the line
to it), it plays the card against the policy's own distribution over answers (asked from
the policy's view at that node, or after the card where the responder reveals first) and
scores the position that results by the fight solver's exact value of it
(:meth:`.solver.fight.FightSolver.key_values`: both hands known, both playing well from
there). Its choices are a function of its view, so it is a strategy of the real game, and
what it gets against the policy is at most what a best response gets.

That value is computed **exactly**, by walking every line of play the policy may choose
(the responder's choices are fixed) level by level on the vector core's arrays
(:mod:`.vector`), the policy asked in batches: the sum over the game's ends of the policy's
probability of reaching each, times the responder's result. When a level holds more nodes
than ``budget``, the least likely ones are dropped and their probability counted as lost
games for the responder (``pruned``), so the figure stays a sound lower bound. Several of
the responder's set-ups may be tried (``setups``): each is valued exactly and the best
counts (every one is a bound).

**Upper bound: certified only for the solver's own strategy.** Bounding a best response
against an arbitrary policy from above means proving the policy good against every strategy
— a walk of the whole game. It is certified for the ``bounded`` agent (the matchup's bound
strategy, docs/solver.md): at seat 0 it guarantees seat 0 at least the certified ``lower``,
at seat 1 at most ``upper``, so a best response gets at most ``-lower`` at seat 1 and
``upper`` at seat 0. For any other policy none is certified, and the result says so.

:func:`hook` is SF Rivals' ``exploit`` hook (kumite.envs.exploit): exact where the matchup's
whole game can be written out (:mod:`.exploit`, small packs), else these bounds.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from kumite.core.errors import OptionsError
from kumite.games.sfrivals.exploit import (
    GameTooLargeError,
    SeatAgents,
    _movers,
    _play,
    _retry,
    agent_rows,
    build,
    exact,
    is_agent,
)
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver import kernels
from kumite.games.sfrivals.state import A_PLAY, A_SETUP, CARD_SLOTS, NUM_ACTIONS
from kumite.games.sfrivals.vector import (
    _R,
    _RM,
    RUNNING,
    SETUP,
    WANTS_ENTER,
    Fights,
    SFRivalsVector,
    Stops,
    _first,
    masks_all,
    new_fights,
    observe_all,
    reset_all,
    stops_after_fill,
    take,
)

BUDGET = 1_000_000
"""Nodes a level may hold before the least likely are dropped (counted as lost): a node's
row is ~0.5 KB, so a level and its children stay within ~1 GB."""
CHUNK = 32_768
"""Nodes observed, asked and scored at a time."""
ROOTS = 1_500
"""Set-up pairs valued by the fight solver to rank the responder's set-ups."""

_S = CARD_SLOTS
_BITS = (1 << np.arange(_S)).astype(np.int64)


@dataclasses.dataclass(frozen=True)
class Response:
    """The responder at ``seat`` against the policy at the other seat, valued exactly."""

    seat: int
    setup: str
    """Its set-up choice."""
    value: float
    """Its exact expected result (its own: +1 a win) against the policy, the ``pruned``
    mass counted as lost: a lower bound on what a best response gets."""
    pruned: float
    """The policy's probability of the lines not walked (each counted as a loss)."""
    nodes: int
    seconds: float
    strategy: dict[bytes, int] | None = None
    """With ``record``: the responder's action at each view it met (its observation tensor
    as bytes of ``uint8``), for checking it as a strategy of the game."""


@njit(cache=True)
def _hash_rows(obs: Any, out: Any) -> None:
    """A 64-bit hash of each observation row (FNV-1a over its values). The responder's
    information set is (hash, legal cards): two views of one hash would only get the same
    card — a coarser strategy, still one of the game's, and the card legal in both."""
    for i in range(obs.shape[0]):
        h = np.uint64(0xCBF29CE484222325)
        for j in range(obs.shape[1]):
            h = (h ^ np.uint64(np.int64(obs[i, j] * 4096.0))) * np.uint64(0x100000001B3)
        out[i] = h


@njit(cache=True)
def _children_keys(keys: Any, card0: Any, card1: Any, t: Any) -> Any:
    """Each round started at ``keys[k]`` played with ``card0[k]`` (seat 0) and ``card1[k]``:
    the next round's key, the flat index of the result in ``t.end_table`` where the fight
    ends (else -1), and how many table entries were missing (then the answer is not used)."""
    n = len(keys)
    child = np.empty(n, dtype=np.int64)
    end = np.empty(n, dtype=np.int64)
    wanted = 0
    for k in range(n):
        c, e, w = kernels.next_state(keys[k], card0[k], card1[k], t, False)
        child[k] = c
        end[k] = e
        wanted += w
    return child, end, wanted


@njit(cache=True)
def _down_cards(f: Any, seat: int, which: Any) -> Any:
    """The card seat ``seat`` has put down this round (revealed first, or chosen blind and
    buffered), -1 if none yet."""
    out = np.full(len(which), -1, dtype=np.int64)
    for k in range(len(which)):
        i = which[k]
        if f.early[i, seat] >= 0:
            out[k] = f.early[i, seat]
        elif f.chosen[i, seat] >= 0:
            out[k] = f.chosen[i, seat]  # a buffered play is its card slot
    return out


@njit(cache=True)
def _reveals_first(f: Any, seat: int, which: Any) -> Any:
    out = np.zeros(len(which), dtype=np.bool_)
    for k in range(len(which)):
        out[k] = _first(f, which[k]) == seat
    return out


class _Walk:
    """One matchup's walks for one seat of the responder: the core, the solver, the policy."""

    def __init__(
        self,
        characters: tuple[str, str],
        options: Mapping[str, Any],
        policy: Any,
        seat: int,
        normalize: bool,
    ) -> None:
        opts = {**dict(options), "characters": list(characters)}
        self.core = SFRivalsVector(GAME, opts, 1, 0, "random")
        self.characters = characters
        self.options = dict(options)
        self.count = int(self.core.consts.characters)
        pairing = self.core.pairings[0]
        self.solver = self.core.engine.solver(*divmod(pairing, self.count))
        self.end_table = self.solver.tables.end_table.reshape(-1)
        self.q, self.p = seat, 1 - seat
        self.sign = 1.0 if seat == 0 else -1.0
        self.policy = policy
        self.normalize = normalize
        self.loss = float(GAME.info.utility_range[0])

    # -- the policy ----------------------------------------------------------------------

    def probs(self, f: Fights, which: NDArray[np.int64]) -> NDArray[np.float64]:
        """The policy's probabilities ``[k, actions]`` at nodes ``which`` (its seat moves)."""
        c, p = self.core.consts, self.p
        out = np.zeros((len(which), NUM_ACTIONS))
        for lo in range(0, len(which), CHUNK):
            idx = which[lo : lo + CHUNK]
            masks = np.empty((len(idx), NUM_ACTIONS), dtype=bool)
            masks_all(f, c, p, idx, masks)
            if isinstance(self.policy, str):  # "random"
                out[lo : lo + len(idx)] = masks / masks.sum(axis=1, keepdims=True)
                continue
            if is_agent(self.policy):
                seats = np.full(len(idx), p, dtype=np.int64)
                rows = agent_rows(f, idx, seats, self.characters, self.options, self.policy)
                out[lo : lo + len(idx)] = rows
                continue
            obs = np.empty((len(idx), self.core.size), dtype=np.float32)
            observe_all(f, c, p, idx, obs)
            if self.normalize:
                obs *= self.core.scale
            answer = np.asarray(self.policy(obs, masks))
            part = np.zeros((len(idx), NUM_ACTIONS))
            if answer.ndim == 1:
                part[np.arange(len(idx)), answer.astype(np.int64)] = 1.0
            else:
                part[:] = np.where(masks, np.maximum(answer, 0.0), 0.0)
            total = part.sum(axis=1, keepdims=True)
            if (total <= 0).any() or (part[~masks] > 0).any():
                raise OptionsError("the policy gave no legal action (or an illegal one) somewhere")
            out[lo : lo + len(idx)] = part / total
        return out

    # -- stepping ------------------------------------------------------------------------

    def step(
        self, f: Fights, parent: NDArray[np.int64], seats: NDArray[np.int64], actions: Any
    ) -> Fights:
        """The nodes ``parent`` after seat ``seats[k]`` chose ``actions[k]`` (copies)."""
        child = take(f, parent)
        child.status[:] = RUNNING
        wanting = _play(child, self.core.consts, self.core.rules, seats, actions)
        stops: Stops | None = None
        while wanting:  # entries committed play can meet are filled up front: rare
            stopped = np.flatnonzero(child.status >= WANTS_ENTER)
            stops = stops_after_fill(child, stopped, stops)
            keys = child.key[stopped]
            rounds = keys >> _R & _RM
            for r in np.unique(rounds).tolist():
                self.solver.prepare(r, keys[rounds == r])
            self.core._refresh()
            wanting = _retry(child, self.core.rules)
        return child

    def outcomes(
        self, keys: NDArray[np.int64], card0: NDArray[np.int64], card1: NDArray[np.int64]
    ) -> NDArray[np.float64]:
        """Seat 0's value after each round started at ``keys[k]`` is played with these
        cards: the result where the fight ends, else the fight solver's value of the next
        round (both hands known)."""
        child, end, wanted = _children_keys(keys, card0, card1, self.solver.tables)
        if wanted:
            rounds = keys >> _R & _RM
            for r in np.unique(rounds).tolist():
                self.solver.prepare(r, np.unique(keys[rounds == r]))
            child, end, wanted = _children_keys(keys, card0, card1, self.solver.tables)
            if wanted:  # pragma: no cover - prepare fills what the children need
                raise RuntimeError("the fight solver's tables lack an entry")
        out = np.zeros(len(keys))
        over = end >= 0
        out[over] = self.end_table[end[over]]
        live = ~over
        if live.any():
            unique, inverse = np.unique(child[live], return_inverse=True)
            out[live] = self.solver.key_values(unique)[inverse.reshape(-1)]
        return out

    # -- the responder -------------------------------------------------------------------

    def choose(
        self, f: Fights, which: NDArray[np.int64], reach: NDArray[np.float64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The responder's card at nodes ``which`` (its seat moves, in play): one per
        information set, by the look-ahead of the module docstring; and each node's set."""
        c, q, p = self.core.consts, self.q, self.p
        masks = np.empty((len(which), NUM_ACTIONS), dtype=bool)
        masks_all(f, c, q, which, masks)
        cards = masks[:, A_PLAY : A_PLAY + _S]
        hashes = np.empty(len(which), dtype=np.uint64)
        for lo in range(0, len(which), CHUNK):
            idx = which[lo : lo + CHUNK]
            obs = np.empty((len(idx), self.core.size), dtype=np.float32)
            observe_all(f, c, q, idx, obs)
            _hash_rows(obs, hashes[lo : lo + len(idx)])
        key = np.stack([hashes.view(np.int64), cards.astype(np.int64) @ _BITS], axis=1)
        _, first, group = np.unique(
            np.ascontiguousarray(key).view(np.dtype((np.void, 16))).reshape(-1),
            return_index=True,
            return_inverse=True,
        )
        group = group.reshape(-1)
        score = np.zeros((len(first), _S))
        down = _down_cards(f, p, which)
        shows = _reveals_first(f, q, which)
        for lo in range(0, len(which), CHUNK):
            k, a = np.nonzero(cards[lo : lo + CHUNK])
            k = k + lo
            ks, as_, bs, ws = [], [], [], []
            # the policy's card is down (revealed first, or chosen blind before this seat)
            put = down[k] >= 0
            ks.append(k[put])
            as_.append(a[put])
            bs.append(down[k[put]])
            ws.append(np.ones(int(put.sum())))
            # the responder reveals first: the policy answers the card it sees
            seen = ~put & shows[k]
            if seen.any():
                ka, aa = k[seen], a[seen]
                child = self.step(f, which[ka], np.full(len(ka), q, np.int64), A_PLAY + aa)
                answers = self.probs(child, np.arange(len(ka), dtype=np.int64))
                row, b = np.nonzero(answers[:, A_PLAY : A_PLAY + _S])
                ks.append(ka[row])
                as_.append(aa[row])
                bs.append(b)
                ws.append(answers[row, A_PLAY + b])
            # both choose blind: the policy's answer at this very node
            blind = ~put & ~shows[k]
            if blind.any():
                kb, ab = k[blind], a[blind]
                nodes, back = np.unique(kb, return_inverse=True)
                answers = self.probs(f, which[nodes])[:, A_PLAY : A_PLAY + _S]
                row, b = np.nonzero(answers[back.reshape(-1)])
                ks.append(kb[row])
                as_.append(ab[row])
                bs.append(b)
                ws.append(answers[back.reshape(-1)[row], b])
            kk, aa, bb = np.concatenate(ks), np.concatenate(as_), np.concatenate(bs)
            ww = np.concatenate(ws)
            keys = f.key[which[kk]]
            v = self.outcomes(keys, *((aa, bb) if q == 0 else (bb, aa)))
            np.add.at(score, (group[kk], aa), reach[kk] * ww * self.sign * v)
        legal = cards[first]
        best = np.where(legal, score, -np.inf).argmax(axis=1)
        return A_PLAY + best[group], group

    # -- the walk ------------------------------------------------------------------------

    def walk(
        self, setup_action: int, budget: int, record: bool = False
    ) -> tuple[float, float, int, dict[bytes, int] | None]:
        """The responder (set-up ``setup_action``) against the policy, valued exactly: its
        value, the pruned probability, the nodes walked (and its choices, if ``record``)."""
        q, p = self.q, self.p
        f = new_fights(1)
        zero = np.zeros(1, dtype=np.int64)
        reset_all(f, self.core.consts, zero, zero)
        reach = np.ones(1)
        value, pruned, nodes = 0.0, 0.0, 0
        strategy: dict[bytes, int] | None = {} if record else None
        while len(f.phase):
            nodes += len(f.phase)
            movers = _movers(f)
            over = movers < 0
            value += float((reach[over] * self.sign * f.returns[over]).sum())
            parents, seats, actions, weights = [], [], [], []
            mine = np.flatnonzero(movers == q)
            if len(mine):
                if f.phase[mine[0]] == SETUP:
                    chosen = np.full(len(mine), setup_action, dtype=np.int64)
                else:
                    chosen, _ = self.choose(f, mine, reach[mine])
                if strategy is not None:
                    self._record(strategy, f, mine, chosen)
                parents.append(mine)
                seats.append(np.full(len(mine), q, dtype=np.int64))
                actions.append(chosen)
                weights.append(reach[mine])
            theirs = np.flatnonzero(movers == p)
            if len(theirs):
                probs = self.probs(f, theirs)
                k, a = np.nonzero(probs > 0)
                parents.append(theirs[k])
                seats.append(np.full(len(k), p, dtype=np.int64))
                actions.append(a.astype(np.int64))
                weights.append(reach[theirs[k]] * probs[k, a])
            if not parents:
                break
            parent = np.concatenate(parents)
            weight = np.concatenate(weights)
            seat, action = np.concatenate(seats), np.concatenate(actions)
            if len(parent) > budget:
                keep = np.argpartition(-weight, budget)[:budget]
                drop = np.ones(len(parent), dtype=bool)
                drop[keep] = False
                pruned += float(weight[drop].sum())
                keep.sort()
                parent, weight, seat, action = parent[keep], weight[keep], seat[keep], action[keep]
            f = self.step(f, parent, seat, action)
            reach = weight
        return value + pruned * self.loss, pruned, nodes, strategy

    def _record(self, out: dict[bytes, int], f: Fights, which: Any, chosen: Any) -> None:
        obs = np.empty((len(which), self.core.size), dtype=np.float32)
        observe_all(f, self.core.consts, self.q, which, obs)
        for row, action in zip(obs.astype(np.uint8), chosen.tolist(), strict=True):
            found = out.setdefault(row.tobytes(), int(action))
            if found != action:  # pragma: no cover - one card per information set
                raise AssertionError("the responder chose two cards in one information set")

    # -- the responder's set-up -----------------------------------------------------------

    def setup_ranking(self) -> list[str]:
        """The responder's set-up choices, best first: by the fight solver's value of each
        against the policy's own set-up mix (its likeliest set-ups, within :data:`ROOTS`
        pairs; ties in order of a seeded shuffle). Any order keeps the bound sound; this one
        finds a good one."""
        q = self.q
        char = self.core.engine.characters[int(self.core.consts.fixed[q])]
        start = new_fights(1)
        zero1 = np.zeros(1, dtype=np.int64)
        reset_all(start, self.core.consts, zero1, zero1)
        theirs = self.probs(start, zero1)[0]
        mix = np.flatnonzero(theirs > 0)
        shuffle = np.random.default_rng(0).permutation(len(mix))
        mix = mix[shuffle][np.argsort(-theirs[mix][shuffle], kind="stable")]
        mix = mix[: max(1, ROOTS // len(char.setup_choices))]
        ids = np.array([self.setup_action(q, c) for c in char.setup_choices], dtype=np.int64)
        mine = np.repeat(ids, len(mix))
        other = np.tile(mix, len(ids))
        zero = np.zeros(len(mine), dtype=np.int64)
        first = self.step(start, zero, zero, mine if q == 0 else other)
        roots = self.step(first, np.arange(len(mine)), zero + 1, other if q == 0 else mine)
        keys = roots.key.copy()
        value = self.solver.key_values(keys) * self.sign
        score = (value * theirs[other]).reshape(len(ids), len(mix)).sum(axis=1)
        order = np.argsort(-score, kind="stable")
        return [char.setup_choices[k] for k in order.tolist()]

    def setup_action(self, seat: int, choice: str) -> int:
        char = self.core.engine.characters[int(self.core.consts.fixed[seat])]
        _, cover, shown = choice.split(":")
        return A_SETUP + char.by_id[cover].index * _S + char.by_id[shown].index


def respond(
    characters: tuple[str, str],
    options: Mapping[str, Any],
    policy: Any,
    seat: int,
    *,
    setups: int = 1,
    budget: int = BUDGET,
    normalize: bool = False,
    record: bool = False,
) -> Response:
    """The best of the responder's ``setups`` best-ranked set-ups at ``seat``, each valued
    exactly against ``policy`` at the other seat (see the module docstring)."""
    t0 = time.perf_counter()
    walk = _Walk(characters, options, policy, seat, normalize)
    best: Response | None = None
    for choice in walk.setup_ranking()[: max(1, setups)]:
        value, pruned, nodes, strategy = walk.walk(walk.setup_action(seat, choice), budget, record)
        if best is None or value > best.value:
            best = Response(seat, choice, value, pruned, nodes, 0.0, strategy)
    assert best is not None
    return dataclasses.replace(best, seconds=time.perf_counter() - t0)


def certified_upper(
    policy: Any, characters: tuple[str, str], options: Mapping[str, Any]
) -> tuple[tuple[float, float] | None, str]:
    """What a best response gets at most, at seat 0 and seat 1, where kumite certifies it
    (the ``bounded`` agent by name, its matchup solved: ``upper`` and ``-lower`` of the
    certified interval); else None. With a label saying which."""
    if not (isinstance(policy, SeatAgents) and policy.name == "bounded"):
        return None, "none certified: only the bounded agent's is (docs/solver.md)"
    from kumite.games.sfrivals.solver.known import known_summary

    opts = GAME.parse_options({**dict(options), "characters": list(characters)})
    found = known_summary(characters, opts)
    if found is None:
        return None, (
            f"none certified: {characters[0]} vs {characters[1]} is not solved under these "
            "options (kumite solve sfrivals)"
        )
    lower, upper = float(found["lower"]), float(found["upper"])
    return (upper, -lower), (
        f"certified: the bounded agent's interval [{lower:+.4f}, {upper:+.4f}] of seat 0's "
        "value (docs/solver.md)"
    )


def bounds(
    characters: tuple[str, str],
    options: Mapping[str, Any],
    policy: Any,
    *,
    normalize: bool = False,
    setups: int = 1,
    budget: int = BUDGET,
) -> dict[str, Any]:
    """The policy's exploitability bounds in a matchup too large to solve, each figure
    labelled: a responder at each seat (the lower bounds) and, where certified, the upper
    bounds."""
    t0 = time.perf_counter()
    found = [
        respond(characters, options, policy, q, setups=setups, budget=budget,
                normalize=normalize)
        for q in (0, 1)
    ]  # fmt: skip
    upper, upper_label = certified_upper(policy, characters, options)
    low = (found[0].value, found[1].value)
    lower_label = (
        "lower bound: the exact value of a concrete best response found (knows the policy, "
        "one-step look-ahead on the fight solver's values); lines pruned count as its losses"
    )
    return {
        "characters": list(characters),
        "kind": "bounds",
        "best_response_value": {
            f"seat{q}": {"lower": low[q], "upper": None if upper is None else upper[q]}
            for q in (0, 1)
        },
        "worst_case": {
            f"seat{p}": {
                "lower": None if upper is None else -upper[1 - p],
                "upper": -low[1 - p],
            }
            for p in (0, 1)
        },
        "exploitability": {
            "lower": (low[0] + low[1]) / 2.0,
            "upper": None if upper is None else (upper[0] + upper[1]) / 2.0,
        },
        "labels": {
            "lower": lower_label,
            "upper": upper_label,
            "worst_case": "the policy's result at that seat against a best response: at most "
            "minus the other seat's lower bound, at least minus its upper bound",
            "exploitability": "NashConv / 2 of the policy at both seats: between the mean of "
            "the two seats' lower bounds and the mean of their upper bounds",
        },
        "responder": {
            f"seat{r.seat}": {
                "setup": r.setup,
                "pruned": r.pruned,
                "nodes": r.nodes,
                "seconds": r.seconds,
            }
            for r in found
        },
        "pruned": {f"seat{r.seat}": r.pruned for r in found},
        "seconds": time.perf_counter() - t0,
    }


def hook(
    game: Any, options: Mapping[str, Any], policy: Any, normalize: bool, **settings: Any
) -> dict[str, Any]:
    """The spec's ``exploit`` hook: the matchup the options fix (both characters), exact
    where its whole game can be written out (:mod:`.exploit`), else bounds (:func:`bounds`;
    ``settings``: its ``setups`` and ``budget``). A policy by name is ``random`` or one of
    the game's bots (made once per seat)."""
    chars = options.get("characters")
    if not chars or None in chars:
        raise OptionsError(
            "exploitability is per matchup: fix both characters (e.g. --characters X,Y)"
        )
    rest = {k: v for k, v in options.items() if k != "characters"}
    if isinstance(policy, str) and policy != "random":
        policy = SeatAgents(policy, options)
    unknown = set(settings) - {"setups", "budget"}
    if unknown:
        raise OptionsError(f"unknown exploitability settings: {', '.join(sorted(unknown))}")
    matchup = (str(chars[0]), str(chars[1]))
    try:
        tree = build(matchup, rest, normalize=normalize)
    except GameTooLargeError:
        return bounds(matchup, rest, policy, normalize=normalize, **settings)
    return exact(matchup, rest, policy, normalize=normalize, tree=tree).summary()
