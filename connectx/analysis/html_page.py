"""An analysed game as one self-contained HTML page: the evaluation graph, the moves, every ply's board and values.

Inline CSS and SVG only, no external resource, so the file opens anywhere (and from an archive).
The file works without script; a few inline lines add the arrow keys to step through the moves,
the words of a tapped value, and in-page links that stay in the page when it is shown in a
srcdoc frame (as the play page shows an uploaded game's analysis). In such a frame the page tells
its parent how tall it is and where a link leads, so that the parent sizes the frame to the whole
page and scrolls itself: one scroll, never a scrolling page inside a scrolling page.
On a narrow screen the evaluation graph is drawn in rows of a few plies, so that every ply's
part of it is wide enough for a finger (``ROW_PLIES``).
Columns are numbered from 1, as on the printed board and in move strings.
"""

from __future__ import annotations

from html import escape

from connectx.agents.core.kaggle_boundary import board_of, mark_of
from connectx.agents.core.position import Geometry, Position
from connectx.analysis.game_analysis import GameAnalysis, PlyAnalysis
from connectx.analysis.text_report import line_text
from connectx.solver.score_range import ScoreRange, describe

CELL = 48
"""Pixels per board cell."""
VALUE_STRIP = 34
"""Pixels of the strip above the board that holds the column values, two lines each."""
VALUE_LINE = 12
"""Pixels from one line of a column value to the next."""
LABEL = 22
"""Pixels of the strip below the board that holds the column numbers."""
GRAPH_WIDTH, GRAPH_HEIGHT, GRAPH_MARGIN = 640, 180, 34
"""The evaluation graph's size in pixels, and its left margin for the axis words."""
ROW_PLIES = 10
"""Plies in one row of the graph on a narrow screen: on the narrowest phone (320 CSS pixels) a ply's column is
still about 28 pixels wide on the page alone and 25 in the play page's frame, at least the 24 a finger needs."""
STONES = {0: "#ffffff", 1: "#d8432f", 2: "#f1c232"}
"""Cell colours by Kaggle mark: empty, the first player (X), the second (O)."""
OUTCOME_COLOURS = {1: "#1d7a36", 0: "#555555", -1: "#b3261e"}
PLAYERS = "XO"

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 60em; padding: 0 1em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin: 0 0 .4em; }
code { font-size: 1.05em; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
td, th { padding: .15em .7em; text-align: left; border-bottom: 1px solid #ddd; }
tr.flagged td, section.flagged h2 { color: #b3261e; font-weight: bold; }
section { border: 1px solid #ccc; border-radius: 6px; padding: .8em 1em; margin: 1em 0; }
section.flagged { border: 3px solid #b3261e; background: #fff5f4; }
section:target { box-shadow: 0 0 0 3px #3b6fd4; }
.steps a { margin-right: 1em; }
.legend span { margin-right: 1.2em; }
/* A column's value is tapped anywhere in its column (an invisible rectangle over the strip and the board). */
g.column-value { cursor: pointer; }
.graph a:hover rect.ply { fill: #3b6fd4; fill-opacity: .08; }
.graph text { pointer-events: none; }
#graph-rows { display: none; }
p.words { font-weight: bold; margin: .2em 0; }
/* A phone, or the page's frame on one: boards scale down, the moves table stacks (ply and move, then
   before and after on lines of their own, labelled as the head row would), the graph comes in rows of a few
   plies with its words legible, and every link is at least 24 pixels each way, a finger's width. */
@media (max-width: 600px) {
  body { margin: .5em auto; padding: 0 .5em; overflow-wrap: break-word; }
  h1 { font-size: 1.2em; }
  section { padding: .6em .5em; }
  .legend span { display: block; margin: .2em 0; }
  svg[aria-label="board"] { max-width: 100%; height: auto; }
  #graph { display: none; }
  #graph-rows { display: block; }
  #graph-rows svg { display: block; margin-bottom: 6px; }
  .graph text { font-size: 22px; paint-order: stroke; stroke: #fff; stroke-width: 4px; }
  p a, td a { display: inline-block; min-width: 24px; min-height: 24px; line-height: 24px; text-align: center; }
  table#moves, table#moves tbody { display: block; }
  table#moves tr { display: grid; grid-template-columns: auto 1fr; border-bottom: 1px solid #ddd; padding: .3em 0; }
  table#moves tr:first-child { display: none; }
  table#moves td { border: 0; padding: .1em .3em; }
  table#moves td:nth-child(n+3) { grid-column: 1 / -1; }
  table#moves td:empty { display: none; }
  table#moves td:nth-child(3)::before { content: "before"; }
  table#moves td:nth-child(4)::before { content: "after"; }
  table#moves td:nth-child(n+3)::before { display: inline-block; min-width: 3.8em; color: #555; font-weight: normal; }
}
"""

SCRIPT = """
// In a frame (the play page shows an uploaded game's analysis in a sandboxed srcdoc frame) the page tells its
// parent, which cannot look inside, how tall it is, so that the frame shows it whole and only the parent scrolls.
// The root's height holds the body's margins (the scroll height is never below the frame's). The browser renders
// a frame of another origin only once it is on the screen: its height comes then, and again at every change.
var framed = window.parent !== window;
if (framed) {
  new ResizeObserver(function () {
    var height = document.documentElement.getBoundingClientRect().height;
    parent.postMessage({analysis: "height", height: Math.ceil(height)}, "*");
  }).observe(document.documentElement);
}
// Brings a section to the top: this document's own fragment is set (in a srcdoc frame the browser would resolve
// "#ply-4" against the embedding page's address and load that page into the frame; location.hash keeps the
// fragment on this document's address, about:srcdoc#ply-4). A frame as tall as its page has nothing to scroll,
// so the parent is asked to scroll to the section; alone, a fragment the page already has does not scroll again,
// so the section is scrolled to directly.
function show(id) {
  var again = location.hash === "#" + id;
  if (!again) location.hash = "#" + id;
  var section = document.getElementById(id);
  if (framed) parent.postMessage({analysis: "show", top: section.getBoundingClientRect().top + scrollY}, "*");
  else if (again) section.scrollIntoView();
}
document.addEventListener("click", function (event) {
  var link = event.target.closest("a");
  var target = link && link.getAttribute("href");
  if (!target || target.charAt(0) !== "#") return;
  event.preventDefault();
  show(target.slice(1));
});
document.addEventListener("keydown", function (event) {
  var sections = Array.prototype.slice.call(document.querySelectorAll("section"));
  var current = sections.findIndex(function (s) { return "#" + s.id === location.hash; });
  var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
  if (!step) return;
  show(sections[Math.min(sections.length - 1, Math.max(0, current + step))].id);
});
// A column's value shows its words (its title, which only a mouse can hover) under the board when its column is
// tapped or clicked; a second tap on it, or a tap elsewhere, hides them.
document.addEventListener("click", function (event) {
  var value = event.target.closest("g.column-value");
  var words = value && value.closest("section").querySelector("p.words");
  var said = value ? value.querySelector("title").textContent : null;
  var again = words && !words.hidden && words.textContent === said;
  document.querySelectorAll("p.words").forEach(function (line) { line.hidden = true; });
  if (words && !again) {
    words.textContent = said;
    words.hidden = false;
  }
});
"""


def render_html(analysis: GameAnalysis) -> str:
    """The page of ``analysis``: a summary, the list of moves, then the board and values at every ply."""
    game = analysis.game
    positions = list(game.positions())
    flagged = analysis.flagged
    title = f"Analysis of {game.digits or 'an empty game'}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{game.board.columns}x{game.board.rows} board, {game.board.inarow} in a row, {len(game.moves)} moves: "
        f"<code>{escape(game.digits)}</code>. X moves first.</p>",
        "<p class=\"legend\">Values are the mover's: <span>win in N: the mover's N-th move from here wins</span>"
        "<span>draw</span><span>loss in N: the opponent's N-th move does</span><span>the best bound proven where "
        "the time ran out (win in &le;N, draw or win, ...)</span><span>where not even the outcome is proven, a "
        "search's estimate and its depth: ~win d8 a likely win as far as a search 8 moves deep sees, ~loss d8 a "
        "likely loss, ~even d8 balanced: neither side clearly ahead</span><span><b><u>bold and underlined</u></b>: "
        "the best columns</span><span>a dashed ring: where the move played lands</span>Tap or hover over a column "
        "for its value's words.</p>",
        evaluation_graph(analysis),
        f"<p>{sum(ply.exact for ply in analysis.plies)} of {len(analysis.plies)} positions exact. "
        + (
            f"{len(flagged)} move{'' if len(flagged) == 1 else 's'} changed the outcome: "
            + ", ".join(f'<a href="#ply-{ply.ply}">ply {ply.ply}</a>' for ply in flagged)
            + "."
            if flagged
            else "No move changed the outcome."
        )
        + "</p>",
        _move_table(analysis),
        "<main>",
    ]
    shape = positions[0].geometry
    for ply in analysis.plies:
        parts.append(_ply_section(ply, positions[ply.ply], len(analysis.plies), shape))
    final = positions[-1]
    parts += [
        '<section id="final">',
        "<h2>Final position</h2>",
        _board_svg(final, None, None),
        f'<p class="steps"><a href="#ply-{len(analysis.plies) - 1}">&larr; previous</a><a href="#moves">moves</a></p>'
        if analysis.plies
        else "",
        "</section>",
        "</main>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def _move_table(analysis: GameAnalysis) -> str:
    shape = analysis.game.board.geometry
    rows = ['<table id="moves">', "<tr><th>ply</th><th>move</th><th>before</th><th>after</th><th></th></tr>"]
    for ply in analysis.plies:
        note = f"changed the outcome; best {ply.describe_best(shape)}" if ply.changed_outcome else ""
        rows.append(
            f'<tr class="{"flagged" if ply.changed_outcome else ""}"><td><a href="#ply-{ply.ply}">{ply.ply}</a></td>'
            f"<td>{PLAYERS[ply.ply % 2]} {ply.column + 1}</td><td>{escape(describe(ply.before, shape, ply.ply))}</td>"
            f"<td>{escape(describe(ply.after, shape, ply.ply))}</td><td>{escape(note)}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _ply_section(ply: PlyAnalysis, position: Position, plies: int, shape: Geometry) -> str:
    mover = PLAYERS[ply.ply % 2]
    before, after = escape(describe(ply.before, shape, ply.ply)), escape(describe(ply.after, shape, ply.ply))
    steps = [
        f'<a href="#ply-{ply.ply - 1}">&larr; previous</a>' if ply.ply > 0 else "",
        '<a href="#moves">moves</a>',
        f'<a href="#ply-{ply.ply + 1}">next &rarr;</a>' if ply.ply + 1 < plies else '<a href="#final">final &rarr;</a>',
    ]
    punished = f" Punished by {escape(line_text(ply))} (numbered on the board)." if ply.line else ""
    verdict = (
        f"<p><strong>Changed the outcome</strong>: {before} before, {after} after. "
        f"Best instead: {escape(ply.describe_best(shape))}.{punished}</p>"
        if ply.changed_outcome
        else f"<p>Before: {before}; after: {after}. Best: {escape(ply.describe_best(shape))}.</p>"
    )
    return "\n".join(
        [
            f'<section id="ply-{ply.ply}" class="{"flagged" if ply.changed_outcome else ""}">',
            f"<h2>Ply {ply.ply}: {mover} plays {ply.column + 1}</h2>",
            _board_svg(position, ply, ply.column),
            '<p class="words" aria-live="polite" hidden></p>',
            verdict,
            f'<p class="steps">{"".join(steps)}</p>',
            "</section>",
        ]
    )


def _board_svg(position: Position, ply: PlyAnalysis | None, played: int | None) -> str:
    """The board as SVG: the column values above it (the best ones bold and underlined), the cell the move fills
    ringed, column numbers below."""
    shape = position.geometry
    width, height = shape.columns * CELL, VALUE_STRIP + shape.rows * CELL + LABEL
    board = board_of(position)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="board">',
        f'<rect x="0" y="{VALUE_STRIP}" width="{width}" height="{shape.rows * CELL}" fill="#2f5fb3" rx="6"/>',
    ]
    for row in range(shape.rows):
        for column in range(shape.columns):
            cx, cy = column * CELL + CELL // 2, VALUE_STRIP + row * CELL + CELL // 2
            fill = STONES[board[row * shape.columns + column]]
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.4:.1f}" fill="{fill}"/>')
    if played is not None:
        landing = shape.rows - 1 - bin(position.mask & shape.column_masks[played]).count("1")
        colour = STONES[mark_of(position)]
        parts.append(
            f'<circle cx="{played * CELL + CELL // 2}" cy="{VALUE_STRIP + landing * CELL + CELL // 2}" '
            f'r="{CELL * 0.4:.1f}" fill="none" stroke="{colour}" stroke-width="4" stroke-dasharray="5 3"/>'
        )
        if ply is not None and ply.line:
            parts += _line_stones(position.play(played), ply.line)
    for column in range(shape.columns):
        x = column * CELL + CELL // 2
        parts.append(f'<text x="{x}" y="{height - 6}" text-anchor="middle" font-size="13">{column + 1}</text>')
        value = ply.values[column] if ply is not None else None
        if value is not None and ply is not None:
            best = column in ply.best_columns
            weight = "bold" if best else "normal"
            decoration = ' text-decoration="underline"' if best else ""  # as the play page marks the best
            colour = OUTCOME_COLOURS[value.outcome] if value.outcome is not None else "#555555"
            lines = value_lines(describe(value, shape, position.moves, compact=True))
            top = VALUE_STRIP - 6 - VALUE_LINE * (len(lines) - 1)  # the last line just above the board
            spans = "".join(
                f'<tspan x="{x}" y="{top + index * VALUE_LINE}">{escape(line)}</tspan>'
                for index, line in enumerate(lines)
            )
            # The whole column, its strip and its cells, is the value's to tap: wide and tall enough for a finger
            # where the board is scaled down to a phone's width.
            parts.append(
                f'<g class="column-value"><title>column {column + 1}: '
                f"{escape(describe(value, shape, position.moves))}</title>"
                f'<rect class="hit" x="{column * CELL}" y="0" width="{CELL}" '
                f'height="{VALUE_STRIP + shape.rows * CELL}" fill="transparent"/>'
                f'<text class="value" x="{x}" text-anchor="middle" font-size="11" font-weight="{weight}" '
                f'fill="{colour}"{decoration}>{spans}</text></g>'
            )
    parts.append("</svg>")
    return "".join(parts)


def value_lines(compact: str) -> tuple[str, ...]:
    """A column's compact value on the lines a label one column wide shows it on, so that neighbouring values never
    run together ("loss 18loss 18"): the word over its count or depth ("loss", "18"; "~even", "d8"), a bound's
    sign over its outcome (">=", "draw"), a single word alone ("draw")."""
    word, space, rest = compact.partition(" ")
    if space:
        return word, rest
    if compact[:2] in ("<=", ">="):
        return compact[:2], compact[2:]
    return (compact,)


def _line_stones(position: Position, line: tuple[int, ...]) -> list[str]:
    """The punishing line's stones on the board, faded and numbered in the order they are played."""
    shape = position.geometry
    stones = []
    for number, column in enumerate(line, start=1):
        row = shape.rows - 1 - bin(position.mask & shape.column_masks[column]).count("1")
        cx, cy = column * CELL + CELL // 2, VALUE_STRIP + row * CELL + CELL // 2
        stones.append(
            f'<g class="line"><circle cx="{cx}" cy="{cy}" r="{CELL * 0.4:.1f}" '
            f'fill="{STONES[mark_of(position)]}" opacity=".55"/><text x="{cx}" y="{cy + 5}" '
            f'text-anchor="middle" font-size="15" font-weight="bold">{number}</text></g>'
        )
        position = position.play(column)
    return stones


def first_player_view(value: ScoreRange, ply: int, shape: Geometry) -> tuple[float, float]:
    """A ply's value as the graph draws it, for the first player (X): the proven range mapped into [-1, 1]
    (a win above 0.5, sooner higher; a draw 0; a loss below -0.5), or a narrow band at an estimate."""
    if ply % 2:
        value = value.negated()
    if value.outcome is None and value.estimate is not None:
        return value.estimate / 2 - 0.03, value.estimate / 2 + 0.03
    largest = max(1, (shape.cells + 1) // 2)

    def height(score: int) -> float:
        return 0.0 if score == 0 else (0.5 + 0.5 * abs(score) / largest) * (1 if score > 0 else -1)

    return height(value.lower), height(value.upper)


def evaluation_graph(analysis: GameAnalysis) -> str:
    """The game's value for X at every ply as SVG: proven ranges as bands, flagged moves as red dots, each ply's
    column of the graph a link to its section. Drawn twice: one graph over the whole game (``#graph``) for a wide
    screen, and rows of ``ROW_PLIES`` plies (``#graph-rows``) for a narrow one; the page's style shows one."""
    plies = analysis.plies
    if not plies:
        return ""
    rows = [plies[start : start + ROW_PLIES] for start in range(0, len(plies), ROW_PLIES)]
    room = ROW_PLIES if len(rows) > 1 else len(plies)  # a short game's one row as wide as the screen
    narrow = "".join(_graph_svg(analysis, row, room, f"plies {row[0].ply} to {row[-1].ply}") for row in rows)
    return _graph_svg(analysis, plies, len(plies), "", "graph") + f'<div id="graph-rows" class="graph">{narrow}</div>'


def _graph_svg(
    analysis: GameAnalysis, plies: tuple[PlyAnalysis, ...], room: int, caption: str, element_id: str = ""
) -> str:
    """The graph of ``plies`` in an SVG with ``room`` plies' width, a ply a column of equal width from the left;
    ``caption``, if any, written in its top right corner; ``element_id``, if any, the SVG's id."""
    shape = analysis.game.board.geometry
    inner = GRAPH_WIDTH - GRAPH_MARGIN - 8
    step = inner / room

    def x(index: int) -> float:
        return GRAPH_MARGIN + (index + 0.5) * step

    def y(height: float) -> float:
        return GRAPH_HEIGHT / 2 - height * (GRAPH_HEIGHT / 2 - 8)

    identity = f'id="{element_id}" ' if element_id else ""
    parts = [
        f'<svg {identity}class="graph" xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 '
        f'{GRAPH_WIDTH} {GRAPH_HEIGHT}" role="img" aria-label="the value of the game for X at every ply'
        f'{", " + caption if caption else ""}">',
        f'<rect x="{GRAPH_MARGIN}" y="0" width="{inner}" height="{GRAPH_HEIGHT / 2:.1f}" fill="#fbeae7"/>',
        f'<rect x="{GRAPH_MARGIN}" y="{GRAPH_HEIGHT / 2:.1f}" width="{inner}" height="{GRAPH_HEIGHT / 2:.1f}" '
        'fill="#fdf6dc"/>',
        f'<line x1="{GRAPH_MARGIN}" x2="{GRAPH_WIDTH - 8}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#888"/>',
        '<text x="2" y="14" font-size="11">X wins</text>',
        f'<text x="2" y="{y(0) + 4:.1f}" font-size="11">draw</text>',
        f'<text x="2" y="{GRAPH_HEIGHT - 4}" font-size="11">O wins</text>',
    ]
    if caption:
        parts.append(f'<text x="{GRAPH_WIDTH - 12}" y="14" font-size="11" text-anchor="end">{caption}</text>')
    middles = []
    for index, ply in enumerate(plies):
        low, high = first_player_view(ply.before, ply.ply, shape)
        middles.append(f"{x(index):.1f},{y((low + high) / 2):.1f}")
    # The line first: the plies' links, drawn over it, take every click.
    parts.append(f'<polyline points="{" ".join(middles)}" fill="none" stroke="#2f5fb3" stroke-width="2"/>')
    for index, ply in enumerate(plies):
        low, high = first_player_view(ply.before, ply.ply, shape)
        words = escape(describe(ply.before, shape, ply.ply))
        flagged = f"; {PLAYERS[ply.ply % 2]} {ply.column + 1} changed the outcome" if ply.changed_outcome else ""
        # The link covers the ply's whole column of the graph (an invisible rectangle), not just its thin band or
        # its dot: the one target of that ply, as wide as the graph allows.
        parts.append(
            f'<a href="#ply-{ply.ply}"><title>ply {ply.ply}, {PLAYERS[ply.ply % 2]} to move: {words}'
            f'{flagged}</title><rect class="ply" x="{x(index) - step / 2:.1f}" y="0" width="{step:.1f}" '
            f'height="{GRAPH_HEIGHT}" fill="transparent"/><rect class="band" x="{x(index) - 3:.1f}" '
            f'y="{y(high):.1f}" width="6" height="{max(2.0, y(low) - y(high)):.1f}" fill="#3b6fd4" '
            'opacity=".45"/>'
            + (
                f'<circle class="flagged" cx="{x(index):.1f}" cy="{y((low + high) / 2):.1f}" r="5" fill="#b3261e"/>'
                if ply.changed_outcome
                else ""
            )
            + "</a>"
        )
    parts.append("</svg>")
    return "".join(parts)
