"""The endgame databases (issue 17): our retrograde solver in C (engine/core/egdb.c), their files
and cache (engine/endgame.py) and their use in the native search.

- The solver against a brute-force solver written here on the referee (``rules``' move
  generator and a plain fixed-point iteration), for every position of small closed sets of
  material, both sides to move: English up to 3 pieces, International up to 2 and its kings-only
  endings of 3, Russian up to 2 (crowning mid-capture), and the rules of the orthogonal board
  (Turkish: men stepping sideways) up to 3 pieces on 4x4 and 2 on 8x8.
- Consistency on random positions of larger tables (English and Brazilian, 4 pieces): a
  position's value is the best of its successors' values, the successors found by ``rules``.
- Index round trips, side-to-move symmetry, the file format's checks (corrupt or truncated files
  are rebuilt), two processes building at once, a background build that does not block a search.
- The search: exact searches never probe, a draw scores 0, counting rules and the no-progress
  count keep a table win from being believed, and the engine converts won endings.

Tables are built small here (a few seconds at most), in temporary directories.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.engine_play import play_out

from engine import endgame, native_search
from engine._core import EGDB_DISTANCE_LIMIT, EGDB_WIN_SCORE, EndgameTable
from engine.api import repetition_history, to_move
from engine.endgame import DRAW, LOSS, WIN
from engine.endgame_check import check, played
from engine.native import core_state
from rules.fen import parse_fen
from rules.game import Game
from rules.movegen import generator
from rules.variants import VARIANTS, Color, Goal, Variant

State = tuple[int, int, int, int, int]


def all_positions(variant: Variant, materials: list[tuple[int, int, int, int]]) -> list[State]:
    """Every position of these materials (own men, own kings, their men, their kings), both sides
    to move, men never on their crowning row: enumerated here, not by the table's index."""
    g = variant.geometry
    bits = [g.bit(s) for s in range(1, g.squares + 1)]
    found = []
    for side in (0, 1):
        own_row, opp_row = (g.top_row, g.bottom_row) if side == 0 else (g.bottom_row, g.top_row)
        own_men = [b for b in bits if not b & own_row]
        opp_men = [b for b in bits if not b & opp_row]
        for a, b, c, d in materials:
            for om in itertools.combinations(own_men, a):
                for tm in itertools.combinations(opp_men, c):
                    if set(om) & set(tm):
                        continue
                    rest = [x for x in bits if x not in om and x not in tm]
                    for ok in itertools.combinations(rest, b):
                        left = [x for x in rest if x not in ok]
                        for tk in itertools.combinations(left, d):
                            found.append((sum(om), sum(ok), sum(tm), sum(tk), side))
    return found


def brute_force(variant: Variant, materials: list[tuple[int, int, int, int]]) -> dict[State, int]:
    """Win/loss/draw of every position of a set of materials closed under moves, on the
    referee's moves, by retrograde analysis: a position is won if a move reaches a lost one (or
    ends the game for its goal: takes the last piece; crowns, where the first king wins), lost
    if every move reaches a won one (or gives the last piece away where that wins), and with no
    move at all lost (won, giving away), and what never settles is a draw; where the variant
    draws one piece against one, such a position with a move is a draw by rule.  Settled
    positions are worked back through their predecessors, each counting down the moves not yet
    known to reach a won position."""
    gen = generator(variant)
    states = all_positions(variant, materials)
    where = {s: i for i, s in enumerate(states)}
    parents: list[list[int]] = [[] for _ in states]
    unknown = [0] * len(states)  # per position: its moves not yet known to reach a won one
    value = [0] * len(states)
    drawn = [False] * len(states)  # drawn by rule: never settled by its moves
    settled: collections.deque[int] = collections.deque()
    give_away, first_king = variant.goal is Goal.GIVE_AWAY, variant.goal is Goal.FIRST_KING
    for i, s in enumerate(states):
        om, ok, tm, tk, side = s
        wins_now = False
        moves = gen.moves_raw(om, ok, tm, tk, side)
        one_each = (om | ok).bit_count() == 1 and (tm | tk).bit_count() == 1
        if moves and one_each and variant.lone_pieces_draw:
            drawn[i] = True
            continue
        for move in moves:
            child = played(s, move)
            if first_king and move[3]:
                wins_now = True  # crowned: the game is won
            elif not child[0] | child[1]:  # no pieces left to the side to move next
                wins_now = wins_now or not give_away  # giving away, that side has won
            else:
                parents[where[child]].append(i)
                unknown[i] += 1
        if wins_now or not unknown[i]:
            value[i] = WIN if wins_now or (give_away and not moves) else LOSS
            settled.append(i)
    while settled:
        j = settled.popleft()
        for i in parents[j]:
            if value[i] or drawn[i]:
                continue
            if value[j] == LOSS:
                value[i] = WIN
                settled.append(i)
            else:
                unknown[i] -= 1
                if not unknown[i]:
                    value[i] = LOSS
                    settled.append(i)
    return {s: v or DRAW for s, v in zip(states, value, strict=True)}


def materials(
    pieces: int, kings_only: bool = False, men_only: bool = False
) -> list[tuple[int, int, int, int]]:
    return [
        (a, b, c, d)
        for a, b, c, d in itertools.product(range(pieces + 1), repeat=4)
        if a + b
        and c + d
        and a + b + c + d <= pieces
        and not (kings_only and a + c)
        and not (men_only and b + d)
    ]


@cache
def built(key: str, pieces: int) -> EndgameTable:
    table = endgame.new_table(VARIANTS[key], pieces)
    table.build()
    return table


KINGS, MEN = "kings", "men"
"""Which slices a brute force covers: all, or those of kings alone or of men alone."""


@pytest.mark.parametrize(
    ("key", "pieces", "only"),
    [
        ("english", 3, None),
        ("international", 2, None),
        ("international", 3, KINGS),
        # 72 squares: the core's wide build (128-bit boards).
        ("canadian", 2, None),
        ("russian", 2, None),
        # The mirrored board, men that spare kings and the four precedences; a king first.
        ("italian", 3, None),
        ("czech", 3, KINGS),
        # Flying kings on the mirrored board, the most kings after the most pieces.
        ("spanish", 3, KINGS),
        # Kings that stop just beyond their victim, captured pieces removed at once.
        ("thai", 3, KINGS),
        # Kings that capture along rows and columns too; the tables hold kings alone, whose
        # moves in a row are not limited (tests/engine/test_core_frisian.py).
        ("frisian", 3, KINGS),
        # The goals: no piece or no move wins; the first king wins (men alone: no draw).
        ("antidraughts", 2, None),
        ("antidraughts", 3, KINGS),
        ("breakthrough", 3, MEN),
    ],
)
def test_the_solver_equals_a_brute_force_solver_on_the_referee(
    key: str, pieces: int, only: str | None
) -> None:
    table = built(key, pieces)
    truth = brute_force(VARIANTS[key], materials(pieces, only == KINGS, only == MEN))
    wrong = [(s, v, table.probe(*s)) for s, v in truth.items() if table.probe(*s) != v]
    assert not wrong, (len(wrong), wrong[:5])
    counts = {v: sum(1 for x in truth.values() if x == v) for v in (WIN, LOSS, DRAW)}
    # Every outcome occurs, so the check has teeth; men alone only ever go forwards, so a game
    # of them cannot go on for ever: no draw.
    assert {v for v, n in counts.items() if n} == (
        {WIN, LOSS} if only == MEN else {WIN, LOSS, DRAW}
    )


@cache
def small_orthogonal() -> Variant:
    """Turkish's rules on a 4x4 board (every square played, men stepping and taking forwards and
    sideways, rook-like kings that may not turn back): small enough for the brute force to solve
    every position of 3 pieces, where the 8x8 board's are half a million."""
    return dataclasses.replace(
        VARIANTS["turkish"], key="turkish-4x4", size=4, men_rows=1, empty_rows=0
    )


def test_the_solver_equals_a_brute_force_solver_on_the_orthogonal_board() -> None:
    """Men that step sideways are stepped back sideways too (the unmoves), on a board whose 64
    bits leave no ghost: every 3-piece position of the small board, every 2-piece one of 8x8."""
    small = small_orthogonal()
    table = endgame.new_table(small, 3)
    table.build()
    truth = brute_force(small, materials(3))
    wrong = [(s, v, table.probe(*s)) for s, v in truth.items() if table.probe(*s) != v]
    assert not wrong, (len(wrong), wrong[:5])
    assert all(sum(1 for x in truth.values() if x == v) for v in (WIN, LOSS, DRAW))
    # With two pieces every position is one against one, drawn by Turkish's rule: the unmoves
    # are checked on its moves without that rule, then the rule on its own table.
    counted = dataclasses.replace(VARIANTS["turkish"], key="turkish-counted", endgames=())
    truth = brute_force(counted, materials(2))
    table = endgame.new_table(counted, 2)
    table.build()
    assert [s for s, v in truth.items() if table.probe(*s) != v] == []
    assert {WIN, DRAW} <= set(truth.values())
    truth = brute_force(VARIANTS["turkish"], materials(2))
    table = built("turkish", 2)
    assert [s for s, v in truth.items() if table.probe(*s) != v] == []
    assert set(truth.values()) <= {DRAW, LOSS} and DRAW in truth.values()


def test_later_rules_have_tables_of_their_own() -> None:
    """Turkish's table is named and headed by its own flags (orthogonal, no turning back, one
    piece each drawn), Frisian's by its eight-way captures and its limit, the goal variants' by
    their goal; every other variant's file keeps the name and header it had before those flags
    existed."""
    names = {key: endgame.signature(v) for key, v in VARIANTS.items()}
    assert names == {
        **dict.fromkeys(("english", "dame"), "8x8-c0"),
        "pool": "8x8bf-c1",
        "international": "10x10bfm-c1",
        "antidraughts": "10x10bfmg1-c1",  # the goals' own tables
        "breakthrough": "10x10bfmg2-c1",
        "canadian": "12x12bfm-c1",  # International's rules, a board of its own
        "brazilian": "8x8bfm-c1",
        "russian": "8x8bf-c2",
        "italian": "8x8p1234si-c0",
        **dict.fromkeys(("spanish", "portuguese"), "8x8fp13i-c0"),
        "czech": "8x8fp2-c1",
        "thai": "8x8flr-c0",
        "turkish": "8x8fmroud-c1",
        **dict.fromkeys(("frisian", "frysk"), "10x10bfp52ek3-c1"),
    }
    headers = {key: endgame._rule_data(v) for key, v in VARIANTS.items()}
    assert headers["turkish"] == {
        "size": 8,
        "men_capture_backward": False,
        "flying_kings": True,
        "majority": True,
        "crowning": 1,
        "captures_removed_at_once": True,
        "orthogonal": True,
        "king_turns_back": False,
        "lone_pieces_draw": True,
    }
    # Frisian's header names its eight-way captures and its limit (kings-only slices).
    assert headers["frisian"] == headers["frysk"]
    assert headers["frisian"]["captures_in_eight_directions"] is True
    assert headers["frisian"]["king_move_limit"] == 3
    assert (headers["antidraughts"]["goal"], headers["breakthrough"]["goal"]) == (1, 2)
    later = ("turkish", "frisian", "frysk", "antidraughts", "breakthrough")
    others = [h for key, h in headers.items() if key not in later]
    new = (
        *("orthogonal", "king_turns_back", "lone_pieces_draw"),
        *("captures_in_eight_directions", "king_move_limit", "goal"),
    )
    assert not any(flag in h for h in others for flag in new)
    # Turkish's one-piece-each draw is no count: the table is solved with it, so the search may
    # believe every slice (there is no no-progress count either).
    table = built("turkish", 3)
    endgame.apply_policy(VARIANTS["turkish"], table)
    assert all(trusted for *_, trusted in table.slices())
    # One piece each is drawn whatever the moves say; two kings against a man win.
    g = VARIANTS["turkish"].geometry
    bit = {name: g.bit(g.square_by_name[name]) for name in ("a1", "c8", "d4", "h8")}
    assert table.probe(0, bit["d4"], bit["h8"], 0, 0) == DRAW  # a king against a man
    assert table.probe(0, bit["a1"] | bit["c8"], bit["h8"], 0, 0) == WIN


@pytest.mark.parametrize(
    ("key", "pieces", "per_slice"),
    [
        ("english", 4, 60),
        ("brazilian", 4, 60),
        ("turkish", 3, 100),
        ("frisian", 4, 200),
        ("antidraughts", 3, 100),
        ("breakthrough", 3, 400),
    ],
)
def test_a_value_is_the_best_of_the_successors_values(
    key: str, pieces: int, per_slice: int
) -> None:
    """What ``python -m engine.endgame check`` runs on a table an operator built (the tables of
    fewer slices give more positions from each)."""
    found = check(built(key, pieces), VARIANTS[key], per_slice=per_slice, seed=17)
    assert found.positions > 1000
    assert found.wrong == []


def test_the_check_knows_the_goal() -> None:
    """Antidraughts' table checked as if its goal were International's (the same moves): the
    positions without a move, won there and lost here, are named."""
    found = check(built("antidraughts", 3), VARIANTS["international"], per_slice=100, seed=17)
    assert found.wrong
    assert any(not successors for _state, _value, successors in found.wrong)


def test_the_check_finds_a_wrong_value() -> None:
    """A table whose last slice (three men against one, nearly all won) says "lost" everywhere,
    as a solver bug or a bad write might: the check names positions whose successors say
    otherwise."""
    good = built("english", 4)
    data = bytearray(good.tobytes())
    slices = good.slices()
    first = sum(s[4] for s in slices[:-1])
    start = -(-first // 4)  # the first byte wholly inside the last slice
    assert slices[-1][:4] == (3, 0, 1, 0)
    data[start:] = b"\xaa" * (len(data) - start)  # 10 in every 2 bits: LOSS
    bad = endgame.new_table(VARIANTS["english"], 4)
    bad.load(bytes(data), [s[5] for s in slices])
    found = check(bad, VARIANTS["english"], per_slice=60, seed=17)
    assert found.wrong
    assert {value for _state, value, _successors in found.wrong} == {LOSS}
    assert check(good, VARIANTS["english"], per_slice=60, seed=17).wrong == []


def rotated(variant: Variant, state: State) -> State:
    """The same position turned by 180 degrees with the colours swapped (the other side to move
    in the mirror image: the same game)."""
    g = variant.geometry

    def turn(bb: int) -> int:
        return g.mask_of([g.squares + 1 - s for s in g.squares_in(bb)])

    om, ok, tm, tk, side = state
    return (turn(om), turn(ok), turn(tm), turn(tk), side ^ 1)


@pytest.mark.parametrize(("key", "pieces"), [("english", 4), ("brazilian", 4), ("turkish", 3)])
def test_both_sides_to_move_are_stored_once_and_agree(key: str, pieces: int) -> None:
    table = built(key, pieces)
    rng = random.Random(5)
    for number, (*_, size, _dtc, _trusted) in enumerate(table.slices()):
        for _ in range(30):
            state = table.position(number, rng.randrange(size))
            if state is not None:
                mirror = rotated(VARIANTS[key], state)
                assert table.locate(*mirror) == table.locate(*state)
                assert table.probe(*mirror) == table.probe(*state)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_indices_round_trip(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(["english", "international", "turkish"]))
    table = endgame.new_table(VARIANTS[key], 5 if key != "turkish" else 4)
    slices = table.slices()
    number = data.draw(st.integers(0, len(slices) - 1))
    index = data.draw(st.integers(0, slices[number][4] - 1))
    state = table.position(number, index)
    if state is None:  # two men on one square: an unused index
        return
    assert table.locate(*state) == (number, index)
    pieces = [bin(b).count("1") for b in state[:4]]
    assert tuple(pieces) == slices[number][:4]


# -- files ----------------------------------------------------------------------------------


def test_a_table_is_written_read_and_found_again(tmp_path: Path) -> None:
    english = VARIANTS["english"]
    builds: list[float] = []
    table = endgame.obtain(english, 3, tmp_path, on_build=builds.append)
    assert table is not None and len(builds) == 1
    again = endgame.obtain(english, 3, tmp_path, on_build=builds.append)
    assert again is not None and len(builds) == 1  # read, not rebuilt
    assert again.tobytes() == built("english", 3).tobytes()
    assert [s[5] for s in again.slices()] == [s[5] for s in built("english", 3).slices()]
    # German Dame moves as English does: one file serves both.
    assert endgame.path_for(VARIANTS["dame"], 3, tmp_path) == endgame.path_for(english, 3, tmp_path)
    assert endgame.obtain(english, 3, tmp_path, build=False) is not None
    assert endgame.obtain(VARIANTS["russian"], 3, tmp_path, build=False) is None


@pytest.mark.parametrize("damage", ["flip", "truncate", "magic", "version", "rules", "empty"])
def test_a_damaged_file_is_detected_and_rebuilt(tmp_path: Path, damage: str) -> None:
    english = VARIANTS["english"]
    endgame.obtain(english, 3, tmp_path)
    path = endgame.path_for(english, 3, tmp_path)
    raw = bytearray(path.read_bytes())
    if damage == "flip":
        raw[-100] ^= 0x10
    elif damage == "truncate":
        del raw[-1:]
    elif damage == "magic":
        raw[0:4] = b"XXXX"
    elif damage == "version":
        raw[8] += 1
    elif damage == "rules":
        raw[:4096] = raw[:4096].replace(b'"size":8', b'"size":6')
    else:
        raw = bytearray()
    path.write_bytes(bytes(raw))
    with pytest.raises(endgame.CorruptTable):
        endgame.read(english, 3, path)
    builds: list[float] = []
    table = endgame.obtain(english, 3, tmp_path, on_build=builds.append)
    assert builds and table is not None
    assert table.tobytes() == built("english", 3).tobytes()
    endgame.read(english, 3, path)  # good again


BUILDER = """
import sys
from pathlib import Path
from engine import endgame
from rules.variants import VARIANTS
took = []
table = endgame.obtain(VARIANTS["english"], 4, Path(sys.argv[1]), on_build=took.append)
print("built" if took else "read", table.probe(0, 1 << 0, 0, 1 << 31, 0))
"""


def test_two_processes_building_at_once_make_one_good_file(tmp_path: Path) -> None:
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", BUILDER, str(tmp_path)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = sorted(run.communicate(timeout=120)[0].split()[0] for run in runs)
    assert all(run.returncode == 0 for run in runs)
    assert outputs == ["built", "read"]
    files = sorted(p.name for p in tmp_path.iterdir())
    name = endgame.path_for(VARIANTS["english"], 4, tmp_path).name
    assert files == [name, name + ".lock"]
    table = endgame.read(VARIANTS["english"], 4, tmp_path / files[0])
    assert table.tobytes() == built("english", 4).tobytes()


def test_the_background_build_does_not_block_a_search(tmp_path: Path) -> None:
    pool = VARIANTS["pool"]
    attached: list[EndgameTable] = []
    # 3 pieces: a build of about 0.1 s at idle priority, still five times the search below
    thread = endgame.attach_later(pool, attached.append, tmp_path, pieces=3)
    assert thread is not None
    game = Game(pool)
    found = native_search.search(
        game.position, quiet=0, past=(), max_depth=4, seconds=None, nodes=None, exact=True
    )
    assert found.move is not None
    assert thread.is_alive() and not attached  # the search finished while the table was built
    thread.join(timeout=120)
    assert attached and attached[0].ready
    assert endgame.attach_later(pool, attached.append, tmp_path) is None  # once per process


def test_the_tables_can_be_turned_off() -> None:
    assert endgame.directory({"ENGINE_ENDGAME_DIR": "off"}) is None
    assert endgame.directory({"ENGINE_ENDGAME_DIR": "/x/y"}) == Path("/x/y")
    assert endgame.directory({"XDG_CACHE_HOME": "/c"}) == Path("/c/draughts-bot/endgame")
    assert endgame.attach_later(VARIANTS["english"], print, None) is None  # conftest: off


def test_the_tables_size_follows_the_board_and_the_setting() -> None:
    """5 pieces on every 8x8 board and 4 on 10x10 by default (what a minute or two builds);
    ``ENGINE_ENDGAME_PIECES`` raises or lowers them, each board at most its largest.  The
    orthogonal 8x8 board plays all 64 squares, 12x12 has 72: 3 by default, 4 at most."""
    boards = {
        "8x8": [
            *("english", "dame", "pool", "russian", "brazilian"),
            *("italian", "spanish", "portuguese", "czech", "thai"),
        ],
        "10x10": ["international", "antidraughts", "breakthrough", "frisian", "frysk"],
        "8x8 orthogonal": ["turkish"],
        "12x12": ["canadian"],
    }
    assert {
        v.key: f"{v.size}x{v.size}" + (" orthogonal" if v.orthogonal else "")
        for v in VARIANTS.values()
    } == {key: board for board, keys in boards.items() for key in keys}
    boards_pieces = (("8x8", 5, 6), ("10x10", 4, 5), ("8x8 orthogonal", 3, 4), ("12x12", 3, 4))
    for board, default, largest in boards_pieces:
        for key in boards[board]:
            variant = VARIANTS[key]
            assert endgame.pieces_for(variant, env={}) == default
            assert endgame.pieces_for(variant, env={"ENGINE_ENDGAME_PIECES": " 6 "}) == largest
            assert endgame.pieces_for(variant, env={"ENGINE_ENDGAME_PIECES": "3"}) == 3
            assert endgame.pieces_for(variant, 6, env={"ENGINE_ENDGAME_PIECES": "3"}) == largest
    for bad in ("1", "7", "five", "4.0"):
        with pytest.raises(ValueError, match="ENGINE_ENDGAME_PIECES"):
            endgame.configured_pieces({"ENGINE_ENDGAME_PIECES": bad})


def test_a_smaller_table_plays_while_a_larger_one_is_built(tmp_path: Path) -> None:
    """After the setting was raised the engine does not go without tables for the larger
    build's hour: the one already there is attached first, the larger one when it is done."""
    brazilian = VARIANTS["brazilian"]
    endgame.obtain(brazilian, 2, tmp_path)
    attached: list[EndgameTable] = []
    thread = endgame.attach_later(brazilian, attached.append, tmp_path, pieces=3)
    assert thread is not None
    thread.join(timeout=120)
    assert [t.max_pieces for t in attached] == [2, 3]
    assert attached[1].tobytes() == built("brazilian", 3).tobytes()
    # Once built, the larger one is read alone.
    assert endgame.smaller_present(brazilian, 3, tmp_path) is not None
    assert endgame.smaller_present(brazilian, 2, tmp_path) is None


def test_the_check_command_checks_a_built_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    english = ["--variant", "english", "--pieces", "3", "--dir", str(tmp_path)]
    assert endgame.main(["check", *english]) == 1  # nothing built yet: nothing checked
    assert "not built yet" in capsys.readouterr().out
    assert endgame.main(["build", *english]) == 0
    capsys.readouterr()
    assert endgame.main(["check", *english, "--samples", "30"]) == 0
    said = capsys.readouterr().out
    assert "positions checked against the rules' moves" in said and "all agree" in said
    path = endgame.path_for(VARIANTS["english"], 3, tmp_path)
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0xFF
    path.write_bytes(bytes(raw))
    assert endgame.main(["check", *english]) == 1  # its checksum fails before any sample
    assert "cannot be read" in capsys.readouterr().out


# -- the search -------------------------------------------------------------------------------


def searched(
    key: str,
    fen: str,
    table: EndgameTable | None,
    *,
    quiet: int = 0,
    nodes: int = 20_000,
    exact: bool = False,
) -> native_search.NativeResult:
    variant = VARIANTS[key]
    native_search.set_endgame(variant, table)
    try:
        return native_search.search(
            parse_fen(fen, variant),
            quiet=quiet,
            past=(),
            max_depth=64 if not exact else 4,
            seconds=None,
            nodes=None if exact else nodes,
            fresh=True,
            exact=exact,
        )
    finally:
        native_search.set_endgame(variant, None)


def known_win(score: int) -> bool:
    """Whether a score is in the band of table wins (not a win the search saw to its end)."""
    return EGDB_WIN_SCORE - 50_000 <= score <= EGDB_WIN_SCORE + 50_000


def policy(key: str, table: EndgameTable, counted: bool | None = None) -> EndgameTable:
    if counted is None:
        endgame.apply_policy(VARIANTS[key], table)
    else:
        table.set_policy([counted] * len(table.slices()), 0)
    return table


WON_ENGLISH = "W:WK22,K23:BK1"  # two kings against one in the double corner: won, slowly
CAPTURE_INTO_WIN = "W:WK22,K23,K30:BK18,K1"
DRAWN_ENGLISH = "W:W20,23:BK15"  # two men held by a king: a draw the evaluation scores above 0


def test_a_searcher_takes_only_a_table_of_its_rules() -> None:
    with pytest.raises(ValueError, match="other rules"):
        native_search.set_endgame(VARIANTS["international"], built("english", 3))
    with pytest.raises(ValueError, match="no values"):
        native_search.set_endgame(VARIANTS["english"], endgame.new_table(VARIANTS["english"], 3))
    native_search.set_endgame(VARIANTS["dame"], built("english", 3))  # Dame moves as English
    native_search.set_endgame(VARIANTS["dame"], None)


def test_an_exact_search_never_probes() -> None:
    table = policy("english", built("english", 4))
    for fen in (WON_ENGLISH, DRAWN_ENGLISH, "B:W18,K23:BK1,5"):
        with_table = searched("english", fen, table, exact=True)
        without = searched("english", fen, None, exact=True)
        assert with_table[:4] + with_table[5:6] == without[:4] + without[5:6]
        assert [i[:3] + i[4:] for i in with_table.iterations] == [
            i[:3] + i[4:] for i in without.iterations
        ]


def test_a_table_draw_scores_zero_and_a_table_win_a_known_win() -> None:
    table = policy("english", built("english", 4))
    assert table.probe(*core_state(parse_fen(DRAWN_ENGLISH, VARIANTS["english"]))) == DRAW
    assert searched("english", DRAWN_ENGLISH, table).score == 0
    assert searched("english", DRAWN_ENGLISH, None).score != 0
    # Five pieces, one more than the table: the capture leads into a won ending of four.
    assert known_win(searched("english", CAPTURE_INTO_WIN, table, nodes=5_000).score)
    assert not known_win(searched("english", CAPTURE_INTO_WIN, None, nodes=5_000).score)
    # At a won root the search does not stop at the table's word (every move would score the
    # same), it plays on among the moves that keep the win.
    assert table.probe(*core_state(parse_fen(WON_ENGLISH, VARIANTS["english"]))) == WIN
    assert searched("english", WON_ENGLISH, table, nodes=5_000).score < 10_000


def test_counting_rules_keep_a_table_win_from_being_believed() -> None:
    table = built("english", 4)
    policy("english", table, counted=True)
    assert not any(s[6] for s in table.slices())
    assert not known_win(searched("english", CAPTURE_INTO_WIN, table, nodes=5_000).score)
    assert searched("english", DRAWN_ENGLISH, table).score == 0  # a draw is always a draw
    policy("english", table)
    assert all(s[6] for s in table.slices())  # English has no endgame counts; its dtc fit
    # The no-progress count: near its end a win that takes more plies may be a draw.
    # The no-progress count (80 plies in English): a slice whose wins take up to dtc plies to
    # convert is believed only while the plies without progress leave room for them.
    limit = 80
    for number, (*_, dtc, _trusted) in enumerate(table.slices()):
        assert 0 < dtc < limit
        assert table.trusted(number, limit - dtc - 1, limit)
        assert not table.trusted(number, limit - dtc, limit)
    # A slice that can reach one needing more plies than the count allows is not believed.
    table.set_policy([False] * len(table.slices()), 30)
    trusted = {s[:4]: s[6] for s in table.slices()}
    assert not trusted[(0, 2, 0, 2)] and not trusted[(1, 1, 0, 2)]
    # FMJD's 16- and 5-move rules govern every small ending with kings, and the tables'
    # wins there are never believed (the count is not part of the position).
    international = built("international", 3)
    policy("international", international)
    counted = endgame.counted_slices(VARIANTS["international"], international)
    by_material = {s[:4]: (s[6], c) for s, c in zip(international.slices(), counted, strict=True)}
    assert by_material[(0, 2, 0, 1)] == (False, True)  # two kings against one: 5-move rule
    assert by_material[(0, 1, 0, 1)] == (False, True)
    assert by_material[(2, 0, 1, 0)] == (False, False)  # men only, but crowning leads to counts
    # Every capture here leaves two kings against one that the table wins, but the 5-move rule
    # may draw it first: the search does not take the table's word, unless told to.
    fen = "W:WK13,K46:BK31,35"
    position = parse_fen(fen, VARIANTS["international"])
    assert {international.probe(*core_state(position.play(m))) for m in position.legal_moves()} == {
        LOSS
    }
    assert not known_win(searched("international", fen, international, nodes=3_000).score)
    policy("international", international, counted=False)
    assert known_win(searched("international", fen, international, nodes=3_000).score)
    policy("international", international)


@pytest.mark.parametrize(
    "fen",
    [
        "W:WK8,K13:BK14",  # two kings against one
        "W:WK7,K9:BK16",
        "W:W9,K7:BK2,K12",  # a king and a man against two kings
        "W:WK1,K7:B3,K26",  # two kings against a king and a man, 62 plies from a capture
        "W:W9,K10:B1,K4",
        "W:WK1,K2,K3:BK30",  # three kings against one
    ],
)
def test_the_engine_wins_won_table_endings(fen: str) -> None:
    """Endings the same engine without tables does not win in 80 plies at 3,000 nodes a move
    (searches limited by nodes: the same game on any machine), the engine defending itself.
    At a won root the moves that bring the conversion closer are chosen among (the distances
    of the root's material are recomputed on the spot), so the win cannot slip away."""
    table = policy("english", built("english", 4))
    position = parse_fen(fen, VARIANTS["english"])
    assert table.probe(*core_state(position)) == WIN
    game = play_out("english", fen, table, plies=80, nodes=3_000)
    assert game.outcome is not None and game.outcome.winner is position.turn, game.outcome


def test_a_won_root_too_large_to_measure_in_a_move_is_measured_in_the_background(
    tmp_path: Path,
) -> None:
    """The distances of a 5- or 6-piece material take seconds to minutes: a won root there is
    played by the search alone while a thread computes them, and the next moves bring the
    conversion closer.  Here with 4 pieces and the on-the-spot limit lowered to 1,000 indices."""
    english = VARIANTS["english"]
    fen = "W:WK1,K7:B3,K26"  # two kings against a king and a man, 62 plies from a capture
    position = parse_fen(fen, english)
    table = endgame.obtain(english, 4, tmp_path)  # its own object: distances are kept per table
    assert table is not None
    slice_, _index = table.locate(*core_state(position)) or (-1, 0)
    assert table.slices()[slice_][4] > 1000 and not table.has_distances(slice_)
    native_search.set_endgame(english, table)
    searcher = native_search.native_searcher(english)
    searcher.set_distance_limit(1000)
    try:
        by_nodes = native_search.search(
            position, quiet=0, past=(), max_depth=64, seconds=None, nodes=5_000, fresh=True
        )
        assert by_nodes.move is not None and searcher.endgame_wanted() == slice_
        assert not native_search.wait_for_distances(english, timeout=0)  # none asked for
        native_search.search(position, quiet=0, past=(), max_depth=64, seconds=0.05, nodes=None)
        native_search.wait_for_distances(english, timeout=120)
        assert table.has_distances(slice_)
        root = table.distance(*core_state(position))
        assert root is not None and 6 < root < 255
        found = native_search.search(
            position, quiet=0, past=(), max_depth=64, seconds=0.05, nodes=None
        )
        assert found.move is not None
        child = core_state(position.play(to_move(position, found.move)))
        assert table.probe(*child) == LOSS
        closer = table.distance(*child)
        assert closer is not None and closer < root
        # Played on, both sides by the engine (the loser resisting as long as it can): the
        # conversion comes within the root's distance, every move of the winner bringing it
        # closer, where the count (80 plies) would have drawn a search that did not.
        game = Game(english, position)
        pieces = position.occupied.bit_count()
        while game.position.occupied.bit_count() == pieces and game.ply <= root:
            past, quiet = repetition_history(game)
            found = native_search.search(
                game.position, quiet=quiet, past=past, max_depth=64, seconds=0.02, nodes=None
            )
            assert found.move is not None and not native_search.wait_for_distances(english, 0)
            game.play(to_move(game.position, found.move))
        assert game.position.occupied.bit_count() < pieces and game.ply <= root, game.ply
    finally:
        searcher.set_distance_limit(EGDB_DISTANCE_LIMIT)
        native_search.set_endgame(english, None)


def test_distances_fall_by_one_along_the_best_line() -> None:
    """The distances a won root recomputes: a won position is one ply farther than its closest
    lost successor in the slice (0 when a move leaves it winning), a lost one one ply farther
    than its farthest won successor (0 when every move leaves the slice)."""
    table = built("english", 4)
    english = VARIANTS["english"]
    gen = generator(english)
    rng = random.Random(3)
    number = next(i for i, s in enumerate(table.slices()) if s[:4] == (0, 2, 0, 1))

    def far(state: State) -> int:
        distance = table.distance(*state)
        assert distance is not None
        return distance

    checked = 0
    while checked < 300:
        state = table.position(number, rng.randrange(table.slices()[number][4]))
        if state is None or table.probe(*state) == DRAW:
            continue
        value, distance = table.probe(*state), far(state)
        inside: list[tuple[int, State]] = []
        leaving: list[tuple[int, State]] = []
        for move in gen.moves_raw(*state):
            child = played(state, move)
            same = not move[2] and not move[3]
            (inside if same else leaving).append((table.probe(*child), child))
        if value == WIN:
            if any(v == LOSS for v, _ in leaving):
                assert distance == 0
            else:
                assert distance == 1 + min(far(c) for v, c in inside if v == LOSS)
        else:
            assert distance == 1 + max((far(c) for _, c in inside), default=-1)
        checked += 1


@pytest.mark.parametrize("fen", ["B:WK50,K47,K2:BK44", "B:WK32,K22,K18:BK4"])
def test_the_engine_wins_international_three_kings_against_one_within_the_count(fen: str) -> None:
    """Won table positions (the lone king off the long diagonal) under the 16-move rule, which
    the game record applies: the tables' wins are not believed here (the count is not in the
    position), the search finds the catch itself, with the small tables' draws to prune."""
    table = policy("international", built("international", 3))
    game = play_out("international", fen, table, plies=32)
    assert game.outcome is not None and game.outcome.winner is Color.WHITE, game.outcome


def test_info_says_a_table_not_built_yet_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not ``[Errno 2] No such file or directory`` (724ab3b): what it means and what to run."""
    assert endgame.main(["info", "--variant", "english", "--dir", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "not built yet" in said and "python -m engine.endgame build --variant english" in said
    assert "Errno" not in said
    path = endgame.path_for(VARIANTS["english"], endgame.pieces_for(VARIANTS["english"]), tmp_path)
    path.write_bytes(b"not a table")
    assert endgame.main(["info", "--variant", "english", "--dir", str(tmp_path)]) == 0
    assert "cannot be read" in capsys.readouterr().out
