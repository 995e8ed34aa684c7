"""The command-line contracts of ``python -m rules`` (shared/DESIGN.md): perft, moves, play.

Each test runs the real module in a subprocess, as scripts and people do.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def ok(*args: str) -> list[str]:
    """stdout lines of a command that must succeed."""
    result = run(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def fails(*args: str) -> str:
    """stderr of a command that must fail with exit code 1 and print nothing on stdout."""
    result = run(*args)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.strip()
    return result.stderr


# -- perft ------------------------------------------------------------------------------------


def test_perft_last_line_is_the_node_count():
    assert ok("perft", "--variant", "english", "--depth", "3")[-1] == "302"
    assert ok("perft", "--variant", "international", "--depth", "2")[-1] == "81"


def test_perft_from_a_fen():
    # Flying kings on the long diagonal: 6 then 21 (see test_perft.py).
    assert ok("perft", "--variant", "pool", "--depth", "2", "--fen", "B:WK29:BK4")[-1] == "21"


def test_perft_divide_ends_with_the_total():
    lines = ok("perft", "--variant", "english", "--depth", "3", "--divide")
    assert lines[-1] == "302"
    per_move = dict(line.split() for line in lines[:-1])
    assert len(per_move) == 7
    assert sum(int(n) for n in per_move.values()) == 302


# -- moves ------------------------------------------------------------------------------------


def test_moves_lists_full_path_and_captured_squares():
    # Black man d6 (10) takes c5 (14) and c3 (22): 10x17x26.
    assert ok("moves", "--variant", "english", "--fen", "B:W14,22:B10") == ["10x17x26 14,22"]


def test_moves_captured_squares_are_ascending_not_in_jump_order():
    # 27x18x11 jumps 23 first, then 15.
    assert ok("moves", "--variant", "english", "--fen", "W:W27:B23,15,1") == ["27x18x11 15,23"]


def test_moves_steps_are_marked_with_a_dash_and_sorted():
    lines = ok("moves", "--variant", "english")
    assert lines == ["9-13 -", "9-14 -", "10-14 -", "10-15 -", "11-15 -", "11-16 -", "12-16 -"]


def test_moves_output_is_sorted_by_path():
    lines = ok("moves", "--variant", "pool", "--fen", "W:WK30:B23,11,10,27,1")
    paths = [tuple(int(s) for s in line.split()[0].split("x")) for line in lines]
    assert paths == sorted(paths)
    assert lines[0] == "30x16x7x14 10,11,23"
    assert len(lines) == 4


def test_moves_accepts_an_algebraic_fen_on_8x8():
    assert ok("moves", "--variant", "english", "--fen", "W:Wc3:Bd4,b8") == ["22x15 18"]


# -- play -------------------------------------------------------------------------------------


def test_play_prints_the_fen_then_the_status_line():
    lines = ok("play", "--variant", "english", "11-15")
    assert lines == [
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
        "ongoing",
    ]


def test_play_without_tokens_prints_the_start():
    lines = ok("play", "--variant", "russian")
    assert lines == [
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "ongoing",
    ]


def test_play_offer_decline_starts_the_40_move_count_in_english():
    lines = ok("play", "--variant", "english", "offer", "decline")
    assert lines[-1] == "ongoing; 40-move count: 40 left"
    # Black offered and White declined: White's moves count.
    lines = ok("play", "--variant", "english", "offer", "decline", "11-15", "22-18")
    assert lines[-1].startswith("ongoing; 40-move count: 39 left")


def test_play_moving_instead_of_answering_declines():
    # Black offers and plays; White plays on instead of answering: White's count starts.
    lines = ok("play", "--variant", "english", "offer", "11-15")
    assert lines[-1] == "ongoing; draw offered by black"
    lines = ok("play", "--variant", "english", "offer", "11-15", "22-18")
    assert lines[-1].startswith("ongoing; 40-move count: 39 left")


def test_play_offer_decline_has_no_count_in_other_variants():
    lines = ok("play", "--variant", "dame", "offer", "decline")
    # no 40-move count; dame's no-progress count always runs (men's moves do not reset it)
    assert lines[-1] == "ongoing; no-progress count: 25 left"


def test_play_offer_accept_is_a_draw_by_agreement():
    assert ok("play", "--variant", "english", "offer", "accept")[-1] == "1/2-1/2 draw by agreement"


def test_play_threefold_repetition():
    moves = ["4-8", "29-25", "8-4", "25-29"] * 2
    lines = ok("play", "--variant", "english", "--fen", "B:WK29:BK4", *moves)
    assert lines == ["B:WK29:BK4", "1/2-1/2 threefold repetition"]


def test_play_win_results_white_first():
    assert ok("play", "--variant", "english", "--fen", "W:W22:B18", "22x15")[-1] == (
        "1-0 no pieces left"
    )
    assert ok("play", "--variant", "english", "--fen", "W:W25,30,24:B21", "24-20")[-1] == (
        "1-0 no legal moves"
    )
    assert ok("play", "--variant", "english", "--fen", "B:W22:B18", "18x25")[-1] == (
        "0-1 no pieces left"
    )


def test_play_accepts_forgiving_move_input():
    lines = ok("play", "--variant", "english", "--fen", "W:W22:B18", "C3×E5")
    assert lines == ["B:W15:B", "1-0 no pieces left"]


def test_play_bad_token_exits_1_with_the_reason_on_stderr():
    err = fails("play", "--variant", "english", "22-18")  # White's man, Black to move
    assert "22-18" in err
    assert "turn" in err
    err = fails("play", "--variant", "english", "hello")
    assert "not a move" in err
    err = fails("play", "--variant", "english", "11-15", "21-18")
    assert "token 2" in err


def test_play_refused_step_names_the_compulsory_captures():
    err = fails("play", "--variant", "english", "--fen", "W:W22,23,24:B18", "24-20")
    assert "a capture is compulsory: 22x15 or 23x14" in err


def test_play_tokens_after_the_end_are_refused():
    err = fails("play", "--variant", "english", "--fen", "W:W22:B18", "22x15", "offer")
    assert "over" in err
    err = fails("play", "--variant", "english", "offer", "accept", "11-15")
    assert "over" in err


def test_play_answer_without_an_offer_is_refused():
    err = fails("play", "--variant", "english", "accept")
    assert "no draw offer" in err
    fails("play", "--variant", "english", "decline")


def test_variant_alias_polish():
    lines = ok("play", "--variant", "polish")
    white = ",".join(str(s) for s in range(31, 51))
    black = ",".join(str(s) for s in range(1, 21))
    assert lines == [f"W:W{white}:B{black}", "ongoing"]
    assert ok("perft", "--variant", "polish", "--depth", "1")[-1] == "9"


@pytest.mark.parametrize(
    ("fen", "tokens", "status"),
    [
        ("W:W28:B23", ["28x19"], "2-0 no pieces left"),
        ("B:W28:B23", ["23x32"], "0-2 no pieces left"),
        (None, ["offer", "accept"], "1-1 draw by agreement"),
    ],
    ids=["white-wins", "black-wins", "draw"],
)
def test_international_results(fen, tokens, status):
    args = ["play", "--variant", "international"]
    if fen:
        args += ["--fen", fen]
    assert ok(*args, *tokens)[-1] == status


def test_unknown_variant_is_an_error():
    result = run("perft", "--variant", "chess", "--depth", "1")
    assert result.returncode != 0
    assert "english" in result.stderr
