"""Observation encodings: one seat's view as a fixed-length float32 tensor.

A game declares its encoding in its spec (:attr:`~kumite.core.spec.GameSpec.observation`);
the research interfaces (:mod:`kumite.envs`: PettingZoo, Gymnasium, OpenSpiel) read it. An
encoding is built from the seat's **view** only — the same plain data the terminal and the
browser get — never from the state, so it cannot show what the seat may not know.

An encoding is a list of named :class:`Field` s, each a block of the tensor with a shape, an
upper bound (every value lies in ``[0, high]``) and a line of documentation; docs/envs.md
lists them (``layout_table``). Seats are *relative*: block 0 of a per-seat field is the
observing seat, then the others in seat order after it, so one policy serves every seat.
"""

from __future__ import annotations

import abc
import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

Tensor = NDArray[np.float32]


@dataclasses.dataclass(frozen=True, slots=True)
class Field:
    """One block of an observation tensor."""

    name: str
    shape: tuple[int, ...]
    high: float
    """Every value lies in ``[low, high]`` (``low`` is 0 but for a few scores)."""
    doc: str
    clip: bool = False
    """Values outside ``[low, high]`` are written as the nearer bound (a counter no rule
    bounds, capped far beyond what play reaches, so that the space stays bounded)."""
    low: float = 0.0

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Encoding(abc.ABC):
    """A game's observation tensor: :meth:`encode` a view into its :attr:`fields`."""

    perfect_recall: bool = False
    """The view already holds everything its seat has observed and done (so the tensor is
    also an information-state tensor, as OpenSpiel means it)."""

    def __init__(self, fields: Sequence[Field]) -> None:
        self.fields = tuple(fields)
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError("an observation field is declared twice")
        self.offsets: dict[str, int] = {}
        self.strides: dict[str, tuple[int, ...]] = {}
        at = 0
        for f in self.fields:
            self.offsets[f.name] = at
            self.strides[f.name] = _strides(f.shape)
            at += f.size
        self.size = at
        self.caps = {f.name: (f.low, f.high) for f in self.fields if f.clip}
        self.high: Tensor = np.concatenate(
            [np.full(f.size, f.high, dtype=np.float32) for f in self.fields]
        )
        self.low: Tensor = np.concatenate(
            [np.full(f.size, f.low, dtype=np.float32) for f in self.fields]
        )

    def encode(self, view: Mapping[str, Any]) -> Tensor:
        """The tensor of ``view`` (a seat's view: ``view["seat"]`` is that seat)."""
        out = Writer(self)
        self.fill(view, out)
        return out.out

    @abc.abstractmethod
    def fill(self, view: Mapping[str, Any], out: Writer) -> None:
        """Write ``view`` into ``out`` (which starts as zeros)."""

    def field(self, tensor: Tensor, name: str) -> NDArray[np.float32]:
        """The block ``name`` of ``tensor``, in its shape (for tests and readers)."""
        f = next(f for f in self.fields if f.name == name)
        at = self.offsets[name]
        return tensor[at : at + f.size].reshape(f.shape)

    def layout_table(self) -> str:
        """The fields as a Markdown table (docs/envs.md)."""
        rows = ["| offset | field | shape | range | what |", "|---|---|---|---|---|"]
        for f in self.fields:
            shape = " × ".join(map(str, f.shape))
            high = f"{f.low:g}–{f.high:g}" + (" (capped)" if f.clip else "")
            rows.append(f"| {self.offsets[f.name]} | `{f.name}` | {shape} | {high} | {f.doc} |")
        return "\n".join(rows)


class Writer:
    """A zeroed tensor being filled field by field (indices in the field's shape)."""

    __slots__ = ("caps", "encoding", "offsets", "out", "strides")

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.out: Tensor = np.zeros(encoding.size, dtype=np.float32)
        self.offsets = encoding.offsets
        self.strides = encoding.strides
        self.caps = encoding.caps

    def _at(self, name: str, index: tuple[int, ...]) -> int:
        at = self.offsets[name]
        for i, s in zip(index, self.strides[name], strict=True):
            at += i * s
        return at

    def set(self, name: str, value: float, *index: int) -> None:
        """``field[index] = value`` (a scalar field takes index ``0``)."""
        cap = self.caps.get(name)
        if cap is not None:
            value = min(max(value, cap[0]), cap[1])
        self.out[self._at(name, index or (0,))] = value

    def add(self, name: str, value: float, *index: int) -> None:
        at = self._at(name, index or (0,))
        self.set(name, float(self.out[at]) + value, *(index or (0,)))


def _strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    step = 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def relative(seat: int, seats: int) -> list[int]:
    """Absolute seats in relative order: ``seat`` first, then the others after it."""
    return [(seat + k) % seats for k in range(seats)]


class VectorCore(Protocol):
    """``num_envs`` games of one learner seat against a random opponent, stepped at once (a
    game's declared ``Observation.vector``; :class:`kumite.envs.gymnasium.BatchedVectorEnv`
    drives it). Each game plays as its scalar state does, decision for decision."""

    def reset(self, index: Sequence[int], draws: Sequence[Callable[[int], int]]) -> None:
        """New games at ``index``; in game ``index[j]`` the opponent picks choice
        ``draws[j](n)`` among the ``n`` legal choices of each decision, in the order of the
        scalar decision's ``legal`` (``rng.choice(range(n))``: kumite's random agent)."""

    def step(self, actions: Mapping[int, int]) -> None:
        """The learner's legal action in each game named (game -> action id), then the
        opponent's choices, until the learner must decide again or the game ends."""

    def masks(self) -> NDArray[np.bool_]:
        """``[game, action]``: the learner's legal actions now (none once a game ends)."""

    def observations(self) -> Tensor:
        """``[game, :]``: the learner's observation tensors, as the game's encoding of its
        view writes them."""

    def done(self) -> NDArray[np.bool_]:
        """Which games have ended."""

    @property
    def returns(self) -> NDArray[np.float32]:
        """The learner's return in each ended game."""
