"""Tests of rules.pdn: whole games in PDN, written and read back.

The reader is tested on texts written the way people and other programs write PDN (comments,
NAGs, variations, move numbers in every style, several games in one file) and on broken texts,
where it must keep the good part and name the first bad move.  The writer is tested on exact
output and by round trips, including a hypothesis property over random legal games of every
variant, from the standard start and from positions taken mid-game.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.fen import parse_fen
from rules.game import Game
from rules.outcome import Termination
from rules.pdn import (
    LINE_WIDTH,
    MAX_PDN_BYTES,
    PdnError,
    Tags,
    parse_pdn,
    read_game,
    read_games,
    write_game,
)
from rules.variants import VARIANTS, Color, Variant

ENGLISH = VARIANTS["english"]
DAME = VARIANTS["dame"]
INTERNATIONAL = VARIANTS["international"]


def played(variant: Variant, moves: str, fen: str | None = None) -> Game:
    game = Game(variant, None if fen is None else parse_fen(fen, variant))
    for move in moves.split():
        game.play(move)
    return game


def movetext(pdn: str) -> str:
    """The movetext of a written game, its lines joined by single spaces."""
    return " ".join(pdn.split("\n\n", 1)[1].split())


def pdns(game: Game) -> list[str]:
    return [m.pdn() for m in game.moves]


def words(text: str) -> list[str]:
    return text.split()


# -- fixed openings per variant ---------------------------------------------------------------

OPENINGS = {
    "english": "11-15 23-19 8-11 22-17 4-8 17-13 15-18 24-20 9-14 27-24",
    "dame": "11-15 23-19 8-11 22-17 4-8 17-13 15-18 24-20 9-14 27-24",
    "pool": "11-15 23-19 8-11 22-17 4-8 17-13 15-18 24-20 9-14 27-24",
    "international": "32-28 19-23 28x19 14x23 33-28 23x32 37x28 10-14 34-30 20-24",
    "canadian": "46-40 28-34 45-39 34x45 50x39 23-28",
    "brazilian": "c3-d4 f6-e5 d4xf6 g7xe5 b2-c3 h8-g7",
    "russian": "c3-d4 f6-e5 d4xf6 g7xe5 b2-c3 h8-g7",
    "italian": "22-18 10-14 27-22 12-15 22-19 15x22 26x19x10 6x13x22 29-26 22x29",
    "spanish": "11-15 23-19 7-11 19-14 11x18 21x14 10x19 26-21 19x26 29x22",
    "portuguese": "b3-c4 g6-f5 d3-e4 f5xd3 c2xe4 e6-f5 e4xg6 f7xh5 h3-g4 g8-f7",
    "czech": "c3-d4 f6-e5 d4xf6 g7xe5 b2-c3 h8-g7",
    "thai": "26-23 8-11 27-24 11-15 30-26 6-9 24-19 15x24 28x19 1-6",
    "turkish": "d3-d4 d6-d5 d4xd8 e7-d7 d8xd6 f7-e7",
    "frisian": "31-26 17-21 26x17 7x27 37x17 12x21",
    "frysk": "46-41 5-10 41-37 10-14 37-31 14-19 31-26 19-23 26-21 23-28",
    "antidraughts": "32-28 19-23 28x19 14x23 33-28 23x32 37x28 10-14 34-30 20-24",
    "breakthrough": "32-28 19-23 28x19 14x23 33-28 23x32 37x28 10-14 34-30 20-24",
}
"""Two book lines in numeric and algebraic input, with captures (so ``x`` moves are written)."""

EXPECTED_MOVETEXT = {
    "english": "1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 4. 15-18 24-20 5. 9-14 27-24 *",
    "international": "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 10-14 5. 34-30 20-24 *",
    # 12x12, 6 squares a row: 46-40 is g5-h6, 34x45 g7xe5.
    "canadian": "1. 46-40 28-34 2. 45-39 34x45 3. 50x39 23-28 *",
    "russian": "1. 22-18 11-15 2. 18x11 8x15 3. 25-22 4-8 *",
    # Numbered from White's near right corner (1 = h1): 11-15 is d3-c4.
    "spanish": "1. 11-15 23-19 2. 7-11 19-14 3. 11x18 21x14 4. 10x19 26-21 5. 19x26 29x22 *",
    "portuguese": "1. 12-15 21-18 2. 11-14 18x11 3. 7x14 22-18 4. 14x21 26x17 5. 9-13 29-26 *",
    # Black moves first, numbered from Black's side (1 = g1).
    "thai": "1. 26-23 8-11 2. 27-24 11-15 3. 30-26 6-9 4. 24-19 15x24 5. 28x19 1-6 *",
    # All 64 squares, numbered from a8 row by row: d3-d4 is 44-36, the man's double jump
    # d4xd6xd8 that crowns is 36x20x4.
    "turkish": "1. 44-36 20-28 2. 36x20x4 13-12 3. 4x20 14-13 *",
    # 7x27 and 37x17 take along the c-file, over 17 and 27 (frisian's captures along columns).
    "frisian": "1. 31-26 17-21 2. 26x17 7x27 3. 37x17 12x21 *",
}


@pytest.mark.parametrize("key", list(VARIANTS))
def test_round_trip_of_an_opening_in_every_variant(key: str) -> None:
    variant = VARIANTS[key]
    game = played(variant, OPENINGS[key])
    text = write_game(game, {"White": "Ann", "Black": "Bob", "Event": "Club night"})
    assert f'[GameType "{variant.game_type}"]' in text
    if key in EXPECTED_MOVETEXT:
        assert movetext(text) == EXPECTED_MOVETEXT[key]
    read = read_game(text)
    assert read.game.variant is variant
    assert pdns(read.game) == pdns(game)
    assert read.game.position == game.position
    assert read.tags["White"] == "Ann" and read.tags["Event"] == "Club night"
    assert read.game.result() == "*"


def test_written_game_has_the_roster_defaults_in_order() -> None:
    game = played(ENGLISH, "11-15 23-19")
    game.resign(Color.WHITE)
    assert write_game(game) == (
        '[Event "?"]\n'
        '[Site "?"]\n'
        '[Date "????.??.??"]\n'
        '[Round "?"]\n'
        '[White "?"]\n'
        '[Black "?"]\n'
        '[Result "0-1"]\n'
        '[GameType "21"]\n'
        "\n"
        "1. 11-15 23-19 0-1\n"
    )


def test_writer_takes_result_variant_and_start_from_the_game_not_the_caller() -> None:
    game = played(ENGLISH, "11-15")
    text = write_game(
        game,
        {"Result": "1-0", "GameType": "20", "Variant": "dame", "FEN": "W:W1:B2", "ECO": "x"},
    )
    tags = read_game(text).tags
    assert tags["Result"] == "*"
    assert tags["GameType"] == "21"
    assert "Variant" not in tags and "FEN" not in tags and "SetUp" not in tags
    assert tags["ECO"] == "x"


def test_tag_values_with_quotes_and_backslashes_survive() -> None:
    name = 'O\'Neil "The Wall" C:\\games'
    text = write_game(Game(ENGLISH), {"White": name})
    assert '[White "O\'Neil \\"The Wall\\" C:\\\\games"]' in text
    assert read_game(text).tags["White"] == name


def test_writer_refuses_bad_tags() -> None:
    with pytest.raises(PdnError, match="tag name"):
        write_game(Game(ENGLISH), {"Bad Name": "x"})
    with pytest.raises(PdnError, match="single line"):
        write_game(Game(ENGLISH), {"Event": "two\nlines"})


def test_tags_keep_roster_order_and_canonical_names() -> None:
    tags = Tags([("Annotator", "me"), ("fen", "W:W31:B1"), ("Black", "b"), ("event", "e")])
    tags["gametype"] = "20"
    assert list(tags) == ["Event", "Black", "GameType", "FEN", "Annotator"]
    assert tags["GAMETYPE"] == "20" and "Fen" in tags
    assert tags == {
        "Event": "e",
        "Black": "b",
        "GameType": "20",
        "FEN": "W:W31:B1",
        "Annotator": "me",
    }


def test_long_games_wrap_at_79_columns_without_splitting_a_numbered_move() -> None:
    game = played(ENGLISH, " ".join(REAL_GAME_MOVES))
    text = write_game(game)
    lines = text.split("\n\n", 1)[1].splitlines()
    assert len(lines) > 1
    assert all(len(line) <= LINE_WIDTH for line in lines)
    assert all(not line.rstrip().endswith(".") for line in lines)
    assert movetext(text).startswith("1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13")
    assert read_game(text).game.position == game.position


# -- results ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("end", "result"),
    [("white resigns", "0-2"), ("black resigns", "2-0"), ("draw", "1-1"), ("abort", "*")],
)
def test_international_results_are_2_0_1_1_0_2(end: str, result: str) -> None:
    game = played(INTERNATIONAL, "32-28 19-23")
    if end == "white resigns":
        game.resign(Color.WHITE)
    elif end == "black resigns":
        game.resign(Color.BLACK)
    elif end == "draw":
        game.offer_draw(Color.WHITE)
        game.accept_draw(Color.BLACK)
    else:
        game.abort()
    text = write_game(game)
    assert f'[Result "{result}"]' in text
    assert movetext(text) == f"1. 32-28 19-23 {result}"
    assert read_game(text).game.result() == result


@pytest.mark.parametrize(
    ("token", "termination", "winner"),
    [
        ("1-0", Termination.RESIGNATION, Color.WHITE),
        ("0-1", Termination.RESIGNATION, Color.BLACK),
        ("1/2-1/2", Termination.AGREEMENT, None),
        ("2-0", Termination.RESIGNATION, Color.WHITE),
        ("1-1", Termination.AGREEMENT, None),
    ],
)
def test_a_result_on_an_unfinished_game_becomes_resignation_or_agreement(
    token: str, termination: Termination, winner: Color | None
) -> None:
    read = read_game(f"1. 11-15 23-19 2. 8-11 {token}")
    outcome = read.game.outcome
    assert outcome is not None
    assert outcome.termination is termination
    assert outcome.winner is winner
    assert read.game.result() == ENGLISH.result(winner)


def test_star_leaves_the_game_going_on() -> None:
    read = read_game('[Result "*"]\n1. 11-15 23-19 *')
    assert read.game.outcome is None and read.game.turn is Color.BLACK


def test_result_tag_is_used_when_the_movetext_has_no_result_token() -> None:
    read = read_game('[Result "0-1"]\n1. 11-15 23-19')
    assert read.game.result() == "0-1"


def test_result_token_and_tag_that_disagree_are_an_error() -> None:
    with pytest.raises(PdnError, match="disagrees"):
        read_game('[Result "1-0"]\n1. 11-15 23-19 0-1')
    lenient = read_games('[Result "1-0"]\n1. 11-15 23-19 0-1')[0]
    assert lenient.game.result() == "0-1"  # the token, written after the moves, wins


# A white man takes all six black men in one move (short form: end square only): no pieces left.
WIPE_OUT = "W:W31,32,33,K46:B8,9,18,19,28,29"


def test_a_game_ended_by_its_moves_keeps_its_own_outcome() -> None:
    read = read_game(f'[GameType "20"]\n[FEN "{WIPE_OUT}"]\n1. 32x34 2-0')
    assert read.game.outcome is not None
    assert read.game.outcome.termination is Termination.NO_PIECES
    assert read.game.result() == "2-0"


def test_a_result_contradicting_the_finished_position_is_an_error() -> None:
    text = f'[GameType "20"]\n[FEN "{WIPE_OUT}"]\n1. 32x34 0-2'
    with pytest.raises(PdnError, match="no pieces left"):
        read_game(text)
    lenient = read_games(text)[0]
    assert lenient.game.result() == "2-0" and lenient.errors


# -- reading real-world texts ---------------------------------------------------------------

REAL_GAME = """\
[Event "Scottish Open"]
[Site "Glasgow SCO"]
[Date "1998.03.14"]
[Round "4"]
[White "Mackay, J."]
[Black "Reid, A."]
[Result "0-1"]
[GameType "21"]
[Annotator "club bulletin"]

{Old Fourteenth. Black opens; the notes are from the bulletin.}
1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 4. 15-18 24-20 5. 11-15 28-24
6. 8-11 26-23 7. 9-14 31-26 (7... 27-24 {is also seen (rarely)} 8. 6-9) 8. 6-9
13x6 9. 2x9 26-22 10. 9-13 32-28 11. 5-9 30-26 12. 3-8 20-16?! $6 13. 11x20
19-16 14. 12x19 (14... 20-24 (14... 8-12 16x7) 27x20) 23x16 15. 8-12 27-23 ; this loses a man
16. 20x27 23-19 17. 15x24 22x6! {a double jump written from start to end}
18. 12x19 6-2 19. 7-11 26-22 20. 27-32 2-7 21. 11-16 7-11 22. 16-20 11-16
23. 24-27 16x23 {White resigned here.} 0-1
"""

REAL_GAME_MOVES = words(
    "11-15 23-19 8-11 22-17 4-8 17-13 15-18 24-20 11-15 28-24 8-11 26-23 9-14 31-26 6-9 13x6 "
    "2x9 26-22 9-13 32-28 5-9 30-26 3-8 20-16 11x20 19-16 12x19 23x16 8-12 27-23 20x27 23-19 "
    "15x24 22x15x6 12x19 6-2 7-11 26-22 27-32 2-7 11-16 7-11 16-20 11-16 24-27 16x23"
)


def test_a_real_english_game_with_comments_nags_and_variations() -> None:
    read = read_game(REAL_GAME)
    game = read.game
    assert game.variant is ENGLISH
    assert pdns(game) == REAL_GAME_MOVES
    assert game.position.fen() == "B:W21,22,25,28,29,K23:B1,9,13,14,20,27,K32"
    assert read.tags["White"] == "Mackay, J." and read.tags["Annotator"] == "club bulletin"
    assert game.outcome is not None
    assert game.outcome.termination is Termination.RESIGNATION
    assert game.outcome.winner is Color.BLACK
    # Written again, it reads back to the same game (the short 22x6 is now the full path).
    again = read_game(write_game(game, read.tags))
    assert pdns(again.game) == REAL_GAME_MOVES and again.game.result() == "0-1"
    assert "22x15x6" in write_game(game)


def test_move_number_styles_and_annotations() -> None:
    text = "1.11-15 23-19! 2. ... 8-11?? 2... 22-17 3.4-8!? $14 17-13 $1 ; note\n *"
    assert pdns(read_game(text).game) == words("11-15 23-19 8-11 22-17 4-8 17-13")


def test_algebraic_moves_are_read() -> None:
    text = '[GameType "25"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *'
    read = read_game(text)
    assert read.game.variant is VARIANTS["russian"]
    assert pdns(read.game) == ["22-18", "11-15", "18x11", "8x15"]


def test_several_games_in_one_text() -> None:
    text = (
        '[Event "one"]\n1. 11-15 23-19 1-0\n\n'
        '[Event "two"]\n[GameType "20"]\n1. 32-28 19-23 2-0\n\n'
        "1. 9-13 *\n"  # no tags: English, a game of its own after the result above
        '[Event "four"]\n1. 11-15\n'  # no result: the next tag starts a new game
        '[Event "five"]\n'
    )
    games = read_games(text)
    assert [g.tags.get("Event") for g in games] == ["one", "two", None, "four", "five"]
    assert [len(g.game.moves) for g in games] == [2, 2, 1, 1, 0]
    assert games[1].game.variant is INTERNATIONAL
    assert [g.game.result() for g in games] == ["1-0", "2-0", "*", "*", "*"]
    assert all(g.ok for g in games)
    with pytest.raises(PdnError, match="5 games"):
        read_game(text)


def test_variations_and_comments_do_not_split_games() -> None:
    text = "1. 11-15 (1. 9-13 1-0 {[%eval 0.3] a ) brace} ) 23-19 {1-0 } 2. 8-11 *"
    games = read_games(text)
    assert len(games) == 1 and games[0].ok
    assert pdns(games[0].game) == ["11-15", "23-19", "8-11"]


# -- variants and start positions ----------------------------------------------------------


def test_dame_keeps_dame() -> None:
    game = played(DAME, OPENINGS["dame"])
    text = write_game(game)
    assert '[GameType "21"]' in text and '[Variant "dame"]' in text
    assert read_game(text).game.variant is DAME
    # Without the Variant tag the same GameType is English.
    assert read_game(text.replace('[Variant "dame"]\n', "")).game.variant is ENGLISH


def test_variant_from_tags() -> None:
    assert read_game("1. 11-15 *").game.variant is ENGLISH  # no GameType: PDN's default
    assert read_game('[GameType "20,W,10,10,N2,0"]\n1. 32-28 *').game.variant is INTERNATIONAL
    assert read_game('[GameType "23"]\n*').game.variant is VARIANTS["pool"]
    assert read_game('[GameType "26"]\n*').game.variant is VARIANTS["brazilian"]
    assert read_game('[Variant "dame"]\n*').game.variant is DAME
    with pytest.raises(PdnError, match="GameType 99"):
        read_game('[GameType "99"]\n1. 11-15 *')
    with pytest.raises(PdnError, match="Variant tag says dame"):
        read_game('[GameType "20"]\n[Variant "dame"]\n*')


def test_variant_argument_overrides_the_tags() -> None:
    text = '[GameType "21"]\n1. 22-18 11-15 *'
    read = read_game(text, variant="russian")
    assert read.game.variant is VARIANTS["russian"]
    assert pdns(read.game) == ["22-18", "11-15"]
    with pytest.raises(PdnError):
        read_game(text)  # as English, Black moves first and 22-18 is White's


def test_international_game_from_a_fen_start() -> None:
    fen = "W:W27,28,32,33,37,38,K46:B12,13,17,18,19,22,23"
    game = Game(INTERNATIONAL, parse_fen(fen, INTERNATIONAL))
    for _ in range(6):
        game.play(sorted(game.legal_moves(), key=lambda m: m.path)[0])
    text = write_game(game)
    assert '[SetUp "1"]' in text
    assert f'[FEN "{game.start.fen()}"]' in text
    assert movetext(text).startswith("1. ")
    read = read_game(text)
    assert read.game.start == game.start
    assert pdns(read.game) == pdns(game)
    assert read.game.position == game.position


def test_start_with_the_second_mover_to_play_numbers_from_1_dots() -> None:
    fen = "B:W31,32,33,34,35:B16,17,18,19,20"  # international: White starts, Black to move here
    game = played(INTERNATIONAL, "18-22 33-29 22-27", fen)
    text = write_game(game)
    assert movetext(text) == "1... 18-22 2. 33-29 22-27 *"
    read = read_game(text)
    assert pdns(read.game) == ["18-22", "33-29", "22-27"]
    # A FEN tag without SetUp is read as well.
    assert read_game(text.replace('[SetUp "1"]\n', "")).game.start == game.start


def test_english_fen_with_white_to_move() -> None:
    game = played(ENGLISH, "22-18 1-5", "W:W22,23:B1,2")
    assert movetext(write_game(game)) == "1... 22-18 2. 1-5 *"


# -- broken texts: the reader keeps the good part, read_game refuses -------------------------


def test_an_illegal_move_names_its_number_and_keeps_the_moves_before() -> None:
    text = '[Result "1-0"]\n1. 11-15 23-19 2. 8-11 22-17 3. 12-16 24-28 4. 16-20 1-0'
    read = read_games(text)[0]
    assert pdns(read.game) == ["11-15", "23-19", "8-11", "22-17", "12-16"]
    assert not read.complete
    assert len(read.errors) == 1
    assert read.errors[0].startswith("move 3... 24-28:")
    assert read.game.outcome is None  # the 1-0 belongs to moves that were not read
    with pytest.raises(PdnError, match=r"move 3\.\.\. 24-28"):
        read_game(text)


def test_an_illegal_first_mover_move_is_named_with_one_dot() -> None:
    read = read_games("1. 11-15 23-19 2. 8-12 *")[0]
    assert read.errors[0].startswith("move 2. 8-12:")
    assert len(read.game.moves) == 2


def test_a_syntax_error_stops_the_game_there() -> None:
    read = read_games("1. 11-15 23-19 2. 8-11 blunder 22-17 *")[0]
    assert pdns(read.game) == ["11-15", "23-19", "8-11"]
    assert any("'blunder'" in e and "line 1" in e for e in read.errors)


def test_a_game_stopped_by_a_syntax_error_does_not_take_its_result() -> None:
    # The 1-0 belongs to moves that were not read: applying it would end the game at move 2.
    read = read_games("1. 11-15 23-19 2. 8-11 blunder 22-17 1-0")[0]
    assert not read.complete and read.game.outcome is None


def test_a_broken_game_does_not_spoil_the_next() -> None:
    games = read_games('1. 11-15 11-15 1-0\n[Event "ok"]\n1. 9-13 22-18 *')
    assert not games[0].ok and games[1].ok
    assert pdns(games[1].game) == ["9-13", "22-18"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "no game found"),
        ("   \n{just a comment}\n", "no game found"),
        ("hello world", "'hello' is not a move"),
        ('[Event "unterminated]\n1. 11-15 *', "malformed tag"),
        ("1. 11-15 {never closed", "never closed"),
        ("1. 11-15 (23-19 *", "never closed"),
        ("1. 11-15 ) 23-19 *", "no \\("),
        ("1. 11-15 23-19 2. 99-100 *", "no square 99"),
        ('[FEN "X:W1:B2"]\n*', "FEN tag"),
        ('[GameType "checkers"]\n*', "does not start with a number"),
        ('[Result "white wins"]\n1. 11-15', "is not a result"),
        ("\x00\x01\x02 binary", "is not a move"),
    ],
)
def test_read_game_refuses_garbage_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(PdnError, match=reason):
        read_game(text)


def test_moves_after_the_game_ended_are_an_error() -> None:
    text = f'[GameType "20"]\n[FEN "{WIPE_OUT}"]\n1. 32x34 1-2 2-0'
    with pytest.raises(PdnError, match=r"move 1\.\.\. 1-2: the game is over"):
        read_game(text)


def test_oversized_input_is_refused() -> None:
    with pytest.raises(PdnError, match="too large"):
        parse_pdn("*" + " " * MAX_PDN_BYTES)
    with pytest.raises(PdnError, match="too large"):
        read_games(b" " * (MAX_PDN_BYTES + 1))
    assert len(read_games(" " * (MAX_PDN_BYTES - 1) + "*")) == 1


def test_bytes_in_utf8_or_latin1() -> None:
    text = '[White "Lösch"]\n1. 11-15 *'
    assert read_game(text.encode("utf-8")).tags["White"] == "Lösch"
    assert read_game(b"\xef\xbb\xbf" + text.encode("utf-8")).tags["White"] == "Lösch"
    assert read_game(text.encode("latin-1")).tags["White"] == "Lösch"


# -- property: random games round-trip --------------------------------------------------------


def random_game(variant: Variant, rnd: random.Random, opening: int, plies: int, end: str) -> Game:
    """A random legal game: ``opening`` random plies make the start position (when non-zero),
    then up to ``plies`` random plies, then ``end`` if the game is still going on."""
    game = Game(variant)
    if opening:
        for _ in range(opening):
            if game.is_over:
                break
            game.play(rnd.choice(sorted(game.legal_moves(), key=lambda m: m.path)))
        game = Game(variant, game.position)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rnd.choice(sorted(game.legal_moves(), key=lambda m: m.path)))
    if not game.is_over:
        if end == "white resigns":
            game.resign(Color.WHITE)
        elif end == "black resigns":
            game.resign(Color.BLACK)
        elif end == "draw":
            game.offer_draw(game.turn)
            game.accept_draw(game.turn.other)
        elif end == "abort":
            game.abort()
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(list(VARIANTS.values())),
    rnd=st.randoms(use_true_random=False),
    opening=st.sampled_from([0, 0, 3, 12, 30]),
    plies=st.integers(0, 80),
    end=st.sampled_from(["none", "white resigns", "black resigns", "draw", "abort"]),
)
def test_pdn_round_trip_of_random_games(
    variant: Variant, rnd: random.Random, opening: int, plies: int, end: str
) -> None:
    game = random_game(variant, rnd, opening, plies, end)
    text = write_game(game)
    assert all(len(line) <= LINE_WIDTH for line in text.split("\n\n", 1)[1].splitlines())
    assert ("[FEN " in text) == (game.start != Game(variant).start)
    read = read_game(text)
    assert read.game.variant is variant
    assert read.game.start.fen() == game.start.fen()
    assert pdns(read.game) == pdns(game)
    assert read.game.result() == game.result()
    assert read.game.position == game.position
