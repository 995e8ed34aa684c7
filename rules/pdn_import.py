"""Reading a player's PDN file: every game recovered where real files go wrong, refused clearly
where it cannot be, within bounds a hostile file cannot pass.

:mod:`rules.pdn` reads the bot's own records, where anything unexpected is an error.  A file a
player uploads comes from another program, often an old one, and measured on 24,471 records of
8 public sources it goes wrong in four ways this reader recovers from:

* **Padded squares** (``1- 7``, ``5 -10``: square numbers right-aligned in two columns).  The
  strict parser stops at ``1-`` and the game is lost; here they are read as one move (``1-7``).
* **A ``*`` after the moves while the Result tag says how the game ended.**  Exporters write
  ``*`` for "no result in the movetext"; the tag's result is taken (a note says so).
* **Junk after the tags** (a title, a player's remark, a broken tag line).  The strict parser
  counts it as movetext, so the next tag starts a new game and the game splits in two, its moves
  lost.  Here a token that is no PDN is skipped, wherever it is, with a note naming it; if it was
  a garbled move, the next move cannot be played and the game is refused there.
* **Ambiguous short captures** (``15x24`` where two capture paths from 15 end on 24).  The
  candidate the next move can follow is taken; when the next move follows both (or there is
  none) the game is refused, naming the paths to choose from.

Bounds (a file past one is refused whole, a game past one is refused alone): :data:`MAX_BYTES`
before anything is decoded, no binary data (control characters), at most :data:`MAX_GAMES`
games, :data:`MAX_PLIES` moves and :data:`MAX_TAGS` tags a game, variations nested at most
:data:`MAX_DEPTH` deep, and :data:`MAX_SECONDS` of reading in all (the clock is read every few
thousand tokens and between moves).  Odd Unicode is made plain first: full-width and other
scripts' digits become ASCII digits, Unicode dashes hyphens, invisible format characters go.

Every refusal and note is a :class:`~rules.messages.Message` naming the game's number in the
file, the line, and the move where it applies, so the bot can say it in the reader's language.
Only the games asked for are replayed (:func:`read_import`'s ``first`` and ``count``): a file of
a thousand games is parsed whole, but only the games a player will see are played on a board.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from .fen import FenError, parse_fen
from .game import Game
from .messages import N_, Message, MessageError, message
from .move import Move
from .notation import AmbiguousMoveError, MoveError, parse_move
from .pdn import conclude, move_label, result_meaning, variant_from_tags
from .pdn_parse import END, SEPARATOR, Parser, PdnRecord, decode, token_pattern
from .pdn_tags import PdnError, Tags

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_GAMES",
    "MAX_PLIES",
    "MAX_SECONDS",
    "MAX_TAGS",
    "ImportRefused",
    "ImportedFile",
    "ImportedGame",
    "read_import",
]

MAX_BYTES = 1_000_000
"""A file's size limit, checked before it is decoded (the bot checks it before downloading)."""
MAX_GAMES = 1_000
"""More games than this and the file is refused: a database dump, not a player's games."""
MAX_PLIES = 1_000
"""Moves (plies) of one game; real games stay under 300."""
MAX_TAGS = 100
MAX_TAG_CHARS = 200
"""A tag value is cut to this many characters (a note says so): names are shown in messages."""
MAX_DEPTH = 32
"""How deep variations may nest; deeper is a generated file, not annotation."""
MAX_SECONDS = 5.0
"""Reading time in all: parsing and replaying the games asked for."""
MAX_NOTES = 20
"""Notes kept per game; a file with a remark on every line needs no more to be understood."""
MAX_WORD = 1_000
"""Characters without a space: no move, tag or remark is this long, and the tokenizer's time on
one word grows with its length (it is read between two looks at the clock)."""
JUNK_SHOWN = 40
"""Characters of a line's skipped words a note shows."""
CHECK_EVERY = 4096
"""Tokens between two looks at the clock."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x19\x1b-\x1f]")
"""C0 control characters no text file holds (tab, newlines, form feed and the DOS end-of-file
mark ``\\x1a`` are allowed)."""
_PLAIN = str.maketrans(
    {
        **{chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)},  # full-width ASCII
        **{c: "-" for c in "\u2010\u2011\u2012\u2212\ufe63"},
        "\u3000": " ",
    }
)
_PADDED = rf"(?P<padded>[0-9]{{1,2}}(?:[ \t]*{SEPARATOR}[ \t]*[0-9]{{1,2}})+){END}"


class ImportRefused(MessageError):
    """The whole file is refused; ``message`` says what and where."""


@dataclass(frozen=True)
class ImportedGame:
    """One game of the file: its place, its tags, and the game played out or why not."""

    number: int
    """Its place in the file, from 1."""
    line: int
    tags: Tags
    game: Game | None
    """The game replayed (None: refused, or not asked for)."""
    refusal: Message | None = None
    notes: tuple[Message, ...] = ()
    """What was recovered, each naming where."""

    @property
    def ok(self) -> bool:
        return self.game is not None


@dataclass(frozen=True)
class ImportedFile:
    """The games asked for (in file order) and how many games the file holds."""

    games: tuple[ImportedGame, ...]
    total: int

    @property
    def readable(self) -> tuple[ImportedGame, ...]:
        return tuple(g for g in self.games if g.ok)


@dataclass
class _Record(PdnRecord):
    number: int = 0
    refusal: Message | None = None
    notes: list[tuple[float, Message]] = field(default_factory=list)
    """Each with the line it is about (inf: about the whole game)."""
    junk: dict[int, list[str]] = field(default_factory=dict)
    """Tokens skipped as no PDN, by line."""

    def note(self, note: Message, line: float = float("inf")) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append((line, note))

    def all_notes(self) -> tuple[Message, ...]:
        """The notes in line order, a line's skipped tokens in one."""
        skipped: list[tuple[float, Message]] = [
            (line, message(N_("line {line}: skipped {text}: not PDN"), line=line, text=_cut(words)))
            for line, words in self.junk.items()
        ]
        ordered = sorted(self.notes + skipped, key=lambda pair: pair[0])
        return tuple(note for _line, note in ordered[:MAX_NOTES])

    def refuse(self, reason: Message) -> None:
        if self.refusal is None:
            self.refusal = reason


class _Deadline:
    def __init__(self, clock: Callable[[], float], seconds: float) -> None:
        self.clock = clock
        self.until = clock() + seconds
        self.seconds = seconds

    def check(self, number: int, line: int) -> None:
        if self.clock() > self.until:
            raise ImportRefused(
                message(
                    N_(
                        "reading the file took longer than {seconds} s; it stopped at game "
                        "{number}, line {line}: send fewer games at once"
                    ),
                    seconds=f"{self.seconds:g}",
                    number=number,
                    line=line,
                )
            )


class _ImportParser(Parser):
    """The strict parser with the recovery and the bounds of the module docstring."""

    tokens = token_pattern(_PADDED)

    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self.deadline = deadline
        self.counted = 0
        self.line = 1

    def new_record(self, line: int) -> PdnRecord:
        number = len(self.records) + 1
        if number > MAX_GAMES:
            raise ImportRefused(
                message(
                    N_(
                        "the file holds more than {most} games (game {number} starts on line "
                        "{line}): send the games you want in a smaller file"
                    ),
                    most=MAX_GAMES,
                    number=number,
                    line=line,
                )
            )
        return _Record(line=line, number=number)

    def token(self, kind: str, match: re.Match[str], line: int) -> None:
        self.counted += 1
        self.line = line
        if self.counted % CHECK_EVERY == 0:
            self.deadline.check(len(self.records) + 1, line)
        if kind == "open_comment":
            self.record(line).refuse(
                message(
                    N_(
                        "the comment opened with {{ on line {line} is never closed: everything "
                        "after it would be a comment"
                    ),
                    line=line,
                )
            )
        super().token(kind, match, line)

    def record(self, line: int) -> _Record:
        record = self.start(line)
        assert isinstance(record, _Record)
        return record

    def error(self, line: int, message_text: str) -> None:
        """The strict parser's complaints that remain here: a tag that is malformed, a ``)``
        with nothing open: both skipped, with a note."""
        record = self.record(line)
        record.note(message(N_("line {line}: skipped: {problem}"), line=line, problem=message_text))

    def close_open_variation(self) -> None:
        if self.depth:
            self.record(self.variation_line).refuse(
                message(
                    N_("the variation opened with ( on line {line} is never closed"),
                    line=self.variation_line,
                )
            )
            self.depth = 0

    def feed(self, text: str) -> list[PdnRecord]:
        records = super().feed(text)
        last = records[-1] if records else None
        empty = isinstance(last, _Record) and not (last.tags or last.moves or last.result)
        if empty and isinstance(last, _Record) and last.refusal is None:
            records.pop()  # remarks after the last game: no game of their own
        return records

    def tag(self, record: PdnRecord, name: str, value: str, line: int) -> None:
        assert isinstance(record, _Record)
        if not (record.tags or record.moves):
            record.line = line  # remarks before the first tag do not start the game
        if len(record.tags) >= MAX_TAGS and name not in record.tags:
            record.refuse(
                message(N_("more than {most} tags (line {line})"), most=MAX_TAGS, line=line)
            )
            return
        if len(value) > MAX_TAG_CHARS:
            record.note(
                message(
                    N_("line {line}: the {name} tag is cut to {most} characters"),
                    line=line,
                    name=name,
                    most=MAX_TAG_CHARS,
                ),
                line,
            )
            value = value[:MAX_TAG_CHARS]
        super().tag(record, name, value, line)

    def move(self, record: PdnRecord, text: str, line: int) -> None:
        assert isinstance(record, _Record)
        if len(record.moves) >= MAX_PLIES:
            if record.refusal is not None:
                return
            record.refuse(
                message(N_("more than {most} moves (line {line})"), most=MAX_PLIES, line=line)
            )
            return
        super().move(record, text, line)

    def move_text(self, kind: str, match: re.Match[str]) -> str:
        if kind != "padded":
            return super().move_text(kind, match)
        written = match.group("padded")
        text = re.sub(r"[ \t]+", "", written)
        record = self.record(self.line)
        if len(record.notes) >= MAX_NOTES:
            return text
        record.note(
            message(
                N_("line {line}: {written} read as {move}"),
                line=self.line,
                written=written,
                move=text,
            ),
            self.line,
        )
        return text

    def opened(self, line: int) -> None:
        if self.depth == MAX_DEPTH + 1:
            self.record(line).refuse(
                message(
                    N_("variations nested more than {most} deep (line {line})"),
                    most=MAX_DEPTH,
                    line=line,
                )
            )

    def junk(self, text: str, line: int) -> bool:
        record = self.record(line)
        if line in record.junk or len(record.junk) < MAX_NOTES:
            words = record.junk.setdefault(line, [])
            if sum(map(len, words)) < JUNK_SHOWN:
                words.append(text[:JUNK_SHOWN])
        return True


def _cut(words: list[str]) -> str:
    """Skipped words as they are shown: quoted, at most :data:`JUNK_SHOWN` characters."""
    text = " ".join(words)
    return repr(text if len(text) <= JUNK_SHOWN else text[: JUNK_SHOWN - 1] + "…")


def plain_text(data: str | bytes) -> str:
    """``data`` decoded (:func:`rules.pdn_parse.decode`, at most :data:`MAX_BYTES`), refused if
    it is not text, with odd Unicode made plain (the module docstring)."""
    try:
        text = decode(data, MAX_BYTES)
    except PdnError:
        size = (
            len(data)
            if isinstance(data, bytes | bytearray)
            else len(data.encode("utf-8", "surrogatepass"))
        )
        raise ImportRefused(
            message(
                N_("the file is {size} bytes; at most {most} bytes can be imported"),
                size=f"{size:,}",
                most=f"{MAX_BYTES:,}",
            )
        ) from None
    control = _CONTROL.search(text)
    if control is not None:
        raise ImportRefused(
            message(
                N_("this is not a text file (a control character on line {line}): send a PDN file"),
                line=text.count("\n", 0, control.start()) + 1,
            )
        )
    longest = max(text.split(), key=len, default="")
    if len(longest) > MAX_WORD:
        raise ImportRefused(
            message(
                N_("line {line} holds {count} characters without a space: this is not PDN"),
                line=text.count("\n", 0, text.index(longest)) + 1,
                count=f"{len(longest):,}",
            )
        )
    text = text.translate(_PLAIN).replace("\x1a", "")
    text = "".join(_plain_char(c) for c in text) if not text.isascii() else text
    return text.encode("utf-8", "replace").decode("utf-8")


def _plain_char(char: str) -> str:
    if char.isascii():
        return char
    category = unicodedata.category(char)
    if category == "Cf":
        return ""  # zero-width spaces and joiners, direction marks: invisible, not PDN
    if category == "Nd":
        return str(unicodedata.digit(char))
    if category in ("Cs", "Co", "Cn"):
        return "\ufffd"  # a lone surrogate, a private or unassigned code point
    return char


def read_import(
    data: str | bytes,
    *,
    first: int = 1,
    count: int = MAX_GAMES,
    clock: Callable[[], float] = time.monotonic,
    seconds: float = MAX_SECONDS,
) -> ImportedFile:
    """The games ``first`` to ``first + count - 1`` of the file (numbered from 1), each replayed
    or refused, and the number of games in the file; :class:`ImportRefused` for a file refused
    whole (the module docstring's bounds).  ``clock`` is read against ``seconds``."""
    deadline = _Deadline(clock, seconds)
    records = _ImportParser(deadline).feed(plain_text(data))
    games = []
    for record in records[first - 1 : first - 1 + count]:
        assert isinstance(record, _Record)
        deadline.check(record.number, record.line)
        games.append(_replay(record, deadline))
    return ImportedFile(tuple(games), len(records))


def _replay(record: _Record, deadline: _Deadline) -> ImportedGame:
    def refused(reason: Message) -> ImportedGame:
        where = message(
            N_("game {number} (line {line}): {reason}"),
            number=record.number,
            line=record.line,
            reason=reason,
        )
        return ImportedGame(
            record.number, record.line, record.tags, None, where, record.all_notes()
        )

    if record.refusal is not None:
        return refused(record.refusal)
    if not record.moves and not record.tags:
        return refused(message(N_("no moves and no tags: nothing to import")))
    try:
        variant = variant_from_tags(record.tags)
    except PdnError:
        return refused(
            message(
                N_(
                    "the tags name no variant played here (GameType {game_type}, Variant {variant})"
                ),
                game_type=record.tags.get("GameType", "-"),
                variant=record.tags.get("Variant", "-"),
            )
        )
    fen = record.tags.get("FEN", "").strip()
    try:
        start = parse_fen(fen, variant) if fen else None
    except FenError as exc:
        return refused(
            message(N_("the FEN tag is not a position of this variant: {reason}"), reason=str(exc))
        )
    game = Game(variant, start)
    for ply, (text, line) in enumerate(zip(record.moves, record.move_lines, strict=True)):
        if ply % 64 == 63:
            deadline.check(record.number, line)
        label = move_label(ply, game.start)
        try:
            game.play(_settled(game, text, record.moves[ply + 1 : ply + 2], record, line, label))
        except MessageError as exc:  # MoveError, GameEndedError
            return refused(
                message(
                    N_("line {line}, move {label} {move}: {reason}"),
                    line=line,
                    label=label,
                    move=text,
                    reason=exc.message or str(exc),
                )
            )
    _end(game, record)
    return ImportedGame(record.number, record.line, record.tags, game, None, record.all_notes())


def _settled(
    game: Game, text: str, following: list[str], record: _Record, line: int, label: str
) -> str:
    """``text``, or the full path of the one capture an ambiguous short capture can be that the
    next move (``following``) can follow; the ambiguity raised again when that does not tell."""
    try:
        parse_move(game.position, text, game.legal_moves())
        return text
    except AmbiguousMoveError as exc:
        fitting = [m for m in exc.candidates if following and _fits(game, m, following[0])]
        if len(fitting) != 1:
            raise
        chosen = fitting[0].pdn()
        record.note(
            message(
                N_("line {line}, move {label} {move} read as {path}: the next move fits only it"),
                line=line,
                label=label,
                move=text,
                path=chosen,
            ),
            line,
        )
        return chosen
    except MoveError:
        return text  # game.play raises it again, with the same words


def _fits(game: Game, move: Move, following: str) -> bool:
    after = game.position.play(move)
    try:
        parse_move(after, following)
    except AmbiguousMoveError:
        return True  # it is a move there, whichever it means
    except MoveError:
        return False
    return True


def _end(game: Game, record: _Record) -> None:
    """End ``game`` as its result says, a ``*`` after the moves giving way to a Result tag that
    knows more; a result the moves contradict, or one that is no result, is noted and left."""
    stated = record.result
    tag = record.tags.get("Result", "").strip()
    if stated in (None, "*") and tag not in ("", "*"):
        if stated == "*":
            record.note(
                message(
                    N_("the * after the moves is read as the Result tag's {result}"), result=tag
                )
            )
        stated = tag
    if stated is None or game.is_over:
        return
    try:
        decided, winner = result_meaning(stated)
    except PdnError:
        record.note(
            message(N_("{result} is not a result: the game is left unfinished"), result=stated)
        )
        return
    if not decided:
        return
    conclude(game, winner)
