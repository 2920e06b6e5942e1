"""A self-contained HTML report of a simulation: one file, plots embedded as base64 PNG,
inline CSS, no scripts and no network — a designer can open it anywhere and share it."""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kumite import __version__
from kumite.sim import plots
from kumite.sim.analysis import plural

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 1100px; color: #222; line-height: 1.45; padding: 0 1em; }
h1 { border-bottom: 3px solid #c0392b; padding-bottom: .2em; }
h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
tr.sig td { background: #fdecea; } .note { color: #555; font-size: .9em; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: .85em; }
code { background: #f4f4f4; padding: 0 .2em; }
"""

MIN_CELL = 30
"""Per-round cells with fewer plays than this are greyed out: their rates are mostly noise."""

METHODS = """
<p class="note">Every rate comes with a 95% <b>Wilson score</b> interval. <b>Win share</b> is
wins / (wins + losses): 50% is an even matchup whatever the draw rate. Seat effects are tested
with a two-sided binomial test of seat 1's wins among decisive games (chi-square across seats
for more players). <b>Ratings</b> are Bradley&ndash;Terry strengths fitted to all pairwise
results (a draw is half a win each, weak normal prior), shown on the Elo scale with 95%
intervals. <b>Card impact</b> compares the win rate of the seats that played a card at least
once with the seats of the same character that did not (Fisher's exact test,
Benjamini&ndash;Hochberg corrected over all cards): it shows association, not cause &mdash;
which cards get played depends on how the game went. <b>What-if</b> differences are Fisher
exact tests on independent games, Benjamini&ndash;Hochberg corrected over every difference of
the report; <em>significant</em> means q &lt; 0.05.</p>
"""


def _esc(x: object) -> str:
    return html.escape(str(x))


def _pct(p: Mapping[str, Any] | None) -> str:
    if not p or p.get("rate") is None:
        return "&ndash;"
    ci = f"[{100 * p['low']:.1f}, {100 * p['high']:.1f}]"
    return f"{100 * p['rate']:.1f}% <span class='note'>{ci}</span>"


def _img(png: bytes, caption: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return (
        f"<figure><img alt='{_esc(caption)}' src='data:image/png;base64,{data}'>"
        f"<figcaption>{_esc(caption)}</figcaption></figure>"
    )


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], sig: Sequence[bool] = ()) -> str:
    out = ["<table><thead><tr>", *(f"<th>{_esc(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for k, row in enumerate(rows):
        cls = " class='sig'" if k < len(sig) and sig[k] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _sides(name: str, side: Mapping[str, Any], names: Mapping[str, str]) -> str:
    parts = [f"<h3>{_esc(plural(name).capitalize())}</h3>"]
    ratings = side["ratings"]
    elo = {r["name"]: r for r in ratings}
    rows = sorted(side["table"], key=lambda r: -elo.get(r["name"], {"elo": 0})["elo"])
    parts.append(
        _table(
            [name, "games", "wins", "draws", "losses", "win rate", "win share", "rating [95%]"],
            [
                [
                    _esc(names.get(r["name"], r["name"])),
                    str(r["n"]),
                    str(r["wins"]),
                    str(r["draws"]),
                    str(r["losses"]),
                    _pct(r["win"]),
                    _pct(r["share"]),
                    (
                        f"{elo[r['name']]['elo']:.0f} [{elo[r['name']]['low']:.0f}, "
                        f"{elo[r['name']]['high']:.0f}]"
                        if r["name"] in elo
                        else "&ndash;"
                    ),
                ]
                for r in rows
            ],
        )
    )
    if ratings:
        parts.append(
            _img(
                plots.forest(
                    [names.get(r["name"], r["name"]) for r in ratings],
                    [r["elo"] for r in ratings],
                    [r["low"] for r in ratings],
                    [r["high"] for r in ratings],
                    title=f"{name.capitalize()} ratings (Bradley–Terry, Elo scale)",
                    xlabel="rating (mean 1500)",
                    reference=1500.0,
                    percent=False,
                ),
                f"{name.capitalize()} ratings with 95% intervals.",
            )
        )
    return "".join(parts)


def _matchups(a: Mapping[str, Any]) -> str:
    ent = a["entities"]
    names = ent.get("names", {})
    cells = ent["matchups"]["cells"]
    parts: list[str] = ["<h3>Matchups</h3>"]
    if cells:
        rows, cols, values, counts = plots.matrix(cells, "row", "col", "share")
        label = a["entity"] or "side"
        parts.append(
            _img(
                plots.heatmap(
                    [names.get(r, r) for r in rows],
                    [names.get(c, c) for c in cols],
                    values,
                    counts,
                    title=f"Matchups: % of decisive games the row {label} wins",
                    xlabel=f"opponent {label}",
                    ylabel=label,
                ),
                f"Every {label} pair: row's win share against column "
                f"({int(counts.min())}–{int(counts.max())} comparisons per cell).",
            )
        )
    by_players = ent["by_players"]
    counts_by = {row["players"] for row in by_players}
    if len(counts_by) > 1 or (counts_by and max(counts_by) > 2):
        rows, cols, values, counts = plots.matrix(by_players, "entity", "players", "win")
        # Colour: the win rate against an even share (1/players); numbers: the win rate.
        even = np.array([1.0 / int(c) for c in cols])
        parts.append(
            _img(
                plots.heatmap(
                    [names.get(r, r) for r in rows],
                    cols,
                    values / even,
                    counts,
                    title=f"{(a['entity'] or 'side').capitalize()} win rate by player count",
                    xlabel="players",
                    ylabel=a["entity"] or "side",
                    centre=1.0,
                    shown=values,
                    scale_label="win rate ÷ even share",
                ),
                "Win rate (%) by number of players; the colour compares it with an even share "
                "(1/players): blue above, red below.",
            )
        )
    return "".join(parts)


def _cards(a: Mapping[str, Any]) -> str:
    cards = a["cards"]
    impact = cards["impact"]
    entity_names = a.get("entities", {}).get("names", {})
    parts = ["<h3>Card impact</h3>"]
    ordered = sorted(impact, key=lambda r: (r["scope"], -(r["with"]["win"]["rate"] or 0)))
    verbs = sorted({r["verb"] for r in ordered})
    labels = [
        f"{entity_names.get(r['scope'], r['scope'])}: {r['name']}"
        if r["scope"] != "*"
        else (f"{r['name']} ({r['verb']})" if len(verbs) > 1 else r["name"])
        for r in ordered
    ]
    parts.append(
        _img(
            plots.forest(
                labels,
                [r["with"]["win"]["rate"] or 0 for r in ordered],
                [r["with"]["win"]["low"] for r in ordered],
                [r["with"]["win"]["high"] for r in ordered],
                title=f"Win rate when {' or '.join(verbs) or 'played'}",
                xlabel="win rate (%)",
                highlight=[r["significant"] for r in ordered],
                others=[r["without"]["win"]["rate"] for r in ordered],
                others_label="same side, card not played",
            ),
            "Red: the difference with the seats that did not play the card is significant "
            "(q < 0.05).",
        )
    )
    parts.append(
        _table(
            ["card", "played by", "seats", "win rate when played", "when not", "difference", "q"],
            [
                [
                    _esc(r["name"]),
                    _esc(entity_names.get(r["scope"], r["scope"])),
                    str(r["with"]["n"]),
                    _pct(r["with"]["win"]),
                    _pct(r["without"]["win"]),
                    "&ndash;" if r["diff"] is None else f"{100 * r['diff']:+.1f} pts",
                    f"{r['q']:.2g}",
                ]
                for r in ordered
            ],
            [r["significant"] for r in ordered],
        )
    )
    by_when = cards["by_when"]
    if by_when and sum(r["n"] >= MIN_CELL for r in by_when) < len(by_when) / 4:
        # Mostly grey cells say nothing and cost most of a small run's report to draw.
        parts.append(
            f"<p class='note'>Win rate when played by {_esc(a['turn'])}: too few plays per "
            f"cell for a heat map (fewer than {MIN_CELL} in most); the CSV has every cell.</p>"
        )
    elif by_when:
        cells = [
            {
                **r,
                "label": f"{entity_names.get(r['scope'], r['scope'])}: "
                f"{next((i['name'] for i in impact if i['card'] == r['card']), r['card'])}"
                if r["scope"] != "*"
                else r["card"],
            }
            for r in by_when
        ]
        rows, cols, values, counts = plots.matrix(cells, "label", "when", "win")
        parts.append(
            _img(
                plots.heatmap(
                    rows,
                    cols,
                    values,
                    counts,
                    title=f"Win rate when played, by {a['turn']}",
                    xlabel=a["turn"],
                    ylabel="card",
                    centre=0.5,
                    min_n=MIN_CELL,
                ),
                f"Win rate of the seat that played the card in that {a['turn']} (grey: played "
                f"fewer than {MIN_CELL} times; the CSV has every cell with its interval).",
            )
        )
    return "".join(parts)


def _run(run: Mapping[str, Any]) -> str:
    a = run["analysis"]
    spec = run["spec"]
    title = "With the pack" if run["label"] == "pack" else "Results"
    parts = [f"<h2>{_esc(title)}</h2>"]
    lineups = spec.get("lineups") or []
    parts.append(
        f"<p>{a['games']} games; players {_esc(' | '.join(','.join(x) for x in lineups))}; "
        f"seed {_esc(spec.get('seed', '?'))}; design {_esc(spec.get('design', '?'))}; "
        f"{_esc(run.get('jobs', '?'))} job(s) on {_esc(run.get('backend', '?'))}, "
        f"{_esc(run.get('games_per_second', '?'))} games/s.</p>"
    )
    mean = a["mean_length"]
    parts.append(
        _table(
            ["outcome", "games"],
            [["draw rate", _pct(a["draw"])]]
            + [[_esc(k), str(v)] for k, v in a["reasons"].items()]
            + [[f"mean length ({_esc(a['turn'])}s)", "&ndash;" if mean is None else f"{mean:.2f}"]],
        )
    )
    parts.append(_img(plots.lengths(run["tally"]["lengths"], a["turn"]), "Game lengths."))
    parts.append(_flags(a))
    seat_rows = []
    for group in a["seats"]:
        for s in group["seats"]:
            seat_rows.append(
                [
                    f"seat {s['seat'] + 1} of {group['players']}",
                    str(s["n"]),
                    _pct(s["win"]),
                    _pct(s["share"]),
                    f"{group['p_equal']:.3g}",
                ]
            )
    parts.append("<h3>Seats</h3>")
    parts.append(_table(["seat", "games", "win rate", "win share", "p (seats equal)"], seat_rows))
    if len(a["agents"]["table"]) > 1:
        parts.append(_sides("agent", a["agents"], {}))
    if "entities" in a:
        parts.append(_sides(a["entity"] or "side", a["entities"], a["entities"].get("names", {})))
        parts.append(_matchups(a))
        parts.append(_restricted(a))
    if "cards" in a:
        parts.append(_cards(a))
    return "".join(parts)


def _restricted(a: Mapping[str, Any]) -> str:
    """Restricted play: each entity's (and card's, when measured) value."""
    ent = a["entities"]
    names = ent.get("names", {})
    label = a["entity"] or "side"
    rows = ent.get("restricted") or []
    parts = [
        "<h3>Restricted play</h3>",
        f"<p class='note'>A {_esc(label)}'s value: how much a side's win share drops when it "
        f"may not pick that {_esc(label)} (Jaffe et al. 2012), from the balanced design's "
        "pairwise results; 95% interval.</p>",
    ]

    def pts(r: Mapping[str, Any]) -> str:
        if r.get("value") is None:
            return "&ndash;"
        return (
            f"{100 * r['value']:+.1f} pts <span class='note'>[{100 * r['low']:+.1f}, "
            f"{100 * r['high']:+.1f}]</span>"
        )

    parts.append(
        _table(
            [label, "value", "decisive comparisons"],
            [[_esc(names.get(r["entity"], r["entity"])), pts(r), str(r["decisive"])] for r in rows],
        )
    )
    cards = a.get("restricted_cards") or []
    if cards:
        parts.append(
            _table(
                ["card", "value (may use - may not)", "share may", "share may not", "games"],
                [
                    [
                        _esc(r["card"]),
                        pts(r),
                        "&ndash;" if r.get("may") is None else f"{100 * r['may']:.1f}%",
                        "&ndash;" if r.get("may_not") is None else f"{100 * r['may_not']:.1f}%",
                        str(r["n"]),
                    ]
                    for r in cards
                ],
            )
        )
    return "".join(parts)


def _flags(a: Mapping[str, Any]) -> str:
    flags = a.get("flags") or []
    if not flags:
        return ""
    rows = [
        [
            _esc(f["flag"]),
            _esc(f["what"]),
            str(f["games"]),
            _esc(", ".join(f"#{i} seed {s}" for i, s in f["examples"][:8])),
        ]
        for f in flags
    ]
    return (
        "<h3>Games to look at (stalls, loops, unusual ends)</h3>"
        "<p class='note'>Replay one with <code>kumite play GAME --seed SEED</code> and the "
        "same options and players.</p>" + _table(["flag", "what", "games", "first games"], rows)
    )


def _whatif(doc: Mapping[str, Any]) -> str:
    rows = doc["whatif"]
    sig = [r for r in rows if r["significant"]]
    pack = doc.get("pack") or {}
    parts = [
        "<h2>What-if: before and after the pack</h2>",
        f"<p>Pack <code>{_esc(pack.get('name') or '?')}</code>: {len(sig)} of {len(rows)} "
        "differences are significant (Fisher exact, Benjamini&ndash;Hochberg q &lt; 0.05).</p>",
    ]
    if pack.get("text"):
        parts.append(
            f"<details><summary>Pack text</summary><pre>{_esc(pack['text'])}</pre></details>"
        )
    shown = sorted(rows, key=lambda r: r["q"])[: max(12, len(sig))]
    shown = [r for r in shown if r["diff"] is not None]
    if shown:
        parts.append(
            _img(
                _diff_plot(shown),
                "Largest differences (after minus before, approximate 95% interval); red: "
                "significant.",
            )
        )
    parts.append(
        _table(
            ["rate", "of", "before", "after", "difference", "p", "q", "significant"],
            [
                [
                    _esc(r["kind"]),
                    _esc(r.get("name", r["key"])),
                    _pct(r["before"]),
                    _pct(r["after"]),
                    "&ndash;" if r["diff"] is None else f"{100 * r['diff']:+.1f} pts",
                    f"{r['p']:.2g}",
                    f"{r['q']:.2g}",
                    "yes" if r["significant"] else "no",
                ]
                for r in sorted(rows, key=lambda r: r["q"])
            ],
            [r["significant"] for r in sorted(rows, key=lambda r: r["q"])],
        )
    )
    return "".join(parts)


def _diff_plot(rows: Sequence[Mapping[str, Any]]) -> bytes:
    def half(p: Mapping[str, Any]) -> float:
        return (float(p["high"]) - float(p["low"])) / 2

    diffs = [float(r["diff"]) for r in rows]
    # Each side's interval half-width, combined in quadrature: a display aid only.
    spans = [(half(r["before"]) ** 2 + half(r["after"]) ** 2) ** 0.5 for r in rows]
    return plots.forest(
        [f"{r['kind']}: {r.get('name', r['key'])}" for r in rows],
        diffs,
        [d - s for d, s in zip(diffs, spans, strict=True)],
        [d + s for d, s in zip(diffs, spans, strict=True)],
        title="What-if differences",
        xlabel="after − before (percentage points)",
        reference=0.0,
        highlight=[bool(r["significant"]) for r in rows],
    )


def render(doc: Mapping[str, Any]) -> str:
    """The report of a result document, as one HTML page."""
    # A what-if is what its reader came for: it goes first.
    sections = [METHODS]
    if "whatif" in doc:
        sections.append(_whatif(doc))
    sections += [_run(run) for run in doc["runs"]]
    body = "".join(sections)
    name = _esc(doc.get("game_name", doc.get("game", "")))
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>kumite balance report — {name}</title><style>{CSS}</style></head><body>"
        f"<h1>Balance report: {name}</h1>"
        f"<p class='note'>kumite {_esc(__version__)}, rules {_esc(doc.get('rules_version', '?'))}. "
        "Made by <code>kumite sim</code> / <code>kumite report</code>; self-contained: "
        "no network needed.</p>"
        f"{body}</body></html>\n"
    )


def write_report(doc: Mapping[str, Any], path: str | Path) -> Path:
    out = Path(path)
    out.write_text(render(doc), encoding="utf-8")
    return out
