"""Phone-sized pictures of what the bot really sends: ``python docs/images/make_screens.py``.

There is no Discord client here, so this plays a short English game between Alice and Bob with
the real bot process (``python -m bot``'s ``main`` through ``tests/support/discord_launcher.py``)
against the fake Discord of ``tests/support/fake_discord/`` on 127.0.0.1, as
``bench/discord_roundtrip.py`` and the end-to-end tests do (every move played from the board's own
menu, two taps), and keeps these messages exactly as the bot sent them:

* ``phone-open-challenge.png``: an open challenge (no opponent named, a 3+2 clock, a rating
  range), as everyone in the channel sees it;
* ``phone-board.png``: the public board message of a 5+3 blitz game after a few moves (content,
  embed with both clocks, the board PNG, its move menu and the buttons under it);
* ``phone-board-menu.png``: the same board with its move menu open, as the phone's bottom sheet
  shows it: the legal moves, one tap each;
* ``phone-board-more.png``: the private panel Alice gets when she presses More: her actions
  (offer a draw, take back, resign);
* ``phone-picker-pieces.png``: the private picker Alice gets when she presses Arrows, with its
  menu of pieces shown open;
* ``phone-picker-moves.png``: the same picker after she chose a piece: its moves, drawn as arrows.

Each is drawn with Pillow the way Discord's mobile app lays a message out (dark theme, 390 points
wide at 2x), with the font the bot draws its boards with, so the pictures do not depend on the
machine's fonts.  ``make_screens.py de`` draws them for a German server and German players
(``phone-board-de.png``...).  The
text, the menus and the images are the bot's own; the rest (avatar, colours, sizes) only
approximates Discord.  Nothing but loopback is contacted: this process runs the network guard of
``tests/support/discord_launcher.py`` too.  Needs the test dependencies
(``pip install -e ".[test]"``).
"""

from __future__ import annotations

import asyncio
import copy
import io
import re
import sys
import tempfile
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
for entry in (str(ROOT), str(ROOT / "tests")):
    if entry not in sys.path:
        sys.path.insert(0, entry)

from babel.dates import format_timedelta  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402
from support.discord_launcher import install_network_guard  # noqa: E402
from support.e2e_harness import (  # noqa: E402
    ALICE,
    BOB,
    GENERAL,
    BotProcess,
    Users,
    custom_ids,
    user,
)
from support.fake_discord import FakeDiscord  # noqa: E402

OPENING = (("11-15", ALICE), ("23-19", BOB), ("8-11", ALICE), ("22-17", BOB))
"""The moves played before the pictures (Alice has Black and moves first)."""
PIECE = "9"
"""The piece Alice picks for the third picture: it has two moves, so two arrows."""
BUDGET = 250_000
"""Bytes one picture may take in the repository."""

# -- capturing -----------------------------------------------------------------------------------


@dataclass
class Shot:
    """A message as the bot left it at one moment, with the bytes of its attachments."""

    message: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # user id -> display name
    channels: dict[str, str] = field(default_factory=dict)  # channel id -> name


def snapshot(fake: FakeDiscord, message: dict[str, Any]) -> Shot:
    files = {a["filename"]: fake.files[a["id"]] for a in message.get("attachments", [])}
    names = {uid: name.capitalize() for uid, name in fake.guild.users.items()}
    return Shot(copy.deepcopy(message), files, names, dict(fake.guild.channels))


def picker_select(message: dict[str, Any]) -> str:
    (select,) = [c for c in custom_ids(message) if c.startswith("pick:")]
    return select


async def capture(language: str) -> dict[str, Shot]:
    """Play the opening by taps and keep the board, then the picker in its two stages, with the
    server and both players' clients in ``language`` (a Discord locale)."""
    install_network_guard()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            fake.guild.locale = language
            bot = BotProcess(fake, Path(tmp))
            try:
                await bot.start()
                users = Users(fake, bot)
                users.locales.update({ALICE: language, BOB: language})
                shots = await play(fake, users)
                code = await bot.stop()
                if code != 0:
                    raise SystemExit(f"the bot exited with {code}:\n{bot.log()}")
                return shots
            finally:
                if bot.proc is not None and bot.proc.poll() is None:
                    bot.proc.kill()
                    bot.proc.wait(10)


async def play(fake: FakeDiscord, users: Users) -> dict[str, Shot]:
    shots = {"phone-open-challenge.png": await open_challenge(fake, users)}
    challenge = await users.command(
        "challenge",
        ALICE,
        GENERAL,
        opponent=user(BOB),
        variant="english",
        color="black",
        clock="5+3",
    )
    await challenge.callback()
    (accept,) = [c for c in custom_ids(challenge.message()) if c.startswith("challenge:accept:")]
    accepted = await users.press(accept, challenge.message(), BOB)
    await accepted.callback()
    board = fake.message_of(await accepted.followup(0))
    assert board is not None
    for move, player in OPENING:  # two taps each: the board's menu, the move
        (menu,) = [c for c in custom_ids(board) if c.startswith("play:")]
        chosen = await users.select(menu, board, player, [move])
        board = fake.message_of(await chosen.callback())
        assert board is not None
    shots["phone-board.png"] = snapshot(fake, board)
    shots["phone-board-menu.png"] = snapshot(fake, board)
    game = next(c for c in custom_ids(board) if c.startswith("board:more:")).split(":")[2]
    more = await users.press(f"board:more:{game}", board, ALICE)
    await more.callback()
    shots["phone-board-more.png"] = snapshot(fake, more.message())
    picker = await open_picker(users, board, ALICE)
    shots["phone-picker-pieces.png"] = snapshot(fake, picker)
    picker = await choose(users, picker, ALICE, PIECE)
    shots["phone-picker-moves.png"] = snapshot(fake, picker)
    return shots


async def open_challenge(fake: FakeDiscord, users: Users) -> Shot:
    """Bob's open challenge (anyone may accept, within a rating range), kept, then cancelled."""
    posted = await users.command(
        "challenge", BOB, GENERAL, variant="english", clock="3+2", min_rating=1300, max_rating=1800
    )
    await posted.callback()
    shot = snapshot(fake, posted.message())
    (cancel,) = [c for c in custom_ids(posted.message()) if c.startswith("challenge:cancel:")]
    await (await users.press(cancel, posted.message(), BOB)).callback()
    return shot


async def open_picker(users: Users, board: dict[str, Any], player: str) -> dict[str, Any]:
    game = next(c for c in custom_ids(board) if c.startswith("board:move:")).split(":")[2]
    pressed = await users.press(f"board:move:{game}", board, player)
    await pressed.callback()
    return pressed.message()


async def choose(users: Users, picker: dict[str, Any], player: str, value: str) -> dict[str, Any]:
    chosen = await users.select(picker_select(picker), picker, player, [value])
    await chosen.callback()
    return users.fake.messages[picker["id"]]


# -- Discord's look (dark theme, mobile, at 2x) --------------------------------------------------

WIDTH = 780
PAD = 32
AVATAR = 80
LEFT = PAD + AVATAR + 24  # where a message's text starts
COLUMN = WIDTH - LEFT - PAD  # the width of a message's content

BACKGROUND = (49, 51, 56)
BAR = (43, 45, 49)
TEXT = (219, 222, 225)
BRIGHT = (242, 243, 245)
MUTED = (148, 155, 164)
EMBED = (43, 45, 49)
CODE = (30, 31, 34)
MENTION = (61, 66, 112)
MENTION_TEXT = (201, 205, 251)
STAMP = (62, 64, 70)
LINK = (0, 168, 252)
FIELD = (30, 31, 34)
SHEET = (43, 45, 49)
RULE = (63, 65, 71)
BLURPLE = (88, 101, 242)
BUTTONS = {
    1: BLURPLE,  # primary
    2: (78, 80, 88),  # secondary
    3: (36, 128, 70),  # success
    4: (218, 55, 60),  # danger
    5: (78, 80, 88),  # link
}
EMOJI = {"⚪": ((230, 231, 232), (204, 214, 221)), "⚫": ((49, 55, 61), (49, 55, 61))}
"""Emoji the font lacks, drawn as discs (fill, outline) in Twemoji's colours."""
STAND_INS = {"—": " - ", "–": "-", "•": "·", "×": "x", "½": "1/2", "±": "+/-"}
"""Characters the font lacks, and what is drawn instead."""


FONT = ROOT / "render" / "fonts" / "DejaVuSans.ttf"
"""The font the bot draws its boards with (it has accents and Cyrillic), so the pictures look
the same everywhere."""
CLIENT = {
    "en-US": {},
    "de": {
        "Only you can see this ·": "Nur du kannst das sehen ·",
        "Dismiss message": "Nachricht verwerfen",
        "Today at": "Heute um",
        "Message #general": "Nachricht an #general",
        "Make a selection": "Triff eine Auswahl",
        "(edited)": "(bearbeitet)",
    },
}
"""Discord's own words around the bot's messages, in each language the pictures are made in."""
LANGUAGE = ["en-US"]
"""The language of the pictures being drawn (set by main)."""


def client(words: str) -> str:
    """Discord's words in the language of the pictures."""
    return CLIENT.get(LANGUAGE[0], {}).get(words, words)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.truetype(str(FONT), size=size)


@cache
def missing(char: str, size: int) -> bool:
    """Whether the font draws ``char`` as its empty box."""
    return glyph(char, size) == glyph("\U0010fffd", size)


@cache
def glyph(char: str, size: int) -> bytes:
    image = Image.new("L", (size * 2, size * 2))
    ImageDraw.Draw(image).text((0, 0), char, font=font(size), fill=255)
    return image.tobytes()


def stroke(size: int, bold: bool) -> int:
    """Bold is faked with a thin outline: one weight of the font is shipped."""
    return max(1, size // 26) if bold else 0


def text_length(text: str, size: int, bold: bool = False) -> float:
    return float(font(size).getlength(text)) + 2 * stroke(size, bold)


def plain(text: str, size: int) -> str:
    """``text`` with the characters the font lacks replaced by stand-ins."""
    out = []
    for char in text:
        out.append(STAND_INS.get(char, "?") if missing(char, size) else char)
    return "".join(out)


# -- inline markdown -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A piece of text in one style."""

    text: str
    bold: bool = False
    code: bool = False
    mention: bool = False
    emoji: bool = False
    stamp: bool = False  # a <t:...> timestamp
    note: bool = False  # Discord's small "(edited)"


INLINE = re.compile(
    r"\*\*(?P<bold>.+?)\*\*|`(?P<code>[^`]+)`|<@!?(?P<user>\d+)>|<#(?P<channel>\d+)>"
    r"|<t:(?P<time>-?\d+)(?::(?P<style>[tTdDfFR]))?>|__(?P<under>.+?)__|\*(?P<italic>[^*]+)\*"
    r"|\\(?P<escaped>.)"
)


def runs(text: str, shot: Shot, now: datetime, bold: bool = False) -> list[Run]:
    """Discord's inline markdown, as far as the bot uses it: bold, code spans, mentions of users
    and channels, timestamps (italic and underline are drawn plain)."""
    out: list[Run] = []
    at = 0
    for match in INLINE.finditer(text):
        out.extend(emoji_runs(text[at : match.start()], bold))
        at = match.end()
        if match["bold"] is not None:
            out.extend(runs(match["bold"], shot, now, bold=True))
        elif match["code"] is not None:
            out.append(Run(match["code"], code=True))
        elif match["user"] is not None:
            name = shot.names.get(match["user"], "Unknown User")
            out.append(Run("@" + name, bold=bold, mention=True))
        elif match["channel"] is not None:
            name = shot.channels.get(match["channel"], "unknown")
            out.append(Run("#" + name, bold=bold, mention=True))
        elif match["time"] is not None:
            when = datetime.fromtimestamp(int(match["time"]), UTC)
            out.append(Run(timestamp(when, match["style"] or "f", now), bold=bold, stamp=True))
        else:
            inner = match["under"] or match["italic"] or match["escaped"] or ""
            out.extend(runs(inner, shot, now, bold=bold))
    out.extend(emoji_runs(text[at:], bold))
    return [r for r in out if r.text]


def emoji_runs(text: str, bold: bool) -> list[Run]:
    parts = re.split(f"([{''.join(EMOJI)}])", text)
    return [Run(p, bold=bold, emoji=p in EMOJI) for p in parts if p]


def timestamp(when: datetime, style: str, now: datetime) -> str:
    """A ``<t:...>`` as the reader's client shows it (in UTC here)."""
    if style == "R":
        return relative(when, now)
    clock = f"{when.hour % 12 or 12}:{when.minute:02d} {'AM' if when.hour < 12 else 'PM'}"
    date = f"{when:%B} {when.day}, {when.year}"
    return {
        "t": clock,
        "T": clock.replace(" ", f":{when.second:02d} "),
        "d": f"{when.month}/{when.day}/{when.year}",
        "D": date,
        "F": f"{when:%A}, {date} {clock}",
    }.get(style, f"{date} {clock}")


def relative(when: datetime, now: datetime) -> str:
    """ "in 23 hours", "a day ago": rounded the way Discord's client rounds (in another language,
    as Babel words it)."""
    seconds = (when - now).total_seconds()
    if LANGUAGE[0] != "en-US":
        return format_timedelta(
            when - now, add_direction=True, locale=LANGUAGE[0].replace("-", "_")
        )
    s = abs(seconds)
    steps = (
        (45, "a few seconds", None),
        (90, "a minute", None),
        (45 * 60, "{} minutes", 60),
        (90 * 60, "an hour", None),
        (22 * 3600, "{} hours", 3600),
        (36 * 3600, "a day", None),
        (26 * 86400, "{} days", 86400),
        (45 * 86400, "a month", None),
        (320 * 86400, "{} months", 30 * 86400),
        (548 * 86400, "a year", None),
    )
    words = next(
        (w.format(round(s / unit)) if unit else w for limit, w, unit in steps if s < limit),
        f"{round(s / (365 * 86400))} years",
    )
    return f"in {words}" if seconds >= 0 else f"{words} ago"


# -- drawing -------------------------------------------------------------------------------------


class Canvas:
    """A tall strip that is drawn top to bottom and cut to what was used."""

    def __init__(self, height: int = 6000, colour: tuple[int, int, int] = BACKGROUND) -> None:
        self.image = Image.new("RGB", (WIDTH, height), colour)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        colour: tuple[int, int, int],
        bold: bool = False,
        anchor: str = "ls",
    ) -> None:
        width = stroke(size, bold)
        self.draw.text(
            (xy[0] + width, xy[1]),
            plain(text, size),
            font=font(size),
            fill=colour,
            anchor=anchor,
            stroke_width=width,
            stroke_fill=colour,
        )

    def cut(self, height: int) -> Image.Image:
        return self.image.crop((0, 0, WIDTH, height))


def wrap(pieces: list[Run], size: int, width: int) -> list[list[Run]]:
    """Lines of runs no wider than ``width``, broken at spaces (or inside an over-long word)."""
    tokens: list[Run] = []
    for run in pieces:
        for token in re.findall(r"\s+|\S+", run.text):
            tokens.append(replace(run, text=token))
    lines: list[list[Run]] = [[]]
    x = 0.0
    for token in tokens:
        w = run_length(token, size)
        if token.text.isspace():
            if lines[-1]:
                lines[-1].append(token)
                x += w
            continue
        while x + w > width and lines[-1]:
            while lines[-1] and lines[-1][-1].text.isspace():
                lines[-1].pop()
            lines.append([])
            x = 0.0
        while w > width:  # a word longer than the line
            cut = len(token.text)
            while cut > 1 and run_length(Run(token.text[:cut], token.bold), size) > width:
                cut -= 1
            lines[-1].append(replace(token, text=token.text[:cut]))
            lines.append([])
            token = replace(token, text=token.text[cut:])
            w = run_length(token, size)
        lines[-1].append(token)
        x += w
    return lines


def run_length(run: Run, size: int) -> float:
    if run.emoji:
        return size * 1.25 * len(run.text)
    if run.note:
        size = note_size(size)
    return text_length(plain(run.text, size), size, run.bold)


def note_size(size: int) -> int:
    return round(size * 0.75)


def rich(
    canvas: Canvas,
    x: int,
    y: int,
    text: str,
    width: int,
    size: int,
    colour: tuple[int, int, int],
    shot: Shot,
    now: datetime,
    bold: bool = False,
    edited: bool = False,
) -> int:
    """Draw ``text`` (several lines, inline markdown) from its top left, ``edited`` marked after
    it as Discord marks an edited message; returns the bottom."""
    step = round(size * 1.36)
    paragraphs = text.split("\n")
    for number, paragraph in enumerate(paragraphs, 1):
        pieces = runs(paragraph, shot, now, bold)
        if edited and number == len(paragraphs):
            pieces += [Run(" "), Run(client("(edited)"), note=True)]
        for line in wrap(pieces, size, width):
            baseline = y + round(step * 0.76)
            left = float(x)
            for run in line:
                w = run_length(run, size)
                if run.code or run.mention or run.stamp:
                    fill = CODE if run.code else MENTION if run.mention else STAMP
                    box = (left - 2, y + 2, left + w + 2, y + step - 1)
                    canvas.draw.rounded_rectangle(box, radius=6, fill=fill)
                if run.emoji:
                    for i, char in enumerate(run.text):
                        fill, edge = EMOJI[char]
                        cx = left + size * (0.625 + 1.25 * i)
                        cy = baseline - size * 0.36
                        r = size * 0.5
                        box = (cx - r, cy - r, cx + r, cy + r)
                        canvas.draw.ellipse(box, fill=fill, outline=edge, width=2)
                elif run.note:
                    canvas.text((left, baseline), run.text, note_size(size), MUTED)
                else:
                    ink = MENTION_TEXT if run.mention else BRIGHT if run.bold else colour
                    canvas.text((left, baseline), run.text, size, ink, run.bold)
                left += w
            y += step
    return y


def status_bar(canvas: Canvas, when: datetime) -> int:
    """The phone's status bar and the channel's header; returns where the chat starts."""
    draw = canvas.draw
    draw.rectangle((0, 0, WIDTH, 196), fill=BAR)
    canvas.text((64, 64), f"{when.hour % 12 or 12}:{when.minute:02d}", 32, BRIGHT, bold=True)
    for i in range(4):  # signal
        draw.rounded_rectangle((600 + i * 14, 56 - i * 7, 609 + i * 14, 64), radius=2, fill=BRIGHT)
    draw.rounded_rectangle((668, 40, 716, 64), radius=7, outline=BRIGHT, width=2)
    draw.rounded_rectangle((673, 45, 705, 59), radius=3, fill=BRIGHT)
    draw.rounded_rectangle((718, 47, 722, 57), radius=2, fill=BRIGHT)
    for i in range(3):  # the menu
        draw.rounded_rectangle((PAD, 126 + i * 14, PAD + 36, 130 + i * 14), radius=2, fill=MUTED)
    canvas.text((PAD + 64, 154), "#", 40, MUTED)
    canvas.text((PAD + 96, 154), "general", 34, BRIGHT, bold=True)
    draw.line((0, 196, WIDTH, 196), fill=(31, 32, 35), width=2)
    return 196 + 28


def composer(canvas: Canvas, y: int) -> int:
    """The message box at the bottom of the screen."""
    draw = canvas.draw
    draw.ellipse((PAD, y, PAD + 72, y + 72), fill=CODE)
    draw.line((PAD + 24, y + 36, PAD + 48, y + 36), fill=MUTED, width=4)
    draw.line((PAD + 36, y + 24, PAD + 36, y + 48), fill=MUTED, width=4)
    draw.rounded_rectangle((PAD + 88, y, WIDTH - PAD, y + 72), radius=36, fill=CODE)
    canvas.text((PAD + 120, y + 46), client("Message #general"), 28, MUTED)
    return y + 72 + 40


def author(canvas: Canvas, y: int, shot: Shot) -> int:
    """The bot's avatar, name, APP tag and the time; returns where the content starts."""
    draw = canvas.draw
    draw.ellipse((PAD, y, PAD + AVATAR, y + AVATAR), fill=BLURPLE)
    cx, cy = PAD + AVATAR // 2, y + AVATAR // 2  # a draughts piece as the bot's avatar
    draw.ellipse((cx - 24, cy - 24, cx + 24, cy + 24), fill=(250, 250, 252))
    draw.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), outline=BLURPLE, width=4)
    name = shot.message["author"].get("global_name") or shot.message["author"]["username"]
    baseline = y + 30
    canvas.text((LEFT, baseline), name, 32, BRIGHT, bold=True)
    x = LEFT + text_length(name, 32, True) + 12
    draw.rounded_rectangle((x, baseline - 26, x + 62, baseline + 4), radius=6, fill=BLURPLE)
    canvas.text((x + 31, baseline - 11), "APP", 20, (255, 255, 255), bold=True, anchor="mm")
    x += 62 + 14
    when = sent_at(shot)
    clock = f"{when.hour % 12 or 12}:{when.minute:02d} {'AM' if when.hour < 12 else 'PM'}"
    if LANGUAGE[0] != "en-US":
        clock = f"{when.hour:02d}:{when.minute:02d}"
    canvas.text((x, baseline), f"{client('Today at')} {clock}", 24, MUTED)
    return y + 48


def sent_at(shot: Shot) -> datetime:
    return datetime.fromisoformat(shot.message["timestamp"])


def picture(shot: Shot, filename: str, width: int) -> Image.Image:
    image = Image.open(io.BytesIO(shot.files[filename])).convert("RGB")
    height = round(image.height * width / image.width)
    return image.resize((width, height), Image.Resampling.LANCZOS)


def paste_rounded(canvas: Canvas, image: Image.Image, x: int, y: int, radius: int = 12) -> None:
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, *image.size), radius=radius, fill=255)
    canvas.image.paste(image, (x, y), mask)


def embed(canvas: Canvas, y: int, data: dict[str, Any], shot: Shot) -> int:
    """An embed: colour bar, title, description, fields, image, footer; returns its bottom."""
    now = sent_at(shot)
    inner_left, inner_width = LEFT + 8 + 24, COLUMN - 8 - 24 - 28
    # Draw on a scratch canvas first: the box's height is known only at the end.
    scratch = Canvas(4000, EMBED)
    top = 20
    if "title" in data:
        top = rich(
            scratch, inner_left, top, data["title"], inner_width, 30, BRIGHT, shot, now, True
        )
        top += 8
    if "description" in data:
        top = rich(scratch, inner_left, top, data["description"], inner_width, 28, TEXT, shot, now)
    for item in data.get("fields", []):
        top += 12
        top = rich(scratch, inner_left, top, item["name"], inner_width, 26, BRIGHT, shot, now, True)
        top = rich(scratch, inner_left, top, item["value"], inner_width, 26, TEXT, shot, now)
    image = (data.get("image") or {}).get("url", "")
    if image.startswith("attachment://"):
        board = picture(shot, image.removeprefix("attachment://"), inner_width)
        top += 16
        paste_rounded(scratch, board, inner_left, top, 8)
        top += board.height
    if "footer" in data:
        top += 14
        top = rich(
            scratch, inner_left, top, data["footer"]["text"], inner_width, 24, MUTED, shot, now
        )
    height = top + 24
    box = Image.new("L", (COLUMN, height), 0)
    ImageDraw.Draw(box).rounded_rectangle((0, 0, COLUMN - 1, height - 1), radius=10, fill=255)
    canvas.image.paste(scratch.image.crop((LEFT, 0, LEFT + COLUMN, height)), (LEFT, y), box)
    bar = data.get("color")
    if bar is not None:
        colour = ((bar >> 16) & 255, (bar >> 8) & 255, bar & 255)
        canvas.draw.rounded_rectangle((LEFT, y, LEFT + 9, y + height - 1), radius=5, fill=colour)
        canvas.draw.rectangle((LEFT + 5, y, LEFT + 9, y + height - 1), fill=colour)
    return y + height


def components(canvas: Canvas, y: int, rows: list[dict[str, Any]]) -> int:
    """Action rows: buttons as Discord's rounded buttons, a select menu as its closed box."""
    for row in rows:
        y += 16
        x = LEFT
        height = 0
        for item in row.get("components", []):
            if item["type"] == 2:
                label = item.get("label") or ""
                w = max(120, round(text_length(label, 28, True)) + 64)
                if x + w > LEFT + COLUMN and x > LEFT:
                    x, y = LEFT, y + 76 + 16
                fill = BUTTONS.get(item.get("style", 2), BUTTONS[2])
                if item.get("disabled"):
                    fill = tuple((c + b) // 2 for c, b in zip(fill, BACKGROUND, strict=True))
                canvas.draw.rounded_rectangle((x, y, x + w, y + 76), radius=16, fill=fill)
                canvas.text((x + w / 2, y + 38), label, 28, (255, 255, 255), True, anchor="mm")
                x += w + 16
                height = 76
            elif item["type"] == 3:
                chosen = [o["label"] for o in item.get("options", []) if o.get("default")]
                shown = ", ".join(chosen) or item.get("placeholder") or "Make a selection"
                shown = clip(shown, 28, COLUMN - 100)
                box = (LEFT, y, LEFT + COLUMN, y + 84)
                canvas.draw.rounded_rectangle(box, radius=16, fill=FIELD, outline=(24, 25, 28))
                canvas.text((LEFT + 28, y + 42), shown, 28, TEXT if chosen else MUTED, anchor="lm")
                chevron(canvas, LEFT + COLUMN - 44, y + 42, MUTED)
                height = 84
        y += height
    return y


def chevron(canvas: Canvas, x: int, y: int, colour: tuple[int, int, int]) -> None:
    canvas.draw.line((x - 12, y - 6, x, y + 6, x + 12, y - 6), fill=colour, width=4, joint="curve")


def ephemeral_note(canvas: Canvas, y: int) -> int:
    """Discord's line under a message only its user sees."""
    y += 20
    draw = canvas.draw
    draw.ellipse((LEFT, y + 6, LEFT + 30, y + 24), outline=MUTED, width=3)  # an eye
    draw.ellipse((LEFT + 10, y + 10, LEFT + 20, y + 20), fill=MUTED)
    canvas.text((LEFT + 42, y + 24), client("Only you can see this ·"), 24, MUTED)
    x = LEFT + 42 + text_length(client("Only you can see this ·") + " ", 24)
    canvas.text((x, y + 24), client("Dismiss message"), 24, LINK)
    return y + 34


def message(canvas: Canvas, y: int, shot: Shot) -> int:
    """One message of the bot's, from its author line down; returns its bottom."""
    data = shot.message
    y = author(canvas, y, shot)
    if data.get("content"):
        edited = data.get("edited_timestamp") is not None
        for n, part in enumerate(data["content"].split("```")):
            if n % 2:  # inside a code block
                y = code_block(canvas, y, part)
            elif part.strip("\n"):
                last = n == data["content"].count("```")
                y = rich(
                    canvas,
                    LEFT,
                    y,
                    part.strip("\n"),
                    COLUMN,
                    30,
                    TEXT,
                    shot,
                    sent_at(shot),
                    False,
                    edited and last,
                )
    shown_in_embeds = {
        (e.get("image") or {}).get("url", "").removeprefix("attachment://")
        for e in data.get("embeds", [])
    }
    for item in data.get("embeds", []):
        y = embed(canvas, y + 12, item, shot)
    for attachment in data.get("attachments", []):
        name = attachment["filename"]
        if name in shown_in_embeds or not name.endswith(".png"):
            continue
        image = picture(shot, name, COLUMN)
        paste_rounded(canvas, image, LEFT, y + 14)
        y += 14 + image.height
    y = components(canvas, y, data.get("components", []))
    if int(data.get("flags") or 0) & 64:
        y = ephemeral_note(canvas, y)
    return y


def code_block(canvas: Canvas, y: int, text: str) -> int:
    """A fenced code block as Discord shows one: a dark box, each character in a cell of the
    same width (the board's font spaced as a monospaced one would be, so the picture needs no
    font of the machine's), no wrapping; returns its bottom."""
    isolates = str.maketrans("", "", "\u2066\u2067\u2068\u2069")  # zero-width: no cell
    lines = text.removeprefix("\n").rstrip("\n").translate(isolates).split("\n")
    cell, size = 0.0, 24
    while True:  # the largest type up to 24 px whose longest line fits the column
        cell = font(size).getlength("0")
        if cell * max(len(line) for line in lines) <= COLUMN - 40 or size <= 12:
            break
        size -= 1
    step = round(size * 1.36)
    top = y + 10
    height = 20 + step * len(lines)
    canvas.draw.rounded_rectangle((LEFT, top, LEFT + COLUMN, top + height), radius=8, fill=CODE)
    for row, line in enumerate(lines):
        baseline = top + 10 + row * step + round(step * 0.76)
        for col, char in enumerate(line):
            if char.strip():
                x = LEFT + 20 + col * cell + cell / 2
                canvas.text((x, baseline), char, size, TEXT, anchor="ms")
    return top + height


def clip(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to fit one line, as a phone's menu shows a long option."""
    if text_length(plain(text, size), size, bold) <= width:
        return text
    while text and text_length(plain(text, size) + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def sheet(options: list[dict[str, Any]], title: str) -> Image.Image:
    """A select menu opened on a phone: the bottom sheet listing its options."""
    canvas = Canvas(200 + 120 * len(options), SHEET)
    draw = canvas.draw
    draw.rounded_rectangle((WIDTH // 2 - 40, 18, WIDTH // 2 + 40, 28), radius=5, fill=RULE)
    canvas.text((WIDTH // 2, 88), title, 30, BRIGHT, bold=True, anchor="mm")
    y = 136
    for i, option in enumerate(options):
        described = bool(option.get("description"))
        height = 116 if described else 96
        if i:
            draw.line((PAD + 8, y, WIDTH - PAD - 8, y), fill=RULE, width=2)
        label_y = y + (44 if described else 58)
        room = WIDTH - 2 * PAD - 80
        canvas.text((PAD + 8, label_y), clip(option["label"], 30, room, True), 30, BRIGHT, True)
        if described:
            canvas.text((PAD + 8, label_y + 40), clip(option["description"], 26, room), 26, MUTED)
        cx, cy = WIDTH - PAD - 28, y + height // 2
        draw.ellipse((cx - 20, cy - 20, cx + 20, cy + 20), outline=MUTED, width=4)
        y += height
    used = y + 56
    image = canvas.cut(used)
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, WIDTH - 1, used + 40), radius=36, fill=255)
    image.putalpha(mask)
    return image


CLOSED = ("phone-open-challenge.png", "phone-board.png", "phone-board-more.png")
"""Pictures whose message is shown as it sits in the channel, its menu closed."""


def screen(shot: Shot, open_menu: bool = True) -> Image.Image:
    """The channel on a phone with the bot's message in it; its menu shown open unless
    ``open_menu`` is False."""
    canvas = Canvas()
    y = status_bar(canvas, sent_at(shot))
    y = message(canvas, y, shot)
    y = composer(canvas, y + 56)
    image = canvas.cut(y)
    menus = [
        c for row in shot.message.get("components", []) for c in row["components"] if c["type"] == 3
    ]
    if not menus or not open_menu:
        return image
    # The open menu covers the composer, and the chat behind it is dimmed.
    menu = menus[0]
    bottom = sheet(menu.get("options", []), menu.get("placeholder") or client("Make a selection"))
    tall = Image.new("RGB", (WIDTH, y - 112 + bottom.height), (0, 0, 0))
    tall.paste(Image.blend(image, Image.new("RGB", image.size, (0, 0, 0)), 0.3), (0, 0))
    tall.paste(bottom, (0, y - 112), bottom)
    return tall


# -- writing -------------------------------------------------------------------------------------


def encode(image: Image.Image) -> bytes:
    """A palette PNG, with fewer colours if it is still too big."""
    for colours in (256, 128, 64):
        out = io.BytesIO()
        image.quantize(colours, dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
        if out.tell() <= BUDGET:
            break
    return out.getvalue()


def main(argv: list[str]) -> int:
    """``make_screens.py`` draws the English pictures; ``make_screens.py de`` the German ones
    (``phone-board-de.png``...)."""
    language = argv[0] if argv else "en-US"
    LANGUAGE[0] = language
    shots = asyncio.run(capture(language))
    write_out({name: (shot, name not in CLOSED) for name, shot in shots.items()}, language)
    return 0


def write_out(shots: dict[str, tuple[Shot, bool]], language: str) -> None:
    """Each picture (its shot, and whether its menu is drawn open) into docs/images, named for
    ``language`` (``phone-board-de.png``; English has no suffix), with its size printed."""
    suffix = "" if language == "en-US" else f"-{language}"
    for name, (shot, open_menu) in shots.items():
        data = encode(screen(shot, open_menu=open_menu))
        path = HERE / name.replace(".png", f"{suffix}.png")
        path.write_bytes(data)
        print(f"{path.relative_to(ROOT)}  {len(data):>9,} bytes")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
