"""Taps per move and public messages per game (issue 28): whole games played by tapping, on 8x8
and 10x10, in this checkout and in an older one (``--root``), through the same fake Discord.

Why it exists: issue 28 asked for two taps a move where the picker of issue 14 needed five (Move,
open the piece menu, the piece, open the move menu, the move; 4.3 on average, as only one piece
can move now and then), with a target of a median of 2 and a mean under 3 over whole games.  And
a channel following a game sees every message it makes, so the public messages of each game's
first 40 plies are counted too (the integrator runs both before and after the merge).

Like ``bench/phone_play.py`` (whose fake, bot process and table this reuses) it runs the real bot
process against the fake Discord of ``tests/support/fake_discord/`` on 127.0.0.1; only the bot's
code comes from ``--root``.  Nothing is timed: the figures are counts, the same on any machine.

How to run (the project's dependencies are enough)::

    git worktree add /tmp/taps-base 574358c
    python bench/taps.py --root /tmp/taps-base --markdown   # before and after
    python bench/taps.py --games 4 --plies 60               # this checkout only
    git worktree remove --force /tmp/taps-base

Method.  ``--games`` games per variant (English, 8x8; International, 10x10), one per channel, are
started by ``/challenge`` and the Accept button and played between two users, up to ``--plies``
plies or the end; each ply is a random legal move (seeded) from the benchmark's own
``rules.Game`` copy, played by the fewest taps the bot's messages offer, every tap a real
interaction answered before the next: a select menu costs two taps (open it, pick), a button one.
On a board with a move menu (``play:``) offering the move, that is the menu (2 taps); offering the
move's piece instead, the piece, then the private menu of its moves (4, plus a tap per page
turned).  On a board without one, the Move button, then the piece unless the picker opens on it,
then the move (3 or 5, plus pages).  Per move the taps are counted; per variant the median, mean,
largest and the share of moves in two taps are reported.  Every request the bot made for a
channel is sorted as ``bench/phone_play.py`` sorts them: the messages created public in it from
the challenge to the 40th ply's board are counted, for each game that reached 40 plies.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from phone_play import (
    ALICE,
    BOB,
    EPHEMERAL,
    MESSAGE,
    ROOT,
    BotProcess,
    Fake,
    Table,
    body_of,
    custom_ids,
    loadavg,
    options_of,
)
from support.fake_discord import Guild

from rules import Game, find_variant

VARIANTS = ("english", "international")
COUNTED_PLIES = 40
"""Public messages are counted over a game's first this many plies."""


class Tapper(Table):
    """Two users playing by the fewest taps each board offers, counting them."""

    async def pick(self, message: dict[str, Any], select: str, value: str, player: str) -> None:
        """``player`` picks ``value`` in ``select`` on ``message`` (answered before returning)."""
        choice = self.fake.select_interaction(select, message, [value], user_id=player)
        await self.interact(choice, "POST", self.callback_path(choice))

    async def press(self, message: dict[str, Any], button: str, player: str) -> dict[str, Any]:
        """``player`` presses ``button``; the message the answer created."""
        press = self.fake.button_interaction(button, message, user_id=player)
        await self.interact(press, "POST", self.callback_path(press))
        created = self.fake.original_message(press["token"])
        assert created is not None, f"{button} made no message"
        return created

    async def tap(self, board: dict[str, Any], player: str, move: str) -> tuple[int, dict]:
        """Play ``move`` (full PDN) by the fewest taps ``board`` offers: the taps, and the
        public board that follows."""
        fake, channel = self.fake, board_channel(board)
        board = fake.messages[board["id"]]
        since = len(fake.requests)
        origin = move.replace("x", "-").split("-")[0]
        menus = [c for c in custom_ids(board) if c.startswith("play:")]
        if menus and move in options_of(board, menus[0]):
            await self.pick(board, menus[0], move, player)
            return 2, await self.board_since(since, channel)
        if menus and origin in options_of(board, menus[0]):
            choice = fake.select_interaction(menus[0], board, [origin], user_id=player)
            _, callback = await self.interact(choice, "POST", self.callback_path(choice))
            if not int(body_of(callback).get("flags") or 0) & EPHEMERAL:
                raise SystemExit(f"piece {origin} gave no private menu: {callback.json}")
            picker = fake.original_message(choice["token"])
            assert picker is not None
            taps = 2 + await self.in_picker(picker, player, move, origin)
            return taps, await self.board_since(since, channel)
        if menus:
            raise SystemExit(f"neither {move} nor its piece is in {options_of(board, menus[0])}")
        (button,) = [c for c in custom_ids(board) if c.startswith("board:move:")]
        picker = await self.press(board, button, player)
        taps = 1 + await self.in_picker(picker, player, move, origin)
        return taps, await self.board_since(since, channel)

    async def in_picker(self, picker: dict[str, Any], player: str, move: str, origin: str) -> int:
        """The taps to play ``move`` from a private picker: the piece (unless it opened on
        it), then the move, each after any pages turned to reach it."""
        taps = 0
        select = self.picker_select(picker)
        if select.split(":")[3] == "0":
            taps += await self.turn_to(picker, player, origin)
            picker = self.fake.messages[picker["id"]]
            await self.pick(picker, self.picker_select(picker), origin, player)
            taps += 2
            picker = self.fake.messages[picker["id"]]
        taps += await self.turn_to(picker, player, move)
        picker = self.fake.messages[picker["id"]]
        await self.pick(picker, self.picker_select(picker), move, player)
        return taps + 2

    async def turn_to(self, picker: dict[str, Any], player: str, value: str) -> int:
        """Press Next until ``value`` is listed in the picker's menu; the presses."""
        presses = 0
        while value not in options_of(picker, self.picker_select(picker)):
            page = int(self.picker_select(picker).rsplit(":", 1)[1])
            forward = [
                c
                for c in custom_ids(picker)
                if c.startswith("pickgo:") and int(c.rsplit(":", 1)[1]) > page
            ]
            if not forward:
                raise SystemExit(f"{value} is on no page of {self.picker_select(picker)}")
            press = self.fake.button_interaction(forward[0], picker, user_id=player)
            await self.interact(press, "POST", self.callback_path(press))
            picker = self.fake.messages[picker["id"]]
            presses += 1
        return presses


def board_channel(message: dict[str, Any]) -> str:
    return str(message["channel_id"])


@dataclass
class VariantRun:
    """The taps of every move and the public messages of each 40-ply game of one variant."""

    taps: list[int] = field(default_factory=list)
    public: list[int] = field(default_factory=list)


@dataclass
class TreeRun:
    code: str
    variants: dict[str, VariantRun] = field(default_factory=dict)


def public_messages(tapper: Tapper, channel: str, since: int, until: int) -> int:
    """Messages created public in ``channel`` by the bot's requests ``since`` .. ``until``."""
    created: set[str] = set()
    for request in tapper.fake.requests[since:until]:
        message = tapper.public(request, channel)
        if message is not None and request.method == "POST":
            if request.path.endswith("/callback") and (request.json or {}).get("type") != MESSAGE:
                continue  # an update of the pressed message, not a new one
            created.add(str(message["id"]))
    return len(created)


async def run_tree(root: Path, args: argparse.Namespace) -> TreeRun:
    rng = random.Random(args.seed)
    count = args.games * len(VARIANTS)
    channels = [str(1100000000000001000 + i) for i in range(count)]
    guild = Guild(channels={c: f"table-{i}" for i, c in enumerate(channels)})
    with tempfile.TemporaryDirectory() as tmp:
        async with Fake(guild=guild) as fake:
            bot = BotProcess(fake, root, Path(tmp))
            out = TreeRun(code=bot.code_from())
            await bot.start()
            tapper = Tapper(fake, bot)
            try:
                for index, channel in enumerate(channels):
                    variant = VARIANTS[index % len(VARIANTS)]
                    run = out.variants.setdefault(variant, VariantRun())
                    since = len(fake.requests)
                    board = await tapper.start_game(channel, variant)
                    game = Game(find_variant(variant))
                    for _ in range(args.plies):
                        if game.is_over:
                            break
                        move = rng.choice(game.legal_moves()).pdn()
                        player = ALICE if game.turn.label == "black" else BOB
                        taps, board = await tapper.tap(board, player, move)
                        run.taps.append(taps)
                        game.play(move)
                        if game.ply == COUNTED_PLIES:
                            until = len(fake.requests)
                            run.public.append(public_messages(tapper, channel, since, until))
                    if fake.violations:
                        raise SystemExit(f"Discord would refuse requests: {fake.violations[:3]}")
            finally:
                await bot.stop()
    return out


def summary(taps: list[int]) -> list[str]:
    if not taps:
        return ["-"] * 5
    two = sum(t <= 2 for t in taps) / len(taps)
    return [
        str(len(taps)),
        f"{statistics.median(taps):g}",
        f"{statistics.mean(taps):.2f}",
        str(max(taps)),
        f"{two:.0%}",
    ]


def report(runs: list[tuple[str, TreeRun]], args: argparse.Namespace, load: str) -> None:
    head = ["tree", "variant", "moves", "median taps", "mean taps", "most", "in 2 taps"]
    head.append(f"public messages per {COUNTED_PLIES} plies")
    rows = []
    for label, run in runs:
        for variant, counted in run.variants.items():
            public = counted.public
            messages = f"{statistics.mean(public):.1f} ({len(public)} games)" if public else "-"
            rows.append([label, variant, *summary(counted.taps), messages])
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        for row in [head, *rows]:
            print("  ".join(f"{cell:<14}" for cell in row))
    for label, run in runs:
        print(f"\n{label}: bot from {run.code}")
    print(f"seed {args.seed}, {args.games} games per variant, up to {args.plies} plies; {load}")


async def run(args: argparse.Namespace) -> None:
    load = loadavg()
    runs = []
    if args.root is not None:
        runs.append(("before", await run_tree(args.root.resolve(), args)))
    runs.append(("after", await run_tree(ROOT, args)))
    report(runs, args, f"load {load} -> {loadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=None, help="an older checkout (before)")
    parser.add_argument("--games", type=int, default=4, help="games per variant")
    parser.add_argument("--plies", type=int, default=80, help="plies per game at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
