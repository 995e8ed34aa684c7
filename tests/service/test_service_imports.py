"""Imported games in the service (``service.imports``, :mod:`bot.service.imports`), on every
backend: a file's importable games kept (at most 25 at once, or the one asked for), the ones
that cannot be read named with their reason, a refused file keeping nothing, the position after
any ply, another server's import not found, and an imported game analysed through the analysis
room under its own subject."""

from __future__ import annotations

import json

import pytest
from support.pdn_import_samples import random_game, read_sample
from support.service_harness import ALICE, BOB, CHANNEL, GUILD, OTHER_GUILD, count_rows

from bot.enums import ColorChoice
from bot.errors import NotFoundError
from bot.service import GameService
from bot.service.computer import RandomComputer
from bot.service.imports import ImportFileError
from rules import write_game
from rules.pdn import read_game

BUDGET = (0.05, 50_000)


async def read(service: GameService, data: bytes | str, **options: int) -> object:
    return await service.imports.read(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE.id, data=data, **options
    )


async def test_a_files_importable_games_are_kept_and_the_others_named(service: GameService) -> None:
    text = read_sample("junk_after_tags.pdn") + '\n[Event "broken"]\n1. 11-15 11-15 *\n'
    listing = await service.imports.read(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE.id, data=text.encode()
    )
    assert listing.total == 4 and listing.first == 1
    assert [view.event for view in listing.games] == ["Club 1", "Club 2", "Club 3"]
    (reason,) = listing.refused
    assert str(reason).startswith(
        "game 4 (line 39): line 40, move 1... 11-15: there is no piece on 11"
    )
    first = listing.games[0]
    assert first.user_id == ALICE.id and first.number == 1 and first.variant == "english"
    assert first.plies == 20 and len(first.moves) == 20
    assert [str(note) for note in first.notes] == [
        "line 5: skipped 'Annotated by the club secretary': not PDN"
    ]
    assert read_game(first.record).game.moves == random_game("english", 1, 20).moves
    assert await count_rows(service, "imports") == 3
    rows = await service.store.imported(first.id)
    assert rows is not None and json.loads(rows.tags)["Event"] == "Club 1"


async def test_at_most_25_games_are_kept_at_once_or_the_one_asked_for(
    service: GameService,
) -> None:
    text = "".join(f'[Event "g{n}"]\n1. 11-15 23-19 *\n\n' for n in range(1, 41))
    listing = await service.imports.read(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE.id, data=text
    )
    assert listing.total == 40 and len(listing.games) == 25
    one = await service.imports.read(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE.id, data=text, game=33
    )
    assert [(v.number, v.event) for v in one.games] == [(33, "g33")] and one.first == 33
    assert await count_rows(service, "imports") == 26
    with pytest.raises(ImportFileError, match="the file holds 40 games: there is no game 41"):
        await service.imports.read(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE.id, data=text, game=41
        )
    assert await count_rows(service, "imports") == 26


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file"),
        (b"x" * 1_000_001, "at most 1,000,000 bytes"),
        ("hello there", "no game found"),
        ('[Event "a"]\n1. 11-15 12-16 *', r"the game cannot be imported: game 1 \(line 1\)"),
        (read_sample("ambiguous_unsettled.pdn"), "could mean"),
    ],
)
async def test_a_file_with_nothing_importable_is_refused_and_keeps_nothing(
    service: GameService, data: bytes | str, reason: str
) -> None:
    with pytest.raises(ImportFileError, match=reason):
        await service.imports.read(guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE.id, data=data)
    assert await count_rows(service, "imports") == 0


async def test_an_imports_view_and_positions_read_back(service: GameService) -> None:
    game = random_game("international", 7, 30)
    text = write_game(game, {"White": "Ada", "Black": "Bo", "Event": "Open"})
    (kept,) = (await read(service, text)).games  # type: ignore[attr-defined]
    view = await service.imports.view(kept.id, GUILD)
    assert (view.white, view.black, view.event, view.plies) == ("Ada", "Bo", "Open", 30)
    assert view.moves == kept.moves and view.notes == ()
    for ply in (0, 11, 30):
        variant, fen = await service.imports.position(kept.id, GUILD, ply)
        assert variant == "international" and fen == game.positions[ply].fen()
    with pytest.raises(ImportFileError, match="has 30 plies: choose one from 0 to 30"):
        await service.imports.position(kept.id, GUILD, 31)
    with pytest.raises(NotFoundError, match=f"no imported game #{kept.id} here"):
        await service.imports.view(kept.id, OTHER_GUILD)
    with pytest.raises(NotFoundError):
        await service.imports.position(kept.id + 100, GUILD, 0)


async def test_an_imported_game_is_analysed_under_its_own_subject(service: GameService) -> None:
    service.computer = RandomComputer(seed=1)
    service.analyses.budget = BUDGET
    text = write_game(random_game("english", 4, 12), {"White": "Ada", "Black": "Bo"})
    (kept,) = (await read(service, text)).games  # type: ignore[attr-defined]
    view = await service.imports.analyse(kept.id, GUILD, BOB.id)
    assert view.subject == f"import:{kept.id}" and view.fresh
    assert (view.white, view.black) == ("Ada", "Bo") and len(view.analysis.plies) == 12
    assert str(view.title) == f"Imported game #{kept.id}"
    again = await service.imports.analyse(kept.id, GUILD, ALICE.id)
    assert not again.fresh and again.analysis == view.analysis
    assert await count_rows(service, "analyses") == 1
    with pytest.raises(NotFoundError):
        await service.imports.analyse(kept.id, OTHER_GUILD, ALICE.id)


async def test_a_game_from_a_position_starts_there_with_the_side_to_move(
    service: GameService,
) -> None:
    game = random_game("english", 4, 12)
    (kept,) = (await read(service, write_game(game))).games  # type: ignore[attr-defined]
    start = await service.imports.start(kept.id, GUILD, 7)
    assert (start.variant, start.fen) == ("english", game.positions[7].fen())
    assert start.color is ColorChoice.WHITE  # Black moves first in English: after 7, White
    assert (await service.imports.start(kept.id, GUILD, 0)).color is ColorChoice.BLACK
    with pytest.raises(ImportFileError, match="choose one from 0 to 12"):
        await service.imports.start(kept.id, GUILD, 13)
    with pytest.raises(NotFoundError):
        await service.imports.start(kept.id, OTHER_GUILD, 3)
    # an open challenge from there: unrated, from that position
    result = await service.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=None,
        variant=start.variant,
        color=start.color,
        start_fen=start.fen,
    )
    assert result.challenge is not None
    row = await service.store.challenge(result.challenge.id)
    assert row is not None and row.start_fen == start.fen


async def test_no_game_starts_where_the_game_is_over(service: GameService) -> None:
    fen = "W:W31,32,33,K46:B8,9,18,19,28,29"
    wiped = f'[GameType "20"]\n[FEN "{fen}"]\n1. 32x34 2-0'
    (kept,) = (await read(service, wiped)).games  # type: ignore[attr-defined]
    assert (await service.imports.start(kept.id, GUILD, 0)).fen == fen  # a set-up start
    with pytest.raises(ImportFileError, match="the game is over in this position"):
        await service.imports.start(kept.id, GUILD, 1)
