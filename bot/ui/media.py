"""Board images and game replays, made off the event loop.

A board PNG takes ~10 ms, so it runs in a small thread pool (Pillow releases the GIL for much of
the work and the loop keeps serving the gateway).  A GIF of a long game takes far longer and is
mostly Python, so it runs in a separate process: the heartbeat and other games never wait for it
(a :class:`bot.workers.WorkerPool`, so a renderer killed by the OOM killer is replaced on the next
replay, and it exits with the bot).
The functions the pools run take and return plain values only (strings and bytes), so they pickle.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from dataclasses import dataclass

from render import (
    DEFAULT_THEME,
    DEFAULT_WIDTH,
    MAX_GIF_BYTES,
    describe,
    render_gif,
    render_png,
    status_text,
)
from rules.fen import parse_fen
from rules.notation import parse_move
from rules.pdn import read_game
from rules.variants import Color, find_variant

from ..enums import Side
from ..i18n import Text, _, render
from ..results import GameView
from ..words import ending_words
from ..workers import WorkerPool
from .render_words import render_words

GIF_LIMIT = 8 * 1024 * 1024
"""Discord's upload limit for servers without boosts (and render's own cap)."""


@dataclass(frozen=True)
class BoardRequest:
    """What a board image shows: a position, the move that led to it, the side at the bottom,
    and how (theme, arrows of the moves a picker offers, the notation of the alt text)."""

    variant: str
    fen: str
    previous_fen: str | None
    last_move: str | None
    flip: bool
    move_number: int
    ending: str
    """The result in words once the game is over ("" while it runs)."""
    theme: str = DEFAULT_THEME
    arrows: tuple[tuple[int, ...], ...] = ()
    notation: str = "numeric"
    width: int = DEFAULT_WIDTH
    language: str = "en"
    """The catalog the image's words and its alt text are written in (the reader's)."""
    winner: str = ""
    """The winner's side (``white``, ``black``) once the game is won: the strip's disc is
    theirs, beside their name; empty otherwise (the disc of the side to move)."""


@dataclass(frozen=True)
class Drawn:
    """A board PNG and its alt text (what a screen reader says instead of the picture)."""

    png: bytes
    alt: str


def board_request(
    view: GameView,
    flip: bool | None = None,
    *,
    theme: str = DEFAULT_THEME,
    arrows: tuple[tuple[int, ...], ...] = (),
    notation: str | None = None,
    width: int = DEFAULT_WIDTH,
    code: str = "en",
) -> BoardRequest:
    """The board of ``view``, seen from its public side (:attr:`GameView.flip`) unless ``flip``
    says which side is at the bottom (True: Black), in the words of the language ``code``."""
    if flip is None:
        flip = view.flip
    extra = "" if view.running else render(view_ending(view), code)
    winner = ""
    if view.winner is not None:
        winner = Side.WHITE if view.winner == view.white else Side.BLACK
    return BoardRequest(
        view.variant,
        view.fen,
        view.previous_fen,
        view.last_move,
        flip,
        view.move_number,
        extra,
        theme,
        arrows,
        notation or view.notation,
        width,
        code,
        winner,
    )


def view_ending(view: GameView) -> Text:
    """How ``view``'s game ended in a few words, naming the winner (``Alice wins, 1-0``)."""
    return ending_words(view.status, view.result, None if view.winner is None else view.winner.name)


WINNER_DISC = {Side.WHITE.value: Color.WHITE, Side.BLACK.value: Color.BLACK}


def draw_board(request: BoardRequest) -> Drawn:
    """The PNG and alt text for ``request`` (runs in a worker thread)."""
    variant = find_variant(request.variant)
    position = parse_fen(request.fen, variant)
    previous = last = None
    if request.previous_fen is not None and request.last_move is not None:
        previous = parse_fen(request.previous_fen, variant)
        last = parse_move(previous, request.last_move)
    words = render_words(request.language)
    status = request.ending or status_text(position, request.move_number, words=words)
    png = render_png(
        position,
        last_move=last,
        previous=previous,
        flip=request.flip,
        status=status,
        status_side=WINNER_DISC.get(request.winner),
        theme=request.theme,
        arrows=request.arrows,
        width=request.width,
    )
    alt = describe(position, last_move=last, notation=request.notation, words=words)
    if request.ending:
        over = _("Game over: {ending}. {position}", ending=request.ending, position=alt)
        alt = render(over, request.language)
    return Drawn(png, alt)


@dataclass(frozen=True)
class Replay:
    data: bytes
    note: str


def draw_replay(pdn_text: str, flip: bool, code: str = "en") -> Replay:
    """The animated GIF of a game given as PDN (runs in a worker process), with the players'
    names from its tags and moves in the variant's notation, its words in the language
    ``code``."""
    read = read_game(pdn_text)
    game = read.game
    words = render_words(code)
    names = (read.tags.get("White") or words.white, read.tags.get("Black") or words.black)
    result = render_gif(
        game,
        flip=flip,
        max_bytes=min(GIF_LIMIT, MAX_GIF_BYTES),
        names=names,
        notation=game.variant.notation,
        words=words,
    )
    return Replay(result.data, result.note)


class Media:
    """The worker pools.  One per bot; :meth:`close` on shutdown."""

    def __init__(self, threads: int = 2, processes: int = 1) -> None:
        self._threads = concurrent.futures.ThreadPoolExecutor(
            threads, thread_name_prefix="draughts-render"
        )
        self.replays = WorkerPool("replay", processes)

    async def board(self, request: BoardRequest) -> Drawn:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, draw_board, request)

    async def replay(self, pdn_text: str, flip: bool = False, code: str = "en") -> Replay:
        """The game's GIF, made in the replay process (started on first use), its words in the
        language ``code``; raises :class:`bot.workers.WorkerCrashed` if rendering killed the
        process on every try."""
        return await self.replays.run(draw_replay, pdn_text, flip, code)

    def close(self) -> None:
        """Stop both pools (idempotent); a replay still rendering is abandoned."""
        self._threads.shutdown(wait=True, cancel_futures=True)
        self.replays.close()
