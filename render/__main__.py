"""Command line: ``python -m render`` (contracts in shared/DESIGN.md).

``python -m render --variant V [--fen FEN] [--last MOVE] [--flip] [--theme T] -o FILE.png`` draws
one position; with ``--last`` the move is played from the ``--fen`` position and the result is
drawn with that move highlighted.  ``python -m render gif GAME.pdn -o FILE.gif`` draws a whole game
(``--names WHITE BLACK`` for the header line, else the PDN's White and Black tags when present;
``--notation`` for the moves in the strip, else the variant's convention).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from rules.fen import FenError, parse_fen
from rules.notation import MoveError, parse_move
from rules.pdn import PdnError, read_game
from rules.position import Position
from rules.variants import VARIANTS, Notation, Variant, find_variant

from .board import DEFAULT_WIDTH, status_text
from .encoding import render_png
from .gif import GIF_WIDTH, render_gif
from .themes import DEFAULT_THEME, THEMES, Theme, find_theme


def _variant(name: str) -> Variant:
    try:
        return find_variant(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _theme(name: str) -> Theme:
    try:
        return find_theme(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _common(parser: argparse.ArgumentParser, width: int) -> None:
    parser.add_argument(
        "--theme",
        type=_theme,
        default=find_theme(DEFAULT_THEME),
        help=f"one of {', '.join(THEMES)} (default {DEFAULT_THEME})",
    )
    parser.add_argument("--flip", action="store_true", help="Black at the bottom")
    parser.add_argument("--width", type=int, default=width, help=f"pixels (default {width})")
    parser.add_argument("-o", "--output", required=True, type=Path, help="file to write")


def _png_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m render",
        description="Draw a position as PNG (or: python -m render gif GAME.pdn -o FILE.gif).",
    )
    parser.add_argument(
        "--variant", required=True, type=_variant, help=f"one of {', '.join(VARIANTS)}"
    )
    parser.add_argument("--fen", help="position (default: the start position)")
    parser.add_argument(
        "--last", metavar="MOVE", help="play MOVE from the --fen position and highlight it"
    )
    parser.add_argument("--status", action="store_true", help="add the status strip (side to move)")
    _common(parser, DEFAULT_WIDTH)
    return parser


def _gif_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m render gif", description="Draw a PDN game as an animated GIF."
    )
    parser.add_argument("pdn", type=Path, help="PDN file with one game")
    parser.add_argument("--variant", type=_variant, help="override the PDN's GameType")
    parser.add_argument(
        "--names",
        nargs=2,
        metavar=("WHITE", "BLACK"),
        help="players' names for the header line (default: the PDN's White and Black tags)",
    )
    parser.add_argument(
        "--notation",
        choices=[n.value for n in Notation],
        help="how moves are written in the strip (default: the variant's convention)",
    )
    _common(parser, GIF_WIDTH)
    return parser


def _png(args: argparse.Namespace) -> int:
    variant: Variant = args.variant
    pos = Position.start(variant) if args.fen is None else parse_fen(args.fen, variant)
    last = previous = None
    if args.last is not None:
        previous = pos
        last = parse_move(pos, args.last)
        pos = pos.play(last)
    data = render_png(
        pos,
        last_move=last,
        previous=previous,
        flip=args.flip,
        theme=args.theme,
        width=args.width,
        status=status_text(pos) if args.status else None,
    )
    args.output.write_bytes(data)
    return 0


def _gif(args: argparse.Namespace) -> int:
    read = read_game(args.pdn.read_bytes(), variant=args.variant)
    game = read.game
    if args.names:
        names: tuple[str, str] | None = (args.names[0], args.names[1])
    else:
        tags = [read.tags.get(side) or "" for side in ("White", "Black")]
        known = [tag if tag.strip() not in ("", "?") else "" for tag in tags]
        names = (known[0], known[1]) if any(known) else None
    result = render_gif(
        game,
        theme=args.theme,
        flip=args.flip,
        width=args.width,
        names=names,
        notation=args.notation or game.variant.notation,
    )
    args.output.write_bytes(result.data)
    print(f"{result.frames} frames, {len(result.data)} bytes")
    if result.note:
        print(result.note)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    gif = bool(argv) and argv[0] == "gif"
    parser = _gif_parser() if gif else _png_parser()
    args = parser.parse_args(argv[1:] if gif else argv)
    try:
        return _gif(args) if gif else _png(args)
    except (FenError, MoveError, PdnError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
