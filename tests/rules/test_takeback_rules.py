"""Takebacks in the game record (:meth:`rules.game.Game.take_back`).

The property tests play random legal games (with draw offers and declines mixed in), take back some
moves and compare the game with one rebuilt from scratch from the moves that remain: the positions,
the repetition counts, the no-progress and endgame counts and the legal moves must all be exactly as
if the taken-back moves had never been played.  The unit tests pin the errors, the draw offer and
the English 40-move count.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.game import AdvantageCount, Game, GameEndedError, GameError, TakebackCountError
from rules.move import Move
from rules.position import Position
from rules.variants import VARIANTS, Color, Goal, Variant, find_variant

KEYS = list(VARIANTS)

PROPERTY = settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
SPARSE = settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])

Action = tuple[str, Any]


# -- helpers ---------------------------------------------------------------------------------------


def apply(game: Game, action: Action) -> None:
    kind, arg = action
    if kind == "offer":
        game.offer_draw(arg)
    elif kind == "decline":
        game.decline_draw(arg)
    else:
        game.play(arg)


def random_game(
    data: st.DataObject, variant: Variant, start: Position | None, max_actions: int, offers: bool
) -> Game:
    """A game that is not over, reached by random legal moves (and, with ``offers``, draw offers
    and declines) from ``start``.  When a move ends the game, the game before it is returned."""
    game = Game(variant, start)
    actions: list[Action] = []
    # One number per action: its low bits choose the kind of action, the rest the move.
    n = data.draw(st.integers(0, max_actions), label="actions")
    picks = data.draw(st.lists(st.integers(0, 1 << 16), min_size=n, max_size=n), label="picks")
    for pick in picks:
        choice, index = pick % 16, pick >> 4
        moves = game.legal_moves()
        back = [m for m in moves if game.ply >= 2 and m.path == game.moves[-2].path[::-1]]
        if offers and choice == 0 and game.draw_offer is None:
            action: Action = ("offer", Color(index % 2))
        elif offers and choice == 1 and game.draw_offer is not None:
            action = ("decline", game.draw_offer.other)
        elif 2 <= choice <= 7 and back:
            # Undo one's own last step: repetitions and long quiet stretches.
            action = ("move", back[0])
        else:
            action = ("move", moves[index % len(moves)])
        apply(game, action)
        actions.append(action)
        if game.is_over:
            # A finished game's result stands...
            before = game.to_dict()
            with pytest.raises(GameEndedError):
                game.take_back(1)
            assert game.to_dict() == before
            # ...so continue with the game as it was before the last move.
            game = Game(variant, start)
            for earlier in actions[:-1]:
                apply(game, earlier)
            assert not game.is_over
            break
    return game


def expected_after(game: Game, keep: int) -> dict[str, Any]:
    """What :meth:`Game.to_dict` must say after taking back all but ``keep`` moves."""
    data = game.to_dict()
    count = game.advantage_count
    data["moves"] = data["moves"][:keep]
    data["draw_offer"] = None
    if count is not None and count.start_ply > keep:
        data["advantage_count"] = None
    return data


def assert_same_state(game: Game, other: Game) -> None:
    """Everything the draw rules and the players see is the same in both games."""
    assert game.to_dict() == other.to_dict()
    assert game.position == other.position
    assert game.positions == other.positions
    assert game.moves == other.moves
    assert game.turn is other.turn
    assert game.repetitions() == other.repetitions()
    assert game.quiet_plies() == other.quiet_plies()
    assert game.no_progress_left() == other.no_progress_left()
    assert game.advantage_moves_left() == other.advantage_moves_left()
    assert game.status_parts() == other.status_parts()
    assert game.status_line() == other.status_line()
    assert game.legal_moves() == other.legal_moves()
    assert [m.pdn() for m in game.legal_moves()] == [m.pdn() for m in other.legal_moves()]
    # The internals exactly, so later moves are judged alike too.
    assert game._seen == other._seen
    assert all(n > 0 for n in game._seen.values())
    assert game._quiet == other._quiet
    assert game._endgame_starts == other._endgame_starts


def check_takeback(data: st.DataObject, game: Game) -> None:
    assert not game.is_over
    if game.ply == 0:
        with pytest.raises(TakebackCountError):
            game.take_back(1)
        return
    original = game.to_dict()
    positions = list(game.positions)
    seen = Counter(game._seen)
    quiet = list(game._quiet)
    endgame_starts = list(game._endgame_starts)
    played = list(game.moves)

    plies = data.draw(st.integers(1, game.ply), label="plies")
    keep = game.ply - plies
    expected = expected_after(game, keep)
    count = game.advantage_count

    taken = game.take_back(plies)

    assert taken == played[keep:]
    assert all(a is b for a, b in zip(taken, played[keep:], strict=True))
    assert game.ply == keep
    assert game.outcome is None
    assert game.draw_offer is None
    assert game.to_dict() == expected
    if count is not None and count.start_ply <= keep:
        assert game.advantage_count == count

    # The same record rebuilt from scratch (with the surviving 40-move count)...
    assert_same_state(game, Game.from_dict(expected))
    # ...and the remaining moves simply replayed: the game goes on at every step.
    replayed = Game(game.variant, game.start)
    for move in played[:keep]:
        replayed.play(move)
        assert not replayed.is_over
    assert replayed.positions == game.positions
    assert replayed._seen == game._seen
    assert replayed._quiet == game._quiet
    assert replayed._endgame_starts == game._endgame_starts
    assert replayed.legal_moves() == game.legal_moves()

    # Playing the moves again restores the game (without the offer, with the surviving count).
    for move in taken:
        game.play(move)
    assert game.outcome is None
    assert game.positions == positions
    assert game._seen == seen
    assert game._quiet == quiet
    assert game._endgame_starts == endgame_starts
    # The original record exactly, unless an offer was pending or the count was dropped.
    restored = dict(original, draw_offer=None, advantage_count=expected["advantage_count"])
    assert game.to_dict() == restored


@st.composite
def sparse_positions(draw: st.DrawFn, variant: Variant) -> Position:
    """A few kings and men each: endgame counts, repetitions and long quiet stretches."""
    g = variant.geometry
    order = draw(st.permutations(range(1, g.squares + 1)))
    white_top = set(range(1, g.half + 1))
    black_bottom = set(range(g.squares - g.half + 1, g.squares + 1))
    n_wk = draw(st.integers(1, 3))
    n_bk = draw(st.integers(1, 2))
    white_kings, black_kings, rest = order[:n_wk], order[n_wk : n_wk + n_bk], order[n_wk + n_bk :]
    white_men = [s for s in rest if s not in white_top][: draw(st.integers(0, 2))]
    rest = [s for s in rest if s not in white_men]
    black_men = [s for s in rest if s not in black_bottom][: draw(st.integers(0, 2))]
    turn = draw(st.sampled_from(list(Color)))
    return Position.from_squares(variant, turn, white_men, white_kings, black_men, black_kings)


# -- properties ------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
@PROPERTY
@given(data=st.data())
def test_take_back_restores_the_earlier_game(key: str, data: st.DataObject) -> None:
    game = random_game(data, VARIANTS[key], None, max_actions=120, offers=True)
    check_takeback(data, game)


@pytest.mark.parametrize(
    # Not breakthrough: a position with kings is a finished game there.
    "key",
    [k for k in KEYS if VARIANTS[k].goal is not Goal.FIRST_KING],
)
@SPARSE
@given(data=st.data())
def test_take_back_restores_the_draw_counts_of_endgames(key: str, data: st.DataObject) -> None:
    variant = VARIANTS[key]
    start = data.draw(sparse_positions(variant), label="start")
    assume(not Game(variant, start).is_over)
    game = random_game(data, variant, start, max_actions=80, offers=False)
    check_takeback(data, game)


# -- unit tests ------------------------------------------------------------------------------------


def english(*moves: str) -> Game:
    game = Game(find_variant("english"))
    for move in moves:
        game.play(move)
    return game


def test_returns_the_taken_back_moves_in_the_order_they_were_played() -> None:
    game = english("11-15", "23-19", "8-11")
    assert [m.pdn() for m in game.take_back(2)] == ["23-19", "8-11"]
    assert [m.pdn() for m in game.moves] == ["11-15"]
    assert game.turn is Color.WHITE
    last = game.take_back()
    assert isinstance(last, list) and all(isinstance(m, Move) for m in last)
    assert [m.pdn() for m in last] == ["11-15"]
    assert game.ply == 0
    assert game.positions == [game.start]
    assert game._seen == Counter({game.start: 1})
    assert game.to_dict() == Game(game.variant).to_dict()


def test_the_game_goes_on_after_a_takeback() -> None:
    game = english("11-15", "23-19")
    game.take_back()
    assert game.play("22-18").pdn() == "22-18"
    assert [m.pdn() for m in game.moves] == ["11-15", "22-18"]


@pytest.mark.parametrize(
    ("plies", "message"),
    [(0, "at least one"), (-1, "at least one"), (4, "only 3 have been played")],
)
def test_refuses_no_moves_and_more_moves_than_played(plies: int, message: str) -> None:
    game = english("11-15", "23-19", "8-11")
    before = game.to_dict()
    with pytest.raises(TakebackCountError, match=message):
        game.take_back(plies)
    assert game.to_dict() == before
    assert game.ply == 3


def test_refuses_a_takeback_before_any_move() -> None:
    game = english()
    with pytest.raises(TakebackCountError, match="no move to take back"):
        game.take_back()


def test_takeback_error_is_a_game_error() -> None:
    assert issubclass(TakebackCountError, GameError)
    assert issubclass(TakebackCountError, ValueError)


@pytest.mark.parametrize(
    "end",
    [
        lambda g: g.resign(Color.WHITE),
        lambda g: g.timeout(Color.BLACK),
        lambda g: g.abort(),
        lambda g: (g.offer_draw(Color.BLACK), g.accept_draw(Color.WHITE)),
    ],
    ids=["resigned", "timeout", "aborted", "agreed draw"],
)
def test_refuses_once_the_game_is_over(end: Any) -> None:
    game = english("11-15", "23-19")
    end(game)
    before = game.to_dict()
    with pytest.raises(GameEndedError):
        game.take_back()
    assert game.to_dict() == before


def test_refuses_after_a_draw_by_repetition_but_not_before() -> None:
    variant = find_variant("english")
    start = Position.from_squares(variant, Color.BLACK, white_kings=[32], black_kings=[1])
    game = Game(variant, start)
    cycle = ["1-6", "32-27", "6-1", "27-32"]
    for move in cycle:
        game.play(move)
    assert game.repetitions() == 2
    assert game.quiet_plies() == 4
    game.take_back()
    assert game.repetitions() == 1
    assert game._seen[start] == 1
    assert game.quiet_plies() == 3
    game.play("27-32")
    for move in cycle:
        game.play(move)
    assert game.is_over  # the start position for the third time
    with pytest.raises(GameEndedError):
        game.take_back()


def test_a_pending_draw_offer_is_withdrawn() -> None:
    game = english("11-15", "23-19")
    game.offer_draw(Color.WHITE)
    game.take_back()
    assert game.draw_offer is None
    assert game.status_parts() == []
    game.offer_draw(Color.WHITE)  # a new offer can be made
    assert game.draw_offer is Color.WHITE


def english_count() -> Game:
    """White declined Black's offer after two moves; two more moves were played since."""
    game = english("11-15", "23-19")
    game.offer_draw(Color.BLACK)
    game.decline_draw(Color.WHITE)
    assert game.advantage_count == AdvantageCount(Color.WHITE, 2)
    game.play("8-11")
    game.play("27-23")
    assert game.advantage_moves_left() == 39
    return game


def test_the_40_move_count_stays_when_declined_before_the_position_returned_to() -> None:
    game = english_count()
    game.take_back()
    assert game.advantage_count == AdvantageCount(Color.WHITE, 2)
    assert game.advantage_moves_left() == 40
    game.take_back()  # back to the position in which the offer was declined
    assert game.advantage_count == AdvantageCount(Color.WHITE, 2)
    assert "40-move count: 40 left" in game.status_parts()


def test_the_40_move_count_goes_when_the_takeback_crosses_the_decline() -> None:
    game = english_count()
    game.take_back(3)
    assert game.ply == 1
    assert game.advantage_count is None
    assert game.advantage_moves_left() is None
    assert game.to_dict() == english("11-15").to_dict()
    # A new decline can start a new count.
    game.play("23-19")
    game.offer_draw(Color.WHITE)
    game.play("8-11")  # playing on declines
    assert game.advantage_count == AdvantageCount(Color.BLACK, 2)


def test_endgame_count_is_restored() -> None:
    """Pool: three kings against one king, counted in the stronger side's moves."""
    variant = find_variant("pool")
    start = Position.from_squares(variant, Color.WHITE, white_kings=[30, 31, 32], black_kings=[1])
    game = Game(variant, start)
    assert game.status_parts() == ["3-kings-v-1 count: 13 left", "no-progress count: 25 left"]
    snapshots = []
    for move in ["30-25", "1-5", "25-21", "5-1", "21-17", "1-5"]:
        snapshots.append((game.to_dict(), game.status_parts(), list(game.legal_moves())))
        game.play(move)
    assert game.status_parts()[0] == "3-kings-v-1 count: 10 left"
    while game.ply:
        game.take_back()
        data, parts, legal = snapshots[game.ply]
        assert game.to_dict() == data
        assert game.status_parts() == parts
        assert game.legal_moves() == legal
