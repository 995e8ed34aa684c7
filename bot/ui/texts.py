"""Words the bot shows: colours, move times, rules summaries and the help text (lengths of time
and counted nouns come from :mod:`bot.i18n`).

Plain functions of plain values (no discord.py types), so the wording is tested directly and the
same sentences appear in the commands, the embeds and docs/COMMANDS.md.  Words are catalog
messages (:class:`bot.i18n.Text`); a function that fits its words into one message takes the
reader's language ``code`` and returns them rendered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from render import text_diagram
from rules.fen import parse_fen
from rules.geometry import Numbering
from rules.variants import (
    VARIANTS,
    Crowning,
    EndgameRule,
    Goal,
    NoProgressRule,
    Notation,
    Precedence,
    Variant,
    find_variant,
)

from ..enums import BoardTheme, ColorChoice, Opening, Side
from ..i18n import N_, Text, _, _n, _p, as_text, clauses, join, render, verbatim
from ..markdown import ELLIPSIS, shown
from ..markdown import size as text_size
from ..results import GameView
from ..words import variant_title
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

DrawRule: TypeAlias = NoProgressRule | EndgameRule

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


# -- /rules ----------------------------------------------------------------------------------


def _board_sentence(v: Variant) -> Text:
    squares = v.geometry.squares
    per_side = v.men_rows * v.geometry.half
    if v.first.label == "white":
        return _n(
            "{size}x{size} board, played on the {squares} dark squares; {count} man each. "
            "White moves first.",
            "{size}x{size} board, played on the {squares} dark squares; {count} men each. "
            "White moves first.",
            per_side,
            size=v.size,
            squares=squares,
        )
    return _n(
        "{size}x{size} board, played on the {squares} dark squares; {count} man each. "
        "Black moves first.",
        "{size}x{size} board, played on the {squares} dark squares; {count} men each. "
        "Black moves first.",
        per_side,
        size=v.size,
        squares=squares,
    )


def _capture_sentence(v: Variant) -> Text:
    if v.capture_precedence == tuple(Precedence):
        return _(
            "Capturing is compulsory; you must take the most pieces, then (if equal) capture with "
            "a king rather than a man, take the most kings, and take the kings as early as "
            "possible. Men capture forwards only and cannot take kings."
        )
    if v.capture_precedence == (Precedence.WITH_KING,):
        return _(
            "Capturing is compulsory; when a king can capture, a king must. Otherwise you may "
            "choose any capture sequence. Men capture forwards only."
        )
    most = Precedence.MOST_PIECES in v.capture_precedence
    if v.capture_precedence == (Precedence.MOST_PIECES, Precedence.MOST_KINGS):
        return _(
            "Capturing is compulsory; you must take the most pieces and, among sequences that take "
            "as many, the most kings. Men capture forwards only."
        )
    if most and v.men_capture_backward:
        return _(
            "Capturing is compulsory; you must take the sequence that captures the most pieces. "
            "Men capture forwards and backwards."
        )
    if most:
        return _(
            "Capturing is compulsory; you must take the sequence that captures the most pieces. "
            "Men capture forwards only."
        )
    if v.men_capture_backward:
        return _(
            "Capturing is compulsory; you may choose any capture sequence. "
            "Men capture forwards and backwards."
        )
    return _(
        "Capturing is compulsory; you may choose any capture sequence. Men capture forwards only."
    )


def _king_sentence(v: Variant) -> Text:
    if v.flying_kings and v.king_stops_behind:
        return _(
            "Kings fly, but a capturing king lands on the square just beyond the piece it takes."
        )
    if v.flying_kings:
        return _("Kings fly: they move and capture along whole diagonals.")
    return _("Kings step one square in any diagonal direction.")


def _removal_sentence(v: Variant) -> Text | None:
    if v.captures_removed_at_once:
        return _(
            "Each captured piece leaves the board at once, so the capturing piece may cross its "
            "square again."
        )
    return None


def _crowning_sentence(v: Variant) -> Text:
    if v.crowning is Crowning.ENDS_MOVE:
        return _("A man reaching the far row is crowned and the move ends there.")
    if v.crowning is Crowning.AT_END:
        return _("A man is crowned only if its move ends on the far row.")
    return _("A man reaching the far row mid-capture is crowned and captures on as a king.")


def _goal_sentence(v: Variant) -> Text:
    if v.goal is Goal.GIVE_AWAY:
        return _(
            "The goal is reversed: you win when you cannot move (no pieces left or all blocked)."
        )
    if v.goal is Goal.FIRST_KING:
        return _(
            "The first player to crown a man wins at once. You also lose when you cannot move."
        )
    return _("You lose when you cannot move (no pieces or all blocked).")


def _without_man_move(moves: int) -> Text:
    return _n(
        "after {count} move each without a man move or capture",
        "after {count} moves each without a man move or capture",
        moves,
    )


def _without_capture_or_crowning(moves: int) -> Text:
    return _n(
        "after {count} move each without capture or crowning",
        "after {count} moves each without capture or crowning",
        moves,
    )


def _only_king_moves(moves: int) -> Text:
    return _n(
        "after {count} move each with only king moves",
        "after {count} moves each with only king moves",
        moves,
    )


def _three_kings(moves: int) -> Text:
    return _n(
        "after three kings against one king not won in {count} move",
        "after three kings against one king not won in {count} moves",
        moves,
    )


def _fmjd_three_pieces(moves: int) -> Text:
    # Translators: the name of the rule, then what it says.
    return _n(
        "the {count}-move endgame rule: when one side has three kings, two kings and a man, or a "
        "king and two men against a lone king, the game is drawn unless it is won within {count} "
        "move each",
        "the {count}-move endgame rule: when one side has three kings, two kings and a man, or a "
        "king and two men against a lone king, the game is drawn unless it is won within {count} "
        "moves each",
        moves,
    )


def _fmjd_two_pieces(moves: int) -> Text:
    # Translators: the name of the rule, then what it says.
    return _n(
        "the {count}-move endgame rule: with two kings, a king and a man, or one king against a "
        "lone king, the game is drawn after {count} move each",
        "the {count}-move endgame rule: with two kings, a king and a man, or one king against a "
        "lone king, the game is drawn after {count} moves each",
        moves,
    )


def _small_endgame(low: int, high: int) -> Callable[[int], Text]:
    def clause(moves: int) -> Text:
        return _n(
            "after {low}-{high} piece endgame with kings: {count} move without capture or crowning",
            "after {low}-{high} piece endgame with kings: {count} moves without capture or "
            "crowning",
            moves,
            low=low,
            high=high,
        )

    return clause


_ENGLISH, _DAME, _POOL = VARIANTS["english"], VARIANTS["dame"], VARIANTS["pool"]
_FMJD, _RUSSIAN, _SPANISH = VARIANTS["international"], VARIANTS["russian"], VARIANTS["spanish"]


def _counted(variant: Variant) -> NoProgressRule:
    """The no-progress rule of a variant that has one."""
    if variant.no_progress is None:
        raise ValueError(f"{variant.key} has no no-progress rule")
    return variant.no_progress


DRAW_CLAUSES: dict[DrawRule, Callable[[int], Text]] = {
    _counted(_ENGLISH): _without_man_move,
    _counted(_POOL): _without_man_move,
    _counted(_DAME): _without_capture_or_crowning,
    _counted(_FMJD): _only_king_moves,
    _counted(_RUSSIAN): _only_king_moves,
    _counted(_SPANISH): _only_king_moves,
    _POOL.endgames[0]: _three_kings,
    _RUSSIAN.endgames[0]: _three_kings,
    _FMJD.endgames[0]: _fmjd_three_pieces,
    _FMJD.endgames[1]: _fmjd_two_pieces,
    _RUSSIAN.endgames[1]: _small_endgame(2, 3),
    _RUSSIAN.endgames[2]: _small_endgame(4, 5),
    _RUSSIAN.endgames[3]: _small_endgame(6, 7),
}
"""How ``/rules`` says each draw rule of :mod:`rules.variants` (the rule's number of moves fills
``{count}``; the English reads ``after`` and the rule's description, except that endgame rules
known by a name that does not say what they are, ``16-move endgame rule``, are explained)."""


def draw_clause(rule: DrawRule) -> Text:
    """``after 40 moves each without a man move or capture``: one of the ways a game is drawn."""
    clause = DRAW_CLAUSES.get(rule)
    if clause is None:  # a rule added to rules.variants and not (yet) worded here
        return _("after {rule}", rule=verbatim(rule.description))
    return clause(rule.moves)


def _repetition(n: int) -> Text:
    if n == 2:
        return _("twofold repetition")
    if n == 3:
        return _("threefold repetition")
    if n == 4:
        return _("fourfold repetition")
    return _("{times}-fold repetition", times=n)


def _draw_sentence(v: Variant) -> Text:
    rules = [draw_clause(rule) for rule in (v.no_progress, *v.endgames) if rule is not None]
    if rules:
        # Translators: {repetition} is e.g. "threefold repetition"; {rules} the variant's other
        # draw rules, separated by semicolons.
        drawn = _(
            "Drawn by agreement, by {repetition} (the same position with the same player to "
            "move), {rules}.",
            repetition=_repetition(v.repetitions),
            rules=clauses(rules),
        )
    else:
        # Translators: {repetition} is e.g. "threefold repetition".
        drawn = _(
            "Drawn by agreement or by {repetition} (the same position with the same player to "
            "move); there is no move-count draw.",
            repetition=_repetition(v.repetitions),
        )
    offer = None
    if v.draw_offer_count is not None:
        offer = _n(
            "A player who declines a draw offer has {count} move to show a decisive advantage, "
            "or the game is drawn.",
            "A player who declines a draw offer has {count} moves to show a decisive advantage, "
            "or the game is drawn.",
            v.draw_offer_count,
        )
    return join([drawn, offer])


def rules_summary(variant: str) -> tuple[Text, list[Text]]:
    """``(title, sentences)`` summarising a variant for ``/rules`` (built from the same data the
    move generator reads, so it cannot disagree with the game)."""
    v = find_variant(variant)
    lines = [
        _board_sentence(v),
        _("Men step one square diagonally forwards."),
        _capture_sentence(v),
        _king_sentence(v),
        _removal_sentence(v),
        _crowning_sentence(v),
        _goal_sentence(v),
        _draw_sentence(v),
    ]
    return variant_title(v), [line for line in lines if line is not None]


def notation_note(variant: str) -> Text:
    """How moves are written in ``variant`` (the footer of ``/rules``)."""
    v = find_variant(variant)
    if v.notation == "algebraic":
        return _(
            "Notation: squares are named by file and rank (a1 bottom left, as on the board "
            "image); c3-d4 is a step, c3:e5 a capture. Numbers (PDN) work too."
        )
    if v.numbering is Numbering.BOTTOM_RIGHT:
        g = v.geometry
        return _(
            "Notation: squares are numbered on the board image from White's side, 1 in White's "
            "near right corner ({square}); 9-13 is a step, 13x22 a capture.",
            square=verbatim(g.names[g.square_by_number[1]]),
        )
    return _("Notation: squares are numbered on the board image; 11-15 is a step, 22x15 a capture.")


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
