"""The one move generator, driven entirely by a :class:`~rules.variants.Variant`'s data.

Hot path.  Steps and the first jump of every man are found for all men at once with bitboard shifts
(see :mod:`rules.geometry` for the layout that makes shifts safe); only pieces that can actually
capture are searched one by one.  Capture search keeps the captured ("dead") pieces on the board as
a barrier until the move ends (or, where the variant removes them at once, takes each off as it is
jumped), never jumps a piece twice, lets flying kings change direction after each jump, and makes a
flying king land where it can go on capturing when such a square exists (the sequence must be
completed), or just beyond the piece it took where the variant's kings stop there.  What a man
does on reaching the far row mid-capture is the variant's :class:`~rules.variants.Crowning`.
Under the majority rule only the sequences that capture the most pieces are kept; other variants
order the sequences by their :class:`~rules.variants.Precedence` criteria and keep the best.
Where the variant says so (frisian) pieces capture along the board's other lines too, and a king
that has made the variant's limit of moves in a row (``Placement.frozen_king``) makes no step.

The generator works on raw bitboards seen from the side to move (``men, kings, opp_men,
opp_kings`` plus the side index) so that perft and the engine can walk the tree without building
:class:`~rules.position.Position` or :class:`Move` objects; :meth:`MoveGenerator.legal_moves`
wraps the result for everyone else, reading the position through :class:`Placement`.
"""

from __future__ import annotations

from functools import cache
from typing import Protocol

from .geometry import CROSS_DIRECTIONS, DIRECTIONS, LINES
from .move import Move
from .rule_kinds import KING_VALUE, MAN_VALUE
from .variants import Color, Crowning, Precedence, Variant

Sequence = tuple[tuple[int, ...], tuple[int, ...], bool, int]
"""A capture sequence: (landing path as internal indices, captured indices in jump order, whether
the piece is a king when it ends, bitboard of the captured pieces)."""

Shifts = tuple[tuple[int, int], ...]
"""Signed bit shifts, each with the mask of the squares a piece may be shifted from."""

JumpTable = tuple[tuple[tuple[int, int, int, int], ...], ...]
"""Per internal index, its short jumps: (victim bit, victim index, landing index, direction)."""

RawMove = tuple[int, int, int, bool]
"""(origin bit, destination bit, captured bitboard, crowns) -- enough to play a move."""


class Placement(Protocol):
    """What the generator reads of a position: the variant, the four bitboards, the side to
    move and the king that may not step (frisian's limit on a king's moves in a row).
    :class:`rules.position.Position` is the one implementation; naming the fields here rather
    than importing that class keeps the imports one way (it imports this module)."""

    variant: Variant
    white_men: int
    white_kings: int
    black_men: int
    black_kings: int
    turn: Color

    @property
    def frozen_king(self) -> int:
        """The bit of the king of the side to move that may only capture, or 0."""
        ...


class MoveGenerator:
    """Legal moves for one variant.  Stateless after construction, so one instance per variant is
    shared (and safe to use from several threads)."""

    def __init__(self, variant: Variant) -> None:
        g = variant.geometry
        self.variant = variant
        self._valid = g.valid
        self._square_of = g.square_of
        self._neighbour = g.neighbour
        # The rays a flying king steps along: its own lines only.
        self._rays = tuple(rays[: len(DIRECTIONS)] for rays in g.rays)
        self._numbers = g.numbers
        self._flying = variant.flying_kings
        self._precedence = variant.capture_precedence
        self._majority = self._precedence == (Precedence.MOST_PIECES,)
        # Sequences are counted without being built where the choice depends on their length
        # alone; any other precedence needs each sequence's captured kings and first piece.
        self._men_take_kings = variant.men_capture_kings
        self._stop_behind = variant.king_stops_behind
        self._at_once = variant.captures_removed_at_once
        self._counted_by_length = (
            self._precedence in ((), (Precedence.MOST_PIECES,)) and self._men_take_kings
        )
        self._crowning = variant.crowning
        # Where a capturing king may not turn back (turkish), the search is told the direction
        # it may not take next (d ^ 3 is the way back from d); -1 lets it take any.
        self._no_turn_back = not variant.king_turns_back
        # The directions pieces capture in: the lines they move along, and the board's other
        # lines too where the variant says so (frisian).
        eight = variant.captures_in_eight_directions
        capture_dirs = LINES if eight else DIRECTIONS
        self._cross = eight
        # Shifts are signed: negative means "towards square 1" (a right shift of the bitboard).
        # Each comes with the mask of the squares it may start from (rules.geometry: only the
        # orthogonal board needs it, to keep sideways shifts on their row).
        deltas = g.deltas
        back = variant.men_capture_backward

        def shifts(directions: tuple[int, ...], masks: tuple[int, ...]) -> Shifts:
            return tuple((deltas[d], masks[d]) for d in directions)

        self._king_shifts = shifts(DIRECTIONS, g.shift_from)
        self._king_jump_shifts = shifts(capture_dirs, g.jump_from)
        # Per side index (0 white, 1 black): step shifts, man jump shifts, man jump directions,
        # crowning row.
        self._sides = tuple(
            (
                shifts(forward, g.shift_from),
                shifts(capture_dirs if back else forward, g.jump_from),
                capture_dirs if back else forward,
                row,
            )
            for forward, row in zip(g.men_directions, (g.top_row, g.bottom_row), strict=True)
        )
        # Short jumps per internal index: (victim bit, victim index, landing index, direction)
        # for men of each side and for kings, only where both squares are on the board.
        self._man_jumps = tuple(_jump_table(g.neighbour, side[2]) for side in self._sides)
        self._king_jumps = _jump_table(g.neighbour, capture_dirs)
        # Per internal index, a flying king's capture rays with their directions, and the rays
        # of the board's other lines alone (where kings capture but do not move along them).
        self._king_rays = tuple(
            tuple((d, rays[d]) for d in capture_dirs) if rays else () for rays in g.rays
        )
        self._cross_rays = tuple(
            tuple(rays[d] for d in CROSS_DIRECTIONS) if rays and eight else () for rays in g.rays
        )

    # -- public, on positions -------------------------------------------------------------------

    def legal_moves(self, pos: Placement) -> list[Move]:
        """All legal moves: the allowed captures if any capture exists, else all steps."""
        men, kings, opp_men, opp_kings, side = _view(pos)
        sq = self._square_of
        numbers = self._numbers
        sequences = self.captures(men, kings, opp_men, opp_kings, side)
        if sequences:
            promo = self._sides[side][3]
            moves = []
            for path, caps, king, dead in sequences:
                first = path[0]
                last = path[-1]
                crowns = bool((men >> first) & 1) and (king or bool((promo >> last) & 1))
                moves.append(
                    Move(
                        tuple([sq[i] for i in path]),
                        tuple([sq[i] for i in caps]),
                        crowns,
                        1 << first,
                        1 << last,
                        dead,
                        numbers,
                    )
                )
            return moves
        return [
            Move((sq[fb.bit_length() - 1], sq[tb.bit_length() - 1]), (), crowns, fb, tb, 0, numbers)
            for fb, tb, _, crowns in self.steps(
                men, kings, opp_men | opp_kings, side, pos.frozen_king
            )
        ]

    def count(self, pos: Placement) -> int:
        """``len(legal_moves(pos))`` without building the moves: perft's leaf counter."""
        if pos.frozen_king:
            return len(self.legal_moves(pos))
        return self.count_raw(*_view(pos))

    def has_capture(self, pos: Placement) -> bool:
        """Whether the side to move must capture."""
        men, kings, opp_men, opp_kings, side = _view(pos)
        capturing_men, capturing_kings = self._capturers(men, kings, opp_men, opp_kings, side)
        if capturing_men or (capturing_kings and not self._flying):
            return True
        return self._count_steps(men, kings, opp_men | opp_kings, side) < 0

    # -- raw interface --------------------------------------------------------------------------

    def moves_raw(
        self, men: int, kings: int, opp_men: int, opp_kings: int, side: int
    ) -> list[RawMove]:
        """The legal moves as :data:`RawMove` tuples, for tree walks (perft, engine)."""
        sequences = self.captures(men, kings, opp_men, opp_kings, side)
        if not sequences:
            return self.steps(men, kings, opp_men | opp_kings, side)
        promo = self._sides[side][3]
        out = []
        for path, _caps, king, dead in sequences:
            first = path[0]
            last = path[-1]
            crowns = bool((men >> first) & 1) and (king or bool((promo >> last) & 1))
            out.append((1 << first, 1 << last, dead, crowns))
        return out

    def count_raw(self, men: int, kings: int, opp_men: int, opp_kings: int, side: int) -> int:
        """Number of legal moves of the side with ``men``/``kings`` against the other's."""
        capturing_men, capturing_kings = self._capturers(men, kings, opp_men, opp_kings, side)
        if not self._counted_by_length:
            if capturing_men or capturing_kings:
                sequences = self.captures(men, kings, opp_men, opp_kings, side)
                if sequences:
                    return len(sequences)
            return len(self.steps(men, kings, opp_men | opp_kings, side))
        opp = opp_men | opp_kings
        if capturing_men or (capturing_kings and not self._flying):
            # The bulk test is exact here: there is a capture, so only captures count.
            return self._count_captures_of(capturing_men, capturing_kings, men, kings, opp, side)
        n = self._count_steps(men, kings, opp, side)
        if n >= 0:
            return n
        return self._count_captures_of(0, kings, men, kings, opp, side)

    def steps(self, men: int, kings: int, opp: int, side: int, frozen: int = 0) -> list[RawMove]:
        """Non-capturing moves (legal only when no capture exists); the ``frozen`` king, which
        has made the variant's limit of moves in a row, makes none."""
        shifts = self._sides[side][0]
        promo = self._sides[side][3]
        empty = self._valid & ~(men | kings | opp)
        kings &= ~frozen
        moves: list[RawMove] = []
        append = moves.append
        for k, start in shifts:
            dest = (((men & start) << k) if k > 0 else ((men & start) >> -k)) & empty
            while dest:
                low = dest & -dest
                dest ^= low
                append((low >> k if k > 0 else low << -k, low, 0, bool(low & promo)))
        if kings:
            if self._flying:
                occ = ~empty
                rays = self._rays
                b = kings
                while b:
                    low = b & -b
                    b ^= low
                    for ray in rays[low.bit_length() - 1]:
                        for t in ray:
                            if (occ >> t) & 1:
                                break
                            append((low, 1 << t, 0, False))
            else:
                for k, start in self._king_shifts:
                    dest = (((kings & start) << k) if k > 0 else ((kings & start) >> -k)) & empty
                    while dest:
                        low = dest & -dest
                        dest ^= low
                        append((low >> k if k > 0 else low << -k, low, 0, False))
        return moves

    def _count_steps(self, men: int, kings: int, opp: int, side: int) -> int:
        """Number of steps, or -1 if a king has a capture (and so no step is legal).  The caller
        has already found that no man can capture."""
        shifts = self._sides[side][0]
        empty = self._valid & ~(men | kings | opp)
        total = 0
        for k, start in shifts:
            total += (
                (((men & start) << k) if k > 0 else ((men & start) >> -k)) & empty
            ).bit_count()
        if kings:
            if self._flying:
                occ = ~empty
                rays = self._rays
                b = kings
                while b:
                    low = b & -b
                    b ^= low
                    for ray in rays[low.bit_length() - 1]:
                        n = len(ray)
                        i = 0
                        while i < n and not (occ >> ray[i]) & 1:
                            i += 1
                        if i < n - 1 and (opp >> ray[i]) & 1 and not (occ >> ray[i + 1]) & 1:
                            return -1
                        total += i
                if self._cross and self._cross_capture(kings, opp, occ):
                    return -1
            else:
                for k, start in self._king_jump_shifts:
                    if k > 0:
                        if ((((kings & start) << k) & opp) << k) & empty:
                            return -1
                    elif ((((kings & start) >> -k) & opp) >> -k) & empty:
                        return -1
                for k, start in self._king_shifts:
                    moved = ((kings & start) << k) if k > 0 else ((kings & start) >> -k)
                    total += (moved & empty).bit_count()
        return total

    def _cross_capture(self, kings: int, opp: int, occ: int) -> bool:
        """Whether a flying king can capture along the board's other lines (frisian's rows and
        columns), where it never steps: :meth:`_count_steps` looks along its own lines."""
        cross_rays = self._cross_rays
        b = kings
        while b:
            low = b & -b
            b ^= low
            for ray in cross_rays[low.bit_length() - 1]:
                n = len(ray)
                i = 0
                while i < n and not (occ >> ray[i]) & 1:
                    i += 1
                if i < n - 1 and (opp >> ray[i]) & 1 and not (occ >> ray[i + 1]) & 1:
                    return True
        return False

    # -- captures -------------------------------------------------------------------------------

    def _capturers(
        self, men: int, kings: int, opp_men: int, opp_kings: int, side: int
    ) -> tuple[int, int]:
        """Bitboards of the men and kings that may have a capture (exact for men and short kings;
        every king when kings fly)."""
        man_jumps = self._sides[side][1]
        opp = opp_men | opp_kings
        prey = opp if self._men_take_kings else opp_men
        empty = self._valid & ~(men | kings | opp)
        capturing_men = 0
        for k, start in man_jumps:
            movers = men & start
            if k > 0:
                capturing_men |= ((((movers << k) & prey) << k) & empty) >> (2 * k)
            else:
                capturing_men |= ((((movers >> -k) & prey) >> -k) & empty) << (-2 * k)
        if self._flying or not kings:
            return capturing_men, kings
        capturing_kings = 0
        for k, start in self._king_jump_shifts:
            movers = kings & start
            if k > 0:
                capturing_kings |= ((((movers << k) & opp) << k) & empty) >> (2 * k)
            else:
                capturing_kings |= ((((movers >> -k) & opp) >> -k) & empty) << (-2 * k)
        return capturing_men, capturing_kings

    def captures(
        self, men: int, kings: int, opp_men: int, opp_kings: int, side: int
    ) -> list[Sequence]:
        """Every allowed capture sequence of the side with ``men``/``kings`` against the other's
        ``opp_men``/``opp_kings``."""
        capturing_men, capturing_kings = self._capturers(men, kings, opp_men, opp_kings, side)
        if not capturing_men and not capturing_kings:
            return []
        promo = self._sides[side][3]
        man_table = self._man_jumps[side]
        opp = opp_men | opp_kings
        occupied = men | kings | opp
        out: list[Sequence] = []
        search = self._search
        for pieces, king in ((capturing_men, False), (capturing_kings, True)):
            prey = opp if king or self._men_take_kings else opp_men
            while pieces:
                low = pieces & -pieces
                pieces ^= low
                g = low.bit_length() - 1
                search(g, king, 0, (g,), (), occupied ^ low, opp, prey, promo, man_table, out)
        if self._majority and out:
            best = max([len(s[1]) for s in out])
            out = [s for s in out if len(s[1]) == best]
        elif self._precedence and out:
            keys = [self._precedence_key(s, kings, opp_kings) for s in out]
            top = max(keys)
            out = [s for s, key in zip(out, keys, strict=True) if key == top]
        return out

    def _precedence_key(self, sequence: Sequence, kings: int, opp_kings: int) -> tuple[int, ...]:
        """The sequence's standing under the variant's criteria, in order: the larger wins."""
        path, caps, _king, _dead = sequence
        key: list[int] = []
        for criterion in self._precedence:
            if criterion is Precedence.MOST_PIECES:
                key.append(len(caps))
            elif criterion is Precedence.WITH_KING:
                key.append((kings >> path[0]) & 1)
            elif criterion is Precedence.MOST_KINGS:
                key.append(sum((opp_kings >> c) & 1 for c in caps))
            elif criterion is Precedence.MOST_VALUE:
                key.append(sum(KING_VALUE if (opp_kings >> c) & 1 else MAN_VALUE for c in caps))
            else:  # KINGS_FIRST: bit 31 - i per king taken i-th, as the core keys it
                key.append(sum(1 << (31 - i) for i, c in enumerate(caps) if (opp_kings >> c) & 1))
        return tuple(key)

    def _count_captures_of(
        self, capturing_men: int, capturing_kings: int, men: int, kings: int, opp: int, side: int
    ) -> int:
        """How many capture sequences the given capturing pieces have (after the majority filter):
        :meth:`captures` counted without building a path per sequence, for perft's leaves."""
        promo = self._sides[side][3]
        man_table = self._man_jumps[side]
        occupied = men | kings | opp
        lengths: list[int] = []
        search = self._count_search
        for pieces, king in ((capturing_men, False), (capturing_kings, True)):
            while pieces:
                low = pieces & -pieces
                pieces ^= low
                g = low.bit_length() - 1
                search(g, king, 0, 0, occupied ^ low, opp, promo, man_table, lengths)
        if self._majority and lengths:
            return lengths.count(max(lengths))
        return len(lengths)

    def _search(
        self,
        g: int,
        king: bool,
        dead: int,
        path: tuple[int, ...],
        caps: tuple[int, ...],
        occ: int,
        opp: int,
        prey: int,
        promo: int,
        man_table: JumpTable,
        out: list[Sequence],
        back: int = -1,
    ) -> bool:
        """Append to ``out`` every complete capture sequence that continues from ``g``; return
        whether any jump was possible.

        ``occ`` is the board without the moving piece (dead pieces included: they stay as a
        barrier, unless the variant removes them at once); ``dead`` the pieces already captured
        in this sequence; ``prey`` the pieces a man may jump (``opp`` where men capture kings; a
        king jumps any of ``opp``); ``back`` the direction a flying king may not take next (the
        way it came, where kings may not turn back; a short jump can never turn back, since the
        square it crossed holds a dead piece or none).
        """
        jumped = False
        board = occ & ~dead if self._at_once else occ
        if king and self._flying:
            for d, ray in self._king_rays[g]:
                if d == back:
                    continue
                n = len(ray)
                i = 0
                while i < n and not (board >> ray[i]) & 1:
                    i += 1
                if i >= n - 1:
                    continue
                victim = ray[i]
                vb = 1 << victim
                if not (opp & vb) or (dead & vb) or (board >> ray[i + 1]) & 1:
                    continue
                jumped = True
                new_dead = dead | vb
                new_caps = (*caps, victim)
                before = len(out)
                stops: list[Sequence] = []
                turn = d ^ 3 if self._no_turn_back else -1
                j = i + 1
                end = i + 2 if self._stop_behind else n
                while j < end and not (board >> ray[j]) & 1:
                    land = ray[j]
                    new_path = (*path, land)
                    if not self._search(
                        land, True, new_dead, new_path, new_caps, occ, opp, opp, promo,
                        man_table, out, turn,
                    ):  # fmt: skip
                        stops.append((new_path, new_caps, True, new_dead))
                    j += 1
                if len(out) == before:
                    # No landing square lets the king go on: it may stop on any of them.
                    out += stops
            return jumped

        for vb, victim, land, d in self._king_jumps[g] if king else man_table[g]:
            if not ((opp if king else prey) & vb) or (dead & vb) or (board >> land) & 1:
                continue
            jumped = True
            new_path = (*path, land)
            new_caps = (*caps, victim)
            new_dead = dead | vb
            now_king = king
            if not king and (promo >> land) & 1:
                if self._crowning is Crowning.ENDS_MOVE:
                    out.append((new_path, new_caps, False, new_dead))
                    continue
                if self._crowning is Crowning.CONTINUES_AS_KING:
                    now_king = True
            if not self._search(
                land, now_king, new_dead, new_path, new_caps, occ, opp, prey, promo,
                man_table, out, d ^ 3 if self._no_turn_back else -1,
            ):  # fmt: skip
                out.append((new_path, new_caps, now_king, new_dead))
        return jumped

    def _count_search(
        self,
        g: int,
        king: bool,
        dead: int,
        taken: int,
        occ: int,
        opp: int,
        promo: int,
        man_table: JumpTable,
        lengths: list[int],
        back: int = -1,
    ) -> bool:
        """:meth:`_search` that records only the number of pieces each sequence captures."""
        jumped = False
        taken += 1
        board = occ & ~dead if self._at_once else occ
        if king and self._flying:
            for d, ray in self._king_rays[g]:
                if d == back:
                    continue
                n = len(ray)
                i = 0
                while i < n and not (board >> ray[i]) & 1:
                    i += 1
                if i >= n - 1:
                    continue
                vb = 1 << ray[i]
                if not (opp & vb) or (dead & vb) or (board >> ray[i + 1]) & 1:
                    continue
                jumped = True
                new_dead = dead | vb
                before = len(lengths)
                stops = 0
                turn = d ^ 3 if self._no_turn_back else -1
                j = i + 1
                end = i + 2 if self._stop_behind else n
                while j < end and not (board >> ray[j]) & 1:
                    if not self._count_search(
                        ray[j], True, new_dead, taken, occ, opp, promo, man_table, lengths, turn
                    ):
                        stops += 1
                    j += 1
                if len(lengths) == before:
                    lengths += [taken] * stops
            return jumped

        for vb, _victim, land, d in self._king_jumps[g] if king else man_table[g]:
            if not (opp & vb) or (dead & vb) or (board >> land) & 1:
                continue
            jumped = True
            now_king = king
            if not king and (promo >> land) & 1:
                if self._crowning is Crowning.ENDS_MOVE:
                    lengths.append(taken)
                    continue
                if self._crowning is Crowning.CONTINUES_AS_KING:
                    now_king = True
            turn = d ^ 3 if self._no_turn_back else -1
            if not self._count_search(
                land, now_king, dead | vb, taken, occ, opp, promo, man_table, lengths, turn
            ):
                lengths.append(taken)
        return jumped


def _jump_table(neighbour: tuple[tuple[int, ...], ...], directions: tuple[int, ...]) -> JumpTable:
    table = []
    for g in range(len(neighbour[0])):
        jumps = []
        for d in directions:
            victim = neighbour[d][g]
            if victim >= 0 and neighbour[d][victim] >= 0:
                jumps.append((1 << victim, victim, neighbour[d][victim], d))
        table.append(tuple(jumps))
    return tuple(table)


def _view(pos: Placement) -> tuple[int, int, int, int, int]:
    """``(men, kings, opponent men, opponent kings, side index)`` of the side to move."""
    if pos.turn is Color.WHITE:
        return pos.white_men, pos.white_kings, pos.black_men, pos.black_kings, 0
    return pos.black_men, pos.black_kings, pos.white_men, pos.white_kings, 1


@cache
def generator(variant: Variant) -> MoveGenerator:
    """The shared generator of ``variant``."""
    return MoveGenerator(variant)


def legal_moves(pos: Placement) -> list[Move]:
    """Every legal move of ``pos`` (see :meth:`MoveGenerator.legal_moves`)."""
    return generator(pos.variant).legal_moves(pos)
