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
from collections.abc import Callable, Iterable, Mapping, Sequence
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
    history: HistoryEncoding | None = None
    """The game's public-history memory (its information-state tensor is the observation
    then this memory), where the view is not perfect recall."""
    max_decisions: int | None = None
    """The longest game under the encoding's options, in steps, where the game's own
    bound (``GameInfo.max_decisions``, for every option) is looser."""

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
        span = (self.high - self.low).astype(np.float32)
        self.scale: Tensor = np.where(span > 0, 1.0 / np.where(span > 0, span, 1.0), 0.0).astype(
            np.float32
        )
        """``1 / (high - low)`` per value: :meth:`normalize`'s factor."""
        self._layout = {f.name: (self.offsets[f.name], *self.strides[f.name]) for f in self.fields}
        self._clip_bounds: tuple[Tensor, Tensor] | None = None
        """Per value, the bounds capped fields are clipped to (others: unbounded)."""
        if any(f.clip for f in self.fields):
            inf = np.float32(np.inf)
            low = np.full(self.size, -inf, dtype=np.float32)
            high = np.full(self.size, inf, dtype=np.float32)
            for f in self.fields:
                if f.clip:
                    at = self.offsets[f.name]
                    low[at : at + f.size], high[at : at + f.size] = f.low, f.high
            self._clip_bounds = (low, high)

    def encode(self, view: Mapping[str, Any]) -> Tensor:
        """The tensor of ``view`` (a seat's view: ``view["seat"]`` is that seat)."""
        out = Writer(self)
        self.fill(view, out)
        return out.tensor()

    def normalize(self, tensor: Tensor) -> Tensor:
        """``tensor`` mapped into ``[0, 1]`` field by field (``(value - low) / (high - low)``;
        works on one tensor or a batch of them)."""
        return ((tensor - self.low) * self.scale).astype(np.float32, copy=False)

    @abc.abstractmethod
    def fill(self, view: Mapping[str, Any], out: Writer) -> None:
        """Write ``view`` into ``out`` (which starts as zeros)."""

    def action_order(self, seat: int) -> NDArray[np.intp] | None:
        """The environments' action ids in ``seat``'s frame of reference: ``order[i]`` is the
        game's dense id of the environment's id ``i`` (a permutation), or ``None`` where the
        two are the same. A game whose actions name seats absolutely (SF DBG's ``foe:s``)
        renumbers them here relative to the acting seat, as its tensor's rows are."""
        return None

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


class HistoryEncoding(Encoding):
    """A public-history tensor: what one seat has seen over the game so far, folded view
    by view into a fixed-length memory (:meth:`fold`, from the seat's views only, like the
    observation). The environments offer the observation followed by this memory as the
    information-state tensor of games whose view forgets (cards leave the table, piles
    are shuffled away): a function of everything the seat observed — a summary, where the
    information-state string is the whole record."""

    def fill(self, view: Mapping[str, Any], out: Writer) -> None:
        """Unused: a memory is folded, not written from one view."""

    def start(self) -> Tensor:
        """The memory before the first view (zeros)."""
        return np.zeros(self.size, dtype=np.float32)

    @abc.abstractmethod
    def fold(self, memory: Tensor, view: Mapping[str, Any]) -> None:
        """Fold ``view`` (the seat's view after a step, or at the start) into ``memory``
        in place. Called once per state the seat sees, every step of the game."""

    def at(self, name: str, *index: int) -> int:
        """The flat position of ``field[index]`` in the memory."""
        layout = self._layout[name]
        at = layout[0]
        for i, s in zip(index, layout[1:], strict=False):
            at += i * s
        return at


class Writer:
    """A zeroed tensor being filled field by field (indices in the field's shape).

    Values are gathered in a dict (index -> value) and written into the array at once by
    :meth:`tensor`: one NumPy call per tensor instead of one per value, which is most of
    what encoding a view costs. Capped fields are clipped there, which is the same as
    clipping after each write since every counter only grows."""

    __slots__ = ("encoding", "layout", "values")

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.layout = encoding._layout
        self.values: dict[int, float] = {}

    def _at(self, name: str, index: tuple[int, ...]) -> int:
        layout = self.layout[name]
        if len(index) == 1:
            return layout[0] + index[0] * layout[1]
        at = layout[0]
        for i, s in zip(index, layout[1:], strict=True):
            at += i * s
        return at

    def set(self, name: str, value: float, *index: int) -> None:
        """``field[index] = value`` (a scalar field takes index ``0``)."""
        layout = self.layout[name]
        if len(index) == 1:
            at = layout[0] + index[0] * layout[1]
        elif index:
            at = self._at(name, index)
        else:
            at = layout[0]
        if value or at in self.values:  # the tensor starts as zeros
            self.values[at] = value

    def add(self, name: str, value: float, *index: int) -> None:
        at = self._at(name, index or (0,))
        values = self.values
        values[at] = values.get(at, 0.0) + value

    def count(self, name: str, items: Iterable[int], *prefix: int) -> None:
        """``field[prefix + (i,)] += 1`` for each ``i`` of ``items`` (copies per card)."""
        layout = self.layout[name]
        base = layout[0]
        for i, s in zip(prefix, layout[1:], strict=False):
            base += i * s
        values = self.values
        for i in items:
            at = base + i
            values[at] = values.get(at, 0.0) + 1.0

    def tensor(self) -> Tensor:
        """The tensor written so far."""
        out: Tensor = np.zeros(self.encoding.size, dtype=np.float32)
        values = self.values
        if values:
            n = len(values)
            out[np.fromiter(values.keys(), np.intp, n)] = np.fromiter(
                values.values(), np.float32, n
            )
        clips = self.encoding._clip_bounds
        if clips is not None:
            np.minimum(out, clips[1], out=out)
            np.maximum(out, clips[0], out=out)
        return out

    @property
    def out(self) -> Tensor:
        return self.tensor()


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
