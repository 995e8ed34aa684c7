"""``/import``'s messages in process: the game's card, the list of a file's games, the reader's
repairs, the paged panel of positions to play from (every ply reachable, Discord's limits on
menus and ids kept), the analysis message, and every language within Discord's limits (the
real catalogs)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from support.pdn_import_samples import random_game
from test_i18n import LANGUAGES

from bot.i18n import render, verbatim
from bot.results import ImportListing, ImportView
from bot.ui.import_buttons import ImportButton, ImportKit, ImportSelect
from bot.ui.imports import (
    card,
    listing_text,
    notes_text,
    page_of,
    position_label,
    position_panel,
    replay_alt_text,
)
from bot.ui.limits import CONTENT
from rules import write_game


def import_view(plies: int = 30, **changes: Any) -> ImportView:
    game = random_game("international", 3, plies)
    values: dict[str, Any] = {
        "id": 41,
        "user_id": 7,
        "number": 2,
        "variant": "international",
        "white": "Ada *the* Bold",
        "black": "",
        "event": "Club night",
        "date": "2026.11.28",
        "result": game.result(),
        "plies": len(game.moves),
        "moves": tuple(
            f"{i // 2 + 1}{'.' if i % 2 == 0 else '...'} {m.pdn()}"
            for i, m in enumerate(game.moves)
        ),
        "record": write_game(game),
        "notes": (),
    }
    values.update(changes)
    return ImportView(**values)


def test_the_card_names_players_variant_result_length_event_and_date() -> None:
    view = import_view()
    assert render(card(view), "en") == (
        "Imported game #41: Ada \\*the\\* Bold v ? (International draughts), no result after "
        "30 plies.\n"
        "Club night · 2026\\.11.28"  # escaped: "2026." would start a list
    )
    plain = import_view(event="", date="", plies=1)
    assert render(card(plain), "en").endswith("after 1 ply.")
    assert "Ada *the* Bold (White) v ? (Black)" in replay_alt_text(view, "en")


def test_a_files_games_are_listed_with_the_unreadable_ones_named() -> None:
    listing = ImportListing(
        games=(import_view(), import_view(id=42, number=3)),
        refused=(verbatim("game 1 (line 1): no moves and no tags: nothing to import"),),
        total=40,
        first=1,
    )
    assert render(listing_text(listing), "en").splitlines() == [
        "The file holds 40 games; 2 can be imported here. Pick one to show:",
        "Only the first games are listed: import the file again with the number of the game you "
        "want (at most 1000).",
        "• game 1 (line 1): no moves and no tags: nothing to import",
    ]


def test_the_readers_repairs_are_listed_then_counted() -> None:
    notes = tuple(verbatim(f"line {n}: skipped 'x': not PDN") for n in range(1, 9))
    lines = render(notes_text(import_view(notes=notes)), "en").splitlines()
    assert lines[0] == "The file was not quite PDN; this is how it was read:"
    assert lines[1:6] == [f"• line {n}: skipped 'x': not PDN" for n in range(1, 6)]
    assert lines[6] == "…and 3 more."


def options_of(out: Any) -> tuple[list[str], list[str], list[str]]:
    """The ply menu's values and labels, and every item's custom id, of a panel."""
    items = out.view.children
    menu = next(item for item in items if isinstance(item, ImportSelect))
    values = [o.value for o in menu.item.options]
    labels = [o.label for o in menu.item.options]
    return values, labels, [item.custom_id for item in items]


@pytest.mark.parametrize("plies", [0, 1, 24, 25, 61])
def test_every_position_of_the_game_is_on_a_page_of_the_panel(plies: int) -> None:
    kit = ImportKit()
    view = import_view(plies)
    reached: set[int] = set()
    last = page_of(view.plies)
    for page in range(last + 1):
        values, labels, ids = options_of(position_panel(kit, view, page, "en"))
        assert 1 <= len(values) <= 25 and all(len(label) <= 100 for label in labels)
        assert all(len(custom_id) <= 100 for custom_id in ids)
        reached |= {int(v) for v in values}
        assert ids[0] == f"import:ply:41:{page}"
        pages = [int(i.rsplit(":", 1)[1]) for i in ids if i.startswith("import:page:")]
        assert pages == [p for p in (page - 1, page + 1) if 0 <= p <= last]
    assert reached == set(range(view.plies + 1))
    # the panel opens on the page of the final position, which is marked
    values, labels, _ids = options_of(position_panel(kit, view, last, "en"))
    assert values[-1] == str(view.plies)
    if view.plies:
        assert labels[-1] == f"{view.moves[-1]} (final position)"
    assert labels[0] == ("Start" if last == 0 else view.moves[int(values[0]) - 1])


def test_the_ids_of_the_buttons_and_menus_are_read_back() -> None:
    kit = ImportKit()
    button = kit.button("replay", 41)  # type: ignore[arg-type]
    assert re.fullmatch(ImportButton.__discord_ui_compiled_template__, button.custom_id)
    assert re.fullmatch(
        ImportButton.__discord_ui_compiled_template__, "import:page:41:3"
    ) and not re.fullmatch(ImportButton.__discord_ui_compiled_template__, "import:nope:41")
    assert re.fullmatch(ImportSelect.__discord_ui_compiled_template__, "import:pick:41:0")


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_language_fits_discords_limits(code: str) -> None:
    long_note = verbatim("line 9: skipped '" + "x" * 40 + "': not PDN")
    view = import_view(
        61, white="W" * 200, black="B" * 200, event="E" * 200, notes=(long_note,) * 30
    )
    listing = ImportListing(tuple(import_view(id=i) for i in range(25)), (long_note,) * 10, 1000, 1)
    for text in (card(view), listing_text(listing), notes_text(view)):
        assert 0 < len(render(text, code)) <= CONTENT
    assert len(replay_alt_text(view, code)) > 0
    for page in range(page_of(view.plies) + 1):
        out = position_panel(ImportKit(), view, page, code)
        assert out.content and len(out.content) <= CONTENT
        _values, labels, _ids = options_of(out)
        assert all(0 < len(label) <= 100 for label in labels)
    assert position_label(view, 0, code) == render(verbatim(position_label(view, 0, code)), code)
