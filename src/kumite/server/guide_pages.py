"""Learn to play: ``/learn`` and ``/learn/<game>``, a beginner's guide per game beside its
clause index (``/rules/<game>``). The text is the game's own (``guide.md`` in the package its
spec names as ``guide``), with pictures of kumite's table (made by
``scripts/guide_pictures.py``) served from the same package at ``/learn/<game>/<picture>``.

``guide.md`` is Markdown: ``## Heading {#id}`` opens a section (its anchor ``id``); a rule
reference in backticks (```sfr.round.reveal```) becomes the table's rule tag, a "§" link to
that clause on the rules page, titled with its plain name. A reference the game does not
know is an error, so a guide cannot point at a clause that is not there.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import re
from importlib import resources
from importlib.resources.abc import Traversable

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse, Response
from markdown_it import MarkdownIt

from kumite.core.registry import specs
from kumite.server.context import Server
from kumite.server.rules_pages import contents, page, rule_names

PICTURES = {".webp": "image/webp", ".png": "image/png"}
_SECTION = re.compile(r"^## (.+?) \{#([a-z0-9-]+)\}\s*$", re.MULTILINE)
_CODE_REF = re.compile(r"<code>([a-z0-9-]+(?:\.[a-z0-9_-]+)+)</code>")
_IMG = re.compile(r'<img src="([A-Za-z0-9_-]+\.(?:webp|png))"( alt="[^"]*")? />')
_PICTURE = re.compile(r"[A-Za-z0-9_-]+\.(?:webp|png)")
# The project's own text, but no raw HTML all the same (the pages' policy refuses inline
# styles and scripts anyway).
_MD = MarkdownIt("commonmark", {"html": False})


@dataclasses.dataclass(frozen=True, slots=True)
class Section:
    id: str
    title: str
    html: str


def folder(game_id: str) -> Traversable | None:
    """The package holding the game's guide, or ``None`` for a game without one."""
    spec = specs().get(game_id)
    if spec is None or spec.guide is None:
        return None
    return resources.files(spec.guide)


def guided() -> dict[str, str]:
    """Every registered game that has a guide: id -> name."""
    return {gid: spec.name for gid, spec in specs().items() if spec.guide is not None}


@functools.cache
def sections(game_id: str) -> tuple[str, tuple[Section, ...]]:
    """The guide of a game as (its introduction, its sections), in HTML."""
    place = folder(game_id)
    if place is None:
        raise KeyError(game_id)
    text = (place / "guide.md").read_text(encoding="utf-8")
    names = rule_names(specs()[game_id].load().rules)
    base = f"/learn/{game_id}/"

    def render(markdown: str) -> str:
        out = _MD.render(markdown)

        def tag(found: re.Match[str]) -> str:
            ref = found.group(1)
            if ref not in names:
                raise ValueError(f"{game_id}'s guide cites {ref!r}, which its rules do not have")
            name = html.escape(names[ref])
            return (
                f'<a class="rule" href="/rules/{game_id}#{html.escape(ref)}" title="{name}" '
                f'aria-label="Rule: {name}">§</a>'
            )

        out = _CODE_REF.sub(tag, out)
        return _IMG.sub(picture, out)

    def picture(found: re.Match[str]) -> str:
        # A picture is the guide's own file, served beside it and sized by the stylesheet; on
        # a narrow screen its phone-sized twin, if it has one (the table as a phone shows it);
        # a tap opens the whole table at full size.
        name, alt = found.group(1), found.group(2) or ""
        stem, dot, kind = name.rpartition(".")
        phone = f"{stem}-phone{dot}{kind}"
        source = (
            f'<source media="(max-width: 600px)" srcset="{base}{phone}">'
            if (place / phone).is_file()
            else ""
        )
        return (
            f'<a class="guide-picture" href="{base}{name}"><picture>{source}'
            f'<img loading="lazy" src="{base}{name}"{alt}></picture></a>'
        )

    parts = _SECTION.split(text)
    intro, rest = parts[0], parts[1:]
    found = tuple(
        Section(rest[i + 1], rest[i], render(rest[i + 2])) for i in range(0, len(rest), 3)
    )
    # The page's own heading is the game's name: a "# ..." line of the file is not shown.
    intro = "\n".join(line for line in intro.splitlines() if not line.startswith("# "))
    return render(intro), found


def render_guide(game_id: str) -> str:
    name = specs()[game_id].name
    intro, found = sections(game_id)
    toc = "".join(
        f'<li><a href="#{html.escape(s.id)}">{html.escape(s.title)}</a></li>' for s in found
    )
    body = [
        f"<h1>Learn to play {html.escape(name)}</h1>",
        f'<div class="guide-intro">{intro}</div>',
        f'<nav aria-label="contents"><ol class="rules-toc">{toc}</ol></nav>',
    ]
    body += [
        f'<section class="panel guide-section" id="{html.escape(s.id)}" '
        f'aria-labelledby="{html.escape(s.id)}-h"><h2 id="{html.escape(s.id)}-h">'
        f"{html.escape(s.title)}</h2>{s.html}</section>"
        for s in found
    ]
    body.append(
        f'<p class="guide-next"><a href="/rules/{html.escape(game_id)}">Every rule of '
        f'{html.escape(name)}</a> · <a href="/?game={html.escape(game_id)}">Play '
        f"{html.escape(name)}</a></p>"
    )
    return page(f"Learn to play {name}", "\n".join(body), "guide-page")


def router(server: Server) -> APIRouter:
    router = APIRouter()

    @router.get("/learn", include_in_schema=False)
    async def learn_index() -> HTMLResponse:
        return HTMLResponse(contents("Learn to play", "/learn", guided(), "guide-page"))

    @router.get("/learn/{game_id}", include_in_schema=False)
    async def guide_page(game_id: str) -> HTMLResponse:
        if folder(game_id) is None:
            raise HTTPException(404, f"no guide for {game_id[:40]!r}")
        return HTMLResponse(render_guide(game_id))

    @router.get("/learn/{game_id}/{name}", include_in_schema=False)
    async def guide_picture(game_id: str, name: str) -> Response:
        place = folder(game_id)
        if place is None or not _PICTURE.fullmatch(name) or not (place / name).is_file():
            raise HTTPException(404, "no such picture")
        data = (place / name).read_bytes()
        kind = PICTURES[name[name.rindex(".") :]]
        return Response(data, media_type=kind, headers={"Cache-Control": "max-age=3600"})

    return router
