"""The bitboard move generator against a deliberately naive one written from shared/RULES.md.

The reference below works on (file, rank) coordinates, one square at a time, and reads only the
variant's rule fields (diagonal or orthogonal moves, men capture backward, whether men capture
kings, flying kings and whether they stop just beyond their victim, whether captured pieces leave
the board at once, whether a capture may turn back, whether pieces also capture along the other
lines (frisian's rows and columns), the capture precedence, crowning, and the limit of a king's
moves in a row).  Its precedence is written from the rules' words, criterion by criterion (the
most pieces; a king rather than a man; the most kings; the kings met first, as the list of the
places in the sequence where kings are taken, earliest first; the most value, where a king is
worth more than one man and less than two), not from the generator's keys.  Both must give exactly
the same moves -- full landing path, captured pieces in jump order and whether the move crowns --
on random placements and on positions of random games in every variant.
"""

from __future__ import annotations

import random

import pytest
from support.variant_sets import one_per_rules

from rules.position import BLACK_KING, BLACK_MAN, EMPTY, WHITE_KING, WHITE_MAN, Position
from rules.variants import VARIANTS, Color, Crowning, Precedence, Variant

DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
ORTHOGONALS = ((0, 1), (0, -1), (1, 0), (-1, 0))
ROWS_AND_COLUMNS = ((0, 2), (0, -2), (2, 0), (-2, 0))
"""The next playing square along a row or column of the diagonal board: two files or ranks on."""
DISTINCT = [v.key for v in one_per_rules(VARIANTS.values(), draws=False)]
"""One variant of each set of move rules (support/variant_sets.py): the others are the same test."""
MoveKey = tuple[tuple[int, ...], tuple[int, ...], bool]


def _coordinates(variant: Variant) -> dict[int, tuple[int, int]]:
    names = variant.geometry.names
    return {s: (ord(names[s][0]) - ord("a"), int(names[s][1:])) for s in range(1, len(names))}


def reference_moves(pos: Position) -> set[MoveKey]:
    variant = pos.variant
    xy = _coordinates(variant)
    square = {c: s for s, c in xy.items()}
    board = {s: pos.piece_at(s) for s in xy}
    white = pos.turn is Color.WHITE
    own_man, own_king = (WHITE_MAN, WHITE_KING) if white else (BLACK_MAN, BLACK_KING)
    enemy = {BLACK_MAN, BLACK_KING} if white else {WHITE_MAN, WHITE_KING}
    enemy_king = BLACK_KING if white else WHITE_KING
    # What a man may jump: any enemy piece, or (italian) only the enemy's men.
    man_prey = enemy if variant.men_capture_kings else enemy - {enemy_king}
    forward = 1 if white else -1
    far_rank = variant.size if white else 1
    # Kings go every way along the board's lines; men go forwards (diagonally, or straight ahead
    # and sideways on the orthogonal board), and where they capture backwards, every way too.
    directions = ORTHOGONALS if variant.orthogonal else DIAGONALS
    men_ways = (
        ((0, forward), (1, 0), (-1, 0)) if variant.orthogonal else ((1, forward), (-1, forward))
    )
    # Frisian: every piece also captures along the rows and columns (never steps along them).
    capture_ways = (
        directions + ROWS_AND_COLUMNS if variant.captures_in_eight_directions else directions
    )
    # A king that has made the limit of non-capturing moves in a row, while its side has men,
    # may not step.
    runs = pos.king_runs
    stored, run = (runs[0], runs[1]) if white else (runs[2], runs[3])
    own_men = [s for s, piece in board.items() if piece == own_man]
    limit = variant.king_move_limit
    resting = pos.squares(stored)[0] if limit and own_men and stored and run >= limit else None

    def free(s: int, origin: int, dead: list[int]) -> bool:
        # The moving piece has left its square; the pieces it took have left theirs where the
        # variant removes them at once (thai), and otherwise stay until the move ends.
        taken_off = variant.captures_removed_at_once and s in dead
        return board[s] == EMPTY or s == origin or taken_off

    sequences: list[tuple[list[int], list[int], bool]] = []

    def jumps(
        at: int, king: bool, path: list[int], dead: list[int], came: tuple[int, int] = (0, 0)
    ) -> bool:
        """Record every completed sequence continuing from ``at``; return whether any jump
        exists.  Dead pieces stay on the board (they block, unless the variant removes them at
        once) and cannot be jumped again; ``came`` is the direction of the last jump, which the
        next may not reverse where the variant forbids turning back."""
        x, y = xy[at]
        origin = path[0]
        found = False

        def turns_back(dx: int, dy: int) -> bool:
            return not variant.king_turns_back and (dx, dy) == (-came[0], -came[1])

        if king and variant.flying_kings:
            for dx, dy in capture_ways:
                if turns_back(dx, dy):
                    continue
                k = 1
                while (s := square.get((x + k * dx, y + k * dy))) is not None and free(
                    s, origin, dead
                ):
                    k += 1
                if s is None or board[s] not in enemy or s in dead:
                    continue
                landings = []
                j = k + 1
                while (t := square.get((x + j * dx, y + j * dy))) is not None and free(
                    t, origin, dead
                ):
                    landings.append(t)
                    j += 1
                if variant.king_stops_behind:  # only on the square right behind the victim
                    landings = landings[:1]
                if not landings:
                    continue
                found = True
                # Land where the capture can go on, if any such square exists.
                going_on = [t for t in landings if jumps(t, True, [*path, t], [*dead, s], (dx, dy))]
                if not going_on:
                    sequences.extend(([*path, t], [*dead, s], True) for t in landings)
            return found
        ways = capture_ways if king or variant.men_capture_backward else men_ways
        for dx, dy in ways:
            if turns_back(dx, dy):
                continue
            s = square.get((x + dx, y + dy))
            t = square.get((x + 2 * dx, y + 2 * dy))
            prey = enemy if king else man_prey
            if s is None or t is None or board[s] not in prey or s in dead:
                continue
            if not free(t, origin, dead):
                continue
            found = True
            now_king = king
            if not king and xy[t][1] == far_rank:
                if variant.crowning is Crowning.ENDS_MOVE:
                    sequences.append(([*path, t], [*dead, s], True))
                    continue
                if variant.crowning is Crowning.CONTINUES_AS_KING:
                    now_king = True
            if not jumps(t, now_king, [*path, t], [*dead, s], (dx, dy)):
                sequences.append(([*path, t], [*dead, s], now_king or xy[t][1] == far_rank))
        return found

    for s, piece in board.items():
        if piece in (own_man, own_king):
            jumps(s, piece == own_king, [s], [])
    if sequences:
        for criterion in variant.capture_precedence:
            sequences = _best_by(criterion, sequences, board, own_king, enemy_king)
        return {
            (tuple(path), tuple(dead), board[path[0]] == own_man and king_at_end)
            for path, dead, king_at_end in sequences
        }
    moves: set[MoveKey] = set()
    for s, piece in board.items():
        x, y = xy[s]
        if piece == own_man:
            for dx, dy in men_ways:
                t = square.get((x + dx, y + dy))
                if t is not None and board[t] == EMPTY:
                    moves.add(((s, t), (), xy[t][1] == far_rank))
        elif piece == own_king and s != resting:
            for dx, dy in directions:
                k = 1
                while (t := square.get((x + k * dx, y + k * dy))) is not None and board[t] == EMPTY:
                    moves.add(((s, t), (), False))
                    if not variant.flying_kings:
                        break
                    k += 1
    return moves


def _best_by(
    criterion: Precedence,
    sequences: list[tuple[list[int], list[int], bool]],
    board: dict[int, int],
    own_king: int,
    enemy_king: int,
) -> list[tuple[list[int], list[int], bool]]:
    """The sequences that do best by one precedence criterion, read as the rules word it."""
    if criterion is Precedence.KINGS_FIRST:
        # "the capture in which the king is met first": the places in the sequence at which
        # kings are taken, compared from the first on; the earlier list wins.
        places = [
            [i for i, s in enumerate(dead) if board[s] == enemy_king] for _, dead, _ in sequences
        ]
        earliest = min(places)
        return [seq for seq, p in zip(sequences, places, strict=True) if p == earliest]
    if criterion is Precedence.MOST_VALUE:
        # "A king is worth more than one man and less than two": count a king as two men, and
        # of two captures that count the same, the one with fewer kings is worth more.
        kings_taken = [sum(board[s] == enemy_king for s in dead) for _, dead, _ in sequences]
        worth = [
            (len(dead) + k, -k) for (_, dead, _), k in zip(sequences, kings_taken, strict=True)
        ]
        best_worth = max(worth)
        return [seq for seq, w in zip(sequences, worth, strict=True) if w == best_worth]
    if criterion is Precedence.MOST_PIECES:
        measure = [len(dead) for _, dead, _ in sequences]
    elif criterion is Precedence.WITH_KING:
        measure = [int(board[path[0]] == own_king) for path, _, _ in sequences]
    else:  # Precedence.MOST_KINGS
        measure = [sum(board[s] == enemy_king for s in dead) for _, dead, _ in sequences]
    best = max(measure)
    return [seq for seq, m in zip(sequences, measure, strict=True) if m == best]


def generated_moves(pos: Position) -> set[MoveKey]:
    moves = pos.legal_moves()
    keys = {(m.path, m.captured, m.crowns) for m in moves}
    assert len(keys) == len(moves), "the generator returned a move twice"
    return keys


def random_placement(variant: Variant, rng: random.Random) -> Position:
    xy = _coordinates(variant)
    squares = list(xy)
    rng.shuffle(squares)
    white_men, white_kings, black_men, black_kings = [], [], [], []
    for s in squares[: rng.randint(2, len(squares) // 2)]:
        is_white = rng.random() < 0.5
        if rng.random() < 0.4:
            (white_kings if is_white else black_kings).append(s)
        elif is_white and xy[s][1] != variant.size:
            white_men.append(s)
        elif not is_white and xy[s][1] != 1:
            black_men.append(s)
    turn = rng.choice([Color.WHITE, Color.BLACK])
    pos = Position.from_squares(variant, turn, white_men, white_kings, black_men, black_kings)
    if not variant.king_move_limit:
        return pos
    # Give each side with kings and men a run of 0 up to the limit, with a random one of its
    # kings (a run belongs to a king that moved last; a side without men has none).
    runs = [0, 0, 0, 0]
    for at, kings, men in ((0, white_kings, white_men), (2, black_kings, black_men)):
        if kings and men:
            # The full run, which rests the king, twice as often as each shorter one.
            run = rng.choice([*range(variant.king_move_limit + 1), variant.king_move_limit])
            if run:
                runs[at : at + 2] = [variant.geometry.bit(rng.choice(kings)), run]
    boards = (pos.white_men, pos.white_kings, pos.black_men, pos.black_kings)
    return Position(variant, *boards, turn, king_runs=(runs[0], runs[1], runs[2], runs[3]))


def test_reference_agrees_on_hand_made_rule_positions():
    # A few positions of the rule tests, so that the reference itself is known to be right.
    from rules.fen import parse_fen

    cases = {
        ("english", "W:W11:B7,6"): {((11, 2), (7,), True)},
        ("pool", "W:W11:B7,6,4"): {((11, 2, 9), (7, 6), False)},
        ("russian", "W:W11:B7,9"): {((11, 2, 13), (7, 9), True)},
        ("brazilian", "W:W27,28:B23,14,24"): {
            ((27, 18, 9), (23, 14), False),
            ((28, 19, 26), (24, 23), False),
        },
    }
    for (key, fen), expected in cases.items():
        pos = parse_fen(fen, VARIANTS[key])
        assert reference_moves(pos) == expected
        assert generated_moves(pos) == expected


@pytest.mark.parametrize("key", DISTINCT)
def test_generator_matches_reference_on_random_placements(key):
    variant = VARIANTS[key]
    rng = random.Random(f"placements-{key}")
    captures = kings = frozen = 0
    for _ in range(600):
        pos = random_placement(variant, rng)
        expected = reference_moves(pos)
        assert generated_moves(pos) == expected, pos.fen()
        captures += any(captured for _, captured, _ in expected)
        kings += bool(pos.white_kings | pos.black_kings)
        frozen += bool(pos.frozen_king) and not any(captured for _, captured, _ in expected)
    assert captures > 100
    assert kings > 300
    # Where a king's moves in a row are limited, the placements rest kings that could step.
    assert frozen >= 10 or not variant.king_move_limit


@pytest.mark.parametrize("key", DISTINCT)
def test_generator_matches_reference_in_random_games(key):
    variant = VARIANTS[key]
    rng = random.Random(f"games-{key}")
    for _ in range(8):
        pos = Position.start(variant)
        for _ in range(150):
            expected = reference_moves(pos)
            assert generated_moves(pos) == expected, pos.fen()
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))


UNPUBLISHED = ["antidraughts", "breakthrough", "thai", "frysk"]
"""The variants no published perft covers from their own start (antidraughts' and breakthrough's
moves are international's, their goal is not; thai's published counts start from 12 men, not
its 8; frysk!'s five men each have none, its moves are frisian's): the reference is their second,
independent move generator, on 10,000 positions each."""


@pytest.mark.parametrize("key", UNPUBLISHED)
def test_generator_matches_reference_on_ten_thousand_positions(key):
    variant = VARIANTS[key]
    rng = random.Random(f"unpublished-{key}")
    captures = 0
    for _ in range(10_000):
        pos = random_placement(variant, rng)
        expected = reference_moves(pos)
        assert generated_moves(pos) == expected, pos.fen()
        captures += any(captured for _, captured, _ in expected)
    assert captures > 2_000
