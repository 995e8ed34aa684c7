"""The limits on public posts (bot/ui/cooldowns.py), with a clock moved by hand."""

from __future__ import annotations

from datetime import UTC, datetime

from discord.utils import time_snowflake

from bot.ui.cooldowns import BOARD_FRESH_SECONDS, SWEEP_AT, Cooldowns, Post, board_in_view

T0 = 1_800_000_000.0
CHANNEL = 100


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def test_one_user_gets_one_public_board_from_a_burst() -> None:
    """One user once posted 50 public boards in 0.67 s: now the first goes out and the other
    49 are told when the next may (30 s on)."""
    clock = Clock()
    limits = Cooldowns(clock)
    answers = [limits.claim(Post.BOARD, 1, CHANNEL) for _ in range(50)]
    assert answers[0] is None
    assert answers[1:] == [T0 + 30] * 49
    clock.now = T0 + 29.9
    assert limits.claim(Post.BOARD, 1, CHANNEL) == T0 + 30
    clock.now = T0 + 30
    assert limits.claim(Post.BOARD, 1, CHANNEL) is None


def test_a_channel_gets_four_boards_a_minute_whoever_asks() -> None:
    clock = Clock()
    limits = Cooldowns(clock)
    for user in range(4):
        clock.now = T0 + user
        assert limits.claim(Post.BOARD, user, CHANNEL) is None
    clock.now = T0 + 10
    assert limits.claim(Post.BOARD, 99, CHANNEL) == T0 + 60  # when the oldest leaves the minute
    assert limits.claim(Post.BOARD, 99, CHANNEL + 1) is None  # another channel is its own
    clock.now = T0 + 60
    assert limits.claim(Post.BOARD, 99, CHANNEL) is None
    # a refusal counts nothing: user 98 was never counted, so only the channel holds them
    assert limits.claim(Post.BOARD, 98, CHANNEL) == T0 + 61


def test_the_later_of_both_limits_is_the_answer() -> None:
    clock = Clock()
    limits = Cooldowns(clock)
    assert limits.claim(Post.REPLAY, 1, CHANNEL) is None
    clock.now = T0 + 1
    assert limits.claim(Post.REPLAY, 2, CHANNEL) is None
    clock.now = T0 + 2
    assert limits.claim(Post.REPLAY, 3, CHANNEL) == T0 + 600  # the channel's two in 10 minutes
    assert limits.claim(Post.REPLAY, 1, CHANNEL) == T0 + 600  # the user's own 10 minutes
    assert limits.claim(Post.BOARD, 1, CHANNEL) is None  # boards are counted apart


def test_forgotten_users_and_channels_are_swept() -> None:
    clock = Clock()
    limits = Cooldowns(clock)
    for user in range(SWEEP_AT):
        clock.now = T0 + user * 15  # four a minute: the channel never fills
        assert limits.claim(Post.BOARD, user, CHANNEL) is None
    clock.now += 120
    assert limits.claim(Post.BOARD, 0, CHANNEL + 1) is None
    assert len(limits._users) == 1 and len(limits._channels) == 1


def snowflake(at: float) -> int:
    return time_snowflake(datetime.fromtimestamp(at, UTC))


def test_a_board_in_view() -> None:
    """A spectator's /board is private while the game's board is the channel's latest message
    or was posted under two minutes ago."""
    board = snowflake(T0)
    later = snowflake(T0 + 5)
    assert board_in_view(board, board, T0 + 3600)
    assert board_in_view(board, later, T0 + BOARD_FRESH_SECONDS - 1)
    assert not board_in_view(board, later, T0 + BOARD_FRESH_SECONDS + 1)
    assert not board_in_view(board, None, T0 + BOARD_FRESH_SECONDS + 1)
    assert not board_in_view(None, later, T0)


def test_what_is_held_back_says_from_when() -> None:
    clock = Clock()
    limits = Cooldowns(clock)
    assert limits.held_back(Post.REPLAY, 1, CHANNEL) is None
    clock.now = T0 + 0.5
    said = limits.held_back(Post.REPLAY, 1, CHANNEL)
    assert str(said) == (
        "Only you see this replay: replays were just posted here; you can post one for "
        f"everyone again <t:{int(T0) + 600}:R>."
    )
    clock.now = T0 + 0.25  # a limit ending mid-second is named by the next whole second
    limits = Cooldowns(clock)
    assert limits.held_back(Post.BOARD, 1, CHANNEL) is None
    said = limits.held_back(Post.BOARD, 1, CHANNEL)
    assert f"again <t:{int(T0) + 31}:R>." in str(said)
