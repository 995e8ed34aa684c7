"""The move menu on a board message (two taps a move): what it offers, in the game's notation,
within Discord's limits; when the moves do not fit one menu, the pieces (a piece with a single
move standing for that move)."""

from __future__ import annotations

import discord
from test_bot_ui import view_of

from bot.ui.buttons import Buttons
from bot.ui.move_options import PAGE_SIZE, board_menu, legal_moves, page_of, piece_options
from rules import Game, find_variant
from rules.fen import parse_fen

CROWD = [r * 5 + c + 1 for r in (1, 3, 4, 6, 7, 9) for c in range(5)]
"""Thirty squares of a 10x10 board (six of its ten rows) from which kings all have a move."""


def played(variant: str, moves: list[str]) -> Game:
    game = Game(find_variant(variant))
    for move in moves:
        game.play(move)
    return game


def test_every_legal_move_is_on_the_board_when_they_fit() -> None:
    view = view_of(played("english", ["11-15", "23-19"]))
    menu = board_menu(view)
    assert menu is not None and menu.moves and menu.ply == 2
    assert [o.value for o in menu.options] == [m.pdn() for m in legal_moves(view)]
    assert len(menu.options) <= PAGE_SIZE


def test_a_capture_is_written_along_its_path_with_what_it_takes() -> None:
    game = Game(find_variant("english"), parse_fen("W:W27:B23,15,K1", find_variant("english")))
    menu = board_menu(view_of(game))
    assert menu is not None
    (only,) = menu.options
    assert (only.value, only.label, only.description) == ("27x18x11", "27x18x11", "takes 15, 23")


def test_the_board_writes_moves_in_the_games_notation() -> None:
    view = view_of(played("russian", []))
    menu = board_menu(view)
    assert menu is not None
    assert "c3-d4" in [o.label for o in menu.options]
    assert "c3-d4" not in [o.value for o in menu.options]  # sent back as PDN, read by /move


def test_too_many_moves_fall_back_to_the_pieces() -> None:
    variant = find_variant("international")
    game = Game(variant, parse_fen("W:WK46,K28,K35,36:B1,2,3", variant))
    view = view_of(game)
    assert len(legal_moves(view)) > PAGE_SIZE
    menu = board_menu(view)
    assert menu is not None and not menu.moves
    assert len(menu.options) == 4
    by_piece: dict[str, int] = {}
    for move in legal_moves(view):
        by_piece[str(move.path[0])] = by_piece.get(str(move.path[0]), 0) + 1
    for option in menu.options:
        if option.value.isdigit():  # a piece: its moves are shown privately
            assert by_piece[option.value] > 1
        else:  # a piece with one move: the move itself
            assert by_piece[option.value.split("-")[0]] == 1
    assert "36-31" in [o.value for o in menu.options]


def test_more_pieces_than_a_menu_holds_leave_the_board_to_arrows() -> None:
    variant = find_variant("international")
    kings = ",".join(f"K{s}" for s in CROWD)
    view = view_of(Game(variant, parse_fen(f"W:W{kings}:B1,2,3", variant)))
    assert board_menu(view) is None


def test_the_board_menu_fits_discord_and_only_runs_while_the_game_does() -> None:
    view = view_of(played("english", []))
    board = Buttons().game(
        view.id, running=True, abortable=True, rematch=False, menu=board_menu(view)
    )
    items = [getattr(c, "item", c) for c in board.children]  # persistent: the item inside
    (select,) = [c for c in items if isinstance(c, discord.ui.Select)]
    assert select.custom_id == "play:42:0" and len(select.custom_id) <= 100
    assert 1 <= len(select.options) <= 25
    assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in select.options)
    assert len(board.children) <= 25 and len({c.row for c in board.children}) <= 5
    payload = board.to_components()
    assert len(payload) <= 5 and payload[0]["components"][0]["type"] == 3  # the menu, first
    over = view_of(played("english", []), status="aborted")
    assert board_menu(over) is None


def test_a_king_that_may_only_capture_offers_no_step() -> None:
    """Frisian: after three moves in a row with one king (its side has men) the menu offers only
    the other pieces' moves; once another piece has moved, the king's steps come back."""
    variant = find_variant("frisian")
    game = Game(variant, parse_fen("W:W50,K26:BK4", variant))
    for move in ("26-21", "4-10", "21-26", "10-4", "26-21", "4-10"):
        game.play(move)
    menu = board_menu(view_of(game))
    assert menu is not None and menu.moves
    assert [o.value for o in menu.options] == ["50-44", "50-45"]
    game.play("50-44")
    game.play("10-4")
    menu = board_menu(view_of(game))
    assert menu is not None and "21-26" in [o.value for o in menu.options]


def test_thirty_canadian_men_that_can_all_move_are_paged_by_arrows() -> None:
    """12x12: thirty men a side, so (unlike 10x10's twenty) the pieces that can move may not fit
    one menu in a real game; the board then offers none and the Arrows picker pages them, 25 and
    5, every piece once; at the start, the 11 moves of the front row fit the board's menu."""
    variant = find_variant("canadian")
    start = board_menu(view_of(Game(variant)))
    assert start is not None and start.moves
    assert sorted(o.value for o in start.options) == sorted(
        m.pdn() for m in Game(variant).position.legal_moves()
    )
    assert len(start.options) == 11
    rows = [range(r * 6 + 1, r * 6 + 7) for r in (3, 5, 7, 9, 11)]  # every other row
    men = ",".join(str(s) for row in rows for s in row)
    view = view_of(Game(variant, parse_fen(f"W:W{men}:B1,2,3", variant)))
    moves = legal_moves(view)
    assert len({m.path[0] for m in moves}) == 30
    assert board_menu(view) is None
    pieces = piece_options(moves, variant, "numeric")
    pages = [page_of(pieces, page) for page in range(2)]
    assert [(len(options), shown, count) for options, shown, count in pages] == [
        (25, 0, 2),
        (5, 1, 2),
    ]
    assert sorted(int(o.value) for options, _, _ in pages for o in options) == sorted(
        s for row in rows for s in row
    )
    assert max(len(o.label) for o in pieces) <= 100
