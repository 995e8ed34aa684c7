"""Board themes: named colours, nothing else.

A theme is a frozen value, so renderers can cache everything drawn with it.  Colours are
``(r, g, b)`` tuples.  ``contrast`` is built for colour-blind players: its pairs that must be told
apart (the two sides, pieces against squares, highlights against squares) differ strongly in
lightness, and in hue along the blue-orange axis that deuteranopes and protanopes still see; the
tests check this with a simulation of both (:mod:`render.colorblind`).
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


def _hex(text: str) -> RGB:
    text = text.lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


@dataclass(frozen=True)
class Theme:
    """Every colour a board image uses."""

    name: str
    light_square: RGB
    dark_square: RGB
    frame: RGB
    coordinates: RGB
    """Text of the a-h / 1-8 labels on the frame."""
    square_number: RGB
    """Digits of the PDN number in the corner of each dark square (on ``number_plate``)."""
    number_plate: RGB
    """The plate under each square number: a darker shade of the dark square, so that the digits
    have the same contrast whatever lies below (a piece, a highlight, a ghost)."""
    white_piece: RGB
    white_edge: RGB
    white_crown: RGB
    black_piece: RGB
    black_edge: RGB
    black_crown: RGB
    highlight: RGB
    """From and to squares of the last move."""
    highlight_alpha: int
    path: RGB
    """The capture path of the last move."""
    arrow: RGB
    """Suggested moves (hints)."""
    strip: RGB
    """Background of the status strip."""
    strip_text: RGB


THEMES: dict[str, Theme] = {
    theme.name: theme
    for theme in (
        Theme(
            name="wood",
            light_square=_hex("#f0d9b5"),
            dark_square=_hex("#a97a50"),
            frame=_hex("#3e2a1c"),
            coordinates=_hex("#e9d6b8"),
            square_number=_hex("#fbf1e0"),
            number_plate=_hex("#5c3d24"),
            white_piece=_hex("#f6f1e7"),
            white_edge=_hex("#9c8f7b"),
            white_crown=_hex("#9b2226"),
            black_piece=_hex("#2a2623"),
            black_edge=_hex("#0c0b0a"),
            black_crown=_hex("#f2c14e"),
            highlight=_hex("#e8d33f"),
            highlight_alpha=150,
            path=_hex("#2f6fd6"),
            arrow=_hex("#1d8a3a"),
            strip=_hex("#3e2a1c"),
            strip_text=_hex("#f3e6cf"),
        ),
        Theme(
            name="green",
            light_square=_hex("#eeeed2"),
            dark_square=_hex("#6f9150"),
            frame=_hex("#263221"),
            coordinates=_hex("#dfe8cf"),
            square_number=_hex("#f4f8ec"),
            number_plate=_hex("#3b5229"),
            white_piece=_hex("#fbfaf5"),
            white_edge=_hex("#9ea596"),
            white_crown=_hex("#8c1c13"),
            black_piece=_hex("#1f2421"),
            black_edge=_hex("#070908"),
            black_crown=_hex("#f4d35e"),
            highlight=_hex("#f6f669"),
            highlight_alpha=140,
            path=_hex("#1e6fd9"),
            arrow=_hex("#123c8c"),
            strip=_hex("#263221"),
            strip_text=_hex("#eef2e6"),
        ),
        Theme(
            name="contrast",
            light_square=_hex("#f2f2f2"),
            dark_square=_hex("#2c5d9e"),
            frame=_hex("#101010"),
            coordinates=_hex("#ffffff"),
            square_number=_hex("#ffffff"),
            number_plate=_hex("#14305a"),
            white_piece=_hex("#ffffff"),
            white_edge=_hex("#000000"),
            white_crown=_hex("#b3261e"),
            black_piece=_hex("#000000"),
            black_edge=_hex("#ffffff"),
            black_crown=_hex("#ffb000"),
            highlight=_hex("#ff9e1b"),
            highlight_alpha=210,
            path=_hex("#ffffff"),
            arrow=_hex("#ffd23f"),
            strip=_hex("#101010"),
            strip_text=_hex("#ffffff"),
        ),
    )
}
"""All themes by name; the first is the default."""

DEFAULT_THEME = "wood"


def find_theme(name: str) -> Theme:
    """The theme called ``name`` (any case); ``ValueError`` lists the names."""
    try:
        return THEMES[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; choose one of {', '.join(THEMES)}") from None
