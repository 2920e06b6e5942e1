"""Pictures of a table for the environments' ``render()`` (docs/envs.md, "Rendering").

The table is drawn by the game's terminal front end (what ``kumite play`` and ``kumite
replay`` show) for one view — a seat's or the spectator's — and that picture is either
text (``ansi``, ``human``) or painted, colours and all, into an RGB image (``rgb_array``,
what Gymnasium's ``RecordVideo`` and PettingZoo's ``render_test`` take). Only the view is
drawn, so a picture shows what its seat may see and nothing more. Every picture has the
same size (:data:`ROWS` lines of :data:`WIDTH` columns).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

RENDER_MODES = ["human", "ansi", "rgb_array"]
WIDTH = 100
"""Columns of the terminal the table is drawn on."""
ROWS = 64
"""Lines of a picture: every picture of an environment has the same size (a video needs
it); a longer table is cut, its last line saying how much is left out."""
FONT_SIZE = 14
BACKGROUND = (16, 16, 24)
FOREGROUND = (220, 220, 220)


def _renderable(game: Any, spec_id: str, options: Mapping[str, Any], view: Any) -> Any:
    from kumite.tui.registry import front_end

    return front_end(spec_id).render(game, options, view)


def text(game: Any, spec_id: str, options: Mapping[str, Any], view: Any) -> str:
    """The table drawn as terminal text (ANSI colours)."""
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, width=WIDTH, force_terminal=True, color_system="standard")
    console.print(_renderable(game, spec_id, options, view))
    return out.getvalue()


@functools.cache
def _font() -> Any:
    from matplotlib import font_manager
    from PIL import ImageFont

    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans Mono"))
    return ImageFont.truetype(path, FONT_SIZE)


def _rgb(color: Any, default: tuple[int, int, int]) -> tuple[int, int, int]:
    if color is None or color.is_default:
        return default
    triplet = color.get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)


def picture(game: Any, spec_id: str, options: Mapping[str, Any], view: Any) -> NDArray[np.uint8]:
    """The table painted as an RGB image, ``uint8[height, width, 3]``."""
    from PIL import Image, ImageDraw
    from rich.cells import cell_len
    from rich.console import Console
    from rich.segment import Segment

    console = Console(
        width=WIDTH, force_terminal=True, color_system="truecolor", file=io.StringIO()
    )
    lines = console.render_lines(_renderable(game, spec_id, options, view), pad=True)
    if len(lines) > ROWS:
        cut = len(lines) - ROWS + 1
        lines = [*lines[: ROWS - 1], [Segment(f"… {cut} more lines")]]
    font = _font()
    bottom = font.getbbox("Mg")[3]
    cell_w = float(font.getlength("M"))
    cell_h = int(bottom + 4)
    # an even size in both directions: video encoders (RecordVideo's) need one
    width = (int(WIDTH * cell_w) + 8 + 1) // 2 * 2
    height = (ROWS * cell_h + 8 + 1) // 2 * 2
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row, segments in enumerate(lines):
        x, y = 4.0, 4 + row * cell_h
        for segment in segments:
            chars = segment.text
            if not chars:
                continue
            style = segment.style
            fg = _rgb(None if style is None else style.color, FOREGROUND)
            bg = _rgb(None if style is None else style.bgcolor, BACKGROUND)
            if style is not None and style.reverse:
                fg, bg = bg, fg
            span = cell_len(chars) * cell_w
            if bg != BACKGROUND:
                draw.rectangle([x, y, x + span - 1, y + cell_h - 1], fill=bg)
            draw.text((x, y), chars, font=font, fill=fg)
            x += span
    return np.asarray(image, dtype=np.uint8)
