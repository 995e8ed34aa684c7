"""The table of a tournament from its entrants and results: ranks, points, tiebreaks, the
crosstable's cells, games played and each player's performance rating.

Ranks: by points, then the format's tiebreaks (:mod:`.tiebreaks`) in order; players equal on
all of them share a rank (and are listed by pairing number).  Swiss and round robin count game
points (a bye counts what its result says, or ``bye_points`` while it has none); an arena
counts arena points (:func:`.arena.arena_scoring`: streaks and berserk).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .arena import GameScore, arena_scoring
from .model import Cell, CellKind, Entrant, Format, Pairing, Result, Standing, Table
from .performance import performance_rating
from .tiebreaks import FORMAT_TIEBREAKS, Record, Round, tiebreak_values


def standings(
    format: Format,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    *,
    rounds: int | None,
    bye_points: float = 1.0,
    pairings: Sequence[Pairing] = (),
) -> Table:
    """The table after ``results``.

    ``rounds`` is the number planned (None for an arena).  ``pairings`` are the current
    round's (or any) pairings: one without a result shows as a game being played (its cell's
    score None), or, for a bye, as the bye with ``bye_points``; without them the table shows
    the results alone.  Swiss and round robin have a cell per round so far (the last round
    with a result or a pairing); an arena a cell per finished game, in order."""
    order = sorted(entrants, key=lambda entrant: entrant.number)
    ids = [entrant.id for entrant in order]
    ledger, scores = arena_scoring(results) if format is Format.ARENA else ({}, {})
    cells = (
        _arena_cells(ids, results, ledger)
        if format is Format.ARENA
        else _round_cells(ids, results, pairings, bye_points)
    )
    ratings = {entrant.id: entrant.rating for entrant in order}
    records = {player: _record(cells[player], ratings) for player in ids}
    on_fire: dict[int, bool] = {}
    if format is Format.ARENA:
        points = {
            player: float(scores[player].points) if player in scores else 0.0 for player in ids
        }
        on_fire = {player: player in scores and scores[player].on_fire for player in ids}
        records = {
            player: Record(points[player], rec.rounds, rec.wins, rec.performance)
            for player, rec in records.items()
        }
    tiebreaks = FORMAT_TIEBREAKS[format]
    values = tiebreak_values(ids, tiebreaks, records)

    def key(entrant: Entrant) -> tuple[float, ...]:
        return (records[entrant.id].points, *values[entrant.id])

    ranked = sorted(order, key=lambda entrant: tuple(-v for v in key(entrant)))
    rows: list[Standing] = []
    for position, entrant in enumerate(ranked, start=1):
        rank = rows[-1].rank if rows and key(ranked[position - 2]) == key(entrant) else position
        record = records[entrant.id]
        rows.append(
            Standing(
                rank=rank,
                entrant=entrant,
                points=record.points,
                tiebreaks=values[entrant.id],
                cells=tuple(cells[entrant.id]),
                games=sum(1 for r in record.rounds if r.played),
                performance=record.performance,
                on_fire=on_fire.get(entrant.id, False),
            )
        )
    return Table(
        format=format,
        tiebreaks=tiebreaks,
        rows=tuple(rows),
        rounds_played=_rounds_played(format, results, pairings),
        rounds=rounds,
    )


def _points_for(player: int, result: Result) -> float:
    return result.white_points if result.white == player else result.black_points


def _cell(player: int, result: Result) -> Cell:
    if result.black is None:
        return Cell(result.round, CellKind.BYE, score=result.white_points)
    white = result.white == player
    opponent = result.black if white else result.white
    score = _points_for(player, result)
    kind = CellKind.GAME
    if result.forfeit:
        kind = CellKind.FORFEIT_WIN if score > 0 else CellKind.FORFEIT_LOSS
    return Cell(result.round, kind, opponent, "white" if white else "black", score)


def _round_cells(
    ids: Sequence[int],
    results: Sequence[Result],
    pairings: Sequence[Pairing],
    bye_points: float,
) -> dict[int, list[Cell]]:
    last = max([r.round for r in results] + [p.round for p in pairings], default=0)
    found: dict[tuple[int, int], Cell] = {}
    for pairing in pairings:
        if pairing.black is None:
            found[(pairing.white, pairing.round)] = Cell(
                pairing.round, CellKind.BYE, score=bye_points
            )
            continue
        for player, opponent, colour in (
            (pairing.white, pairing.black, "white"),
            (pairing.black, pairing.white, "black"),
        ):
            found[(player, pairing.round)] = Cell(pairing.round, CellKind.GAME, opponent, colour)
    for result in results:
        for side in (result.white, result.black):
            if side is not None:
                found[(side, result.round)] = _cell(side, result)
    return {
        player: [
            found.get((player, number), Cell(number, CellKind.ABSENT))
            for number in range(1, last + 1)
        ]
        for player in ids
    }


def _arena_cells(
    ids: Sequence[int], results: Sequence[Result], ledger: dict[int, list[GameScore]]
) -> dict[int, list[Cell]]:
    cells: dict[int, list[Cell]] = {player: [] for player in ids}
    earned = {(player, game.sequence): game for player, games in ledger.items() for game in games}
    for result in sorted(results, key=lambda r: r.round):
        for player in (result.white, result.black):
            if player in cells:
                cell = _cell(player, result)
                game = earned.get((player, result.round))
                if game is not None:
                    cell = replace(
                        cell, arena_points=game.earned, doubled=game.doubled, berserk=game.berserk
                    )
                cells[player].append(cell)
    return cells


def _record(cells: Sequence[Cell], ratings: dict[int, float]) -> Record:
    """What the tiebreaks need of one player, from their cells (a game still running counts
    for nothing yet)."""
    rounds = tuple(
        Round(
            opponent=cell.opponent if cell.score is not None else None,
            points=cell.score or 0.0,
            played=cell.kind is CellKind.GAME and cell.score is not None,
        )
        for cell in cells
    )
    games = [(ratings[r.opponent], r.points) for r in rounds if r.played and r.opponent is not None]
    return Record(
        points=sum(r.points for r in rounds),
        rounds=rounds,
        wins=sum(1 for r in rounds if r.played and r.points == 1.0),
        performance=performance_rating(games),
    )


def _rounds_played(format: Format, results: Sequence[Result], pairings: Sequence[Pairing]) -> int:
    if format is Format.ARENA:
        return len(results)
    decided = {(r.round, r.white) for r in results}
    pending = {
        p.round for p in pairings if p.black is not None and (p.round, p.white) not in decided
    }
    finished = {r.round for r in results} | {p.round for p in pairings}
    return max((n for n in finished if n not in pending), default=0)
