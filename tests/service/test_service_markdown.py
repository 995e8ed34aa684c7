"""Every sentence the service words (and every refusal it raises) shows names as text.

The same games are played twice, once by players with plain names and once by players whose
names are Markdown (a masked link, a heading, a mention...), and each sentence is read the way
Discord would (:func:`support.markdown_marks.live_marks`): the hostile run may hold no mark the
plain run does not.  Issue 13 found names unescaped in eight messages; this covers the service's
side of all of them, whatever action or time produced the sentence.
"""

from __future__ import annotations

import pytest
from support.markdown_marks import live_marks
from support.service_harness import (
    CHANNEL,
    MOVE_TIME,
    OTHER_CHANNEL,
    Clock,
    Database,
    Databases,
    challenge,
    open_service,
)

from bot.errors import ServiceError
from bot.results import Player

PLAIN = ("Plain Alice", "Plain Bob", "Plain Carol")
HOSTILE = [
    ("[claim nitro](https://evil.example/x)", "# Heading", "@everyone"),
    ("**bold**", "> quote", "<@1100000000000000101>"),
    ("||spoiler||", "`code`", "-# subtext"),
]


async def sentences(path: Database, names: tuple[str, str, str]) -> list[str]:
    """Everything the service says in a run of games between players called ``names``."""
    clock = Clock()
    service = await open_service(path, clock)
    alice, bob, carol = (Player(i + 1, name) for i, name in enumerate(names))
    said: list[str] = []

    async def do(action: object) -> None:
        try:
            result = await action  # type: ignore[misc]
        except ServiceError as refusal:
            said.append(str(refusal))
            return
        said.append(str(result.text))
        if result.follow_up is not None:
            said.append(str(result.follow_up.text))

    try:
        made = await challenge(service, challenger=alice, opponent=bob)
        said.append(str(made.text))
        assert made.challenge is not None
        await do(service.accept(made.challenge.id, carol.id))  # not hers to accept
        await do(service.accept(made.challenge.id, bob.id))
        await do(service.move(alice.id, "11-15", channel_id=CHANNEL))
        await do(service.move(alice.id, "15-19", channel_id=CHANNEL))  # not her turn
        await do(service.move(carol.id, "22-18", channel_id=CHANNEL))  # not a player
        await do(service.offer_draw(bob.id, channel_id=CHANNEL))
        await do(service.decline_draw(alice.id, channel_id=CHANNEL))  # starts the count
        await do(service.request_takeback(bob.id, channel_id=CHANNEL))
        await do(service.request_takeback(alice.id, channel_id=CHANNEL))  # one is waiting
        await do(service.answer_takeback(alice.id, False, channel_id=CHANNEL))
        await do(service.move(bob.id, "22-18", channel_id=CHANNEL))
        await do(service.offer_draw(alice.id, channel_id=CHANNEL))
        await do(service.accept_draw(bob.id, channel_id=CHANNEL))

        # A second game: resigned.  A third: a reminder, then lost on time.
        for channel, ending in ((OTHER_CHANNEL, "resign"), (CHANNEL, "time")):
            made = await challenge(
                service, channel_id=channel, challenger=bob, opponent=alice, color="white"
            )
            assert made.challenge is not None
            await do(service.accept(made.challenge.id, alice.id))
            if ending == "resign":
                await do(service.resign(bob.id, channel_id=channel))
            else:
                clock.advance(MOVE_TIME / 2 + 1)
                said.extend(str(r.text) for r in await service.tick())
                clock.advance(MOVE_TIME)
                said.extend(str(r.text) for r in await service.tick())
        # A challenge declined, one cancelled, one expired.
        for answer in ("decline", "cancel", "expire"):
            made = await challenge(service, challenger=carol, opponent=alice, color="white")
            assert made.challenge is not None
            if answer == "decline":
                await do(service.decline(made.challenge.id, alice.id))
            elif answer == "cancel":
                await do(service.cancel(made.challenge.id, carol.id))
            else:
                clock.advance(service.challenge_expiry + 1)
                said.extend(str(r.text) for r in await service.tick())
    finally:
        await service.close()
    return said


@pytest.mark.parametrize("names", HOSTILE, ids=["link-heading-everyone", "bold-quote", "spoiler"])
async def test_no_name_becomes_markdown_in_any_sentence(
    databases: Databases, names: tuple[str, str, str]
) -> None:
    plain = await sentences(await databases.new("plain"), PLAIN)
    hostile = await sentences(await databases.new("hostile"), names)
    assert len(plain) == len(hostile) >= 20
    for benign, said in zip(plain, hostile, strict=True):
        assert live_marks(said) == live_marks(benign), (benign, said)
