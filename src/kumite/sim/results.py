"""The result file of a simulation (JSON), its CSV forms, and loading it back.

One JSON document holds everything a report needs: the spec of each run, its raw tallies
(so statistics can be recomputed), its statistics, and the what-if comparison.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kumite.core.errors import KumiteError
from kumite.core.registry import get_game
from kumite.sim.adapters import adapter_for
from kumite.sim.analysis import analyze
from kumite.sim.backends import SimResult
from kumite.sim.engine import GameRow, Tally
from kumite.sim.whatif import compare

FORMAT = "kumite-sim/1"


class ResultsError(KumiteError):
    """A result file that kumite cannot read."""


def run_document(result: SimResult) -> dict[str, Any]:
    """One run: spec, speed, tallies and statistics."""
    spec = result.spec
    game = get_game(spec.game)
    adapter = adapter_for(spec.game)
    return {
        "label": spec.label,
        "spec": spec.to_json(),
        "backend": result.backend,
        "jobs": result.jobs,
        "seconds": round(result.seconds, 3),
        "games_per_second": round(result.games_per_second, 1),
        "tally": result.tally.to_json(),
        "analysis": analyze(
            result.tally,
            entity=adapter.entity,
            turn=adapter.turn,
            entity_names=adapter.entity_names(game, spec.options),
            card_names=adapter.card_names(game, spec.options),
        ),
    }


def document(
    runs: Sequence[SimResult], *, pack_name: str | None = None, pack_text: str | None = None
) -> dict[str, Any]:
    """The whole result file; with two runs, the second is the what-if of the first."""
    game = get_game(runs[0].spec.game)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": game.info.id,
        "game_name": game.info.name,
        "rules_version": game.info.rules_version,
        "runs": [run_document(r) for r in runs],
    }
    if pack_text is not None:
        doc["pack"] = {"name": pack_name, "text": pack_text}
    if len(runs) == 2:
        doc["whatif"] = compare(runs[0].tally, runs[1].tally, names=_names(runs[0].spec.game))
    return doc


def _names(game_id: str) -> dict[str, str]:
    """Display names of the entities and cards of a game's shipped pack (what-if rows)."""
    game = get_game(game_id)
    adapter = adapter_for(game_id)
    return {**adapter.entity_names(game, {}), **adapter.card_labels(game, {})}


def load(path: str | Path) -> dict[str, Any]:
    """Read a result file written by ``kumite sim --out``."""
    p = Path(path)
    try:
        data: dict[str, Any] = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResultsError(f"{p}: cannot read a simulation result ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ResultsError(f"{p}: not a kumite simulation result (format {FORMAT!r})")
    return data


def merge_documents(docs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Several result files of one game as one (e.g. SF DBG at 2, 3, 4 and 5 players):
    the tallies of runs with the same label are added, then analysed again."""
    if not docs:
        raise ResultsError("no result files")
    games = {d["game"] for d in docs}
    if len(games) != 1:
        raise ResultsError(f"cannot merge results of different games: {', '.join(sorted(games))}")
    if len(docs) == 1:
        return dict(docs[0])
    game_id = docs[0]["game"]
    game = get_game(game_id)
    adapter = adapter_for(game_id)
    labels: dict[str, Tally] = {}
    specs: dict[str, list[Any]] = {}
    for doc in docs:
        for run in doc["runs"]:
            tally = Tally.from_json(run["tally"])
            if run["label"] in labels:
                labels[run["label"]].merge(tally)
            else:
                labels[run["label"]] = tally
            specs.setdefault(run["label"], []).append(run["spec"])
    runs: list[dict[str, Any]] = []
    for label, tally in labels.items():
        runs.append(
            {
                "label": label,
                "spec": specs[label][0] if len(specs[label]) == 1 else {"merged": specs[label]},
                "tally": tally.to_json(),
                "analysis": analyze(
                    tally,
                    entity=adapter.entity,
                    turn=adapter.turn,
                    entity_names=adapter.entity_names(game, {}),
                    card_names=adapter.card_names(game, {}),
                ),
            }
        )
    out: dict[str, Any] = {**docs[0], "runs": runs, "merged_from": len(docs)}
    if len(runs) == 2:
        out["whatif"] = compare(
            labels[runs[0]["label"]], labels[runs[1]["label"]], names=_names(game_id)
        )
    else:
        out.pop("whatif", None)
    return out


# -- CSV --------------------------------------------------------------------------------

CSV_COLUMNS = (
    "run",
    "table",
    "key",
    "key2",
    "n",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "win_low",
    "win_high",
    "share",
    "share_low",
    "share_high",
    "value",
    "low",
    "high",
    "p",
    "q",
    "significant",
)


def _rate_cols(r: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: r.get(k) for k in ("n", "wins", "draws", "losses")}
    win, share = r.get("win") or {}, r.get("share") or {}
    out.update(
        win_rate=win.get("rate"),
        win_low=win.get("low"),
        win_high=win.get("high"),
        share=share.get("rate"),
        share_low=share.get("low"),
        share_high=share.get("high"),
    )
    return out


def csv_rows(doc: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    """The statistics of a result document as long-format rows (one table per ``table``)."""
    for run in doc["runs"]:
        label = run["label"]
        a = run["analysis"]
        draw = a["draw"]
        yield {
            "run": label,
            "table": "draw rate",
            "key": "all",
            "n": a["games"],
            "value": draw["rate"],
            "low": draw["low"],
            "high": draw["high"],
        }
        for group in a["seats"]:
            for s in group["seats"]:
                yield {
                    "run": label,
                    "table": "seat",
                    "key": s["seat"],
                    "key2": group["players"],
                    "p": group["p_equal"],
                    **_rate_cols(s),
                }
        sections = [("agent", a["agents"])]
        if "entities" in a:
            sections.append((a.get("entity") or "entity", a["entities"]))
        for name, side in sections:
            for row in side["table"]:
                yield {"run": label, "table": name, "key": row["name"], **_rate_cols(row)}
            for r in side["ratings"]:
                yield {
                    "run": label,
                    "table": f"{name} rating",
                    "key": r["name"],
                    "n": r["games"],
                    "value": r["elo"],
                    "low": r["low"],
                    "high": r["high"],
                }
        if "entities" in a:
            for cell in a["entities"]["matchups"]["cells"]:
                yield {
                    "run": label,
                    "table": "matchup",
                    "key": cell["row"],
                    "key2": cell["col"],
                    **_rate_cols(cell),
                }
            for row in a["entities"]["by_players"]:
                yield {
                    "run": label,
                    "table": "by players",
                    "key": row["entity"],
                    "key2": row["players"],
                    **_rate_cols(row),
                }
        if "cards" in a:
            for row in a["cards"]["impact"]:
                yield {
                    "run": label,
                    "table": f"card {row['verb']}",
                    "key": row["card"],
                    "key2": row["scope"],
                    "value": row["diff"],
                    "p": row["p"],
                    "q": row["q"],
                    "significant": row["significant"],
                    **_rate_cols(row["with"]),
                }
            for row in a["cards"]["by_when"]:
                yield {
                    "run": label,
                    "table": f"card {row['verb']} by {a['turn']}",
                    "key": row["card"],
                    "key2": row["when"],
                    **_rate_cols(row),
                }
    for row in doc.get("whatif", []):
        yield {
            "run": "what-if",
            "table": row["kind"],
            "key": row["key"],
            "win_rate": row["before"]["rate"],
            "win_low": row["before"]["low"],
            "win_high": row["before"]["high"],
            "value": row["after"]["rate"],
            "low": row["after"]["low"],
            "high": row["after"]["high"],
            "p": row["p"],
            "q": row["q"],
            "significant": row["significant"],
        }


def write_csv(doc: Mapping[str, Any], path: str | Path | None = None) -> str:
    """Write the statistics CSV to ``path`` (or return it as text)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(doc):
        writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    text = buf.getvalue()
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


GAMES_COLUMNS = ("run", "index", "seed", "agents", "entities", "winners", "reason", "length")


def write_games_csv(runs: Sequence[tuple[str, Sequence[GameRow]]], path: str | Path) -> None:
    """One row per game: enough to replay any of them (``kumite play --seed``)."""
    with Path(path).open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(GAMES_COLUMNS)
        for label, rows in runs:
            for index, seed, agents, entities, winners, reason, length in rows:
                writer.writerow(
                    [
                        label,
                        index,
                        seed,
                        ",".join(agents),
                        ",".join(e or "" for e in entities),
                        ",".join(str(w) for w in winners),
                        reason,
                        length,
                    ]
                )
