"""What players are shown of a game or a challenge: views built from rows, and the sentences
every action shares.

Pure functions of rows and :class:`rules.Game` records, so a view is the same whichever action,
process or test builds it.
"""

from __future__ import annotations

from rules.ballots import ballot_of
from rules.game import Game
from rules.notation import numbered_moves, show_move
from rules.outcome import Termination
from rules.position import Position
from rules.variants import Color, Notation, find_variant

from ..enums import GameStatus, Side
from ..i18n import Text, _, _n, duration
from ..markdown import shown
from ..results import Action, ChallengeView, GameView, Player
from ..store import ChallengeRow, GameRow
from ..words import outcome_words, status_line, status_parts, variant_title
from .clocks import clock_view, control_of

MAX_NAME_LENGTH = 64
RECENT_FULL_MOVES = 3
"""How many full moves :attr:`GameView.recent_moves` shows: enough to follow the play on a
phone without opening the whole list."""


def clean_name(name: str) -> str:
    """A display name fit for PDN tags and messages: one line, bounded length."""
    text = " ".join(str(name).split())[:MAX_NAME_LENGTH]
    return text or "?"


def points(value: float) -> str:
    """Match points as players write them: 1½, ½, 2."""
    whole = int(value)
    half = value - whole >= 0.5
    if whole == 0 and half:
        return "½"
    return f"{whole}{'½' if half else ''}"


def player(row: GameRow, color: Color | Side) -> Player:
    """The player of ``row`` who has ``color``."""
    if color in (Color.WHITE, Side.WHITE):
        return Player(row.white_id, row.white_name)
    return Player(row.black_id, row.black_name)


def status_of(game: Game) -> GameStatus:
    outcome = game.outcome
    if outcome is None:
        return GameStatus.RUNNING
    if outcome.termination is Termination.ABORTED:
        return GameStatus.ABORTED
    return GameStatus.FINISHED


def opening_label(variant: str, opening: str) -> str | None:
    """The ballot an English game starts from, in words; None for any other opening."""
    if variant != "english" or not opening:
        return None
    ballot = ballot_of(opening.split())
    return None if ballot is None else ballot.label


def players_moves(row: GameRow, game: Game) -> int:
    """Moves the players have made themselves: the game's plies less the opening it was set to
    start from (a ballot's moves are stored with the players' ids but nobody chose them)."""
    return max(0, game.ply - len(row.opening.split()))


def abortable(row: GameRow, game: Game) -> bool:
    """Whether either player may still abort the game: it runs, and not both players have made
    a move of their own (so nobody can abort a game they are losing, and a game nobody started
    can be cleared away without a result).  Never a tournament game: its result counts for
    the event, so resigning loses it and not moving loses it by forfeit."""
    return row.pairing_id is None and not game.is_over and players_moves(row, game) < 2


def moves_shown(game: Game, notation: Notation | str | None = None, last: int | None = None) -> str:
    """The game's moves numbered as PDN numbers them, in ``notation`` (the variant's by
    default): the last ``last`` full moves on one line, or every move, one full move a line."""
    if last is None:
        texts = [show_move(m, game.variant, notation) for m in game.moves]
        return "\n".join(numbered_moves(texts, game.start))
    tail = [show_move(m, game.variant, notation) for m in game.moves[-2 * last :]]
    lines = numbered_moves(tail, game.start, first_ply=game.ply - len(tail))
    return " ".join(lines[-last:])


def game_view(row: GameRow, game: Game) -> GameView:
    """The game as players see it: ``row`` for who and where, ``game`` for the position."""
    variant = game.variant
    outcome = game.outcome
    winner = None
    if outcome is not None and outcome.winner is not None:
        winner = player(row, outcome.winner)
    names = {Color.WHITE: shown(row.white_name), Color.BLACK: shown(row.black_name)}
    last = game.moves[-1] if game.moves else None
    return GameView(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        variant=variant.key,
        variant_title=variant_title(variant),
        white=Player(row.white_id, row.white_name),
        black=Player(row.black_id, row.black_name),
        computer_level=row.computer_level,
        computer_id=row.computer_id,
        status=status_of(game),
        fen=game.position.fen(),
        ply=game.ply,
        move_number=game.move_number,
        turn=Side.of(game.turn),
        to_move=None if outcome is not None else player(row, game.turn),
        last_move=last.pdn() if last is not None else None,
        previous_fen=game.positions[-2].fen() if game.moves else None,
        status_line=status_line(game, names),
        status_parts=status_parts(game, names) if outcome is None else (),
        draw_offer=None if game.draw_offer is None else Side.of(game.draw_offer),
        advantage_left=game.advantage_moves_left(),
        deadline=row.deadline if outcome is None else None,
        move_time=row.move_time,
        result=None if outcome is None else outcome.result(variant),
        termination=None if outcome is None else outcome_words(outcome),
        winner=winner,
        rated=row.rated,
        match_id=row.match_id,
        match_game=None if row.match_id is None else (1 if row.match_id == row.id else 2),
        opening_label=opening_label(row.variant, row.opening),
        takeback_offer=row.takeback_offer if outcome is None else None,
        notation=variant.notation,
        last_move_shown=None if last is None else show_move(last, variant),
        recent_moves=moves_shown(game, last=RECENT_FULL_MOVES),
        flip=row.flip,
        clock=clock_view(row, None if outcome is not None else Side.of(game.turn)),
        white_rating=row.white_rating_shown or None,
        black_rating=row.black_rating_shown or None,
        abortable=abortable(row, game),
        start_fen=start_of(row),
        hints=row.hints,
    )


def start_of(row: GameRow) -> str | None:
    """The position a stored game started from when it is not its variant's start (its boards
    say so, and a rematch starts there again), else None."""
    standard = Position.start(find_variant(row.variant)).fen()
    return None if row.start_fen == standard else row.start_fen


def challenge_view(row: ChallengeRow) -> ChallengeView:
    variant = find_variant(row.variant)
    return ChallengeView(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        challenger=Player(row.challenger_id, row.challenger_name),
        opponent=(
            None if row.opponent_id is None else Player(row.opponent_id, row.opponent_name or "")
        ),
        variant=variant.key,
        variant_title=variant_title(variant),
        color=row.color,
        move_time=row.move_time,
        thread=row.thread,
        level=row.level,
        status=row.status,
        game_id=row.game_id,
        expires_at=row.expires_at,
        message_id=row.message_id,
        opening=row.opening,
        opening_label=opening_label(row.variant, row.opening),
        match=row.match_play,
        min_rating=row.min_rating,
        max_rating=row.max_rating,
        clock=control_of(row),
        start_fen=row.start_fen,
    )


def mentions_after(view: GameView, computer_id: int) -> tuple[int, ...]:
    """Whom a move's message pings: the player to move, or both players once it is over (never
    the computer)."""
    if view.running:
        if view.to_move is None or view.to_move.id == computer_id:
            return ()
        return (view.to_move.id,)
    return tuple(p.id for p in (view.white, view.black) if p.id != computer_id)


def count_sentence(view: GameView, row: GameRow, game: Game) -> Text | None:
    """The 40-move count a declined draw offer starts, naming the decliner; None when no count
    runs."""
    left = view.advantage_left
    if left is None:
        return None
    count = game.advantage_count
    who: Text | str = (
        shown(player(row, count.side).name) if count is not None else _("The decliner")
    )
    return _n(
        "{name} now has {count} move to show a decisive advantage (40-move count: {count} left).",
        "{name} now has {count} moves to show a decisive advantage (40-move count: {count} left).",
        left,
        name=who,
    )


def challenge_text(view: ChallengeView) -> Text:
    """The sentence of a new challenge (said when it is made, and again if its announcement
    has to be rebuilt after a crash): to its opponent, or open to anyone."""
    challenger = shown(view.challenger.name)
    if view.opponent is None:
        if view.match:
            return _(
                "{challenger} offers a {variant} match: anyone may accept.",
                challenger=challenger,
                variant=view.variant_title,
            )
        return _(
            "{challenger} offers a game of {variant}: anyone may accept.",
            challenger=challenger,
            variant=view.variant_title,
        )
    names = {"challenger": challenger, "opponent": shown(view.opponent.name)}
    if view.match:
        return _(
            "{challenger} challenges {opponent} to a {variant} match.",
            variant=view.variant_title,
            **names,
        )
    return _(
        "{challenger} challenges {opponent} to {variant}.", variant=view.variant_title, **names
    )


def challenge_mentions(view: ChallengeView) -> tuple[int, ...]:
    """Whom a new challenge pings: its opponent; nobody for an open one."""
    return () if view.opponent is None else (view.opponent.id,)


def challenge_closed_text(action: Action, challenge: ChallengeView) -> Text:
    """The sentence of a challenge declined, cancelled or expired (said when it happens, and
    again if it has to be posted late)."""
    challenger = shown(challenge.challenger.name)
    if action is Action.CHALLENGE_CANCELLED:
        return _("{challenger} cancelled the challenge.", challenger=challenger)
    if challenge.opponent is None:
        if action is Action.CHALLENGE_EXPIRED:
            return _("The open challenge from {challenger} expired.", challenger=challenger)
        raise ValueError(f"{action} does not close an open challenge")
    opponent = shown(challenge.opponent.name)
    if action is Action.CHALLENGE_DECLINED:
        return _("{opponent} declined the challenge.", opponent=opponent)
    if action is Action.CHALLENGE_EXPIRED:
        return _(
            "The challenge from {challenger} to {opponent} expired.",
            challenger=challenger,
            opponent=opponent,
        )
    raise ValueError(f"{action} does not close a challenge")


def reminder_text(view: GameView) -> Text:
    """The half-time reminder of the player to move."""
    assert view.to_move is not None
    return _(
        "{name}, it is your move in game #{id}: half of your time has passed.",
        name=shown(view.to_move.name),
        id=view.id,
    )


def last_warning_text(view: GameView, now: float) -> Text:
    """The last warning to the player to move, said in the channel and, to those who asked,
    by direct message."""
    assert view.to_move is not None and view.deadline is not None
    return _(
        "{name}, last warning: {time} left for your move in game #{id}.",
        name=shown(view.to_move.name),
        time=duration(max(0.0, view.deadline - now)),
        id=view.id,
    )
