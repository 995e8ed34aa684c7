"""``/board text:true``: the text diagram in the reader's language and notation, wrapped so that
a run of squares (``21 to 32``) is never cut across two lines.

The real catalogs (German here), the service's own view builder (``view_of``) and the real rules;
the reader's notation is what ``/prefs`` stores (:class:`bot.results.UserPrefs`).
"""

from __future__ import annotations

import random
import re

from test_bot_ui import view_of

from bot.ui.render_words import render_words
from bot.ui.texts import diagram_text
from render.description import LINE_WIDTH, square_list, text_diagram
from rules import Game, find_variant
from rules.variants import Notation


def russian_game() -> Game:
    game = Game(find_variant("russian"))
    for move in ("c3-d4", "f6-g5", "g3-f4"):
        game.play(move)
    return game


def test_board_text_in_german_with_algebraic_squares_for_a_russian_game() -> None:
    view = view_of(russian_game())
    text = diagram_text(view, False, "de", Notation.ALGEBRAIC)
    body = text.split("```")[1]
    # The catalog's German words: the legend, the side to move and the piece list.
    assert "w = weißer Stein    W = weiße Dame" in body
    assert "Weiße Steine (12):" in body and "Schwarze Steine (12):" in body
    assert "Schwarz ist am Zug." in body
    assert "White" not in body and "men (" not in body and "to move" not in body
    # Algebraic squares, as the reader asked: White's men after c3-d4 and g3-f4.
    pieces = " ".join(body.split())
    assert re.search(r"Weiße Steine \(12\): a1, c1, e1, g1, b2, d2, f2, h2, a3, e3, d4, f4", pieces)
    # The rows carry no PDN numbers beside them in algebraic notation.
    assert "1–4" not in body
    # The same reader preferring PDN numbers gets them (German words still).
    numeric = diagram_text(view, False, "de", Notation.NUMERIC).split("```")[1]
    assert "1–4" in numeric
    assert "Weiße Steine (12): 18, 19, 21, 23, 25 bis 32." in " ".join(numeric.split())
    # No preference: the variant's own convention (algebraic for Russian).
    assert diagram_text(view, False, "de", None) == text


def _runs(listed: str, run: str) -> list[str]:
    """The runs of squares (``5 to 8``) in a square list written with ``run``'s template."""
    pattern = re.escape(run).replace(r"\{first\}", r"\d+").replace(r"\{last\}", r"\d+")
    return re.findall(pattern, listed)


def test_a_run_of_squares_is_never_cut_across_two_lines() -> None:
    """Random International positions, English and German: every run ``a to b`` of a piece
    list stands whole on one line of the diagram, and every line fits :data:`LINE_WIDTH`."""
    rng = random.Random(28)
    variant = find_variant("international")
    checked = 0
    for code in ("en", "de"):
        words = render_words(code)
        for _ in range(60):
            game = Game(variant)
            for _ in range(rng.randrange(4, 40)):
                moves = game.legal_moves()
                if not moves or game.is_over:
                    break
                game.play(rng.choice(moves))
            position = game.position
            diagram = text_diagram(position, words=words)
            lines = diagram.splitlines()
            assert all(len(line) <= LINE_WIDTH for line in lines)
            by_kind: dict[int, list[int]] = {}
            for square, kind in position.iter_pieces():
                by_kind.setdefault(kind, []).append(square)
            for squares in by_kind.values():
                listed = square_list(position, squares, "numeric", words)
                for run in _runs(listed, words.run):
                    assert any(run in line for line in lines), (run, diagram)
                    checked += 1
    assert checked > 100  # the positions did hold runs to check
