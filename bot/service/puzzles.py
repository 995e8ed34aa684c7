"""Solving puzzles: the next puzzle for a user, a move in an attempt, a hint, and the puzzle
ratings, streaks and leaderboard.

An attempt is private to its solver and moves on only through the store's write guarded by
the ply it was read at (:meth:`~bot.store.Store.advance_attempt`), so a stale tap (an older
board of the same attempt, pressed again) is refused and changes nothing.  A right move is
answered by the solution's forced reply until the line ends; a wrong legal move ends the
attempt (the solution is shown); text that is no legal move is refused and ends nothing.
Scoring and families: :mod:`bot.service.puzzle_terms`.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.notation import MoveError, parse_move, show_move, square_name
from rules.variants import find_variant

from ..errors import (
    GameOverError,
    IllegalMoveError,
    NotAPlayerError,
    NotFoundError,
    ServiceError,
    StaleError,
)
from ..i18n import Text, _
from ..i18n.text import from_rules
from ..results import Player, PuzzleBoard, PuzzleStanding, PuzzleTurn
from ..store import AttemptRow, PuzzleRow, Store
from ..words import variant_title
from .puzzle_mining import Library
from .puzzle_terms import (
    attempt_view,
    family,
    family_title,
    position_at,
    rater,
    rating_change,
    same_move,
    solution_of,
    standing,
)
from .ratings import START_RATING
from .settings import SettingsBook

LEADERBOARD_SIZE = 10
DIRECT = 0
"""The server key of puzzles solved in direct messages (no server)."""

STALE = _("this puzzle board is out of date (you have moved since): use the newest one")


class Puzzles:
    def __init__(
        self,
        store: Store,
        settings: SettingsBook,
        library: Library,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.settings = settings
        self.library = library
        self.clock = clock

    async def start(
        self,
        guild_id: int | None,
        user: Player,
        variant: str | None = None,
        *,
        puzzle_id: int | None = None,
        after: int | None = None,
    ) -> PuzzleTurn:
        """The user's puzzle: the one still open in this server if any (shown again, so a
        puzzle cannot be skipped by asking for another), else ``puzzle_id`` (the daily one) or
        the next of ``variant`` (that of puzzle ``after``, the one just ended; else the
        server's) near their rating, never one they had."""
        guild = DIRECT if guild_id is None else guild_id
        current = await self.store.open_attempt(user.id, guild)
        if current is not None:
            puzzle = await self._puzzle(current.puzzle_id)
            said = _("You have a puzzle open: here it is again. Find the best move.")
            return PuzzleTurn(attempt_view(puzzle, current), said)
        if puzzle_id is not None:
            found = await self.store.puzzle(puzzle_id)
            if found is None or found.guild_id not in (None, guild_id):
                raise NotFoundError(_("no such puzzle"))
            chosen = found
        else:
            previous = None if after is None else await self.store.puzzle(after)
            key = (
                variant
                or (previous.variant if previous else None)
                or (await self.settings.get(guild_id)).variant
            )
            await self.library.ensure(key)
            mine = await self.store.puzzle_rating(guild, user.id, family(key))
            rating = START_RATING if mine is None else mine.rating
            following = await self.store.next_puzzle(guild, user.id, key, rating)
            if following is None:
                raise NotFoundError(
                    _(
                        "you have had every {variant} puzzle I have; try another variant",
                        variant=variant_title(key),
                    )
                )
            chosen = following
        attempt_id = await self.store.start_attempt(chosen.id, guild, user.id, self.clock())
        if attempt_id is None:
            raise GameOverError(
                _("you have had this puzzle already; /puzzle solve gives you a new one")
            )
        attempt = await self._attempt(attempt_id, user.id)
        view = attempt_view(chosen, attempt)
        return PuzzleTurn(view, _("Find the best move."))

    async def move(self, attempt_id: int, user: Player, ply: int, text: str) -> PuzzleTurn:
        """Play ``text`` in the attempt at ``ply``: a right move gets the forced reply (or
        solves the puzzle), a wrong one ends it."""
        attempt, puzzle = await self._open(attempt_id, user.id, ply)
        position, _before, _last = position_at(puzzle, ply)
        variant = position.variant
        try:
            move = parse_move(position, text, notation=variant.notation)
        except MoveError as exc:
            raise IllegalMoveError(from_rules(exc)) from None
        solution = solution_of(puzzle)
        expected = parse_move(position, solution[ply])
        played = show_move(move, variant)
        if not same_move(move, expected):
            return await self._end(attempt, puzzle, user, solved=False, wrong=move.pdn())
        if ply + 1 == len(solution):
            return await self._end(attempt, puzzle, user, solved=True, wrong=None)
        if not await self.store.advance_attempt(attempt.id, ply, ply + 2):
            raise StaleError(STALE)
        moved = await self._attempt(attempt.id, user.id)
        reply = show_move(solution[ply + 1], variant)
        said = _(
            "Right, {move}! The reply is {reply}. Find the next move.", move=played, reply=reply
        )
        return PuzzleTurn(attempt_view(puzzle, moved), said)

    async def hint(self, attempt_id: int, user: Player, ply: int) -> PuzzleTurn:
        """Show which piece moves (the attempt then scores as :data:`HINTED_SCORE` if
        solved, see :mod:`bot.service.puzzle_terms`)."""
        attempt, puzzle = await self._open(attempt_id, user.id, ply)
        if not attempt.hinted and not await self.store.advance_attempt(
            attempt.id, ply, ply, hinted=True
        ):
            raise StaleError(STALE)
        view = attempt_view(puzzle, await self._attempt(attempt.id, user.id))
        assert view.hint_square is not None
        square = square_name(view.hint_square, find_variant(puzzle.variant), view.notation)
        said = _(
            "Hint: move the piece on {square}. A solve with a hint counts half.", square=square
        )
        return PuzzleTurn(view, said)

    async def look(self, attempt_id: int, user: Player, ply: int) -> PuzzleTurn:
        """The open attempt as it stands at ``ply`` (a piece picked, a page turned: nothing
        changes); refused as a move would be when it is over or moved on."""
        attempt, puzzle = await self._open(attempt_id, user.id, ply)
        return PuzzleTurn(attempt_view(puzzle, attempt), _("Find the best move."))

    async def standings(self, guild_id: int | None, user_id: int) -> list[PuzzleStanding]:
        """The user's puzzle rating and streaks in each family they tried, in this server."""
        guild = DIRECT if guild_id is None else guild_id
        return [standing(row) for row in await self.store.puzzle_ratings_of(guild, user_id)]

    async def leaderboard(
        self, guild_id: int | None, user_id: int, variant: str | None = None
    ) -> PuzzleBoard:
        """The server's best puzzle ratings in the family of ``variant`` (the server's by
        default)."""
        family_name = family(variant or (await self.settings.get(guild_id)).variant)
        guild = DIRECT if guild_id is None else guild_id
        rows = await self.store.puzzle_leaderboard(guild, family_name, LEADERBOARD_SIZE)
        mine = await self.store.puzzle_rating(guild, user_id, family_name)
        return PuzzleBoard(
            family=family_name,
            family_title=family_title(family_name),
            top=tuple(standing(row) for row in rows),
            mine=None if mine is None else standing(mine),
        )

    # -- the steps' shared parts ------------------------------------------------------------

    async def _end(
        self,
        attempt: AttemptRow,
        puzzle: PuzzleRow,
        user: Player,
        *,
        solved: bool,
        wrong: str | None,
    ) -> PuzzleTurn:
        now = self.clock()
        rate = rater(
            guild_id=attempt.guild_id,
            user_id=user.id,
            name=user.name,
            solved=solved,
            hinted=attempt.hinted,
            now=now,
        )
        solution = solution_of(puzzle)
        rated = await self.store.end_attempt(
            attempt.id,
            attempt.ply,
            to_ply=len(solution) if solved else attempt.ply,
            solved=solved,
            wrong_move=wrong,
            now=now,
            rate=rate,
        )
        if rated is None:
            raise StaleError(STALE)
        ended = await self._attempt(attempt.id, user.id)
        variant = find_variant(puzzle.variant)
        line = " ".join(show_move(m, variant) for m in solution)
        said: Text
        if solved:
            said = _("Solved! The whole line: {line}.", line=line)
        else:
            shown = show_move(wrong or "", variant) if wrong else ""
            said = _("{move} is not it. The solution: {line}.", move=shown, line=line)
        change = rating_change(rated.before, rated.after)
        return PuzzleTurn(attempt_view(puzzle, ended), said, change)

    async def _open(self, attempt_id: int, user_id: int, ply: int) -> tuple[AttemptRow, PuzzleRow]:
        attempt = await self._attempt(attempt_id, user_id)
        if attempt.status != "open":
            raise GameOverError(_("this puzzle is over; /puzzle solve gives you a new one"))
        if attempt.ply != ply:
            raise StaleError(STALE)
        return attempt, await self._puzzle(attempt.puzzle_id)

    async def _attempt(self, attempt_id: int, user_id: int) -> AttemptRow:
        attempt = await self.store.attempt(attempt_id)
        if attempt is None:
            raise NotFoundError(_("no such puzzle"))
        if attempt.user_id != user_id:
            raise NotAPlayerError(
                _("this puzzle is someone else's; /puzzle solve gives you your own")
            )
        return attempt

    async def _puzzle(self, puzzle_id: int) -> PuzzleRow:
        puzzle = await self.store.puzzle(puzzle_id)
        if puzzle is None:
            raise ServiceError(_("no such puzzle"))
        return puzzle
