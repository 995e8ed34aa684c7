"""The renderer's words in a reader's language: what the board image, the replay GIF, the alt text
and the text diagram say (:class:`render.words.RenderWords`), from the catalogs.

:mod:`render` knows no language and must not import the bot, so it takes its words as templates
with ``{name}`` placeholders that it fills itself: each template here is the catalog's pattern,
left unfilled (:func:`bot.i18n.template`).  The literals are the renderer's English exactly, so
English comes out as it always did.  Built once per language (the renderer is a hot path).

A :class:`RenderWords` for another language holds functions made here (the plural forms), so it is
not sent to another process: the replay worker is given the language code and calls
:func:`render_words` itself.
"""

from __future__ import annotations

from functools import cache

from render.words import RenderWords, english_ordinal

from ..i18n import SOURCE, Text, _n, _p, template
from ..words import TERMINATIONS, VARIANT_TITLES


def render_words(code: str) -> RenderWords:
    """The renderer's words in the language ``code`` (a catalog code; in English they read
    exactly as the renderer's own defaults, :data:`render.words.ENGLISH`)."""
    return _build(code)


@cache
def _build(code: str) -> RenderWords:
    def t(text: Text) -> str:
        return template(text, code)

    def white_captured(count: int) -> str:
        return t(
            _n(
                "Last move: White {move}, capturing {count} piece on {squares}.",
                "Last move: White {move}, capturing {count} pieces on {squares}.",
                count,
            )
        )

    def black_captured(count: int) -> str:
        return t(
            _n(
                "Last move: Black {move}, capturing {count} piece on {squares}.",
                "Last move: Black {move}, capturing {count} pieces on {squares}.",
                count,
            )
        )

    return RenderWords(
        white=t(_p("side", "White")),
        black=t(_p("side", "Black")),
        white_to_move=t(_p("board image", "White to move")),
        black_to_move=t(_p("board image", "Black to move")),
        # Translators: {number} is the number of the move about to be played.
        move_number=t(_p("board image", "move {number}")),
        start_white=t(_p("board image", "Start · White to move")),
        start_black=t(_p("board image", "Start · Black to move")),
        # Translators: "12. White 11-15": {number}{dots} is the move's number as PDN writes it.
        white_moved=t(_p("board image", "{number}{dots} White {move}")),
        black_moved=t(_p("board image", "{number}{dots} Black {move}")),
        # Translators: the last frame of a replay: "40. White 22x15 · 1-0 no legal moves".
        ending=t(_p("board image", "{move} · {result} {words}")),
        endings=tuple((words, t(text)) for words, text in TERMINATIONS.items()),
        shrunk=t(_p("replay", "Drawn at {size} px instead of {width} px to stay under the limit.")),
        # Translators: {ordinal} is a plain number here (2, 3...) in every language but
        # English ("2nd"): write it as "one position in {ordinal}" or "every {ordinal}th".
        thinned=t(
            _p(
                "replay",
                "Shows every {ordinal} position ({shown} of {total}) to stay under the limit.",
            )
        ),
        ordinal=english_ordinal if code == SOURCE else str,
        board=t(_p("board description", "{title}, {size}x{size} board.")),
        titles=tuple((key, t(text)) for key, text in VARIANT_TITLES.items()),
        white_to_move_sentence=t(_p("board description", "White to move.")),
        black_to_move_sentence=t(_p("board description", "Black to move.")),
        white_last_move=t(_p("board description", "Last move: White {move}.")),
        black_last_move=t(_p("board description", "Last move: Black {move}.")),
        white_captured=white_captured,
        black_captured=black_captured,
        white_men=t(_p("board description", "White men")),
        white_kings=t(_p("board description", "White kings")),
        black_men=t(_p("board description", "Black men")),
        black_kings=t(_p("board description", "Black kings")),
        # Translators: "White men (12): 21 to 32." {kind} is "White men" and so on.
        pieces=t(_p("board description", "{kind} ({count}): {squares}.")),
        no_pieces=t(_p("board description", "{kind}: none.")),
        # Translators: a run of PDN square numbers, "21 to 32".
        run=t(_p("board description", "{first} to {last}")),
        none=t(_p("board description", "none")),
        # Translators: the letters w, W, b, B and . stand for pieces in the text diagram; keep them.
        legend_white=t(_p("board description", "w = white man    W = white king")),
        legend_black=t(_p("board description", "b = black man    B = black king")),
        legend_empty=t(_p("board description", ". = empty square")),
        legend_empty_numbers=t(_p("board description", ". = empty square; right: PDN squares")),
    )
