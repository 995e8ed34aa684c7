"""Colour-vision-deficiency simulation, to check themes by computation rather than by eye.

Uses the full-severity protanopia and deuteranopia matrices of Machado, Oliveira and Fernandes
(2009), applied in linear RGB, and measures differences as CIE76 ΔE in CIELAB (D65).  A ΔE of
about 2 is barely noticeable; pairs a player must tell apart at a glance want 20 or more.
"""

from __future__ import annotations

from collections.abc import Sequence

RGB = tuple[int, int, int]

PROTANOPIA: tuple[tuple[float, float, float], ...] = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA: tuple[tuple[float, float, float], ...] = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
SIMULATIONS = {"protanopia": PROTANOPIA, "deuteranopia": DEUTERANOPIA}


def _to_linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> int:
    c = min(1.0, max(0.0, c))
    v = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(v * 255)


def simulate(color: RGB, matrix: Sequence[Sequence[float]]) -> RGB:
    """How ``color`` looks to a viewer with the deficiency ``matrix`` describes."""
    linear = [_to_linear(c) for c in color]
    r, g, b = (sum(row[i] * linear[i] for i in range(3)) for row in matrix)
    return (_to_srgb(r), _to_srgb(g), _to_srgb(b))


def to_lab(color: RGB) -> tuple[float, float, float]:
    r, g, b = (_to_linear(c) for c in color)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(a: RGB, b: RGB) -> float:
    """CIE76 colour difference."""
    la, lb = to_lab(a), to_lab(b)
    # typeshed types a float power as Any (a negative base would give a complex number); this base
    # is a sum of squares, so the root is a float.  (math.sqrt would differ in the last bit.)
    distance: float = sum((x - y) ** 2 for x, y in zip(la, lb, strict=True)) ** 0.5
    return distance
