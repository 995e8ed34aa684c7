"""Words the bot shows: colours, move times, rules summaries and the help text (durations and
counted nouns are in :mod:`bot.words`, shared with the service).

Plain functions of plain values (no discord.py types), so the wording is tested directly and the
same sentences appear in the commands, the embeds and docs/COMMANDS.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from render import text_diagram
from rules.fen import parse_fen
from rules.variants import VARIANTS, CaptureChoice, Crowning, Variant, find_variant

from ..enums import ColorChoice, Opening
from ..markdown import ELLIPSIS, shown
from ..markdown import size as text_size
from ..results import GameView
from ..words import plural
from .limits import CONTENT, listing

MOVE_TIMES: tuple[tuple[str, int], ...] = (
    ("5 minutes", 5 * 60),
    ("15 minutes", 15 * 60),
    ("1 hour", 3600),
    ("6 hours", 6 * 3600),
    ("12 hours", 12 * 3600),
    ("1 day", 24 * 3600),
    ("3 days", 3 * 24 * 3600),
    ("7 days", 7 * 24 * 3600),
)
"""The ``move_time`` choices of ``/challenge`` (label, seconds); correspondence-style by default,
as Discord games are played between other things."""

VARIANT_KEYS: tuple[str, ...] = tuple(VARIANTS)
"""The ``variant`` choices, in the order of :data:`rules.variants.VARIANTS`."""

OPENING_WORDS: dict[Opening, str] = {
    Opening.NONE: "none (the usual start)",
    Opening.BALLOT: "ballot (random ACF three-move opening)",
}
"""The ``opening`` choices of ``/challenge``, as Discord lists them."""


def color_word(color: ColorChoice) -> str:
    """``White``/``Black`` for a chosen colour; the random choice reads "random colours"."""
    return {ColorChoice.WHITE: "White", ColorChoice.BLACK: "Black"}.get(color, "random colours")


def moves_text(view: GameView, moves: Sequence[str]) -> str:
    """``/moves``: ``Alice (White) has 3 legal moves: `11-15`, `11-16`, `12-16``` with as many
    moves as one message holds, then how many more there are."""
    assert view.to_move is not None
    captures = " (capturing is compulsory)" if moves and "x" in moves[0] else ""
    head = (
        f"{shown(view.to_move.name)} ({view.turn.capitalize()}) has "
        f"{plural(len(moves), 'legal move')}{captures}: "
    )
    listed = listing(
        [f"`{m}`" for m in moves],
        CONTENT - text_size(head),
        sep=", ",
        more=lambda n: f"{ELLIPSIS} and {n} more",
    )
    return head + listed


def diagram_text(view: GameView, flip: bool) -> str:
    """``/board text:true``: the position as a monospace diagram, for screen readers and for
    anyone who cannot see the picture."""
    position = parse_fen(view.fen, find_variant(view.variant))
    head = f"Game #{view.id}, {shown(view.white.name)} (White) v {shown(view.black.name)} (Black)"
    if view.last_move_shown:
        head += f", last move {view.last_move_shown}"
    body = text_diagram(position, flip=flip)
    room = CONTENT - text_size(head) - 10
    return f"{head}:\n```\n{body[:room]}\n```"


def moves_message(head: str, moves: str) -> str:
    """The whole game's moves (one full move per line) under ``head``, in a code block; when a
    long game does not fit one message, its latest moves, saying where the rest is."""
    lines = moves.splitlines()
    note = ""
    while lines and text_size(head) + sum(len(x) + 1 for x in lines) + len(note) + 12 > CONTENT:
        lines.pop(0)
        note = f"\n{ELLIPSIS} the earlier moves are in `/pdn`."
    body = "\n".join(lines)
    return f"{head}:\n```\n{body}\n```{note}"


def _capture_sentence(v: Variant) -> str:
    men = "forwards and backwards" if v.men_capture_backward else "forwards only"
    choice = (
        "you must take the sequence that captures the most pieces"
        if v.capture_choice is CaptureChoice.MAJORITY
        else "you may choose any capture sequence"
    )
    return f"Capturing is compulsory; {choice}. Men capture {men}."


def _king_sentence(v: Variant) -> str:
    if v.flying_kings:
        return "Kings fly: they move and capture along whole diagonals."
    return "Kings step one square in any diagonal direction."


def _crowning_sentence(v: Variant) -> str:
    return {
        Crowning.ENDS_MOVE: "A man reaching the far row is crowned and the move ends there.",
        Crowning.AT_END: "A man is crowned only if its move ends on the far row.",
        Crowning.CONTINUES_AS_KING: (
            "A man reaching the far row mid-capture is crowned and captures on as a king."
        ),
    }[v.crowning]


ENDGAME_RULES = {
    "16-move endgame rule": (
        "the 16-move endgame rule: when one side has three kings, two kings and a man, or a king "
        "and two men against a lone king, the game is drawn unless it is won within 16 moves "
        "each"
    ),
    "5-move endgame rule": (
        "the 5-move endgame rule: with two kings, a king and a man, or one king against a lone "
        "king, the game is drawn after 5 moves each"
    ),
}
"""Endgame rules known by a name that does not say what they are, explained for ``/rules``
(the others' descriptions already say it)."""


def _draw_sentence(v: Variant) -> str:
    counts = [
        f"after {v.no_progress.description}",
        *(ENDGAME_RULES.get(rule.description, f"after {rule.description}") for rule in v.endgames),
    ]
    text = (
        f"Drawn by agreement, by {_times(v.repetitions)} repetition (the same position with the "
        "same player to move), " + "; ".join(counts) + "."
    )
    if v.draw_offer_count is not None:
        text += (
            f" A player who declines a draw offer has {v.draw_offer_count} moves to show a "
            "decisive advantage, or the game is drawn."
        )
    return text


def _times(n: int) -> str:
    return {2: "twofold", 3: "threefold", 4: "fourfold"}.get(n, f"{n}-fold")


def rules_summary(variant: str) -> tuple[str, list[str]]:
    """``(title, sentences)`` summarising a variant for ``/rules`` (built from the same data the
    move generator reads, so it cannot disagree with the game)."""
    v = find_variant(variant)
    squares = v.geometry.squares
    per_side = v.men_rows * v.geometry.half
    lines = [
        f"{v.size}x{v.size} board, played on the {squares} dark squares; {per_side} men each. "
        f"{v.first.label.capitalize()} moves first.",
        "Men step one square diagonally forwards.",
        _capture_sentence(v),
        _king_sentence(v),
        _crowning_sentence(v),
        "You lose when you cannot move (no pieces or all blocked).",
        _draw_sentence(v),
    ]
    return v.title, lines


HELP_TEXT = """\
**Start a game**: `/challenge opponent:@friend variant:english`. They get Accept and Decline \
buttons; the challenger can Cancel. Challenge me (the bot) to play the computer at once. \
`opening:ballot` starts English from a random ACF three-move ballot; `match:True` plays two \
games with colours swapped.
**Move**: `/move 11-15` (a step) or `/move 22x15` (a capture; multi-captures as `22x15x6`). \
Start typing and the autocomplete lists your legal moves. Numbered squares follow each \
variant's own board (shown on the image); Russian and Brazilian also accept `c3-d4`.
**During the game**: `/board` shows the position again, `/moves` lists the legal moves (only \
you see it), `/draw offer|accept|decline`, `/takeback` (your opponent must agree), `/resign`.
**Time**: each move must be made within the time chosen in the challenge; I remind the player \
halfway and the game is lost on time when it runs out.
**Ratings**: games between two people are rated (Glicko-2, per server and variant). \
`/stats`, `/leaderboard`, `/history`; `/pdn` and `/replay` show any game by its number.
**Elsewhere**: `/games` lists the games running in this server, `/rules variant` summarises a \
variant, moderators use `/settings`. One game runs per channel; a second one opens a thread.
"""
