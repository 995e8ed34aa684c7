"""Stand-in for i29-pair's standings (drop at merge): points, Buchholz and Sonneborn-Berger
(arena: lidraughts' points, 2 a win, 1 a draw, doubled on a streak, +1 for a berserk win)."""

from __future__ import annotations

from collections.abc import Sequence

from .model import Cell, CellKind, Entrant, Format, Result, Standing, Table, Tiebreak


def _performance(opponents: list[float], score: float) -> int | None:
    if not opponents:
        return None
    return round(
        sum(opponents) / len(opponents) + 400 * (2 * score - len(opponents)) / len(opponents)
    )


def standings(
    format: Format,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    *,
    rounds: int | None,
    bye_points: float,
) -> Table:
    """The table after ``results``."""
    del bye_points
    rating = {e.id: e.rating for e in entrants}
    points = {e.id: 0.0 for e in entrants}
    cells: dict[int, list[Cell]] = {e.id: [] for e in entrants}
    opp: dict[int, list[tuple[int, float]]] = {e.id: [] for e in entrants}
    streak = {e.id: 0 for e in entrants}
    for r in results:
        sides = [(r.white, r.black, r.white_points, "white", r.white_berserk)]
        if r.black is not None:
            sides.append((r.black, r.white, r.black_points, "black", r.black_berserk))
        for me, other, got, colour, berserk in sides:
            if me not in points:
                continue
            if other is None:
                points[me] += got
                cells[me].append(Cell(r.round, CellKind.BYE, score=got))
                continue
            kind = CellKind.GAME
            if r.forfeit:
                kind = CellKind.FORFEIT_WIN if got > 0 else CellKind.FORFEIT_LOSS
            cells[me].append(Cell(r.round, kind, other, colour, got))
            if not r.forfeit:
                opp[me].append((other, got))
            if format is Format.ARENA:
                base = 2 * got if got != 0.5 else 1
                points[me] += base * (2 if streak[me] >= 2 else 1)
                if got == 1 and berserk and r.moves >= 14:
                    points[me] += 1
                streak[me] = streak[me] + 1 if got == 1 else 0
            else:
                points[me] += got
    tiebreaks = (
        (Tiebreak.PERFORMANCE,)
        if format is Format.ARENA
        else (Tiebreak.SONNEBORN_BERGER,)
        if format is Format.ROUND_ROBIN
        else (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER)
    )
    rows = []
    for e in entrants:
        games = opp[e.id]
        perf = _performance([rating[o] for o, _ in games], sum(g for _, g in games))
        values = {
            Tiebreak.BUCHHOLZ: sum(points[o] for o, _ in games),
            Tiebreak.SONNEBORN_BERGER: sum(points[o] * g for o, g in games),
            Tiebreak.PERFORMANCE: float(perf or 0),
        }
        rows.append((e, points[e.id], tuple(values[t] for t in tiebreaks), perf, len(games)))
    rows.sort(key=lambda x: (-x[1], tuple(-v for v in x[2]), x[0].number))
    table: list[Standing] = []
    for n, (e, p, tb, perf, played) in enumerate(rows, 1):
        rank = n
        if table and (table[-1].points, table[-1].tiebreaks) == (p, tb):
            rank = table[-1].rank
        table.append(Standing(rank, e, p, tb, tuple(cells[e.id]), played, perf, streak[e.id] >= 2))
    played_rounds = {r.round for r in results}
    return Table(format, tiebreaks, tuple(table), len(played_rounds), rounds)
