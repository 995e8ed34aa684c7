"""Board positions shared by the renderer tests, the golden images and the docs gallery.

One hand-made midgame per variant, each with kings of both sides and a capture to play, drawn
with a mix of themes, orientations, arrows and status strips so that the goldens between them
cover every feature of the renderer.  Imported as ``from support.render_cases import
...``: pytest puts ``tests/`` on ``sys.path``; ``tests/render/golden/regenerate.py`` and
``docs/images/make_gallery.py`` add it themselves.

Changing a case changes its golden: run ``python tests/render/golden/regenerate.py`` afterwards.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from render.themes import Theme
from rules.fen import parse_fen
from rules.game import Game
from rules.move import Move
from rules.position import BLACK_KING, BLACK_MAN, EMPTY, WHITE_KING, WHITE_MAN, Position
from rules.variants import Variant, find_variant

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "render" / "golden"
GOLDEN_WIDTH = 480
"""Small enough to keep the goldens (and the repository) small, big enough to show detail."""


@dataclass(frozen=True)
class Case:
    """A position, a capture played from it, and how to draw the result."""

    variant: str
    fen: str
    """The position before ``move``."""
    move: str
    """A capture of the side to move in ``fen``: its full PDN landing path."""
    theme: str
    flip: bool = False
    status: bool = False
    move_number: int = 20
    arrows: tuple[tuple[int, int], ...] = ()
    note: str = ""
    """What this case covers that the others do not."""

    @property
    def rules(self) -> Variant:
        return find_variant(self.variant)

    @property
    def before(self) -> Position:
        return parse_fen(self.fen, self.rules)

    @property
    def last_move(self) -> Move:
        before = self.before
        for move in before.legal_moves():
            if move.pdn() == self.move:
                return move
        raise ValueError(f"{self.move} is not legal in {self.fen} ({self.variant})")

    @property
    def after(self) -> Position:
        return self.before.play(self.last_move)

    @property
    def golden(self) -> Path:
        return GOLDEN_DIR / f"{self.variant}.png"

    def options(self) -> dict[str, object]:
        """Keyword options for :func:`render.board.render_board` / ``render_png``."""
        from render.board import status_text

        after = self.after
        return {
            "last_move": self.last_move,
            "previous": self.before,
            "theme": self.theme,
            "flip": self.flip,
            "arrows": self.arrows,
            "status": status_text(after, self.move_number) if self.status else None,
        }


CASES: tuple[Case, ...] = (
    Case(
        "english",
        "B:W14,15,22,23,26,30,31,K7:B1,2,5,10,11,12,K19,K28",
        "11x18x25",
        theme="wood",
        status=True,
        move_number=17,
        note="default theme, double capture, status strip with Black's disc",
    ),
    Case(
        "dame",
        "W:W19,20,22,26,27,29,K2:B3,6,7,10,15,16,K23,K31",
        "2x11x18",
        theme="green",
        flip=True,
        note="flipped board, capture by a king",
    ),
    Case(
        "pool",
        "B:W14,15,22,23,26,30,K7,K31:B1,2,5,10,11,12,K19,K28",
        "11x18x9",
        theme="contrast",
        arrows=((30, 25),),
        note="backward capture by a man, an arrow",
    ),
    Case(
        "international",
        "W:W27,28,31,32,33,36,37,41,42,46,K4:B8,12,13,14,17,19,21,22,24,26,K40,K45",
        "27x18x9x20x29",
        theme="wood",
        flip=True,
        status=True,
        move_number=31,
        arrows=((24, 30),),
        note="10x10, four-piece capture, flipped, arrow and status",
    ),
    Case(
        "canadian",
        "W:W7,17,44,55,69,K49:B9,10,11,35,47,57,62,K22,K8",
        "17x4x15x28x41x52",
        theme="green",
        status=True,
        move_number=27,
        arrows=((62, 68),),
        note="12x12, numbers to 72 (on tight plates at 480 px): a man that touches the far row "
        "at 4 mid-capture and goes on as a man, taking five, a king among them",
    ),
    Case(
        "brazilian",
        "W:W19,20,22,26,27,29,K2:B3,6,7,10,15,16,K23,K31",
        "27x18x11",
        theme="green",
        arrows=((31, 22),),
        note="a king among the captured pieces (king ghost)",
    ),
    Case(
        "russian",
        "W:W19,20,22,25,29,30,K3:B5,6,8,10,15,16,K23,K27",
        "20x11x4",
        theme="contrast",
        flip=True,
        status=True,
        move_number=24,
        note="a man crowned by a capture, flipped, status strip",
    ),
    Case(
        "italian",
        "W:W21,22,23,26,27,K13:B2,6,7,10,17,18,K9,K25",
        "21x14x5",
        theme="green",
        note="the mirrored board (a1 light, square 1 on a8), a capture of two",
    ),
    Case(
        "spanish",
        "W:W3,4,10,17,26,K2:B6,12,18,21,25,31,K9,K27",
        "2x20x30",
        theme="wood",
        note="numbered from White's near right (1 on h1): two pieces either way, the way that "
        "takes a king (the quality rule)",
    ),
    Case(
        "portuguese",
        "W:W5,9,10,11,24,K17:B7,16,21,22,27,K28,K30",
        "17x26x19x32",
        theme="contrast",
        flip=True,
        note="the same numbering seen from Black's side (1 at the top left), a flying king "
        "taking three pieces, a king among them",
    ),
    Case(
        "czech",
        "W:W19,20,22,26,27,29,K2:B3,6,7,10,15,16,K23,K31",
        "2x11x18",
        theme="wood",
        note="the king captures because a king can (czech precedence)",
    ),
    Case(
        "thai",
        "W:W1,5,6,10,K11:B8,18,21,24,28,K30",
        "11x22x4",
        theme="green",
        status=True,
        move_number=15,
        note="eight men a side's board numbered from Black's side (1 on g1); a king that lands "
        "just beyond e5, then turns back over its squares to take b2",
    ),
    Case(
        "turkish",
        "W:W42,43,47,54,K57:B13,18,22,28,33,K8",
        "57x25x30x14x10x26",
        theme="wood",
        status=True,
        move_number=21,
        note="all 64 squares, numbered from a8 (1) row by row: a king that flies like a rook and "
        "takes five, turning a quarter at each piece",
    ),
    Case(
        "frisian",
        "W:W28,33,39,42,K47:B29,20,12,19,K7,K36",
        "33x24x13x11x2",
        theme="contrast",
        status=True,
        move_number=26,
        note="a man that takes four, sideways along a row (13 over 12 to 11) among them, the last "
        "a king, and is crowned where its move ends",
    ),
    Case(
        "frysk",
        "W:W49,50,K47:B1,4,27,K18,20",
        "47x7x29x15",
        theme="green",
        flip=True,
        note="five men a side's game, flipped: a king that flies up a column over 27, then along "
        "the diagonals, taking two men and a king",
    ),
    Case(
        "antidraughts",
        "W:W27,28,31,32,33,36,37,41,42,46,K4:B8,12,13,14,17,19,21,22,24,26,K40,K45",
        "27x18x9x20x29",
        theme="green",
        status=True,
        move_number=18,
        note="10x10 with the goal reversed, status strip",
    ),
    Case(
        "breakthrough",
        "W:W12,27,28,33,37,41,44:B8,14,17,19,22,26,35,45",
        "12x3",
        theme="contrast",
        flip=True,
        status=True,
        move_number=22,
        note="the first king wins: the game's last move, flipped",
    ),
)
"""One golden per variant (``tests/render/golden/<variant>.png``)."""


def quiet_game(variant: str, plies: int, seed: int) -> Game:
    """A legal game of up to ``plies`` plies by seeded random play that keeps the game going:
    each move avoids, in this order of priority, repeating a position, leaving the opponent no
    move, and giving the opponent a capture; it prefers king moves while the no-progress count has
    room and a man move when it runs low (captures are forced when available).  Deterministic for
    a given seed; the game may still end early, so callers check ``len(game.moves)``."""
    game = Game(find_variant(variant))
    rng = random.Random(seed)
    seen = set(game.positions)
    while len(game.moves) < plies and not game.is_over:
        pos = game.position
        want_man = game.no_progress_left() <= 3

        def score(move: Move, pos: Position = pos, want_man: bool = want_man) -> tuple:
            child = pos.play(move)
            replies = child.legal_moves()
            man = bool(pos.men_of(pos.turn) & move.from_bit)
            return (
                child in seen,
                not replies,
                any(r.is_capture for r in replies),
                man != want_man,
                rng.random(),
            )

        game.play(min(sorted(game.legal_moves(), key=lambda m: m.path), key=score))
        seen.add(game.position)
    return game


def long_game(plies: int, variant: str = "english") -> Game:
    """The first :func:`quiet_game` (over seeds 0, 1, ...) that reaches ``plies`` plies."""
    for seed in range(100):
        game = quiet_game(variant, plies, seed)
        if len(game.moves) == plies:
            return game
    raise AssertionError(f"no seed below 100 gives a {variant} game of {plies} plies")


def render_case(case: Case, width: int = GOLDEN_WIDTH) -> bytes:
    """The PNG for ``case``, exactly as the golden is made."""
    from render.encoding import render_png

    return render_png(case.after, width=width, **case.options())


# -- reading images back ---------------------------------------------------------------------------

RGB = tuple[int, int, int]

FACE_OFFSET = (0.09, -0.14)
"""Where to sample the flat face of a piece, in square widths from the square's centre: up and to
the right, clear of a king's crown (which covers the centre), of the groove and the shine, of the
square number (top left) and of the shadow (bottom right).  Measured stable to within 15 RGB units
at every width from 240 px up, in every theme."""
CORNER_OFFSET = (3, -4)
"""Pixels from the bottom-left corner of a square: away from the number label (top left), the
piece and its shadow (bottom right): where the last-move highlight shows on its own."""


def decode(data: bytes) -> Image.Image:
    """PNG (or any image) bytes to an RGB image, the way a viewer would see them."""
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def distance(a: RGB, b: RGB) -> float:
    """Euclidean distance in RGB."""
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` covered by ``b`` at opacity ``t``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def centre_point(
    size: int,
    width: int,
    square: int,
    flip: bool,
    mirrored: bool = False,
    orthogonal: bool = False,
) -> tuple[int, int]:
    from render.board import square_centre

    return square_centre(size, width, square, flip, mirrored, orthogonal)


def face_point(
    size: int,
    width: int,
    square: int,
    flip: bool,
    mirrored: bool = False,
    orthogonal: bool = False,
) -> tuple[int, int]:
    from render.board import layout, square_centre

    sq = layout(size, width).square
    x, y = square_centre(size, width, square, flip, mirrored, orthogonal)
    return x + round(FACE_OFFSET[0] * sq), y + round(FACE_OFFSET[1] * sq)


def corner_point(
    size: int,
    width: int,
    square: int,
    flip: bool,
    mirrored: bool = False,
    orthogonal: bool = False,
) -> tuple[int, int]:
    """(``mirrored``: a board whose a1 is not a playing square, as italian's; ``orthogonal``:
    one played on every square, as turkish's.)"""
    from render.board import layout, square_origin

    sq = layout(size, width).square
    x, y = square_origin(size, width, square, flip, mirrored, orthogonal)
    return x + CORNER_OFFSET[0], y + sq - 1 + CORNER_OFFSET[1]


def expected_samples(theme: Theme, empty: RGB | None = None) -> dict[int, tuple[RGB, RGB]]:
    """Per piece code (``rules.position``): the colour at the centre of the square and at the face
    point.  Empty: the square's colour (``empty``; the dark square by default, the only kind
    played but on the orthogonal board); a man: its flat face colour at both; a king: its crown
    at the centre, its face colour beside the crown."""
    bare = theme.dark_square if empty is None else empty
    return {
        EMPTY: (bare, bare),
        WHITE_MAN: (theme.white_piece, theme.white_piece),
        WHITE_KING: (theme.white_crown, theme.white_piece),
        BLACK_MAN: (theme.black_piece, theme.black_piece),
        BLACK_KING: (theme.black_crown, theme.black_piece),
    }


def square_colour(
    size: int, square: int, theme: Theme, mirrored: bool = False, orthogonal: bool = False
) -> RGB:
    """The colour of PDN ``square`` when empty: dark, except the light squares of the orthogonal
    board (drawn chequered like the others, a1 dark)."""
    from rules.geometry import geometry

    column, row = geometry(size, mirrored, orthogonal=orthogonal).coordinates(square)
    dark = (row + column) % 2 == (0 if mirrored else 1)
    return theme.dark_square if dark else theme.light_square


MAX_SAMPLE_DISTANCE = 40.0
"""How far a sampled colour may be from the theme colour it stands for.  The fixed 256-colour
palette and the antialiasing shift flat colours by up to ~15 units; the theme colours that must
be told apart are well over 80 apart (checked in the tests)."""


def classify(
    img: Image.Image,
    size: int,
    width: int,
    square: int,
    flip: bool,
    theme: Theme,
    mirrored: bool = False,
    orthogonal: bool = False,
) -> tuple[int | None, float]:
    """The piece code whose expected (centre, face) colours are nearest to the pixels of
    ``square``, and that distance (the larger of the two); None if nothing is within
    :data:`MAX_SAMPLE_DISTANCE`."""
    centre = img.getpixel(centre_point(size, width, square, flip, mirrored, orthogonal))
    face = img.getpixel(face_point(size, width, square, flip, mirrored, orthogonal))
    empty = square_colour(size, square, theme, mirrored, orthogonal)
    best, best_distance = None, float("inf")
    for kind, (want_centre, want_face) in expected_samples(theme, empty).items():
        d = max(distance(centre, want_centre), distance(face, want_face))
        if d < best_distance:
            best, best_distance = kind, d
    return (best if best_distance <= MAX_SAMPLE_DISTANCE else None), best_distance
