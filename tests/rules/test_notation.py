"""Example tests for move notation input/output and FEN (shared/RULES.md, "Notation").

Square names on 8x8 used below: 22 = c3, 18 = d4, 15 = e5, 11 = f6, 8 = g7, 26 = d2, 10 = d6.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.fen import FenError, parse_fen
from rules.game import Game, GameEndedError, GameError
from rules.messages import Message, MessageError, counted
from rules.move import Move
from rules.notation import (
    MAX_INPUT_LENGTH,
    AmbiguousMoveError,
    CaptureRequiredError,
    MoveError,
    MoveNotLegalError,
    NoPieceError,
    Notation,
    NotationError,
    NotYourPieceError,
    UnknownSquareError,
    normalize,
    numbered_moves,
    parse_move,
    show_move,
)
from rules.outcome import Outcome, Termination
from rules.position import Position
from rules.variants import VARIANTS, Color

ENGLISH = VARIANTS["english"]
POOL = VARIANTS["pool"]
RUSSIAN = VARIANTS["russian"]
INTERNATIONAL = VARIANTS["international"]

WHITE_TO_MOVE_START = "W:W21-32:B1-12"
"""The english start position with White to move, so that c3-d4 (22-18) is a legal step."""
SINGLE_CAPTURE = "W:W22:B18"  # 22x15 (c3xe5)
DOUBLE_CAPTURE = "W:W22:B18,11"  # 22x15x8 (c3xe5xg7)
BLACK_DOUBLE = "B:W15,22:B11"  # 11x18x25
TWO_CAPTURES = "W:W22,23,24:B18"  # 22x15 or 23x14; 24 cannot capture
TWO_ROUTES = "W:W26:B14,15,22,23"  # a man on d2 reaches d6 over c3,c5 or over e3,e5


def pos_of(fen: str, variant=ENGLISH) -> Position:
    return parse_fen(fen, variant)


def parse(fen: str, text: str, variant=ENGLISH) -> Move:
    return parse_move(pos_of(fen, variant), text)


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail (instead of hanging the suite) when the body runs longer than ``seconds``."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def raises(error: type[MoveError], call: Callable[[], Any]) -> MoveError:
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, MoveError)
    assert isinstance(info.value, ValueError)
    return info.value


# -- accepted input forms --------------------------------------------------------------------------

START = ENGLISH.start_fen  # Black to move


@pytest.mark.parametrize(
    ("fen", "text", "expected"),
    [
        # PDN numbers, steps
        (START, "11-15", "11-15"),
        (START, "11 15", "11-15"),
        (START, "  11   -   15  ", "11-15"),
        (START, "11\t15", "11-15"),
        (START, "11\u201315", "11-15"),  # en dash
        (START, "11\u201415", "11-15"),  # em dash
        (START, "11\u221215", "11-15"),  # minus sign
        (START, "11\u201015", "11-15"),  # hyphen
        (START, "11\uff0d15", "11-15"),  # full-width hyphen-minus
        (START, "\uff11\uff11\uff0d\uff11\uff15", "11-15"),  # full-width digits
        (START, "\uff11\uff11 \uff11\uff15", "11-15"),
        (START, "11-15!", "11-15"),
        (START, "11-15.", "11-15"),
        # algebraic steps, any case
        (WHITE_TO_MOVE_START, "c3-d4", "22-18"),
        (WHITE_TO_MOVE_START, "C3-D4", "22-18"),
        (WHITE_TO_MOVE_START, "c3 d4", "22-18"),
        (WHITE_TO_MOVE_START, " C3 \u2013 d4 ", "22-18"),
        (WHITE_TO_MOVE_START, "\uff43\uff13\uff0d\uff44\uff14", "22-18"),  # full-width letters
        # single captures
        (SINGLE_CAPTURE, "22x15", "22x15"),
        (SINGLE_CAPTURE, "22X15", "22x15"),
        (SINGLE_CAPTURE, "22\u00d715", "22x15"),  # multiplication sign
        (SINGLE_CAPTURE, "22:15", "22x15"),
        (SINGLE_CAPTURE, "22 15", "22x15"),
        (SINGLE_CAPTURE, "c3xe5", "22x15"),
        (SINGLE_CAPTURE, "c3:e5", "22x15"),
        (SINGLE_CAPTURE, "c3\u00d7e5", "22x15"),
        (SINGLE_CAPTURE, "C3XE5", "22x15"),
        (SINGLE_CAPTURE, "c3 x e5", "22x15"),
        # multi-captures: full path and short form
        (BLACK_DOUBLE, "11x18x25", "11x18x25"),
        (BLACK_DOUBLE, "11x25", "11x18x25"),
        (BLACK_DOUBLE, "11\u00d718\u00d725", "11x18x25"),
        (BLACK_DOUBLE, "11:18:25", "11x18x25"),
        (BLACK_DOUBLE, "11 18 25", "11x18x25"),
        (DOUBLE_CAPTURE, "c3xe5xg7", "22x15x8"),
        (DOUBLE_CAPTURE, "C3XE5XG7", "22x15x8"),
        (DOUBLE_CAPTURE, "c3:e5:g7", "22x15x8"),
        (DOUBLE_CAPTURE, "c3xg7", "22x15x8"),
        (DOUBLE_CAPTURE, "22x8", "22x15x8"),
    ],
)
def test_accepted_input_forms(fen: str, text: str, expected: str) -> None:
    pos = pos_of(fen)
    move = parse_move(pos, text)
    assert move.pdn() == expected
    assert move in pos.legal_moves()


def test_normalize_folds_dashes_capture_signs_case_and_width() -> None:
    assert normalize(" C3\u2014D4 ") == "c3-d4"
    assert normalize("22\u00d715") == "22x15"
    assert normalize("22:15") == "22x15"
    assert normalize("\uff12\uff12\uff0d\uff11\uff18") == "22-18"


def test_full_path_wins_over_short_reading() -> None:
    # Same pieces, two landing orders (a man's loop in russian): each full path names its own move.
    pos = pos_of(TWO_ROUTES, RUSSIAN)
    for path in ("26x17x10x19x26", "26x19x10x17x26"):
        assert parse_move(pos, path).pdn() == path


def test_input_of_exactly_the_length_limit_is_accepted() -> None:
    text = "11-15".ljust(MAX_INPUT_LENGTH)
    assert parse(START, text).pdn() == "11-15"


def test_output_forms() -> None:
    move = parse(DOUBLE_CAPTURE, "22x8")
    assert move.pdn() == "22x15x8"
    assert str(move) == "22x15x8"
    assert move.short() == "22x8"
    assert move.algebraic(ENGLISH.geometry.names) == "c3xe5xg7"
    assert move.captured == (18, 11)
    step = parse(START, "11-15")
    assert (step.pdn(), step.short(), step.captured) == ("11-15", "11-15", ())


# -- errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "text", "words"),
    [
        (ENGLISH, "33-29", ("33", "1 to 32")),
        (ENGLISH, "0-5", ("0", "1 to 32")),
        (INTERNATIONAL, "51-46", ("51", "1 to 50")),
        (ENGLISH, "a2-b3", ("a2", "light square")),
        (ENGLISH, "c3-d3", ("d3", "light square")),
        (ENGLISH, "z9-a1", ("z9", "a-h")),
        (ENGLISH, "i1-h2", ("i1", "a-h")),
        (INTERNATIONAL, "z9-a1", ("z9", "a-j")),
        (INTERNATIONAL, "a11-b10", ("a11", "1-10")),
    ],
)
def test_unknown_square(variant, text: str, words: tuple[str, ...]) -> None:
    pos = Position.start(variant)
    error = raises(UnknownSquareError, lambda: parse_move(pos, text))
    for word in words:
        assert word in str(error)
    # RULES.md: the reply says why and lists the legal moves
    assert min(m.pdn() for m in pos.legal_moves()) in str(error)


def test_no_piece_there() -> None:
    error = raises(NoPieceError, lambda: parse(START, "17-21"))
    assert "no piece on 17" in str(error)
    assert "9-13" in str(error)  # lists the legal moves
    error = raises(NoPieceError, lambda: parse(WHITE_TO_MOVE_START, "b4-c5"))
    assert "no piece on 17" in str(error)


def test_not_your_piece() -> None:
    error = raises(NotYourPieceError, lambda: parse(START, "22-18"))
    message = str(error)
    assert "the piece on 22 is White's" in message
    assert "Black's turn" in message
    assert "9-13" in message  # lists the legal moves
    error = raises(NotYourPieceError, lambda: parse(WHITE_TO_MOVE_START, "9-13"))
    assert "9" in str(error)
    assert "White's turn" in str(error)


def test_illegal_step_lists_where_the_piece_can_go() -> None:
    pos = Position.start(ENGLISH)
    error = raises(MoveNotLegalError, lambda: parse_move(pos, "9-15"))
    assert not isinstance(error, CaptureRequiredError)
    assert "9-15 is not a legal move" in str(error)
    assert "the piece on 9 can go to 13 or 14" in str(error)
    assert isinstance(error, MoveNotLegalError)
    assert sorted(m.pdn() for m in error.legal) == sorted(m.pdn() for m in pos.legal_moves())


def test_illegal_step_of_a_blocked_piece_lists_the_legal_moves() -> None:
    pos = Position.start(ENGLISH)
    error = raises(MoveNotLegalError, lambda: parse_move(pos, "1-6"))
    message = str(error)
    assert "the piece on 1 cannot move" in message
    assert "9-13" in message
    assert "12-16" in message


def test_capture_is_compulsory_lists_the_captures() -> None:
    pos = pos_of(TWO_CAPTURES)
    error = raises(CaptureRequiredError, lambda: parse_move(pos, "24-20"))
    assert "a capture is compulsory: 22x15 or 23x14" in str(error)
    assert isinstance(error, MoveNotLegalError)
    assert sorted(m.pdn() for m in error.legal) == ["22x15", "23x14"]


def test_capture_is_compulsory_names_the_captures_of_the_piece_moved() -> None:
    error = raises(CaptureRequiredError, lambda: parse(TWO_CAPTURES, "22-17"))
    assert "a capture is compulsory: 22x15" in str(error)
    assert "23x14" not in str(error)  # the captures of the piece the player meant


def test_capture_required_also_in_algebraic() -> None:
    error = raises(CaptureRequiredError, lambda: parse(TWO_CAPTURES, "g3-h4"))
    assert "22x15" in str(error)
    assert "23x14" in str(error)


def test_ambiguous_short_form_of_a_man_lists_both_paths() -> None:
    pos = pos_of(TWO_ROUTES)
    assert sorted(m.pdn() for m in pos.legal_moves()) == ["26x17x10", "26x19x10"]
    for text in ("26x10", "d2xd6", "26 10"):
        error = raises(AmbiguousMoveError, lambda text=text: parse_move(pos, text))
        assert "26x17x10" in str(error)
        assert "26x19x10" in str(error)
        assert "full path" in str(error)
        assert isinstance(error, AmbiguousMoveError)
        assert sorted(m.pdn() for m in error.candidates) == ["26x17x10", "26x19x10"]
    assert parse_move(pos, "26x17x10").captured == (22, 14)
    assert parse_move(pos, "26x19x10").captured == (23, 15)
    assert parse_move(pos, "d2xb4xd6").pdn() == "26x17x10"
    # an intermediate square picks one of the two
    assert parse_move(pos, "26x19x10").pdn() == "26x19x10"


def test_ambiguous_flying_king_in_pool_lists_both_paths() -> None:
    pos = pos_of("W:WK12:B6,14,16,25", POOL)
    assert sorted(m.pdn() for m in pos.legal_moves()) == ["12x19x1", "12x23x9x2", "12x30x21x10x1"]
    error = raises(AmbiguousMoveError, lambda: parse_move(pos, "12x1"))
    assert "12x19x1" in str(error)
    assert "12x30x21x10x1" in str(error)
    assert sorted(m.pdn() for m in error.candidates) == ["12x19x1", "12x30x21x10x1"]
    assert parse_move(pos, "12x30x21x10x1").captured == (16, 25, 14, 6)
    assert parse_move(pos, "12x2").pdn() == "12x23x9x2"


def test_ambiguous_flying_king_in_international_lists_both_paths() -> None:
    pos = pos_of("W:WK38:B14,19,29,31", INTERNATIONAL)
    assert sorted(m.pdn() for m in pos.legal_moves()) == ["38x20x9x36", "38x24x13x36"]
    error = raises(AmbiguousMoveError, lambda: parse_move(pos, "38x36"))
    assert "38x20x9x36" in str(error)
    assert "38x24x13x36" in str(error)
    assert parse_move(pos, "38x20x9x36").pdn() == "38x20x9x36"


@pytest.mark.parametrize("variant", [RUSSIAN, POOL, INTERNATIONAL])
def test_paths_with_the_same_captures_are_not_ambiguous(variant) -> None:
    # A man on d2 going round a diamond of four pieces (c3, c5, e3, e5), either way: same
    # pieces, same end square.
    names = variant.geometry.square_by_name
    start = names["d2"]
    pos = Position.from_squares(
        variant,
        Color.WHITE,
        white_men=[start],
        black_men=[names[s] for s in ("c3", "c5", "e3", "e5")],
    )
    loops = [m for m in pos.legal_moves() if m.start == start and m.end == start]
    assert len(loops) == 2
    assert loops[0].path != loops[1].path
    assert set(loops[0].captured) == set(loops[1].captured)
    for text in (f"{start}x{start}", "d2xd2", "D2:D2"):
        move = parse_move(pos, text)
        assert move in loops
        assert move.path[0] == move.path[-1] == start


@pytest.mark.parametrize("text", ["", " ", "   \t ", "!", "?!", "."])
def test_empty_input(text: str) -> None:
    error = raises(NotationError, lambda: parse(START, text))
    assert "11-15" in str(error)


@pytest.mark.parametrize(
    "text", ["hello", "11-", "-15", "11--15x", "x", "c3-", "e4 e5 pawn", "11-15 please", "1/2"]
)
def test_not_a_move(text: str) -> None:
    error = raises(NotationError, lambda: parse(START, text))
    assert "not a move" in str(error)


@pytest.mark.parametrize("length", [MAX_INPUT_LENGTH + 1, 1000, 100_000])
def test_too_long_input(length: int) -> None:
    text = "11-15".ljust(length)
    error = raises(NotationError, lambda: parse(START, text))
    assert "too long" in str(error)
    assert str(length) in str(error)


@pytest.mark.parametrize(
    "text",
    [
        "1" * 60 + "a",
        "1" * 100 + "?a",
        "\uff11" * 80 + "z",
        "c33" * 30 + "!",
        "11 " + "1" * 50 + "-",
    ],
    ids=["digits-then-letter", "digits-then-mark", "full-width-digits", "c33-repeated", "tail"],
)
def test_long_digit_runs_below_the_limit_are_refused_quickly(text: str) -> None:
    """Input up to the length limit must not make the parser hang (one bot worker per move)."""
    assert len(text) <= MAX_INPUT_LENGTH
    with time_limit(2.0):
        raises(MoveError, lambda: parse(START, text))


def test_move_errors_are_value_errors() -> None:
    for error in (
        NotationError,
        UnknownSquareError,
        NoPieceError,
        NotYourPieceError,
        MoveNotLegalError,
        CaptureRequiredError,
        AmbiguousMoveError,
    ):
        assert issubclass(error, MoveError)
    assert issubclass(MoveError, ValueError)


# -- FEN -------------------------------------------------------------------------------------------


def test_fen_example_round_trips_exactly() -> None:
    text = "B:W18,24,27,K10:B12,16,20,K22"
    pos = parse_fen(text, ENGLISH)
    assert pos.fen() == text
    assert pos.turn is Color.BLACK
    assert pos.squares(pos.white_men) == [18, 24, 27]
    assert pos.squares(pos.white_kings) == [10]
    assert pos.squares(pos.black_men) == [12, 16, 20]
    assert pos.squares(pos.black_kings) == [22]


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_start_fen_round_trips(variant) -> None:
    pos = Position.start(variant)
    assert pos.fen() == variant.start_fen
    assert parse_fen(variant.start_fen, variant) == pos
    assert pos.turn is variant.first


@pytest.mark.parametrize(
    "text",
    [
        "B:W21-32:B1-12",
        "b:w21-32:b1-12",
        " B : W 21 - 32 : B 1 - 12 ",
        "B:W21-32:B1-12.",
        "B:W21-32:B1-12:H0:F1",
        "b:w21-32:b1-12:h0:f1.",
        "B:B1-12:W21-32",
        "B:W21-24,25-28,29,30,31,32:B1-12",
        '"B:W21-32:B1-12"',
        "[B:W21-32:B1-12]",
        "B:\nW21-32:\nB1-12",
    ],
)
def test_fen_forgiving_input(text: str) -> None:
    assert parse_fen(text, ENGLISH) == Position.start(ENGLISH)
    assert parse_fen(text, ENGLISH).fen() == ENGLISH.start_fen


def test_fen_output_lists_men_then_kings_ascending() -> None:
    pos = parse_fen("w:wk10,27,18:bK22,20,12,16", ENGLISH)
    assert pos.fen() == "W:W18,27,K10:B12,16,20,K22"


def test_fen_with_an_empty_side() -> None:
    pos = parse_fen("W:W21:B", ENGLISH)
    assert pos.fen() == "W:W21:B"
    assert not pos.pieces_of(Color.BLACK)


def test_fen_algebraic_squares_on_8x8() -> None:
    pos = parse_fen("W:Wa1,c1,Kc3:Bb8,Kh8", ENGLISH)
    assert pos.fen() == "W:W29,30,K22:B1,K4"
    assert parse_fen("w:WA1,C1,kC3:bB8,kH8", ENGLISH) == pos


def test_fen_international_numbers() -> None:
    pos = parse_fen("W:W31-50:B1-20", INTERNATIONAL)
    assert pos == Position.start(INTERNATIONAL)
    assert pos.squares(pos.white_men) == list(range(31, 51))
    assert pos.squares(pos.black_men) == list(range(1, 21))


@pytest.mark.parametrize(
    ("variant", "text", "words"),
    [
        (ENGLISH, "W:W21,21:B1", ("21", "twice")),
        (ENGLISH, "W:W5:B5", ("5", "twice")),
        (ENGLISH, "W:W21-25,24:B1", ("24", "twice")),
        (ENGLISH, "W:W21,K21:B1", ("21", "twice")),
        (ENGLISH, "W:W33:B1", ("33",)),
        (ENGLISH, "W:W0:B1", ("0",)),
        (ENGLISH, "W:W21-33:B1", ("33",)),
        (INTERNATIONAL, "W:W51:B1", ("51",)),
        (INTERNATIONAL, "W:W31:Bb10", ("b10",)),
        (ENGLISH, "W:W21:Ba2", ("a2",)),
        (ENGLISH, "W:W3:B20", ("white", "3")),
        (ENGLISH, "W:W20:B30", ("black", "30")),
        (INTERNATIONAL, "W:W5:B20", ("white", "5")),
        (INTERNATIONAL, "W:W31:B46", ("black", "46")),
        (ENGLISH, "W21:B1", ("W or B",)),
        (ENGLISH, ":W21:B1", ("W or B",)),
        (ENGLISH, "X:W21:B1", ("W or B",)),
        (ENGLISH, "", ("W or B",)),
        (ENGLISH, "W:21,22:B1", ("21,22",)),
        (ENGLISH, "W:W21:B1:W22", ("twice",)),
        (ENGLISH, "W:W25-21:B1", ("25-21",)),
    ],
)
def test_fen_errors(variant, text: str, words: tuple[str, ...]) -> None:
    with pytest.raises(FenError) as info:
        parse_fen(text, variant)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower()


def test_fen_kings_may_stand_on_any_row() -> None:
    pos = parse_fen("W:WK1,K4:BK29,K32", ENGLISH)
    assert pos.fen() == "W:WK1,K4:BK29,K32"


# -- showing moves in each variant's convention ---------------------------------------------


@pytest.mark.parametrize(
    ("key", "notation"),
    [
        ("english", Notation.NUMERIC),
        ("dame", Notation.NUMERIC),
        ("pool", Notation.NUMERIC),
        ("international", Notation.NUMERIC),
        ("brazilian", Notation.ALGEBRAIC),
        ("russian", Notation.ALGEBRAIC),
    ],
)
def test_each_variant_has_its_own_notation(key: str, notation: Notation) -> None:
    assert VARIANTS[key].notation is notation


@pytest.mark.parametrize(
    ("text", "variant", "notation", "shown"),
    [
        ("22-18", RUSSIAN, None, "c3-d4"),
        ("22x15x8", RUSSIAN, None, "c3xe5xg7"),
        ("22x8 (22x15x8)", RUSSIAN, None, "c3xg7 (c3xe5xg7)"),
        ("22-18", RUSSIAN, Notation.NUMERIC, "22-18"),
        ("22-18", RUSSIAN, "", "c3-d4"),
        ("22-18", ENGLISH, None, "22-18"),
        ("22-18", ENGLISH, "algebraic", "c3-d4"),
        ("32-28", INTERNATIONAL, None, "32-28"),
        ("32-28", INTERNATIONAL, Notation.ALGEBRAIC, "d4-e5"),
        ("33-40", ENGLISH, Notation.ALGEBRAIC, "33-40"),  # not squares: kept as they are
    ],
)
def test_show_move(text: str, variant: Any, notation: Any, shown: str) -> None:
    assert show_move(text, variant, notation) == shown


def test_show_move_of_a_move_object() -> None:
    move = parse(DOUBLE_CAPTURE, "22x8")
    assert show_move(move, RUSSIAN) == move.algebraic(RUSSIAN.geometry.names) == "c3xe5xg7"
    assert show_move(move, ENGLISH) == "22x15x8"


def test_numbered_moves_pair_a_move_with_its_reply() -> None:
    start = Position.start(ENGLISH)
    moves = ["11-15", "23-19", "8-11", "22-17", "9-13"]
    assert numbered_moves(moves, start) == ["1. 11-15 23-19", "2. 8-11 22-17", "3. 9-13"]
    # A list that starts with a reply says so.
    assert numbered_moves(moves[1:], start, first_ply=1) == [
        "1... 23-19",
        "2. 8-11 22-17",
        "3. 9-13",
    ]
    assert numbered_moves([], start) == []


def test_numbered_moves_from_a_position_where_the_second_side_moves() -> None:
    # English: Black moves first, so a position with White to move starts with "1...".
    start = pos_of(WHITE_TO_MOVE_START)
    assert numbered_moves(["22-18", "11-15"], start) == ["1... 22-18", "2. 11-15"]


def test_refusals_name_squares_in_the_notation_asked_for() -> None:
    position = Position.start(RUSSIAN)  # White to move: c3-d4 is 22-18
    with pytest.raises(MoveNotLegalError) as numeric:
        parse_move(position, "22-15")
    assert str(numeric.value) == "22-15 is not a legal move: the piece on 22 can go to 17 or 18"
    with pytest.raises(MoveNotLegalError) as algebraic:
        parse_move(position, "22-15", notation=Notation.ALGEBRAIC)
    message = str(algebraic.value)
    assert message.startswith("c3-e5 is not a legal move: the piece on c3 can go to b4 or d4")
    with pytest.raises(NoPieceError, match="no piece on d4; legal moves: a3-b4, c3-b4"):
        parse_move(position, "d4-e5", notation=Notation.ALGEBRAIC)
    with pytest.raises(CaptureRequiredError, match="a capture is compulsory: c3xe5"):
        parse_move(pos_of(SINGLE_CAPTURE, RUSSIAN), "c3-b4", notation=Notation.ALGEBRAIC)
    # The text may be typed either way whatever the notation of the answer.
    assert parse_move(position, "22-18", notation=Notation.ALGEBRAIC).pdn() == "22-18"


@st.composite
def played_games(draw: st.DrawFn) -> Game:
    """A game of random legal play from the start of a random variant."""
    game = Game(draw(st.sampled_from(list(VARIANTS.values()))))
    for pick in draw(st.lists(st.integers(0, 1 << 16), max_size=40)):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
    return game


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(played_games(), st.sampled_from([None, *Notation]))
def test_shown_moves_read_back_and_number_in_order(game: Game, notation: Any) -> None:
    """Every move shown in any notation is read back as that move, and the numbered list holds
    the moves in order, one number per pair, as many numbers as full moves."""
    replay = Game(game.variant)
    shown = []
    for move in game.moves:
        text = show_move(move, game.variant, notation)
        assert parse_move(replay.position, text) == move
        replay.play(move)
        shown.append(text)
    lines = numbered_moves(shown, game.start)
    assert len(lines) == (len(shown) + 1) // 2
    assert [t for line in lines for t in line.split()[1:]] == shown
    assert [line.split()[0] for line in lines] == [f"{n}." for n in range(1, len(lines) + 1)]


# -- refusals in other languages (rules.messages) ---------------------------------------------

RULES_SOURCE = "".join(
    (Path(__file__).resolve().parent.parent.parent / "rules" / name).read_text(encoding="utf-8")
    for name in ("notation.py", "game.py", "messages.py")
)


def _messages(message: Message) -> Iterator[Message]:
    yield message
    for value in message.values.values():
        if isinstance(value, Message):
            yield from _messages(value)


def _check_explained(error: MessageError) -> None:
    """``error`` carries a message whose English is ``str(error)``, built from marked templates
    whose values are squares, moves and numbers (never a side's name), and the bot renders it."""
    from bot.i18n import from_rules

    assert error.message is not None, error
    assert str(error.message) == str(error)
    assert error.template == error.message.template
    for message in _messages(error.message):
        forms = [message.template] if message.plural is None else [message.template, message.plural]
        for form in forms:
            assert f'"{form}"' in RULES_SOURCE, f"not a marked literal: {form!r}"
        for value in message.values.values():
            if isinstance(value, str):
                assert "White" not in value and "Black" not in value, (message, value)
    assert str(from_rules(error)) == str(error)


def _refusals() -> Iterator[MessageError]:
    start = Position.start(ENGLISH)
    capture = parse_fen("B:W18,K30:B14,1", ENGLISH)
    texts: list[tuple[Position, str, Notation | None]] = [
        (start, "", None),
        (start, "x" * (MAX_INPUT_LENGTH + 3), None),
        (start, "hello", None),
        (start, "33-29", None),
        (start, "i3-h4", Notation.ALGEBRAIC),
        (start, "a2-b3", Notation.ALGEBRAIC),
        (start, "15-19", None),
        (start, "22-18", None),
        (start, "9-13x", None),
        (start, "9-18", None),
        (start, "1-5", None),
        (start, "1-5", Notation.ALGEBRAIC),
        (capture, "1-5", None),
        (capture, "14-17", None),
        (Position.start(VARIANTS["international"]), "16-27", None),
    ]
    for pos, text, notation in texts:
        with pytest.raises(MoveError) as caught:
            parse_move(pos, text, notation=notation)
        yield caught.value
    many = parse_fen("W:WK14,K15,K18,K19,K22,K23,K27:B1,2", ENGLISH)
    with pytest.raises(MoveError) as caught:
        parse_move(many, "32-28")
    yield caught.value
    game = Game(ENGLISH)
    for action in (
        lambda: game.take_back(0),
        lambda: game.take_back(1),
        lambda: game.play(parse_fen("W:W22:B1", ENGLISH).legal_moves()[0]),
        lambda: game.accept_draw(Color.WHITE),
        lambda: game.decline_draw(Color.BLACK),
    ):
        with pytest.raises((GameError, MoveError)) as refused:
            action()
        yield refused.value
    game.offer_draw(Color.BLACK)
    with pytest.raises(GameError) as refused:
        game.offer_draw(Color.BLACK)
    yield refused.value
    game.play("11-15")
    game.play("23-19")
    with pytest.raises(GameError) as refused:
        game.take_back(3)
    yield refused.value
    game.play("8-11")
    with pytest.raises(GameError) as refused:
        game.take_back(5)
    yield refused.value
    game.resign(Color.WHITE)
    with pytest.raises(GameError) as refused:
        game.play("22-18")
    yield refused.value


def test_refusals_carry_translatable_messages() -> None:
    errors = list(_refusals())
    assert len(errors) >= 20
    for error in errors:
        _check_explained(error)
    by_text = {str(error) for error in errors}
    assert "cannot take back 3 moves: only 2 have been played" in by_text
    assert "cannot take back 5 moves: only 3 have been played" in by_text
    assert "cannot take back 0 moves: at least one is needed" in by_text
    assert "Black has already offered a draw" in by_text
    assert "there is no draw offer for White to accept" in by_text
    assert "the game is over (0-1 White resigned)" in by_text
    assert any(text.endswith(" and 2 more") for text in by_text)
    assert any(text.startswith("22-17 is not a legal move; legal moves: ") for text in by_text)


def test_refusals_of_one_take_back_say_has() -> None:
    game = Game(ENGLISH)
    game.play("11-15")
    with pytest.raises(GameError) as refused:
        game.take_back(2)
    assert str(refused.value) == "cannot take back 2 moves: only 1 has been played"
    _check_explained(refused.value)


@pytest.mark.parametrize("termination", list(Termination))
def test_game_over_refusal_for_every_ending(termination: Termination) -> None:
    game = Game(ENGLISH)
    game.outcome = Outcome(termination, Color.WHITE)
    with pytest.raises(GameEndedError) as refused:
        game.play("11-15")
    assert str(refused.value) == f"the game is over ({game.outcome.summary(ENGLISH)})"
    _check_explained(refused.value)


def test_game_over_refusal_with_a_rule_of_its_own_is_shown_as_it_is() -> None:
    game = Game(ENGLISH)
    game.outcome = Outcome(Termination.NO_PROGRESS, None, ENGLISH.no_progress.description)
    with pytest.raises(GameEndedError) as refused:
        game.play("11-15")
    assert str(refused.value) == f"the game is over ({game.outcome.summary(ENGLISH)})"
    assert refused.value.template is None


def test_a_plain_string_refusal_has_no_template() -> None:
    from bot.i18n import from_rules

    error = NotationError("something else")
    assert error.template is None and error.values == {}
    assert str(from_rules(error)) == "something else"


def test_plural_messages_render_in_english_by_count() -> None:
    forms = ("{count} move", "{count} moves")
    assert [str(counted(forms, n)) for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
