"""Open challenges: ``/challenge`` without an opponent, accepted by anyone in the channel but the
challenger and the computer, optionally limited to a rating range; listed by ``/lobby``; and
accepted exactly once when two people press Accept at the same moment (two services on one
database, as two processes would be, on each backend).
"""

from __future__ import annotations

import pytest
from support.service_harness import (
    ALICE,
    BOB,
    BOT,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    OTHER_CHANNEL,
    OTHER_GUILD,
    Clock,
    Database,
    Services,
    challenge,
    challenge_unchanged,
    count_rows,
)
from test_service_reliability import race, winners

from bot.enums import ChallengeStatus
from bot.errors import ChallengeError, GameOverError, NotAPlayerError, ServiceError
from bot.results import Action
from bot.service import GameService


async def test_an_open_challenge_is_accepted_by_anyone_but_its_challenger(
    service: GameService,
) -> None:
    created = await challenge(service, opponent=None)
    view = created.challenge
    assert view is not None and view.opponent is None
    assert created.action is Action.CHALLENGE_CREATED and created.mentions == ()
    assert str(created.text) == (
        "Alice offers a game of English draughts / American checkers: anyone may accept."
    )
    assert [c.id for c in await service.open_challenges(GUILD)] == [view.id]
    assert await service.open_challenges(OTHER_GUILD) == []

    async with challenge_unchanged(service, view.id):
        with pytest.raises(NotAPlayerError, match="your own challenge"):
            await service.accept(view.id, ALICE.id, name=ALICE.name)
        with pytest.raises(NotAPlayerError, match="computer does not accept"):
            await service.accept(view.id, BOT.id, name=BOT.name)
        with pytest.raises(NotAPlayerError, match="not declined"):
            await service.decline(view.id, BOB.id)
        with pytest.raises(NotAPlayerError, match="only Alice"):
            await service.cancel(view.id, BOB.id)
    assert await count_rows(service, "games") == 0

    started = await service.accept(view.id, CAROL.id, name=CAROL.name)
    assert started.action is Action.GAME_STARTED and started.game is not None
    assert (started.game.black, started.game.white) == (ALICE, CAROL)
    closed = await service.challenge_view(view.id)
    assert closed.status is ChallengeStatus.ACCEPTED and closed.opponent == CAROL
    assert closed.game_id == started.game.id
    assert await service.open_challenges(GUILD) == []
    with pytest.raises(GameOverError, match="no longer open"):
        await service.accept(view.id, DAVE.id, name=DAVE.name)


async def test_a_named_challenge_is_not_in_the_lobby_and_expired_ones_leave_it(
    service: GameService, clock: Clock
) -> None:
    await challenge(service)  # Alice challenges Bob: not for anyone else
    assert await service.open_challenges(GUILD) == []
    created = await challenge(service, opponent=None, challenger=CAROL)
    assert created.challenge is not None
    assert len(await service.open_challenges(GUILD)) == 1
    clock.now = created.challenge.expires_at
    assert await service.open_challenges(GUILD) == []
    with pytest.raises(GameOverError, match="expired"):
        await service.accept(created.challenge.id, DAVE.id, name=DAVE.name)
    cid = created.challenge.id
    [expired] = [
        e
        for e in await service.tick()
        if e.action is Action.CHALLENGE_EXPIRED and e.challenge and e.challenge.id == cid
    ]
    assert str(expired.text) == "The open challenge from Carol expired."
    assert expired.mentions == (CAROL.id,)


async def test_a_rating_range_admits_only_the_players_within_it(service: GameService) -> None:
    # A newcomer's rating is the start rating, 1500.
    too_high = await challenge(service, opponent=None, min_rating=1600)
    assert too_high.challenge is not None
    cid = too_high.challenge.id
    assert (too_high.challenge.min_rating, too_high.challenge.max_rating) == (1600, None)
    async with challenge_unchanged(service, cid):
        with pytest.raises(ChallengeError) as refused:
            await service.accept(cid, CAROL.id, name=CAROL.name)
    assert str(refused.value) == (
        "this challenge is for players rated 1600 to 4000; your English draughts / American "
        "checkers rating here is 1500"
    )
    in_range = await challenge(
        service, opponent=None, challenger=BOB, min_rating=1400, max_rating=1500
    )
    assert in_range.challenge is not None
    started = await service.accept(in_range.challenge.id, CAROL.id, name=CAROL.name)
    assert started.game is not None and CAROL in (started.game.white, started.game.black)


@pytest.mark.parametrize(
    ("terms", "words"),
    [
        ({"min_rating": 1600}, "for open challenges"),  # an opponent is named
        ({"opponent": None, "min_rating": 1700, "max_rating": 1600}, "not be above"),
        ({"opponent": None, "max_rating": 9000}, "between 100 and 4000"),
        ({"opponent": None, "min_rating": 50}, "between 100 and 4000"),
    ],
)
async def test_a_bad_rating_range_is_refused(
    service: GameService, terms: dict[str, object], words: str
) -> None:
    with pytest.raises(ChallengeError, match=words):
        await challenge(service, **terms)
    assert await count_rows(service, "challenges") == 0


async def test_two_accepting_at_once_start_exactly_one_game(
    database: Database, services: Services
) -> None:
    """Carol and Dave press Accept on the same open challenge at the same moment, each served
    by another process: one game starts, with the one who won the race as the opponent; the
    other is told the challenge is no longer open, and nothing of theirs is written."""
    first = await services.open(database)
    second = await services.open(database, seed=2)
    created = await challenge(first, opponent=None)
    assert created.challenge is not None
    cid = created.challenge.id
    outcomes = await race(
        [
            lambda: first.accept(cid, CAROL.id, name=CAROL.name),
            lambda: second.accept(cid, DAVE.id, name=DAVE.name),
        ]
    )
    [won] = winners(outcomes)
    [lost] = [o for o in outcomes if isinstance(o, ServiceError)]
    assert "no longer open" in str(lost)
    assert won.game is not None
    winner = CAROL if CAROL in (won.game.white, won.game.black) else DAVE
    closed = await first.challenge_view(cid)
    assert closed.status is ChallengeStatus.ACCEPTED and closed.opponent == winner
    assert closed.game_id == won.game.id
    assert await count_rows(first, "games") == 1
    assert await count_rows(first, "outbox", "kind = 'game_started'") == 1


async def test_two_open_challenges_in_other_channels_are_both_listed(
    service: GameService,
) -> None:
    a = await challenge(service, opponent=None)
    b = await challenge(service, opponent=None, channel_id=OTHER_CHANNEL)
    assert a.challenge is not None and b.challenge is not None
    listed = await service.open_challenges(GUILD)
    assert [(c.id, c.channel_id) for c in listed] == [
        (a.challenge.id, CHANNEL),
        (b.challenge.id, OTHER_CHANNEL),
    ]
