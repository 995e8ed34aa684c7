"""A tournament as players see it (:class:`~bot.results.TournamentView`), and the sentences
each tournament action says, built from the rows the store keeps (so an announcement the outbox
rebuilds after a crash reads as the first one would have)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..enums import TournamentStatus
from ..i18n import Text, _, _n, duration, verbatim
from ..markdown import shown
from ..results import Action, ActionResult, PairingView, TournamentView
from ..store import GameRow, PairingRow, TournamentState
from ..tournaments.model import Entrant, Format
from ..words import variant_title
from .clocks import control_of
from .tournament_rounds import current, entrants, fewest, table, total_rounds
from .views import points

FORMAT_WORDS: Mapping[Format, Text] = {
    Format.SWISS: _("Swiss"),
    Format.ROUND_ROBIN: _("round robin"),
    Format.ARENA: _("arena"),
}
ARENA_SHOWN = 20
"""An arena view lists its games being played and at most this many of the last finished."""


def result_label(pairing: PairingRow) -> str | None:
    """``1-0``, ``½-½``, ``0-1``, a forfeit ``+/-`` or ``-/+`` (``-/-`` both lost), a bye's
    points; None while undecided."""
    white, black = pairing.white_points, pairing.black_points
    if white is None or black is None:
        return None
    if pairing.black_id is None:
        return points(white)
    if pairing.forfeit:
        return f"{'+' if white else '-'}/{'+' if black else '-'}"
    return f"{points(white)}-{points(black)}"


def pairing_view(
    pairing: PairingRow, players: Mapping[int, Entrant], games: Mapping[int, GameRow]
) -> PairingView:
    game = None if pairing.game_id is None else games.get(pairing.game_id)
    return PairingView(
        id=pairing.id,
        round=pairing.round,
        board=pairing.board,
        white=players[pairing.white_id],
        black=None if pairing.black_id is None else players[pairing.black_id],
        game_id=pairing.game_id,
        channel_id=None if game is None else game.channel_id,
        result=result_label(pairing),
        white_points=pairing.white_points,
        black_points=pairing.black_points,
        forfeit=pairing.forfeit,
        fixed_reason=pairing.fixed_reason,
        white_berserk=pairing.white_berserk,
        black_berserk=pairing.black_berserk,
    )


def shown_pairings(state: TournamentState) -> list[PairingRow]:
    """The pairings a view lists: the current round's; an arena's being played and the last
    finished ones."""
    if state.tournament.format != Format.ARENA.value:
        return current(state)
    playing = [p for p in state.pairings if not p.decided]
    done = [p for p in state.pairings if p.decided][-ARENA_SHOWN:]
    return playing + done


def tournament_view(state: TournamentState, games: Iterable[GameRow] = ()) -> TournamentView:
    """The tournament as it stands; ``games``: its games whose threads the pairings name."""
    t = state.tournament
    everyone = {e.id: e for e in entrants(state)}
    by_id = {g.id: g for g in games}
    return TournamentView(
        id=t.id,
        guild_id=t.guild_id,
        channel_id=t.channel_id,
        name=t.name,
        format=Format(t.format),
        variant=t.variant,
        variant_title=variant_title(t.variant),
        move_time=t.move_time,
        clock=control_of(t),
        rated=t.rated,
        rounds=total_rounds(state) if t.status is not TournamentStatus.OPEN else t.rounds,
        double=t.double_round_robin,
        duration=t.duration,
        starts_at=t.starts_at,
        min_rating=t.min_rating,
        max_rating=t.max_rating,
        max_players=t.max_players,
        forfeit_after=t.forfeit_after,
        berserk=t.berserk,
        bye_points=t.bye_points,
        status=t.status,
        round=t.round,
        message_id=t.message_id,
        created_by=t.created_by,
        ends_at=t.ends_at,
        players=tuple(everyone.values()),
        table=table(state),
        pairings=tuple(pairing_view(p, everyone, by_id) for p in shown_pairings(state)),
    )


def tournament_text(action: Action, view: TournamentView, **words: str) -> Text:
    """What ``action`` says about the tournament in its channel (``words``: the player
    concerned, a fixed result's reason)."""
    name = shown(view.name)
    count = len([p for p in view.players if not p.withdrawn])
    if action is Action.TOURNAMENT_CREATED:
        return _(
            "{name}: a {format} tournament of {variant}, open for entries.",
            name=name,
            format=FORMAT_WORDS[view.format],
            variant=view.variant_title,
        )
    if action is Action.TOURNAMENT_JOINED:
        if words.get("left"):
            return _("{player} left {name}.", player=words["left"], name=name)
        if not words.get("player"):  # rebuilt after a crash: who it was is not kept
            return _n(
                "{name}: {count} player has joined.",
                "{name}: {count} players have joined.",
                count,
                name=name,
            )
        return _n(
            "{player} joined {name} ({count} player).",
            "{player} joined {name} ({count} players).",
            count,
            player=words["player"],
            name=name,
        )
    if action is Action.TOURNAMENT_STARTED:
        return _n(
            "{name} has started with {count} player.",
            "{name} has started with {count} players.",
            count,
            name=name,
        )
    if action is Action.ROUND_PAIRED:
        if view.format is Format.ARENA:
            return _("{name}: new pairings.", name=name)
        return _(
            "{name}: round {round} of {rounds} is paired.",
            name=name,
            round=view.round,
            rounds=view.rounds or view.round,
        )
    if action is Action.TOURNAMENT_PAUSED:
        return _(
            "{name} is paused by a moderator: the games being played go on, no new round is "
            "paired.",
            name=name,
        )
    if action is Action.TOURNAMENT_RESUMED:
        return _("{name} goes on.", name=name)
    if action is Action.PLAYER_DROPPED:
        if not words.get("player"):
            return _("A moderator dropped a player from {name}.", name=name)
        return _("A moderator dropped {player} from {name}.", player=words["player"], name=name)
    if action is Action.RESULT_FIXED:
        if not words.get("result"):
            return _("A moderator set a result in {name}.", name=name)
        return _(
            "A moderator set a result in {name}: {result} ({reason}).",
            name=name,
            result=words["result"],
            reason=words.get("reason", ""),
        )
    if action is Action.TOURNAMENT_FINISHED:
        rows = view.table.rows
        if not rows:
            return _("{name} is over.", name=name)
        return _(
            "{name} is over. Winner: {winner} ({points}).",
            name=name,
            winner=shown(rows[0].entrant.name),
            points=points(rows[0].points),
        )
    if action is Action.TOURNAMENT_CANCELLED:
        if view.round == 0 and count < fewest(view.format):
            return _("{name} was cancelled: too few players joined.", name=name)
        return _("{name} was cancelled.", name=name)
    return verbatim(name)


def no_show_text(name: str, event: str, left: float | None) -> Text:
    """The reminder of a player who has not made a first move in a tournament game (``left``:
    the seconds before the forfeit; None in a reminder rebuilt late)."""
    if left is None:
        return _(
            "{name}, your game in {event} has started: make your first move, or you lose it by "
            "forfeit.",
            name=shown(name),
            event=shown(event),
        )
    return _(
        "{name}, your game in {event} has started: make your first move within {time}, or you "
        "lose it by forfeit.",
        name=shown(name),
        event=shown(event),
        time=duration(max(0.0, left)),
    )


def tournament_result(
    action: Action, view: TournamentView, *, event: str | None, **words: str
) -> ActionResult:
    """The announcement of ``action`` (mentioning the players of a new round)."""
    mentions: tuple[int, ...] = ()
    if action in (Action.ROUND_PAIRED, Action.TOURNAMENT_STARTED):
        mentions = tuple(
            who
            for p in view.pairings
            if p.game_id is None and p.result is None
            for who in (p.white.id, *(() if p.black is None else (p.black.id,)))
        )
    text = tournament_text(action, view, **words)
    return ActionResult(action, text, mentions=mentions, event=event, tournament=view)
