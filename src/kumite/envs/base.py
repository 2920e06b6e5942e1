"""What every research interface shares: a game made ready for arrays, and one table.

:class:`EnvGame` resolves a game id through the registry (no game is named here), checks
that the game declares an observation encoding (its spec's ``observation``), parses the
options and gathers the metadata every environment reports — the pack's identity above
all, since action ids depend on the pack. :class:`Table` holds one kumite state and turns
dense action ids into choices, one seat at a time: a simultaneous decision is buffered
until every pending seat has chosen, then applied at once (so no seat's choice is seen by
another before it chooses).
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kumite.core.errors import IllegalChoiceError, KumiteError, NotPendingError
from kumite.core.game import Game, State
from kumite.core.observation import Encoding, Tensor
from kumite.core.registry import get_spec
from kumite.core.spec import GameSpec

Mask = NDArray[np.int8]


class NoEnvError(KumiteError, ValueError):
    """The game has no environment of this kind (no observation encoding, or sequential)."""


@dataclasses.dataclass(frozen=True)
class EnvGame:
    """A game, its options and its encoding, as the environments use them."""

    spec: GameSpec
    game: Game[Any]
    options: dict[str, Any]
    """The options in their JSON form (validated), as records store them."""
    encoding: Encoding
    seats: int
    num_actions: int
    version: int

    @classmethod
    def make(cls, game_id: str, options: Mapping[str, Any] | None = None) -> EnvGame:
        spec = get_spec(game_id)
        if spec.observation is None:
            raise NoEnvError(
                f"{spec.name} ({spec.id}) declares no observation encoding, so it has no "
                "environment (see docs/envs.md)"
            )
        game = spec.load()
        opts = game.options_to_json(game.parse_options(options))
        encoding = spec.observation.encoding.load()(game, opts)
        seats = game.new_state(0, opts).num_players
        return cls(
            spec, game, opts, encoding, seats, game.info.num_actions, spec.observation.version
        )

    @property
    def name(self) -> str:
        """The versioned environment name, ``kumite_<id>_v<version>``."""
        return f"kumite_{self.spec.id}_v{self.version}"

    def metadata(self) -> dict[str, Any]:
        """What an environment reports about itself (``env.metadata``)."""
        pack = self.game.pack_ref(self.game.parse_options(self.options))
        return {
            "name": self.name,
            "game": self.spec.id,
            "game_name": self.spec.name,
            "rules_version": self.game.info.rules_version,
            "options": {k: v for k, v in self.options.items() if k != "pack"},
            "pack": dict(pack),
            "num_actions": self.num_actions,
            "observation_size": self.encoding.size,
            "render_modes": ["ansi"],
        }

    def new_state(self, seed: int) -> State:
        state = self.game.new_state(seed, self.options)
        state.quiet = True  # no events: the environments read views only
        return state

    def observe(self, state: State, seat: int) -> Tensor:
        return self.encoding.encode(state.view(seat))

    def mask(self, state: State, seat: int, size: int | None = None) -> Mask:
        out = np.zeros(self.num_actions if size is None else size, dtype=np.int8)
        out[state.legal_actions(seat)] = 1
        return out

    def render(self, state: State) -> str:
        """The table as a spectator sees it, drawn by the game's terminal front end."""
        from rich.console import Console

        from kumite.tui.registry import front_end

        text = io.StringIO()
        console = Console(file=text, width=100, force_terminal=True, color_system="standard")
        console.print(front_end(self.spec.id).render(self.game, self.options, state.view(None)))
        return text.getvalue()


class Table:
    """One game played one seat's action at a time (what AEC and OpenSpiel need)."""

    def __init__(self, env: EnvGame, state: State) -> None:
        self.env = env
        self.state = state
        self.chosen: dict[int, str] = {}
        """Choices of the current (simultaneous) decision made so far, not yet applied."""

    def clone(self) -> Table:
        other = Table(self.env, self.state.clone())
        other.chosen = dict(self.chosen)
        return other

    def waiting(self) -> list[int]:
        """Pending seats that have not chosen yet, in seat order."""
        return sorted(d.seat for d in self.state.pending() if d.seat not in self.chosen)

    def choice(self, seat: int, action: int) -> str:
        """The choice of ``action`` for ``seat``, if legal now; else a one-line error."""
        decision = next((d for d in self.state.pending() if d.seat == seat), None)
        if decision is None or seat in self.chosen:
            raise NotPendingError(seat, action, "no decision is pending for this seat")
        if not isinstance(action, int | np.integer) or isinstance(action, bool):
            raise IllegalChoiceError(seat, action, "an action is an integer action id")
        if int(action) not in self.state.legal_actions(seat):
            raise IllegalChoiceError(seat, int(action), "not a legal action id now")
        return self.state.action_to_choice(seat, int(action))

    def act(self, seat: int, action: int) -> bool:
        """Record ``seat``'s action; apply the decision once every pending seat has chosen.
        Returns whether the state moved on. Raises (changing nothing) if illegal."""
        self.chosen[seat] = self.choice(seat, action)
        if self.waiting():
            return False
        choices, self.chosen = self.chosen, {}
        self.state.apply_trusted(choices)
        return True
