"""Text to be shown in a language chosen later: a message id and its arguments, not a sentence.

The service decides *what* to say long before anyone knows *to whom*: a move is announced in the
server's language, its refusal in the player's own, a reminder by direct message in the language
that player last used, and an announcement owed after a crash is sent by a process that never saw
the interaction.  So actions return :class:`Text` (kept as JSON in the outbox with the rest of the
result), and the Discord layer renders it with :func:`bot.i18n.render` once it knows the reader.

The constructors below are the keywords Babel extracts (``_``, ``_n`` for plurals, ``_p`` for a
message with a context): a sentence is written once, in English, where it is built, and the
catalogs in ``bot/locales`` hold every language's version of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeAlias


class Kind(Enum):
    """How a :class:`Text` becomes words."""

    MESSAGE = "m"
    """A catalog message: ``msgid`` (and ``plural``) translated, then its placeholders filled."""
    VERBATIM = "v"
    """``msgid`` shown as it is, in every language: a name, a move, a code block, or an
    announcement stored before catalogs existed."""
    SEQUENCE = "s"
    """``parts`` rendered one by one and joined by ``msgid`` (sentences joined by a space), itself
    a catalog message when the text has a ``context`` (a separator each language writes its
    way)."""
    DURATION = "d"
    """``count`` seconds in words, in the reader's language (``1 day 6 hours``)."""
    LIST = "l"
    """``parts`` as a list the reader's language writes (``a, b and c``)."""


Arg: TypeAlias = "str | int | float | Text"


def _no_catalogs(text: Text) -> str:
    raise RuntimeError("bot.i18n.catalogs is not loaded")  # the package imports it first


ENGLISH: list[Callable[[Text], str]] = [_no_catalogs]
"""How ``str()`` renders: set by :mod:`bot.i18n.catalogs` when it loads (it knows the languages;
this module, which everything that words a sentence imports, does not import it)."""


@dataclass(frozen=True)
class Text:
    """Words still to be put into a language.  Build them with :func:`_`, :func:`_n`, :func:`_p`,
    :func:`verbatim`, :func:`join`, :func:`listed` or :func:`duration`; show them with
    :func:`bot.i18n.render`.  ``str()`` gives the English, for logs and tests."""

    msgid: str
    args: tuple[tuple[str, Arg], ...] = ()
    plural: str | None = None
    count: int | None = None
    context: str | None = None
    kind: Kind = Kind.MESSAGE
    parts: tuple[Text, ...] = ()

    def __str__(self) -> str:
        return ENGLISH[0](self)

    def __bool__(self) -> bool:
        return bool(self.msgid) or bool(self.parts) or self.kind is Kind.DURATION

    def __add__(self, other: Text) -> Text:
        """Two sentences one after the other (joined by a space)."""
        return join((self, other))

    @property
    def arguments(self) -> dict[str, Arg]:
        return dict(self.args)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: what the outbox keeps of an announcement still owed."""
        raw: dict[str, Any] = {"k": self.kind.value, "m": self.msgid}
        if self.args:
            raw["a"] = {
                name: value.to_json() if isinstance(value, Text) else value
                for name, value in self.args
            }
        if self.plural is not None:
            raw["p"] = self.plural
        if self.count is not None:
            raw["n"] = self.count
        if self.context is not None:
            raw["c"] = self.context
        if self.parts:
            raw["s"] = [part.to_json() for part in self.parts]
        return raw

    @classmethod
    def from_json(cls, raw: Any) -> Text:
        """What :meth:`to_json` wrote; a plain string (an announcement stored before there were
        catalogs) is shown as it is.  ``ValueError`` for anything else."""
        if isinstance(raw, str):
            return verbatim(raw)
        if not isinstance(raw, dict) or not isinstance(raw.get("m"), str):
            raise ValueError(f"not a stored text: {raw!r}")
        args = tuple(
            (str(name), cls.from_json(value) if isinstance(value, dict) else _scalar(value))
            for name, value in dict(raw.get("a", {})).items()
        )
        count = raw.get("n")
        return cls(
            msgid=raw["m"],
            args=args,
            plural=raw.get("p"),
            count=None if count is None else int(count),
            context=raw.get("c"),
            kind=Kind(raw.get("k", Kind.MESSAGE.value)),
            parts=tuple(cls.from_json(part) for part in raw.get("s", ())),
        )


def _scalar(value: Any) -> str | int | float:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"not a text argument: {value!r}")
    return value


def _args(values: Mapping[str, Arg]) -> tuple[tuple[str, Arg], ...]:
    return tuple(values.items())


def _(msgid: str, /, **args: Arg) -> Text:
    """A sentence from the catalogs; ``{name}`` placeholders are filled from ``args`` (a
    :class:`Text` argument is put into the same language first)."""
    return Text(msgid, _args(args))


def _n(singular: str, plural: str, count: int, /, **args: Arg) -> Text:
    """A sentence whose form depends on ``count`` (available as ``{count}``), in as many forms as
    the reader's language has (Polish, Russian and Ukrainian have three)."""
    return Text(singular, _args({"count": count, **args}), plural=plural, count=count)


def _p(context: str, msgid: str, /, **args: Arg) -> Text:
    """A message whose English alone is ambiguous (a command's name, ``draw`` the noun or the
    verb): ``context`` tells translators which it is, and keeps it apart in the catalog."""
    return Text(msgid, _args(args), context=context)


# Translators: what separates the clauses of a list joined by semicolons ("by agreement; after
# 40 moves; …"): French writes a no-break space before it (" ; ").
SEMICOLON = _p("separator", "; ")
"""The separator of :func:`clauses`."""


def verbatim(text: str) -> Text:
    """``text`` shown as it is in every language (user input, moves, names, code)."""
    return Text(text, kind=Kind.VERBATIM)


def join(parts: Iterable[Text | None], separator: str | Text = " ") -> Text:
    """Sentences one after another; empty and missing ones are left out.  A :class:`Text`
    separator (one made with :func:`_p`, like :data:`SEMICOLON`) is put in the reader's
    language, a plain one is the same in every language."""
    kept = tuple(part for part in parts if part)
    if isinstance(separator, Text):
        return Text(separator.msgid, context=separator.context, kind=Kind.SEQUENCE, parts=kept)
    if len(kept) == 1 and not separator.strip():
        return kept[0]
    return Text(separator, kind=Kind.SEQUENCE, parts=kept)


def clauses(parts: Iterable[Text | None]) -> Text:
    """Clauses of one sentence separated by semicolons as the reader's language writes them
    (French puts a no-break space before the semicolon: ``a ; b``)."""
    return join(parts, SEMICOLON)


def listed(parts: Iterable[Text | str]) -> Text:
    """Items as a list in the reader's language: ``a, b and c``, ``a, b et c``, ``a, b и c``."""
    items = tuple(part if isinstance(part, Text) else verbatim(part) for part in parts)
    return Text("", kind=Kind.LIST, parts=items)


def duration(seconds: float) -> Text:
    """A length of time in words in the reader's language: the two largest non-zero units
    (``1 day 6 hours``, ``1 Tag 6 Stunden``)."""
    return Text("", count=max(0, round(seconds)), kind=Kind.DURATION)


def as_text(value: Text | str) -> Text:
    """``value`` as :class:`Text`; a plain string is taken as it is (see :func:`verbatim`)."""
    return value if isinstance(value, Text) else verbatim(value)


def from_rules(error: BaseException) -> Text:
    """The reason a :mod:`rules` exception gives, as catalog text.  The rules know nothing of
    languages: their user-facing exceptions carry a ``template`` (marked for the catalogs) and
    its ``values`` besides the English message; anything else is shown as it is."""
    return _rules_text(error) or verbatim(str(error))


def _rules_text(message: object) -> Text | None:
    """A :class:`rules.messages.Message` (or an exception carrying one) as :class:`Text`: its
    values may be messages themselves, and a ``plural`` form goes with its ``count``."""
    template = getattr(message, "template", None)
    values = getattr(message, "values", None)
    if not isinstance(template, str) or not isinstance(values, Mapping):
        return None
    args: dict[str, Arg] = {}
    for name, value in values.items():
        if isinstance(value, str | int | float):
            args[str(name)] = value
        else:
            args[str(name)] = _rules_text(value) or verbatim(str(value))
    plural = getattr(message, "plural", None)
    count = getattr(message, "count", None)
    if isinstance(plural, str) and isinstance(count, int):
        return Text(template, _args(args), plural=plural, count=count)
    return Text(template, _args(args))


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogs without translating it here: for words declared once and
    translated where they are shown (slash command choices, which discord.py hands to the
    translator)."""
    return msgid
