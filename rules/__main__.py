"""Command line: ``python -m rules perft|moves|play`` (contracts in shared/DESIGN.md).

Meant for people checking the rules by hand and for scripts: output is plain lines, the last line
of ``perft`` is the number, errors go to stderr with a non-zero exit code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .fen import FenError, parse_fen
from .game import Game, GameError
from .notation import MoveError
from .perft import divide, perft
from .position import Position
from .variants import VARIANTS, Variant, find_variant


def _variant(name: str) -> Variant:
    try:
        return find_variant(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _position(variant: Variant, fen: str | None) -> Position:
    return Position.start(variant) if fen is None else parse_fen(fen, variant)


def _cmd_perft(args: argparse.Namespace) -> int:
    pos = _position(args.variant, args.fen)
    if args.divide:
        counts = divide(pos, args.depth)
        for move, count in sorted(counts.items(), key=lambda item: item[0]):
            print(f"{move} {count}")
        print(sum(counts.values()))
    else:
        print(perft(pos, args.depth))
    return 0


def _cmd_moves(args: argparse.Namespace) -> int:
    pos = _position(args.variant, args.fen)
    numbers = pos.variant.geometry.numbers
    for move in sorted(pos.legal_moves(), key=lambda m: m.numbered_path):
        captured = ",".join(str(n) for n in sorted(numbers[s] for s in move.captured)) or "-"
        print(f"{move.pdn()} {captured}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    game = Game(args.variant, _position(args.variant, args.fen))
    for number, token in enumerate(args.tokens, start=1):
        word = token.strip().lower()
        try:
            if game.is_over:
                raise GameError(f"the game is already over ({game.status_line()})")
            if word == "offer":
                game.offer_draw(game.turn)
            elif word in ("accept", "decline"):
                if game.draw_offer is None:
                    raise GameError(f"there is no draw offer to {word}")
                answerer = game.draw_offer.other
                if word == "accept":
                    game.accept_draw(answerer)
                else:
                    game.decline_draw(answerer)
            else:
                game.play(token)
        except (MoveError, GameError) as exc:
            print(f"token {number} ({token!r}): {exc}", file=sys.stderr)
            return 1
    print(game.position.fen())
    print(game.status_line())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rules", description="Draughts rules: perft, legal moves, play a game."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--variant",
            required=True,
            type=_variant,
            help=f"one of {', '.join(VARIANTS)} (or an alias such as polish)",
        )
        p.add_argument(
            "--fen", help="start position in PDN FEN, e.g. W:W21,22:B1,2 (default: start)"
        )

    p = sub.add_parser("perft", help="count the leaf nodes of the move tree")
    common(p)
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--divide", action="store_true", help="also print the count per first move")
    p.set_defaults(run=_cmd_perft)

    p = sub.add_parser("moves", help="list the legal moves with their captured squares")
    common(p)
    p.set_defaults(run=_cmd_moves)

    p = sub.add_parser("play", help="apply moves and draw-offer tokens, print FEN and status")
    common(p)
    p.add_argument("tokens", nargs="*", metavar="TOKEN", help="a move, offer, accept or decline")
    p.set_defaults(run=_cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except FenError as exc:
        print(f"bad --fen: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
