"""The rules of draughts: variants as data, positions, legal moves, notation, FEN/PDN, game records.

Pure Python with no I/O and no dependency on the rest of the project (``engine``, ``render`` and
``bot`` build on it).  The names below are the public API; submodules hold the details.
"""

from .fen import FenError, parse_fen, position_to_fen
from .game import AdvantageCount, DrawOfferError, Game, GameEndedError, GameError
from .move import Move
from .movegen import generator, legal_moves
from .notation import (
    AmbiguousMoveError,
    CaptureRequiredError,
    MoveError,
    MoveNotLegalError,
    NoPieceError,
    NotationError,
    NotYourPieceError,
    UnknownSquareError,
    parse_move,
)
from .outcome import Outcome, Termination
from .pdn import PdnError, read_game, read_games, write_game
from .perft import perft
from .position import Position
from .variants import VARIANTS, Color, Crowning, Goal, Precedence, Variant, find_variant

__all__ = [
    "VARIANTS",
    "AdvantageCount",
    "AmbiguousMoveError",
    "CaptureRequiredError",
    "Color",
    "Crowning",
    "DrawOfferError",
    "FenError",
    "Game",
    "GameEndedError",
    "GameError",
    "Goal",
    "Move",
    "MoveError",
    "MoveNotLegalError",
    "NoPieceError",
    "NotYourPieceError",
    "NotationError",
    "Outcome",
    "PdnError",
    "Position",
    "Precedence",
    "Termination",
    "UnknownSquareError",
    "Variant",
    "find_variant",
    "generator",
    "legal_moves",
    "parse_fen",
    "parse_move",
    "perft",
    "position_to_fen",
    "read_game",
    "read_games",
    "write_game",
]
