"""Refusals a player reads, kept translatable without the rules knowing any language.

A rules exception a player can see (:class:`rules.notation.MoveError`,
:class:`rules.game.GameError`) is built from a :class:`Message`: an English ``template`` marked
for the catalogs with :func:`N_` (or :func:`N_n` when its words depend on a number) and the
``values`` that fill it.  Values are numbers, squares, moves or other messages, never English
words: where a sentence names a side there is one template per side.  ``str(error)`` is the
English, exactly ``template.format(**values)`` (the plural form chosen by ``count`` in English);
the bot puts ``template`` and ``values`` into the reader's language (``bot.i18n.from_rules``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias


def N_(template: str) -> str:
    """Marks ``template`` for the catalogs (Babel keyword ``N_``); returns it unchanged."""
    return template


def N_n(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message whose words depend on ``{count}`` (Babel keyword ``N_n:1,2``)."""
    return singular, plural


Value: TypeAlias = "str | int | Message"


@dataclass(frozen=True)
class Message:
    """An English sentence still to be put into the reader's language: ``template`` with
    ``{name}`` placeholders filled from ``values``; with ``plural``, the form for ``count``."""

    template: str
    values: Mapping[str, Value] = field(default_factory=dict)
    plural: str | None = None
    count: int | None = None

    def __str__(self) -> str:
        pattern = self.template
        if self.plural is not None and self.count != 1:
            pattern = self.plural
        return pattern.format(**{name: str(value) for name, value in self.values.items()})


def message(template: str, /, **values: Value) -> Message:
    """A :class:`Message` (``template`` marked with :func:`N_`)."""
    return Message(template, values)


def counted(forms: tuple[str, str], count: int, /, **values: Value) -> Message:
    """A :class:`Message` whose form depends on ``count`` (``forms`` marked with :func:`N_n`);
    ``{count}`` is filled automatically."""
    return Message(forms[0], {"count": count, **values}, forms[1], count)


def either(items: list[str]) -> Message | str:
    """``a``, or ``a, b or c``: a choice of squares or moves."""
    if len(items) <= 1:
        return "".join(items)
    return message(N_("{items} or {last}"), items=", ".join(items[:-1]), last=items[-1])


class MessageError(ValueError):
    """A refusal a player can read: ``str(error)`` is the English; ``template``, ``values``,
    ``plural`` and ``count`` are its :class:`Message` (``template`` is None for an error raised
    with a plain string, which is then shown as it is)."""

    def __init__(self, reason: str | Message) -> None:
        super().__init__(str(reason))
        self.message = reason if isinstance(reason, Message) else None

    @property
    def template(self) -> str | None:
        return None if self.message is None else self.message.template

    @property
    def values(self) -> Mapping[str, Value]:
        return {} if self.message is None else self.message.values

    @property
    def plural(self) -> str | None:
        return None if self.message is None else self.message.plural

    @property
    def count(self) -> int | None:
        return None if self.message is None else self.message.count
