"""PDN text into records, without a board: the first of :mod:`rules.pdn`'s three steps.

:func:`parse_pdn` turns text into :class:`PdnRecord` values (tags, the main line's move texts with
their lines, the result token).  It skips ``{comments}``, ``;`` line comments, ``%`` escape lines,
``(variations)`` at any depth, NAGs (``$12``) and annotation marks (``!``, ``?!``), move numbers
(``12.``, ``12...``), and splits a text into games at result tokens and at tags that follow
movetext.  A token that is none of these stops the game's main line there (its record is
``truncated``: the result written after it belongs to moves that were not read).

:class:`Parser` is the strict reading the bot's own records need; the import reader
(:mod:`rules.pdn_import`) extends it to recover what real files contain, through the methods
marked as its hooks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .pdn_tags import PdnError, Tags

__all__ = ["MAX_ERRORS_PER_GAME", "MAX_PDN_BYTES", "Parser", "PdnRecord", "decode", "parse_pdn"]

MAX_PDN_BYTES = 1_000_000
"""Larger inputs are refused before parsing: a bot must not spend minutes on one upload."""
MAX_ERRORS_PER_GAME = 20
"""A badly broken game stops collecting errors here (a corrupt file would otherwise flood)."""


@dataclass
class PdnRecord:
    """One game as written, before any move is checked against a board."""

    tags: Tags = field(default_factory=Tags)
    moves: list[str] = field(default_factory=list)
    """The main line's move texts as written, annotation marks removed."""
    result: str | None = None
    """The result token that ended the movetext, or None when the game's text had none."""
    errors: list[str] = field(default_factory=list)
    """Syntax problems found while parsing (each names its line)."""
    line: int = 1
    """Line of the text where the game starts."""
    move_lines: list[int] = field(default_factory=list)
    """The line of each of :attr:`moves`."""
    truncated: bool = False
    """The main line stopped at a token that is no PDN: the moves after it were not read."""


SQUARE = r"(?:[a-wyzA-WYZ][0-9]{1,2}|[0-9]{1,3})"  # "x" is the capture sign, not a file
SEPARATOR = "[-xX:×\u2013\u2014]"
END = r"(?=[\s\[\](){};$]|\Z)"


def token_pattern(extra: str = "") -> re.Pattern[str]:
    """The tokenizer: one alternative per kind of token, tried in order; ``extra`` alternatives
    (``(?P<kind>...)``, joined with ``|``) go before the catch-all ``unknown``."""
    return re.compile(
        rf"""
          (?P<space>\s+)
        | (?P<escape>^%[^\n]*)
        | (?P<comment>\{{[^}}]*\}})
        | (?P<open_comment>\{{)
        | (?P<line_comment>;[^\n]*)
        | (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<value>(?:[^"\\\n]|\\.)*)"\s*\])
        | (?P<bad_tag>\[[^\]\n]*\]?)
        | (?P<open>\()
        | (?P<close>\))
        | (?P<nag>\$[0-9]+{END})
        | (?P<result>(?:1-0|0-1|1/2-1/2|2-0|0-2|1-1|½-½|\*){END})
        | (?P<number>[0-9]+(?:\.+|…)(?:\s*(?:\.\.+|…))?)
        | (?P<ellipsis>\.\.+|…)
        | (?P<move>{SQUARE}(?:{SEPARATOR}{SQUARE})+)[!?]*[+#]?{END}
        | (?P<annotation>[!?]{{1,2}}{END})
        {"| " + extra if extra else ""}
        | (?P<unknown>[^\s\[\](){{}};]+|[^\s])
        """,
        re.VERBOSE | re.MULTILINE,
    )


class Parser:
    """Splits a text into :class:`PdnRecord` values, tracking games, variations and lines."""

    tokens = token_pattern()

    def __init__(self) -> None:
        self.records: list[PdnRecord] = []
        self.current: PdnRecord | None = None
        self.has_movetext = False
        self.stopped = False
        """Set after a syntax error in the main line: later moves could not be trusted."""
        self.depth = 0
        self.variation_line = 0

    def start(self, line: int) -> PdnRecord:
        if self.current is None:
            self.current = self.new_record(line)
        return self.current

    def finish(self) -> None:
        if self.current is not None:
            self.records.append(self.current)
        self.current = None
        self.has_movetext = False
        self.stopped = False
        self.depth = 0

    def error(self, line: int, message: str) -> None:
        record = self.start(line)
        if len(record.errors) < MAX_ERRORS_PER_GAME:
            record.errors.append(f"line {line}: {message}")

    def close_open_variation(self) -> None:
        if self.depth:
            self.error(self.variation_line, "a variation opened here with ( is never closed")
            self.depth = 0

    def feed(self, text: str) -> list[PdnRecord]:
        line = 1
        pos = 0
        while pos < len(text):
            match = self.tokens.match(text, pos)
            assert match is not None  # the last alternative matches any character
            kind = match.lastgroup
            token = match.group()
            self.token(kind or "unknown", match, line)
            if kind == "open_comment":
                self.error(line, "a comment opened here with { is never closed")
                break
            line += token.count("\n")
            pos = match.end()
        self.close_open_variation()
        self.finish()
        return self.records

    def token(self, kind: str, match: re.Match[str], line: int) -> None:
        if kind in ("space", "escape", "comment", "open_comment", "line_comment"):
            return
        if kind in ("tag", "bad_tag"):
            self.close_open_variation()
            if self.has_movetext:
                self.finish()
            record = self.start(line)
            if kind == "bad_tag":
                self.error(line, f'malformed tag {match.group()[:40]!r}: write [Name "value"]')
                return
            value = re.sub(r"\\(.)", r"\1", match.group("value"))
            self.tag(record, match.group("name"), value, line)
            return
        if kind == "open":
            if self.depth == 0:
                self.variation_line = line
            self.depth += 1
            self.opened(line)
            return
        if kind == "close":
            if self.depth:
                self.depth -= 1
            else:
                self.error(line, "a ) with no ( before it")
            return
        if self.depth:
            return  # inside a variation: only its structure matters
        if kind in ("nag", "annotation", "ellipsis"):
            return
        if kind == "unknown" and self.junk(match.group(), line):
            return
        record = self.start(line)
        self.has_movetext = True
        if kind == "result":
            record.result = "1/2-1/2" if match.group() == "½-½" else match.group()
            self.finish()
        elif kind == "unknown":
            if not self.stopped:
                self.error(
                    line,
                    f"{match.group()[:40]!r} is not a move, a move number, a tag, a comment or a "
                    "result; the rest of this game is not read",
                )
                self.stopped = record.truncated = True
        elif kind != "number" and not self.stopped:
            self.move(record, self.move_text(kind, match), line)

    # -- hooks (the import reader's recovery and bounds) ------------------------------------------

    def new_record(self, line: int) -> PdnRecord:
        """The record of a game starting on ``line``."""
        return PdnRecord(line=line)

    def tag(self, record: PdnRecord, name: str, value: str, line: int) -> None:
        """Set a tag of ``record``."""
        try:
            record.tags[name] = value
        except PdnError as exc:
            self.error(line, str(exc))

    def move(self, record: PdnRecord, text: str, line: int) -> None:
        """Add a main-line move to ``record``."""
        record.moves.append(text)
        record.move_lines.append(line)

    def move_text(self, kind: str, match: re.Match[str]) -> str:
        """The move a ``move`` token (or an ``extra`` kind of move) stands for."""
        return match.group("move")

    def opened(self, line: int) -> None:
        """A ``(`` was read (:attr:`depth` counts it already)."""

    def junk(self, text: str, line: int) -> bool:
        """Whether an unknown token is skipped; if not, it stops the game's main line."""
        return False


def decode(data: str | bytes, limit: int = MAX_PDN_BYTES) -> str:
    """The text of ``data``, refusing input over ``limit`` bytes before doing any work on it.

    Bytes are UTF-8 (with or without a byte-order mark) or, failing that, Latin-1: older PDN
    databases are written in Windows code pages and would otherwise be refused outright.
    """
    if isinstance(data, bytes | bytearray):
        if len(data) > limit:
            raise PdnError(f"the PDN is too large ({len(data):,} bytes; at most {limit:,})")
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            text = bytes(data).decode("latin-1")
    elif isinstance(data, str):
        size = len(data) if len(data) > limit else len(data.encode("utf-8", "surrogatepass"))
        if size > limit:
            raise PdnError(f"the PDN is too large ({size:,} bytes; at most {limit:,})")
        text = data
    else:
        raise TypeError(f"PDN must be str or bytes, not {type(data).__name__}")
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def parse_pdn(text: str | bytes) -> list[PdnRecord]:
    """Every game in ``text``, as written (no move is checked).

    Never raises for bad PDN, only for input over :data:`MAX_PDN_BYTES` (:class:`PdnError`):
    syntax problems are kept in each record's ``errors``.

    >>> [r.moves for r in parse_pdn('1. 11-15 {good} 23-19 (24-20) 2. 8-11! $1 *')]
    [['11-15', '23-19', '8-11']]
    """
    return Parser().feed(decode(text))
