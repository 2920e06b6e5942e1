"""Game records: the JSON format for replays, bug reports, tests and datasets.

A record holds the game id, the rules and pack versions, the seed, the options and every
step's choices; replaying those choices from the seed reproduces the game exactly. See
``docs/records.md``.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from kumite.core.errors import ChoiceError, KumiteError, RecordError

if TYPE_CHECKING:  # a state makes its record: the contract comes first
    from kumite.core.events import Event
    from kumite.core.game import Game, State

FORMAT = "kumite-record"
FORMAT_VERSION = 1


class GameRecord(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One game, as stored on disk."""

    format: str = FORMAT
    format_version: int = FORMAT_VERSION
    game: str
    rules_version: str
    pack: dict[str, str] = msgspec.field(default_factory=dict)
    seed: int
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    players: list[str] = msgspec.field(default_factory=list)
    steps: list[dict[str, str]] = msgspec.field(default_factory=list)
    outcome: dict[str, Any] | None = None
    created: str = msgspec.field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    )
    meta: dict[str, Any] = msgspec.field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(msgspec.to_builtins(self), indent=2, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def from_json(cls, text: str | bytes, *, source: str = "record") -> GameRecord:
        try:
            record = msgspec.json.decode(text, type=cls)
        except msgspec.DecodeError as exc:
            raise RecordError(f"{source}: not a valid game record: {_clean(exc)}") from None
        if record.format != FORMAT:
            raise RecordError(f"{source}: format is {record.format!r}, expected {FORMAT!r}")
        if record.format_version != FORMAT_VERSION:
            raise RecordError(
                f"{source}: format_version {record.format_version} is not supported "
                f"(this kumite reads {FORMAT_VERSION})"
            )
        return record

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise RecordError(f"{path}: cannot read: {exc.strerror}") from None
        return cls.from_json(data, source=str(path))


def _clean(exc: Exception) -> str:
    return str(exc).replace("\n", " ")


def replay(
    record: GameRecord,
    game: Game[Any],
    *,
    source: str = "record",
    on_step: Callable[[int, dict[int, str], list[Event], State], None] | None = None,
    check_outcome: bool = True,
) -> State:
    """Re-run ``record`` on ``game`` and return the final state.

    Raises :class:`RecordError` (one line naming the step and what is wrong) if the record
    is for another game or pack, a step does not apply, or the outcome differs.
    """
    if record.game != game.info.id:
        raise RecordError(f"{source}: record is for game {record.game!r}, not {game.info.id!r}")
    if record.rules_version != game.info.rules_version:
        raise RecordError(
            f"{source}: record uses rules version {record.rules_version!r}; this kumite "
            f"implements {game.info.rules_version!r}"
        )
    try:
        state = game.new_state(record.seed, record.options)
    except KumiteError as exc:
        raise RecordError(f"{source}: options: {exc}") from None
    expected_pack = game.pack_ref(game.parse_options(record.options))
    if record.pack and record.pack.get("sha256") != expected_pack.get("sha256"):
        raise RecordError(
            f"{source}: card pack differs from the one the record was made with "
            f"(record {record.pack.get('id')} {record.pack.get('sha256', '')[:12]}, "
            f"here {expected_pack.get('id')} {expected_pack.get('sha256', '')[:12]})"
        )
    for index, raw in enumerate(record.steps, start=1):
        try:
            choices = {int(seat): choice for seat, choice in raw.items()}
        except ValueError:
            raise RecordError(f"{source}: step {index}: seats must be numbers, got {raw}") from None
        if state.is_terminal:
            raise RecordError(f"{source}: step {index}: the game was already over")
        try:
            events = state.apply(choices)
        except ChoiceError as exc:
            raise RecordError(f"{source}: step {index}: {exc}") from None
        if on_step is not None:
            on_step(index, choices, events, state)
    if check_outcome and record.outcome is not None:
        got = state.outcome
        if got is None:
            raise RecordError(f"{source}: the record ends before the game does")
        if got.to_json() != record.outcome:
            raise RecordError(
                f"{source}: replayed outcome {got.to_json()} differs from the recorded "
                f"{record.outcome}"
            )
    return state
