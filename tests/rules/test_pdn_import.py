"""The import reader (:mod:`rules.pdn_import`): each fault real files have, recovered (or refused
clearly where it cannot be), and hostile files refused within bounded time and memory."""

from __future__ import annotations

import itertools
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.pdn_import_samples import (
    AMBIGUOUS_PLY,
    AMBIGUOUS_SEED,
    OPEN_REPLY,
    SETTLING_REPLY,
    random_game,
    read_sample,
    samples,
)

from rules import Color, write_game
from rules.pdn import parse_pdn, read_games
from rules.pdn_import import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_GAMES,
    MAX_PLIES,
    MAX_SECONDS,
    ImportedFile,
    ImportRefused,
    read_import,
)


def texts(file: ImportedFile) -> list[list[str]]:
    return [[str(note) for note in game.notes] for game in file.games]


def test_the_sample_files_are_what_the_generator_makes() -> None:
    for name, text in samples().items():
        assert read_sample(name) == text, f"{name}: run python tests/support/pdn_import_samples.py"


# -- the faults of real files ----------------------------------------------------------------------


def test_padded_squares_are_read_as_moves_and_the_result_applies() -> None:
    text = read_sample("padded_squares.pdn")
    strict = read_games(text)
    # The strict reader stops at the first padded move and keeps no result for it.
    assert not strict[0].complete and strict[0].game.outcome is None
    file = read_import(text)
    first, second = file.games
    assert first.ok and second.ok
    assert first.game is not None and second.game is not None
    assert [m.pdn() for m in first.game.moves] == [
        m.pdn() for m in random_game("international", 11, 60).moves
    ]
    assert first.game.result() == "2-0" and second.game.result() == "1-1"
    assert any(" 6 read as 1-6" in note for note in texts(file)[0])


def test_a_star_after_the_moves_gives_way_to_the_result_tag() -> None:
    text = read_sample("star_result.pdn")
    (strict,) = read_games(text)  # the strict reader: the * wins, the game goes on
    assert strict.game.outcome is None and any("disagrees" in e for e in strict.errors)
    (read,) = read_import(text).games
    assert read.game is not None and read.game.result() == "1-0"
    assert read.game.outcome is not None and read.game.outcome.winner is Color.WHITE
    assert any("Result tag's 1-0" in str(note) for note in read.notes)


def test_junk_after_the_tags_neither_splits_games_nor_loses_their_moves() -> None:
    text = read_sample("junk_after_tags.pdn")
    assert len(parse_pdn(text)) == 4  # the strict parser splits the first game in two
    file = read_import(text)
    assert file.total == 3 and all(g.ok for g in file.games)
    for game, seed in zip(file.games, (1, 2, 3), strict=True):
        assert game.tags["Event"] == f"Club {seed}"
        assert game.game is not None
        assert game.game.moves == random_game("english", seed, 20).moves
    assert texts(file)[0] == ["line 5: skipped 'Annotated by the club secretary': not PDN"]
    assert texts(file)[1] == ["line 22: skipped 'Game two: a sharp opening': not PDN"]


def test_an_ambiguous_short_capture_is_settled_by_the_next_move() -> None:
    (strict,) = read_games(read_sample("ambiguous_settled.pdn"))
    assert not strict.complete and len(strict.game.moves) == AMBIGUOUS_PLY  # stops there
    (read,) = read_import(read_sample("ambiguous_settled.pdn")).games
    assert read.game is not None, read.refusal
    assert read.game.moves[AMBIGUOUS_PLY].pdn() == "37x23x34x48"
    assert read.game.moves[-1].pdn() == SETTLING_REPLY
    assert any("37x48 read as 37x23x34x48" in str(note) for note in read.notes)


def test_an_ambiguous_short_capture_the_next_move_cannot_settle_is_refused_where_it_is() -> None:
    (read,) = read_import(read_sample("ambiguous_unsettled.pdn")).games
    assert read.game is None and read.refusal is not None
    reason = str(read.refusal)
    assert reason.startswith("game 1 (line 1): line 4, move 17... 37x48:")
    assert "37x19x30x48" in reason and "37x23x34x48" in reason
    # the same capture as the game's last move: nothing after it can tell either
    game = random_game("international", AMBIGUOUS_SEED, AMBIGUOUS_PLY)
    last = " ".join(m.pdn() for m in game.moves) + " 37x48 *"
    assert read_import(last).games[0].refusal is not None
    assert OPEN_REPLY in read_sample("ambiguous_unsettled.pdn")


# -- refusals say what and where -------------------------------------------------------------------


def test_an_illegal_move_refuses_its_game_naming_game_line_and_move() -> None:
    text = '[Event "a"]\n1. 11-15 *\n\n[Event "b"]\n1. 11-15 23-19\n2. 8-12 *\n'
    file = read_import(text)
    assert file.games[0].ok and not file.games[1].ok
    assert str(file.games[1].refusal).startswith("game 2 (line 4): line 6, move 2. 8-12:")


def test_only_the_games_asked_for_are_replayed() -> None:
    text = "".join(f'[Event "{n}"]\n1. 11-15 *\n' for n in range(1, 41))
    file = read_import(text, first=30, count=3)
    assert file.total == 40
    assert [(g.number, g.tags["Event"]) for g in file.games] == [(30, "30"), (31, "31"), (32, "32")]


def test_unreadable_tags_refuse_the_game_with_their_values() -> None:
    (read,) = read_import('[GameType "99"]\n1. 32-28 *').games
    assert str(read.refusal) == (
        "game 1 (line 1): the tags name no variant played here (GameType 99, Variant -)"
    )
    (fen,) = read_import('[FEN "W:W99:B1"]\n*').games
    assert "the FEN tag is not a position of this variant" in str(fen.refusal)


def test_moves_after_the_end_of_the_game_refuse_it() -> None:
    fen = "W:W31,32,33,K46:B8,9,18,19,28,29"
    (read,) = read_import(f'[GameType "20"]\n[FEN "{fen}"]\n1. 32x34 19-23 2-0').games
    assert "move 1... 19-23" in str(read.refusal) and "over" in str(read.refusal)


# -- hostile files ---------------------------------------------------------------------------------


def test_a_huge_file_is_refused_before_it_is_decoded() -> None:
    with pytest.raises(ImportRefused, match=r"the file is 1,000,001 bytes; at most 1,000,000"):
        read_import(b"\xff" * (MAX_BYTES + 1))


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00",
        bytes(range(256)) * 4,
        b'[Event "x"]\n1. 11-15\n23-19 \x00\x00 *',
    ],
)
def test_binary_data_is_refused_naming_the_line(data: bytes) -> None:
    with pytest.raises(ImportRefused, match=r"not a text file \(a control character on line \d"):
        read_import(data)


def test_ten_thousand_games_are_refused_at_the_first_game_past_the_bound() -> None:
    text = '[Event "x"]\n1. 11-15 *\n' * 10_000
    with pytest.raises(ImportRefused) as refused:
        read_import(text)
    assert str(refused.value).startswith(
        f"the file holds more than {MAX_GAMES} games (game {MAX_GAMES + 1} starts on line "
        f"{2 * MAX_GAMES + 1})"
    )


def test_deep_variations_refuse_their_game_and_spare_the_next() -> None:
    deep = "1. 11-15 " + "(23-19 " * 50_000 + ") " * 50_000 + " 23-19 *\n"
    file = read_import(deep + '[Event "next"]\n1. 9-13 *\n')
    assert str(file.games[0].refusal) == (
        f"game 1 (line 1): variations nested more than {MAX_DEPTH} deep (line 1)"
    )
    assert file.games[1].ok


def test_an_unbalanced_variation_refuses_its_game() -> None:
    file = read_import("1. 11-15 (23-19 24-20\n2. 8-11 *\n" + '[Event "next"]\n1. 9-13 *\n')
    assert "the variation opened with ( on line 1 is never closed" in str(file.games[0].refusal)
    assert file.games[1].ok


def test_an_unclosed_comment_refuses_the_game_it_swallows() -> None:
    (read,) = read_import('[Event "x"]\n1. 11-15 {a comment\n23-19 *\n[Event "y"]\n*').games
    assert "the comment opened with { on line 2 is never closed" in str(read.refusal)


def test_too_many_moves_refuse_the_game() -> None:
    moves = " ".join(["11-15 15-11"] * (MAX_PLIES // 2 + 1))
    (read,) = read_import(moves + " *").games
    assert f"more than {MAX_PLIES} moves" in str(read.refusal)


def test_odd_unicode_is_made_plain() -> None:
    text = (
        '[White "Zoë \u202eadmin\u202c"]\n[Black "李"]\n'
        "1. \uff11\uff11-\uff11\uff15 \u200b23\u200b-19 2. \u0669\u22121\u0664 *"  # ٩−١٤: 9-14
    )
    (read,) = read_import(text).games
    assert read.game is not None, read.refusal
    assert [m.pdn() for m in read.game.moves] == ["11-15", "23-19", "9-14"]
    assert read.tags["White"] == "Zoë admin"


def test_lone_surrogates_do_not_break_the_reader() -> None:
    (read,) = read_import('[White "a\udcff"]\n1. 11-15 *').games
    assert read.ok and "\udcff" not in read.tags["White"]


def test_reading_stops_clearly_when_time_runs_out() -> None:
    ticks = itertools.count()
    text = '[Event "x"]\n1. 11-15 23-19 *\n' * 600
    with pytest.raises(ImportRefused, match=rf"longer than {MAX_SECONDS:g} s; it stopped at game"):
        read_import(text, clock=lambda: float(next(ticks)))


def test_a_hostile_megabyte_stays_within_bounded_memory() -> None:
    # long words (each a slow match for the tokenizer), deep variations, long tag values
    words = " ".join(["1-" * 450 + "x"] * 10)
    line = '[A "' + "x" * 300 + '"]\n' + "(" * 40 + f" {words} " + ") " * 40 + "* ;\n"
    hostile = (line * (MAX_BYTES // len(line) + 1))[: MAX_BYTES - 10]
    tracemalloc.start()
    try:
        file = read_import(hostile, seconds=600)  # tracemalloc slows Python down
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert file.total > 100
    assert all("nested more than 32 deep" in str(game.refusal) for game in file.games)
    assert peak < 64 * 1024 * 1024


# -- properties -----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=600), st.text(max_size=600)))
def test_any_input_is_read_or_refused_never_crashes(data: bytes | str) -> None:
    try:
        file = read_import(data)
    except ImportRefused as refused:
        assert str(refused)
        return
    for game in file.games:
        assert (game.game is None) == (game.refusal is not None)


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(["english", "international", "russian", "brazilian"]),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 80),
)
def test_a_written_game_with_padded_squares_reads_back_the_same(
    variant: str, seed: int, plies: int
) -> None:
    game = random_game(variant, seed, plies)
    body, result = write_game(game).rstrip().rsplit(" ", 1)
    padded = body.replace("-", " - ") + " " + result
    (read,) = read_import(padded).games
    assert read.game is not None, read.refusal
    assert read.game.moves == game.moves and read.game.result() == game.result()


def test_a_word_too_long_for_pdn_is_refused_naming_its_line() -> None:
    with pytest.raises(ImportRefused, match=r"line 2 holds 5,000 characters without a space"):
        read_import('[Event "x"]\n' + "1-" * 2_500 + "\n*")
