"""Plots of the balance lab (matplotlib, drawn off-screen), returned as PNG bytes."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: reports are made anywhere, even on a server

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

SIGNIFICANT = "#c0392b"
PLAIN = "#34495e"
MUTED = "#95a5a6"
ANNOTATE_AT_MOST = 300
"""Heat maps with more cells than this are drawn without numbers (text is slow to draw)."""


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96)
    plt.close(fig)
    return buf.getvalue()


def heatmap(
    rows: Sequence[str],
    cols: Sequence[str],
    values: np.ndarray,
    counts: np.ndarray,
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    centre: float = 0.5,
    min_n: int = 1,
    shown: np.ndarray | None = None,
    scale_label: str = "rate",
) -> bytes:
    """A heat map of rates on a diverging colour scale centred on ``centre`` (red: the row
    side does worse, blue: better); cells with fewer than ``min_n`` games are grey. Cells are
    annotated with their rate in percent unless there are too many to read (then the CSV
    has the numbers). ``shown`` gives the annotated rates when the colour is another
    measure of the same cells."""
    values = np.where(counts >= min_n, values, np.nan)
    shown = values if shown is None else shown
    many = len(rows) * len(cols) > ANNOTATE_AT_MOST
    h = max(2.8, (0.24 if many else 0.5) * len(rows) + 1.6)
    w = max(4.0, 0.7 * len(cols) + 3.0)
    fig, ax = plt.subplots(figsize=(w, h), layout="constrained")
    masked = np.ma.masked_invalid(values)
    spread = max(
        0.05, float(np.nanmax(np.abs(values - centre))) if np.isfinite(values).any() else 0.1
    )
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#d9d9d9")
    image = ax.imshow(masked, cmap=cmap, vmin=centre - spread, vmax=centre + spread, aspect="auto")
    ax.set_xticks(range(len(cols)), labels=list(cols), rotation=45, ha="right")
    ax.set_yticks(range(len(rows)), labels=list(rows), fontsize=7 if many else 9)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=11)
    for i in range(0 if many else len(rows)):
        for j in range(len(cols)):
            v = values[i, j]
            if np.isfinite(v):
                strong = abs(v - centre) > 0.6 * spread
                ax.text(
                    j,
                    i,
                    f"{100 * shown[i, j]:.0f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if strong else "black",
                )
    cbar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    cbar.set_label(scale_label)
    return _png(fig)


def forest(
    labels: Sequence[str],
    points: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    *,
    title: str,
    xlabel: str,
    reference: float | None = None,
    highlight: Sequence[bool] | None = None,
    others: Sequence[float | None] | None = None,
    others_label: str = "",
    percent: bool = True,
) -> bytes:
    """Points with interval bars, one row per label (top to bottom as given); optional
    reference line and a second marker per row (e.g. the rate when a card is not played)."""
    n = len(labels)
    height = max(1.8, 0.22 * n + 1.2)
    fig, ax = plt.subplots(figsize=(7.5, height))
    # Margins from the label lengths, not a layout engine: a constrained layout draws the
    # figure twice (a report's long card plots spent most of their time in text layout).
    longest = max((len(x) for x in labels), default=0)
    fig.subplots_adjust(
        left=min(0.6, (0.065 * longest + 0.25) / 7.5),
        right=0.97,
        top=1 - 0.4 / height,
        bottom=0.55 / height,
    )
    y = np.arange(n)[::-1]
    scale = 100.0 if percent else 1.0
    pts = np.asarray(points, dtype=float) * scale
    lo = np.asarray(lows, dtype=float) * scale
    hi = np.asarray(highs, dtype=float) * scale
    colours = [SIGNIFICANT if h else PLAIN for h in (highlight or [False] * n)]
    ax.hlines(y, lo, hi, colors=colours, linewidth=2)
    ax.scatter(pts, y, c=colours, zorder=3, s=18, label="estimate, 95% interval")
    if others is not None:
        xs = [np.nan if o is None else o * scale for o in others]
        ax.scatter(xs, y, marker="|", c=MUTED, s=80, zorder=2, label=others_label)
        ax.legend(loc="lower right", fontsize=8)
    if reference is not None:
        ax.axvline(reference * scale, color=MUTED, linestyle="--", linewidth=1)
    ax.set_yticks(y, labels=list(labels), fontsize=8)
    ax.set_ylim(-0.8, n - 0.2)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=11)
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def lengths(hist: Mapping[str, int], unit: str) -> bytes:
    keys = sorted(hist, key=int)
    fig, ax = plt.subplots(figsize=(5.5, 2.6), layout="constrained")
    ax.bar([int(k) for k in keys], [hist[k] for k in keys], color=PLAIN)
    ax.set_xlabel(f"{unit}s played")
    ax.set_ylabel("games")
    ax.set_title("Game length", fontsize=11)
    return _png(fig)


def matrix(
    cells: Sequence[Mapping[str, Any]], row_key: str, col_key: str, value: str
) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """Rows, columns, rates and counts of a table of cells (missing cells are NaN)."""
    rows = sorted({str(c[row_key]) for c in cells})
    cols = sorted({c[col_key] for c in cells}, key=lambda x: (isinstance(x, str), x))
    values = np.full((len(rows), len(cols)), np.nan)
    counts = np.zeros((len(rows), len(cols)), dtype=int)
    ri = {r: i for i, r in enumerate(rows)}
    ci = {c: j for j, c in enumerate(cols)}
    for c in cells:
        rate = c[value]["rate"]
        i, j = ri[str(c[row_key])], ci[c[col_key]]
        counts[i, j] = c[value]["n"]
        if rate is not None:
            values[i, j] = rate
    return rows, [str(c) for c in cols], values, counts
