"""Words the bot shows: colours, move times, rules summaries and the help text (lengths of time
and counted nouns come from :mod:`bot.i18n`).

Plain functions of plain values (no discord.py types), so the wording is tested directly and the
same sentences appear in the commands, the embeds and docs/COMMANDS.md.  Words are catalog
messages (:class:`bot.i18n.Text`); a function that fits its words into one message takes the
reader's language ``code`` and returns them rendered.
"""

from __future__ import annotations

from collections.abc import Sequence

from render import text_diagram
from rules.fen import parse_fen
from rules.variants import (
    VARIANTS,
    Notation,
    find_variant,
)

from ..enums import BoardTheme, ColorChoice, Opening, Side
from ..i18n import N_, Text, _, _n, _p, as_text, render, verbatim
from ..markdown import ELLIPSIS, shown
from ..markdown import size as text_size
from ..results import GameView
from .limits import CONTENT, listing
from .render_words import render_words

MOVE_TIMES: tuple[tuple[str, int], ...] = (
    (N_("5 minutes"), 5 * 60),
    (N_("15 minutes"), 15 * 60),
    (N_("1 hour"), 3600),
    (N_("6 hours"), 6 * 3600),
    (N_("12 hours"), 12 * 3600),
    (N_("1 day"), 24 * 3600),
    (N_("3 days"), 3 * 24 * 3600),
    (N_("7 days"), 7 * 24 * 3600),
)
"""The ``move_time`` choices of ``/challenge`` (label, seconds); correspondence-style by default,
as Discord games are played between other things.  The labels are choice names (translated by
the slash commands' translator)."""

VARIANT_KEYS: tuple[str, ...] = tuple(VARIANTS)
"""The ``variant`` choices, in the order of :data:`rules.variants.VARIANTS`."""

OPENING_WORDS: dict[Opening, str] = {
    Opening.NONE: N_("none (the usual start)"),
    Opening.BALLOT: N_("ballot (random ACF three-move opening)"),
}
"""The ``opening`` choices of ``/challenge``, as Discord lists them."""


def color_word(color: ColorChoice) -> Text:
    """``White``/``Black`` for a chosen colour; the random choice reads "random colours"."""
    if color == ColorChoice.WHITE:
        return _p("side", "White")
    if color == ColorChoice.BLACK:
        return _p("side", "Black")
    return _("random colours")


def theme_word(theme: BoardTheme | str) -> Text:
    """A board theme's name (``wood``) as shown in the settings and preferences."""
    if theme == BoardTheme.WOOD:
        return _p("board theme", "wood")
    if theme == BoardTheme.GREEN:
        return _p("board theme", "green")
    if theme == BoardTheme.CONTRAST:
        return _p("board theme", "contrast")
    return verbatim(str(theme))


def _moves_head(view: GameView, count: int, captures: bool, moves: str) -> Text:
    assert view.to_move is not None
    name = verbatim(shown(view.to_move.name))
    listed = verbatim(moves)
    if view.turn == Side.WHITE:
        if captures:
            return _n(
                "{name} (White) has {count} legal move (capturing is compulsory): {moves}",
                "{name} (White) has {count} legal moves (capturing is compulsory): {moves}",
                count,
                name=name,
                moves=listed,
            )
        return _n(
            "{name} (White) has {count} legal move: {moves}",
            "{name} (White) has {count} legal moves: {moves}",
            count,
            name=name,
            moves=listed,
        )
    if captures:
        return _n(
            "{name} (Black) has {count} legal move (capturing is compulsory): {moves}",
            "{name} (Black) has {count} legal moves (capturing is compulsory): {moves}",
            count,
            name=name,
            moves=listed,
        )
    return _n(
        "{name} (Black) has {count} legal move: {moves}",
        "{name} (Black) has {count} legal moves: {moves}",
        count,
        name=name,
        moves=listed,
    )


def moves_text(view: GameView, moves: Sequence[str], code: str) -> str:
    """``/moves``: ``Alice (White) has 3 legal moves: `11-15`, `11-16`, `12-16``` with as many
    moves as one message holds, then how many more there are, in the language ``code``."""
    captures = bool(moves) and "x" in moves[0]
    rest = render(_moves_head(view, len(moves), captures, ""), code)

    def more(n: int) -> str:
        return render(
            _n("{ellipsis} and {count} more", "{ellipsis} and {count} more", n, ellipsis=ELLIPSIS),
            code,
        )

    listed = listing([f"`{m}`" for m in moves], CONTENT - text_size(rest), sep=", ", more=more)
    return render(_moves_head(view, len(moves), captures, listed), code)


def diagram_text(view: GameView, flip: bool, code: str, notation: Notation | None) -> str:
    """``/board text:true``: the position as a monospace diagram, for screen readers and for
    anyone who cannot see the picture, in the reader's language ``code`` and notation (their
    ``/prefs``; None: the variant's own convention)."""
    position = parse_fen(view.fen, find_variant(view.variant))
    white, black = verbatim(shown(view.white.name)), verbatim(shown(view.black.name))
    if view.last_move_shown:
        head = _(
            "Game #{id}, {white} (White) v {black} (Black), last move {move}",
            id=view.id,
            white=white,
            black=black,
            move=verbatim(view.last_move_shown),
        )
    else:
        head = _(
            "Game #{id}, {white} (White) v {black} (Black)", id=view.id, white=white, black=black
        )
    words = render(head, code)
    body = text_diagram(
        position, flip=flip, notation=str(notation or view.notation), words=render_words(code)
    )
    room = CONTENT - text_size(words) - 10
    return f"{words}:\n```\n{body[:room]}\n```"


def moves_message(head: Text | str, moves: str, code: str) -> str:
    """The whole game's moves (one full move per line) under ``head``, in a code block; when a
    long game does not fit one message, its latest moves, saying where the rest is."""
    words = render(as_text(head), code)
    lines = moves.splitlines()
    note = ""
    while lines and text_size(words) + sum(len(x) + 1 for x in lines) + len(note) + 12 > CONTENT:
        lines.pop(0)
        earlier = _("{ellipsis} the earlier moves are in `/pdn`.", ellipsis=ELLIPSIS)
        note = "\n" + render(earlier, code)
    body = "\n".join(lines)
    return f"{words}:\n```\n{body}\n```{note}"


# -- /help ------------------------------------------------------------------------------------


def help_paragraphs() -> list[Text]:
    """``/help``: one paragraph per topic.  The commands, their options and values in backticks
    are what the user types, kept as they are."""
    return [
        # Translators: the text in backticks is typed by the user: keep the commands, options and
        # values as they are (names of buttons, like Accept, are translated as the buttons are).
        _(
            "**Start a game**: `/challenge opponent:@friend variant:english`. They get Accept and "
            "Decline buttons; the challenger can Cancel. Challenge me (the bot) to play the "
            "computer at once. `opening:ballot` starts English from a random ACF three-move "
            "ballot; `match:True` plays two games with colours swapped."
        ),
        # Translators: keep the text in backticks as it is (typed by the user); Accept is the
        # button's name.
        _(
            "**Open challenges**: `/challenge` without an opponent lets anyone here accept; "
            "`min_rating` and `max_rating` limit who may. `/lobby` lists this server's open "
            "challenges, each with an Accept button."
        ),
        # Translators: keep the text in backticks as it is (typed by the user); Hint is the
        # button's name.
        _(
            "**From a position**: `/challenge position:W:W21,22,25:B9,10,K30` starts from that "
            "position (a FEN), unrated. In a game against me, Hint under the board shows my move "
            "privately as an arrow; the game counts the hints taken."
        ),
        # Translators: the names of the board's buttons and menu (Arrows, Move list, More, Offer
        # draw, Resign) are translated as the buttons are.
        _(
            "**Play by tapping**: under the board, open the move menu and tap your move, two "
            "taps a move. When your moves do not fit in it, the menu lists your pieces: tap one "
            "and pick its move, shown privately. Arrows shows your side of the board with your "
            "moves drawn as arrows, Move list the game so far, and More what else you can do: "
            "offer or answer a draw, ask for a takeback, resign (asked once more), or abort "
            "before both players have moved."
        ),
        # Translators: keep the text in backticks as it is (typed by the user).
        _(
            "**Move**: `/move 11-15` (a step) or `/move 22x15` (a capture; multi-captures as "
            "`22x15x6`). Start typing and the autocomplete lists your legal moves. Numbered "
            "squares follow each variant's own board (shown on the image); Russian, Brazilian "
            "and Czech also accept `c3-d4`."
        ),
        # Translators: keep the text in backticks as it is (typed by the user).
        _(
            "**During the game**: `/board` shows the position again, `/moves` lists the legal "
            "moves (only you see it), `/draw offer|accept|decline`, `/takeback` (your opponent "
            "must agree), `/resign`."
        ),
        _(
            "**Time**: each move must be made within the time chosen in the challenge; I remind "
            "the player halfway and the game is lost on time when it runs out."
        ),
        # Translators: keep the text in backticks as it is (typed by the user).
        _(
            "**Clocks**: `/challenge opponent:@friend clock:3+2` plays a live game: 3 minutes "
            "each, 2 seconds added per move; the board counts down to the flag. Bullet, blitz, "
            "rapid, classical and correspondence games each have their own rating: "
            "`/stats pool:blitz`."
        ),
        # Translators: keep the text in backticks as it is (typed by the user).
        _(
            "**Ratings**: games between two people are rated (Glicko-2, per server and variant). "
            "`/stats`, `/leaderboard`, `/history`; `/pdn` and `/replay` show any game by its "
            "number."
        ),
        # Translators: keep the text in backticks as it is (typed by the user); Analyse is the
        # button's name.
        _(
            "**Learn from a game**: press Analyse under a finished game's final board, or "
            "`/analyse game:12` (a number from `/history`; without it, this channel's last "
            "finished game). You get the engine's graph of the game, each side's inaccuracies, "
            "mistakes and blunders with the better move, an accuracy figure, and the record "
            "with the engine's comments as a PDN file."
        ),
        # Translators: keep the text in backticks as it is (typed by the user); Join is the
        # button's name.
        _(
            "**Tournaments**: a moderator starts a Swiss, a round robin or an arena with "
            "`/tournament create format:swiss` in a channel; players press Join on its "
            "announcement, and I pair each round and open every game in a thread of its own. "
            "`/tournament standings` shows the table, `/history tournaments:True` the finished "
            "events."
        ),
        # Translators: keep the text in backticks as it is (typed by the user); Replay, Analyse
        # and Play from here are the buttons' names.
        _(
            "**Import a game**: `/import` with a PDN file (or its text pasted) shows the game "
            "here as a replay, with Replay, Analyse and Play from here buttons: play on from any "
            "of its positions against anyone or against me."
        ),
        # Translators: keep the text in backticks as it is (typed by the user); Hint and Solve
        # are the buttons' names.
        _(
            "**Puzzles**: `/puzzle solve` gives you a puzzle from this server's games, privately: "
            "find the best move by tapping, and I answer until the line ends (Hint shows the "
            "piece to move; a solve with a hint counts half). `/puzzle rating`, "
            "`/puzzle leaderboard`; moderators choose where the daily puzzle goes with "
            "`/puzzle daily`."
        ),
        # Translators: keep the text in backticks as it is (typed by the user).
        _(
            "**Elsewhere**: `/games` lists the games running in this server, `/rules variant` "
            "summarises a variant, moderators use `/settings`. One game runs per channel; a "
            "second one opens a thread."
        ),
    ]
