"""Rules every variant has, each checked once over all the variants it applies to, with every
variant's own data (positions, moves, results, words) side by side: where the variants agree it
shows, and where they differ the difference is one line of data, not a copied test.

What only one variant does stays in its own file (``test_rules_<variant>.py``).  Squares are PDN
numbers: on 8x8 1 = b8, 4 = h8, 29 = a1, 32 = g1, White moving up towards 1; on 10x10
(international) 1 = b10, 46 = a1, 50 = i1.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from support.rules_support import (
    blunder_and_capture,
    find,
    game,
    is_man_move,
    pdns,
    pos,
    walk_but_last,
)

from rules.game import Game, GameEndedError
from rules.notation import CaptureRequiredError
from rules.outcome import Termination
from rules.position import BLACK_KING, BLACK_MAN, EMPTY, WHITE_KING, WHITE_MAN, Position
from rules.variants import BRAZILIAN, DAME, ENGLISH, INTERNATIONAL, POOL, RUSSIAN, Color, Variant

ALL = [ENGLISH, DAME, POOL, RUSSIAN, BRAZILIAN, INTERNATIONAL]
EIGHT_BY_EIGHT = [ENGLISH, DAME, POOL, RUSSIAN, BRAZILIAN]
SHORT_KINGS = [ENGLISH, DAME]
FLYING_KINGS_8X8 = [POOL, RUSSIAN, BRAZILIAN]
MEN_CAPTURE_BACKWARD = [POOL, RUSSIAN, BRAZILIAN, INTERNATIONAL]


def over(variants: list[Variant]) -> pytest.MarkDecorator:
    """Parametrise a test's ``variant`` over ``variants``, named by their keys."""
    return pytest.mark.parametrize("variant", variants, ids=lambda v: v.key)


@dataclass(frozen=True)
class Results:
    """A White win, a draw and a Black win as the variant writes them: international scores
    2-0 / 1-1 / 0-2, so the results are data, not literals in the tests."""

    white: str
    draw: str
    black: str


RESULTS = {v.key: Results("1-0", "1/2-1/2", "0-1") for v in EIGHT_BY_EIGHT}
RESULTS[INTERNATIONAL.key] = Results("2-0", "1-1", "0-2")


# -- board and start ----------------------------------------------------------------------------


BOARDS = {
    **{
        v.key: (8, 32, range(1, 13), range(21, 33), {29: "a1", 1: "b8", 4: "h8", 32: "g1"})
        for v in EIGHT_BY_EIGHT
    },
    INTERNATIONAL.key: (10, 50, range(1, 21), range(31, 51), {1: "b10", 46: "a1", 50: "i1"}),
}


@over(ALL)
def test_board_and_men_on_the_nearest_rows(variant):
    size, squares, black_men, white_men, names = BOARDS[variant.key]
    start = Position.start(variant)
    assert variant.size == size
    assert variant.geometry.squares == squares
    assert start.squares(start.black_men) == list(black_men)
    assert start.squares(start.white_men) == list(white_men)
    assert start.white_kings == start.black_kings == 0
    # a1 is a dark square at White's near left.
    for square, name in names.items():
        assert variant.geometry.names[square] == name


BLACK_OPENINGS = ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
WHITE_OPENINGS_8X8 = ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
FIRST_MOVES = {
    ENGLISH.key: (Color.BLACK, BLACK_OPENINGS),
    DAME.key: (Color.BLACK, BLACK_OPENINGS),
    POOL.key: (Color.BLACK, BLACK_OPENINGS),
    RUSSIAN.key: (Color.WHITE, WHITE_OPENINGS_8X8),
    BRAZILIAN.key: (Color.WHITE, WHITE_OPENINGS_8X8),
    INTERNATIONAL.key: (
        Color.WHITE,
        ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"],
    ),
}


@over(ALL)
def test_who_moves_first_and_the_first_moves(variant):
    first, moves = FIRST_MOVES[variant.key]
    start = Position.start(variant)
    assert start.turn is first
    assert Game(variant).turn is first
    assert pdns(start) == moves
    assert all(start.color_at(m.start) is first for m in start.legal_moves())


# -- men ----------------------------------------------------------------------------------------

MEN_STEPS = {
    **{v.key: [("W:W18:B1", ["18-14", "18-15"]), ("B:W32:B18", ["18-22", "18-23"])]
       for v in EIGHT_BY_EIGHT},
    INTERNATIONAL.key: [("W:W28:B1", ["28-22", "28-23"]), ("B:W50:B23", ["23-28", "23-29"])],
}  # fmt: skip


@over(ALL)
def test_men_step_diagonally_forward_one_square_only(variant):
    # A White man on d4 (18; e5 on 10x10, 28) and a Black one: two forward steps each, never back.
    for fen, moves in MEN_STEPS[variant.key]:
        assert pdns(pos(fen, variant)) == moves, fen


@over(SHORT_KINGS)
def test_men_capture_forward_only(variant):
    # White man d4 (18), black men behind it on c3 (22) and e3 (23) with b2/f2 free: no
    # capture, only the forward steps.
    assert pdns(pos("W:W18:B22,23", variant)) == ["18-14", "18-15"]
    # A black man in front, on c5 (14) with b6 (9) free, must be taken.
    assert pdns(pos("W:W18:B14,23", variant)) == ["18x9"]


BACKWARD_CAPTURES = {
    **{
        v.key: [
            # White man d4 (18), black man c3 (22) behind it, b2 (25) free: 18x25.
            ("W:W18:B22", "18x25", 22, WHITE_MAN),
            # Black man d4 takes the white man e5 (15) behind it, landing on f6 (11).
            ("B:W15:B18", "18x11", 15, BLACK_MAN),
        ]
        for v in FLYING_KINGS_8X8
    },
    # White man e5 (28), black man f4 (33) behind it, g3 (39) free.
    INTERNATIONAL.key: [("W:W28:B33", "28x39", 33, WHITE_MAN)],
}


@over(MEN_CAPTURE_BACKWARD)
def test_men_capture_backward(variant):
    for fen, text, taken, man in BACKWARD_CAPTURES[variant.key]:
        p = pos(fen, variant)
        assert pdns(p) == [text]
        move = find(p, text)
        after = p.play(move)
        assert after.piece_at(taken) == EMPTY
        assert after.piece_at(move.end) == man


@over(EIGHT_BY_EIGHT)
def test_men_may_capture_kings(variant):
    # White man c3 (22) takes the black king on d4 (18), landing on e5 (15).
    p = pos("W:W22:BK18", variant)
    assert pdns(p) == ["22x15"]
    after = p.play(find(p, "22x15"))
    assert after.piece_at(18) == EMPTY
    assert after.piece_at(15) == WHITE_MAN
    # And a black man takes a white king.
    assert pdns(pos("B:WK22:B18", variant)) == ["18x25"]


# -- kings --------------------------------------------------------------------------------------


@over(SHORT_KINGS)
def test_kings_step_one_square_in_all_four_directions(variant):
    # King d4 (18) on an otherwise empty board: c5, e5, c3, e3 -- not b6, f6, b2, f2.
    assert pdns(pos("W:WK18:B1", variant)) == ["18-14", "18-15", "18-22", "18-23"]
    assert pdns(pos("B:W32:BK18", variant)) == ["18-14", "18-15", "18-22", "18-23"]


@over(SHORT_KINGS)
def test_kings_capture_one_square_in_all_four_directions_and_do_not_fly(variant):
    # King d4 (18) with a black man on e3 (23) behind it: captures backwards to f2 (27).
    assert pdns(pos("W:WK18:B23", variant)) == ["18x27"]
    # King a1 (29) with a black man on e5 (15) far along the diagonal: no flying capture.
    assert pdns(pos("W:WK29:B15", variant)) == ["29-25"]
    # King d4 with men on all four sides and all landing squares free: four captures.
    assert pdns(pos("W:WK18:B14,15,22,23", variant)) == ["18x11", "18x25", "18x27", "18x9"]


@over(FLYING_KINGS_8X8)
def test_flying_kings_step_any_number_of_free_squares(variant):
    # King a1 (29) on the empty long diagonal: b2 .. h8, seven moves.
    assert pdns(pos("W:WK29:B1", variant)) == [
        "29-11", "29-15", "29-18", "29-22", "29-25", "29-4", "29-8"
    ]  # fmt: skip
    # An own man on c3 (22) blocks the way.
    assert pdns(pos("W:WK29,22:B1", variant)) == ["22-17", "22-18", "29-25"]


@over(FLYING_KINGS_8X8)
def test_flying_kings_capture_at_a_distance_and_land_on_any_free_square_beyond(variant):
    # King a1 (29), black man e5 (15): lands on f6 (11), g7 (8) or h8 (4).
    p = pos("W:WK29:B15,1", variant)
    assert pdns(p) == ["29x11", "29x4", "29x8"]
    assert all(m.captured == (15,) for m in p.legal_moves())
    # Backwards too: king e5 (15) over c3 (22) to b2 (25) or a1 (29).
    assert pdns(pos("W:WK15:B22,1", variant)) == ["15x25", "15x29"]


@over(FLYING_KINGS_8X8)
def test_the_squares_between_king_and_victim_must_be_free(variant):
    # Own man on c3 (22) between king a1 and black man e5: no capture.
    assert not any(m.is_capture for m in pos("W:WK29,22:B15,1", variant).legal_moves())
    # Two black men side by side (d4, e5): cannot be jumped together.
    assert pdns(pos("W:WK29:B18,15,1", variant)) == ["29-22", "29-25"]


@over(FLYING_KINGS_8X8)
def test_king_must_land_where_it_can_continue_capturing(variant):
    # King c1 (30) takes e3 (23) and may land on f4 (19), g5 (16) or h6 (12); only from g5
    # can it go on (over f6, 11), so it must land there.  After f6 it may stop on e7 (7) or
    # d8 (2): nothing more to take from either.
    assert pdns(pos("W:WK30:B23,11,1", variant)) == ["30x16x2", "30x16x7"]


# -- captures -----------------------------------------------------------------------------------


@over(EIGHT_BY_EIGHT)
def test_capture_is_compulsory(variant):
    # White men c3 (22), e3 (23), g3 (24); black man d4 (18): 22x15 and 23x14 are the only
    # legal moves, and a step is refused with the captures listed.
    g = game("W:W22,23,24:B18", variant)
    assert pdns(g.position) == ["22x15", "23x14"]
    with pytest.raises(CaptureRequiredError) as info:
        g.play("24-20")
    assert str(info.value) == "a capture is compulsory: 22x15 or 23x14"
    assert sorted(m.pdn() for m in info.value.legal) == ["22x15", "23x14"]
    assert g.ply == 0  # nothing changed


@over(SHORT_KINGS)
def test_multi_jump_must_be_completed(variant):
    # White man f2 (27) takes e3 (23) to d4 (18) and must go on over e5 (15) to f6 (11).
    g = game("W:W27:B23,15,1", variant)
    assert pdns(g.position) == ["27x18x11"]
    move = g.legal_moves()[0]
    assert move.captured == (23, 15)
    with pytest.raises(CaptureRequiredError):
        g.play("27x18")
    g.play("27x11")
    assert g.position.piece_at(23) == g.position.piece_at(15) == EMPTY


# f2 (27) can take e3 and c5 (27x18x9, two pieces) or g3 (27x20, one); h2 (28) can take g3
# (28x19, one) and, where men capture backward, go on back over e3 to d2 (28x19x26, two).
CAPTURE_CHOICES = {
    # Free choice, men forward only: the longest is not compulsory.
    ENGLISH.key: (["27x18x9", "27x20", "28x19"], []),
    DAME.key: (["27x18x9", "27x20", "28x19"], []),
    # Free choice, men also backward: every sequence is legal.
    POOL.key: (["27x18x9", "27x20", "28x19x26"], []),
    RUSSIAN.key: (["27x18x9", "27x20", "28x19x26"], []),
    # Majority rule: only the two-piece captures.
    BRAZILIAN.key: (["27x18x9", "28x19x26"], ["27x20"]),
}


@over(EIGHT_BY_EIGHT)
def test_choice_among_captures(variant):
    legal, refused = CAPTURE_CHOICES[variant.key]
    p = pos("W:W27,28:B23,14,24", variant)
    assert pdns(p) == legal
    for text in refused:
        with pytest.raises(CaptureRequiredError):
            Game(variant, p).play(text)


# King c1 (30): x e3 (23) -> g5, x f6 (11) -> e7, x d6 (10) -> c5 (14), b4 or a3.  From c5 the way
# down-right to the black man f2 (27) crosses the dead piece on e3: were it gone, 30x16x7x14x32
# would take four.  The dead piece blocks, so f2 is never taken.
BARRIER_CAPTURES = {
    # Free choice: c1 x e3 -> f4 x d6 (30x19x6, two pieces) is legal too.
    POOL.key: ["30x16x7x14", "30x16x7x17", "30x16x7x21", "30x19x6"],
    RUSSIAN.key: ["30x16x7x14", "30x16x7x17", "30x16x7x21", "30x19x6"],
    # Majority rule: the three-piece captures only.
    BRAZILIAN.key: ["30x16x7x14", "30x16x7x17", "30x16x7x21"],
}


@over(FLYING_KINGS_8X8)
def test_captured_pieces_stay_as_a_barrier_until_the_move_ends(variant):
    p = pos("W:WK30:B23,11,10,27,1", variant)
    assert pdns(p) == BARRIER_CAPTURES[variant.key]
    assert all(27 not in m.captured for m in p.legal_moves())
    # 30x16x7x14 changes direction twice: up-right, up-left, down-left.
    move = find(p, "30x16x7x14")
    assert move.captured == (23, 11, 10)
    after = p.play(move)
    assert after.piece_at(27) == BLACK_MAN
    assert after.piece_at(23) == after.piece_at(11) == after.piece_at(10) == EMPTY


RING_CAPTURES = {
    # Short kings come back to c3.
    ENGLISH.key: ["22x15x24x31x22", "22x31x24x15x22"],
    DAME.key: ["22x15x24x31x22", "22x31x24x15x22"],
    # Flying kings may also stop beyond c3 (b4, a5 one way; b2, a1 the other).
    **{
        v.key: [
            "22x15x24x31x13",
            "22x15x24x31x17",
            "22x15x24x31x22",
            "22x31x24x15x22",
            "22x31x24x15x25",
            "22x31x24x15x29",
        ]
        for v in FLYING_KINGS_8X8
    },
}


@over(EIGHT_BY_EIGHT)
def test_a_piece_may_not_be_jumped_twice(variant):
    # King c3 (22) inside a ring of black men d4 (18), f4 (19), f2 (27), d2 (26): it takes
    # all four and comes back to c3 (or flies on), but may not take d4 a second time.
    p = pos("W:WK22:B18,19,27,26", variant)
    assert pdns(p) == RING_CAPTURES[variant.key]
    for m in p.legal_moves():
        assert len(m.captured) == len(set(m.captured)) == 4
    after = p.play(find(p, "22x15x24x31x22"))
    assert after.piece_at(22) == WHITE_KING
    assert not after.pieces_of(Color.BLACK)


@over(SHORT_KINGS)
def test_a_player_never_jumps_own_pieces(variant):
    # White king d4 (18) next to its own men c5 (14) and e3 (23), both with free squares
    # beyond (b6, f2): no capture, only steps.
    p = pos("W:WK18,14,23:B1", variant)
    assert pdns(p) == ["14-10", "14-9", "18-15", "18-22", "23-19"]


# -- crowning -----------------------------------------------------------------------------------


@over(SHORT_KINGS)
def test_man_reaching_the_far_row_is_crowned_and_the_move_ends_there(variant):
    # White man f6 (11) takes e7 (7) and lands on d8 (2).  As a king it could go on over c7
    # (6) to b6 (9), but the move ends on the far row.
    p = pos("W:W11:B7,6", variant)
    assert pdns(p) == ["11x2"]
    move = find(p, "11x2")
    assert move.crowns
    after = p.play(move)
    assert after.piece_at(2) == WHITE_KING
    assert after.piece_at(6) == BLACK_MAN
    assert after.turn is Color.BLACK


@over(EIGHT_BY_EIGHT)
def test_crowning_by_a_step(variant):
    # White man c7 (6) steps to b8 (1) or d8 (2) and is crowned; so is a black man stepping
    # from f2 (27) to e1 (31) or g1 (32).
    p = pos("W:W6:B27", variant)
    assert pdns(p) == ["6-1", "6-2"]
    assert all(m.crowns for m in p.legal_moves())
    assert p.play(find(p, "6-1")).piece_at(1) == WHITE_KING
    p = pos("B:W6:B27", variant)
    assert pdns(p) == ["27-31", "27-32"]
    assert p.play(find(p, "27-32")).piece_at(32) == BLACK_KING


CROWNED_AT_THE_END = [POOL, BRAZILIAN, INTERNATIONAL]
PASSING_THROUGH = {
    # f6 (11) x e7 -> d8 (2), then backward x c7 -> b6 (9): the move ends off the far row.
    POOL.key: ("W:W11:B7,6,4", "11x2x9"),
    BRAZILIAN.key: ("W:W11:B7,6,4", "11x2x9"),
    # d8 (12) x e9 -> f10 (3), then backward x g9 -> h8 (14).
    INTERNATIONAL.key: ("W:W12:B8,9,45", "12x3x14"),
}
ENDING_ON_THE_FAR_ROW = {
    # f6 (11) x e7 -> d8 (2); b6 (9) is not adjacent, so the man stops there and is crowned
    # (in russian it would fly on as a king: see test_rules_russian).
    POOL.key: ("W:W11:B7,9", "11x2"),
    BRAZILIAN.key: ("W:W11:B7,9", "11x2"),
    INTERNATIONAL.key: ("W:W12:B8,45", "12x3"),
}


@over(CROWNED_AT_THE_END)
def test_man_passing_through_the_far_row_during_a_capture_stays_a_man(variant):
    fen, text = PASSING_THROUGH[variant.key]
    p = pos(fen, variant)
    assert pdns(p) == [text]
    move = find(p, text)
    assert not move.crowns
    assert p.play(move).piece_at(move.end) == WHITE_MAN


@over(CROWNED_AT_THE_END)
def test_man_is_crowned_when_the_capture_ends_on_the_far_row(variant):
    fen, text = ENDING_ON_THE_FAR_ROW[variant.key]
    p = pos(fen, variant)
    assert pdns(p) == [text]
    move = find(p, text)
    assert move.crowns
    assert p.play(move).piece_at(move.end) == WHITE_KING


# -- the end of a game --------------------------------------------------------------------------

NO_PIECES = {v.key: (("W:W22:B18", "22x15"), ("B:W22:B18", "18x25")) for v in EIGHT_BY_EIGHT}
NO_PIECES[INTERNATIONAL.key] = (("W:W28:B23", "28x19"), ("B:W28:B23", "23x32"))


@over(ALL)
def test_player_without_pieces_loses(variant):
    results = RESULTS[variant.key]
    by_white, by_black = NO_PIECES[variant.key]
    for (fen, text), winner, result in (
        (by_white, Color.WHITE, results.white),
        (by_black, Color.BLACK, results.black),
    ):
        g = game(fen, variant)
        g.play(text)
        assert g.outcome.termination is Termination.NO_PIECES
        assert g.outcome.winner is winner
        assert g.result() == result
        assert g.status_line() == f"{result} no pieces left"


BLOCKED = {
    # Black man a3 (21) is blocked by b2 (25) with c1 (30) behind it.  White plays g3-h4.
    **{v.key: ("W:W25,30,24:B21", "24-20", "B:W25,30:B21") for v in EIGHT_BY_EIGHT},
    # Black man a5 (26) blocked by b4 (31) with c3 (37) behind it.
    INTERNATIONAL.key: ("W:W31,37,50:B26", "50-44", "B:W31,37:B26"),
}


@over(ALL)
def test_player_without_legal_moves_loses(variant):
    fen, text, blocked_start = BLOCKED[variant.key]
    result = RESULTS[variant.key].white
    g = game(fen, variant)
    g.play(text)
    assert pdns(g.position) == []
    assert g.outcome.termination is Termination.NO_MOVES
    assert g.outcome.winner is Color.WHITE
    assert g.result() == result
    assert g.status_line() == f"{result} no legal moves"
    # A start position without a legal move is lost at once.
    blocked = game(blocked_start, variant)
    assert blocked.outcome.termination is Termination.NO_MOVES
    assert blocked.outcome.winner is Color.WHITE


@over(ALL)
def test_resignation_at_any_time_and_agreement(variant):
    results = RESULTS[variant.key]
    for loser, winner, result in (
        (Color.WHITE, Color.BLACK, results.black),
        (Color.BLACK, Color.WHITE, results.white),
    ):
        g = Game(variant)
        g.resign(loser)  # on either side's turn
        assert g.outcome.termination is Termination.RESIGNATION
        assert g.outcome.winner is winner
        assert g.result() == result
        with pytest.raises(GameEndedError):
            g.play(g.position.legal_moves()[0])
        with pytest.raises(GameEndedError):
            g.offer_draw(winner)
    for offerer in Color:
        g = Game(variant)
        g.offer_draw(offerer)
        g.accept_draw(offerer.other)
        assert g.outcome.termination is Termination.AGREEMENT
        assert g.outcome.winner is None
        assert g.result() == results.draw
        assert g.status_line() == f"{results.draw} draw by agreement"
        assert g.advantage_moves_left() is None


# -- draws --------------------------------------------------------------------------------------

REPETITIONS = {
    # Black king h8 (4) and White king a1 (29) shuffle: h8-g7, a1-b2, g7-h8, b2-a1.
    ENGLISH.key: ("B:WK29:BK4", ["4-8", "29-25", "8-4", "25-29"]),
    DAME.key: ("B:WK29:BK4", ["4-8", "29-25", "8-4", "25-29"]),
    POOL.key: ("B:WK29:BK1", ["1-5", "29-25", "5-1", "25-29"]),
    RUSSIAN.key: ("W:WK29,K30,27,28:BK1,K2,5,6", ["29-25", "2-7", "25-29", "7-2"]),
    # (K v K is also a 5-move endgame: the repetition comes first, at move 4 of each.)
    BRAZILIAN.key: ("W:WK30:BK4", ["30-26", "4-8", "26-30", "8-4"]),
    INTERNATIONAL.key: ("W:WK47:BK4", ["47-42", "4-10", "42-47", "10-4"]),
}


@over(ALL)
def test_threefold_repetition_draws(variant):
    fen, shuffle = REPETITIONS[variant.key]
    g = game(fen, variant)
    for text in shuffle * 2:
        assert g.outcome is None
        g.play(text)
    assert g.outcome.termination is Termination.THREEFOLD_REPETITION
    assert g.outcome.winner is None
    assert g.result() == RESULTS[variant.key].draw


# Kings shuffle in these positions (no endgame count applies); the men stand where they can step
# without being taken.
QUIET = {
    ENGLISH.key: "B:WK29,K30,28:BK1,K2,5",
    POOL.key: "B:WK29,K30,27,28:BK1,K2,5,6",
    RUSSIAN.key: "W:WK29,K30,27,28:BK1,K2,5,6",
    BRAZILIAN.key: "B:WK29,K30,27,28:BK1,K2,5,6",
    INTERNATIONAL.key: "W:WK46,K47,40,45:BK1,K2,6,11",
}
NO_PROGRESS = {
    ENGLISH.key: (80, "1/2-1/2 40 moves each without a man move or capture"),
    POOL.key: (50, "1/2-1/2 25 moves each without a man move or capture"),
    RUSSIAN.key: (30, "1/2-1/2 15 moves each with only king moves"),
    BRAZILIAN.key: (50, "1/2-1/2 25 moves each with only king moves"),
    INTERNATIONAL.key: (50, "1-1 25 moves each with only king moves"),
}
KING_MOVES_ONLY = [ENGLISH, POOL, RUSSIAN, BRAZILIAN, INTERNATIONAL]
"""The variants whose no-progress count is reset by man moves (dame's is not: see its file)."""


@over(KING_MOVES_ONLY)
def test_no_progress_draw_after_only_king_moves(variant):
    plies, status = NO_PROGRESS[variant.key]
    g = game(QUIET[variant.key], variant)
    # kings on the board: the count runs from the start, and says so
    assert g.status_line() == f"ongoing; no-progress count: {plies // 2} left"
    last = walk_but_last(g, plies)
    assert g.outcome is None
    assert g.no_progress_left() == 1
    assert "no-progress count: 1 left" in g.status_line()
    g.play(last)
    assert g.outcome.termination is Termination.NO_PROGRESS
    assert g.outcome.winner is None
    assert g.status_line() == status


MAN_MOVE_RESETS = {
    # 50 king moves, a man move (Black's, a7-b6), then 80 king moves: the last one draws.
    ENGLISH.key: (131, 50),
    # 31 king moves, a man move, then 50 king moves.
    POOL.key: (82, 31),
    RUSSIAN.key: (41, 10),
    INTERNATIONAL.key: (71, 20),
}


@over([ENGLISH, POOL, RUSSIAN, INTERNATIONAL])
def test_a_man_move_resets_the_no_progress_count(variant):
    plies, man_ply = MAN_MOVE_RESETS[variant.key]
    g = game(QUIET[variant.key], variant)
    last = walk_but_last(g, plies, special={man_ply: is_man_move})
    assert g.outcome is None, g.status_line()
    assert g.no_progress_left() == 1
    g.play(last)
    assert g.outcome.termination is Termination.NO_PROGRESS


@over([ENGLISH, POOL, RUSSIAN, INTERNATIONAL])
def test_the_no_progress_line_stays_while_kings_are_on_the_board(variant):
    """The count's line follows the rules' state, not the last move: with kings on the board it
    is shown after every move, a man move that resets it included (it once vanished after
    each such move and came back after the next king move)."""
    man_ply = MAN_MOVE_RESETS[variant.key][1]
    g = game(QUIET[variant.key], variant)
    walk_but_last(g, man_ply + 3, special={man_ply: is_man_move})
    assert g.quiet_plies() < 3  # the man move reset the count a moment ago
    for _ply in range(len(g.moves) + 1):
        assert "no-progress count" in g.status_line(), (g.ply, g.status_line())
        if not g.ply:
            break
        g.take_back()


@over(KING_MOVES_ONLY)
def test_no_no_progress_line_without_kings(variant):
    """Men alone cannot make a move the count counts (every man move is progress here), so no
    count is shown through an opening."""
    g = Game(variant)
    for _ply in range(6):
        assert "no-progress count" not in g.status_line()
        g.play(g.legal_moves()[0])


CAPTURE_RESETS = {
    # fen, quiet plies before the capture, the count after it, plies until the draw
    ENGLISH.key: ("B:WK29,K30,K31,28:BK1,K2,K3,5", 60, 40, 80),
    DAME.key: ("B:WK29,K30,K31,28:BK1,K2,K3,5", 30, 25, 50),
    POOL.key: ("B:WK29,K30,K31,28:BK1,K2,K3,5", 20, 25, 50),
    BRAZILIAN.key: ("B:WK29,K30,K31,27,28:BK1,K2,K3,5,6", 20, 25, 50),
    INTERNATIONAL.key: ("W:WK46,K47,K48,40,45:BK1,K2,K3,6,11", 20, 25, 50),
}


@over([ENGLISH, DAME, POOL, BRAZILIAN, INTERNATIONAL])
def test_a_capture_resets_the_no_progress_count(variant):
    fen, before, count, until_draw = CAPTURE_RESETS[variant.key]
    g = game(fen, variant)
    blunder_and_capture(g, before)
    assert g.no_progress_left() == count
    last = walk_but_last(g, until_draw)
    assert g.outcome is None
    g.play(last)
    assert g.outcome.termination is Termination.NO_PROGRESS
