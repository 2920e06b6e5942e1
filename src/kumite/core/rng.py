"""Seeded randomness.

A game's chance comes from an :class:`Rng` held in its state, seeded per game, so that seed
plus choices replays a game exactly. Independent streams (one per agent, per simulated game)
are derived from a parent seed by hashing, which is stable across processes and platforms.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr


def derive_seed(seed: int, *keys: object) -> int:
    """A 63-bit seed derived from ``seed`` and ``keys``; stable across runs and machines."""
    h = hashlib.blake2b(digest_size=8)
    h.update(str(seed).encode())
    for key in keys:
        h.update(b"\x1f")
        h.update(str(key).encode())
    return int.from_bytes(h.digest(), "big") >> 1


@mypyc_attr(native_class=False)  # compiled (setup.py), a random.Random subclass stays Python
class Rng(random.Random):
    """A :class:`random.Random` that can be cloned (independent streams: :func:`derive_seed`)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)

    def clone(self) -> Rng:
        other = Rng.__new__(Rng)
        other.setstate(self.getstate())
        return other


#: ``Random.getrandbits`` unbound: each draw below skips the method look-up.
_getrandbits: Final = random.Random.getrandbits
#: ``_BITS[i]``: the bits a draw among ``i + 1`` takes (``(i + 1).bit_length()``).
_BITS: Final = tuple((i + 1).bit_length() for i in range(512))


def below(rng: random.Random, n: int) -> int:
    """A number in ``range(n)``, ``n > 0``, drawn as CPython's ``Random._randbelow`` does
    (``getrandbits`` of ``n``'s bit length until below ``n``): ``seq[below(rng, len(seq))]``
    is ``rng.choice(seq)`` draw for draw, without the private method."""
    if isinstance(rng, ScriptedRng):
        return rng.draw(n)
    k = n.bit_length()
    r: int = _getrandbits(rng, k)
    while r >= n:
        r = _getrandbits(rng, k)
    return r


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)`` draw for draw (Fisher-Yates from the last position, a
    :func:`below` each), with the draw inlined: games shuffle whole decks often, and seed
    plus choices must replay the same games."""
    if len(items) > len(_BITS) or isinstance(rng, ScriptedRng):
        rng.shuffle(items)
        return
    bits, getrandbits = _BITS, rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        k = bits[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


class ChanceNeeded(Exception):  # noqa: N818 (not an error: a request for draws)
    """A :class:`ScriptedRng` ran out of draws: the next ones are uniform among ``sizes[0]``,
    then ``sizes[1]``, … outcomes (a shuffle asks for all of its draws at once)."""

    def __init__(self, sizes: tuple[int, ...]) -> None:
        super().__init__(sizes)
        self.sizes = sizes


@mypyc_attr(native_class=False)
class ScriptedRng(Rng):
    """A game's random stream whose draws are given, not generated: each draw is a uniform
    choice among ``n`` outcomes, answered from ``draws`` in order; when they run out,
    :class:`ChanceNeeded` says which draws come next. The OpenSpiel games
    (:mod:`kumite.envs.openspiel`) expose each such draw as an explicit chance node and run
    the step again once its draws are chosen. Only uniform draws exist here (``randrange``,
    ``choice``, ``shuffle``, ``sample``); a float or raw bits would be chance that no node
    declares, so they raise."""

    def __init__(self, draws: Sequence[int] = (), pos: int = 0) -> None:
        # No seeding (random.Random.__init__): no draw here comes from the generator.
        self.draws = tuple(draws)
        self.pos = pos

    def draw(self, n: int) -> int:
        """The next draw, in ``range(n)``."""
        if self.pos >= len(self.draws):
            raise ChanceNeeded((n,))
        r = self.draws[self.pos]
        if not 0 <= r < n:
            raise ValueError(f"scripted draw {r} is not among {n} outcomes")
        self.pos += 1
        return r

    def _randbelow(self, n: int) -> int:
        # random.Random's uniform draw, behind randrange, choice and sample
        return self.draw(n)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        """Fisher-Yates from the last position (as :func:`shuffle`), asking for every draw
        it still lacks at once."""
        sizes = tuple(range(len(x), 1, -1))
        have = len(self.draws) - self.pos
        if have < len(sizes):
            raise ChanceNeeded(sizes[max(have, 0) :])
        for i in range(len(x) - 1, 0, -1):
            j = self.draw(i + 1)
            x[i], x[j] = x[j], x[i]

    def random(self) -> float:
        raise TypeError("a scripted random stream draws only among finitely many outcomes")

    def getrandbits(self, k: int, /) -> int:
        raise TypeError("a scripted random stream draws only among finitely many outcomes")

    def clone(self) -> ScriptedRng:
        return ScriptedRng(self.draws, self.pos)
