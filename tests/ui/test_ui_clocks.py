"""Clocks in the Discord layer, in process: a clocked game's board says both players' time, when
the side to move's flag falls (a Discord timestamp the client counts down) and low time; a
correspondence board keeps its deadline; the challenge names its clock and time class; the
``/challenge clock`` suggestions offer lidraughts' usual clocks and the one being typed, named
in the reader's language."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_bot_ui import view_of

from bot.enums import ChallengeStatus, ColorChoice, Side
from bot.results import ChallengeView, ClockView, GameView, Player, TimeControl
from bot.ui.choices import clock_choices
from bot.ui.embeds import challenge_embed, clock_line, clock_time, game_embed, turn_line
from bot.words import VARIANT_TITLES
from rules import Game, find_variant

BLITZ = TimeControl(180, 2)
FLAG = 1_800_000_123.0


def clocked(white: float, black: float, low: Side | None = None, **changes: object) -> GameView:
    """An English game with White (Bob) to move after Alice's first move, on a 3+2 clock."""
    game = Game(find_variant("english"))
    game.play("11-15")
    clock = ClockView(BLITZ, white, black, FLAG, low)
    return view_of(game, clock=clock, deadline=FLAG, **changes)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (180, "3:00"),
        (61.9, "1:01"),
        (10, "0:10"),
        (9.96, "0:10.0"),
        (7.44, "0:07.4"),
        (0, "0:00.0"),
        (3725, "1:02:05"),
        (-1, "0:00.0"),
    ],
)
def test_clock_times_read_as_a_clock_shows_them(seconds: float, shown: str) -> None:
    assert clock_time(seconds) == shown


def test_a_clocked_board_shows_both_clocks_and_counts_down_to_the_flag() -> None:
    view = clocked(178.5, 182)
    assert turn_line(view) == f"<@{view.white.id}> to move, flag falls <t:{int(FLAG)}:R>."
    assert clock_line(view) == "Clock 3+2 (Blitz): White 2:58 · Black 3:02"
    embed = game_embed(view, "Alice played 11-15.", None)
    lines = (embed.description or "").split("\n")
    assert lines[1] == "Clock 3+2 (Blitz): White 2:58 · Black 3:02"  # under the players
    assert lines[2] == "Alice played 11-15."


def test_low_time_is_shown_on_the_board_in_bold_and_words() -> None:
    view = clocked(12.3, 182, low=Side.WHITE)
    assert clock_line(view) == "Clock 3+2 (Blitz): White **0:12 (low)** · Black 3:02"
    assert clock_line(view, "de") == "Uhr 3+2 (Blitz): Weiß **0:12 (knapp)** · Schwarz 3:02"


def test_a_correspondence_board_keeps_its_deadline_and_shows_no_clock() -> None:
    game = Game(find_variant("english"))
    view = view_of(game)
    assert view.clock is None and clock_line(view) == ""
    assert turn_line(view) == f"<@{view.to_move.id}> to move, due <t:1800000000:R>."  # type: ignore[union-attr]


def test_a_finished_clocked_board_names_no_flag() -> None:
    view = clocked(0, 150)
    over = replace(view, to_move=None, clock=replace(view.clock, flag_at=None))  # type: ignore[arg-type]
    assert turn_line(over) == ""
    assert clock_line(over) == "Clock 3+2 (Blitz): White 0:00.0 · Black 2:30"


def test_a_clocked_challenge_names_its_clock_and_class() -> None:
    challenge = ChallengeView(
        id=7,
        guild_id=10,
        channel_id=100,
        challenger=Player(1, "Alice"),
        opponent=Player(2, "Bob"),
        variant="english",
        variant_title=VARIANT_TITLES["english"],
        color=ColorChoice.RANDOM,
        move_time=3600,
        thread=False,
        level=None,
        status=ChallengeStatus.OPEN,
        game_id=None,
        expires_at=FLAG,
        clock=TimeControl(60, 1),
    )
    fields = {f.name: f.value for f in challenge_embed(challenge).fields}
    assert fields["Clock"] == "1+1 (Bullet)" and "Time per move" not in fields
    fields = {f.name: f.value for f in challenge_embed(replace(challenge, clock=None)).fields}
    assert fields["Time per move"] == "1 hour" and "Clock" not in fields


def test_clock_suggestions_offer_the_usual_clocks_and_the_one_typed() -> None:
    usual = [(c.name, c.value) for c in clock_choices("", "en")]
    assert usual == [
        ("1+1 · Bullet", "1+1"),
        ("3+2 · Blitz", "3+2"),
        ("5+3 · Blitz", "5+3"),
        ("10+5 · Rapid", "10+5"),
        ("15+10 · Rapid", "15+10"),
    ]
    typed = [(c.name, c.value) for c in clock_choices("7+3", "ru")]
    assert typed[0] == ("7+3 · Рапид", "7+3") and len(typed) == 6
    assert [c.value for c in clock_choices("3+2", "en")] == [v for _n, v in usual]  # not twice
    assert len(clock_choices("nonsense", "en")) == 5  # nothing to add: the usual ones
    assert clock_choices("½+0", "de")[0].value == "½+0"
