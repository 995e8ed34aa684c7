"""``/tournament create``'s options as the bot reads them, and the tournament buttons' ids."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.errors import TournamentError
from bot.i18n.catalogs import as_typed
from bot.tournaments.model import Format
from bot.ui.choices import FORMAT  # registers the choices sentences show typed
from bot.ui.tournament_buttons import TournamentAction, TournamentButton, TournamentKit
from bot.ui.tournament_terms import (
    LONGEST_WAIT,
    check_format_options,
    check_rating_range,
    start_choices,
    start_time,
)

NOW = datetime(2026, 11, 28, 20, 0, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("15", 15 * 60),
        ("15m", 15 * 60),
        ("15 min", 15 * 60),
        ("2h", 2 * 3600),
        ("1h30m", 90 * 60),
        ("1d", 86400),
        ("0", 0),
        ("21:30", 90 * 60),  # today, later
        ("19:00", 23 * 3600),  # passed today: tomorrow's
        ("2026-12-24 18:00", (26 * 24 - 2) * 3600),
        (f"<t:{int(NOW) + 3600}:F>", 3600),
    ],
)
def test_a_start_is_minutes_from_now_or_a_time_in_utc(text: str, seconds: float) -> None:
    assert start_time(text, NOW) == NOW + seconds


def test_a_delay_is_scaled_as_the_bots_other_times_but_a_time_of_day_is_not() -> None:
    assert start_time("10", NOW, scale=0.01) == NOW + 6
    assert start_time("21:30", NOW, scale=0.01) == NOW + 90 * 60


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("soon", "write the start as minutes from now"),
        ("25:00", "write the start as minutes from now"),
        ("2026-02-30 10:00", "write the start as minutes from now"),
        ("2026-11-27 10:00", "that start time has passed"),
        ("2027-12-24 18:00", "a tournament can start at most"),
        ("9999d", "a tournament can start at most"),
    ],
)
def test_a_start_that_cannot_be_is_refused_saying_why(text: str, words: str) -> None:
    with pytest.raises(TournamentError) as refused:
        start_time(text, NOW)
    assert words in str(refused.value)
    assert LONGEST_WAIT == 90 * 86400


def test_start_suggestions_read_back_what_is_typed_then_offer_delays() -> None:
    offered = start_choices("21:30", NOW, "en")
    assert offered[0].value == "21:30" and "2026-11-28 21:30 UTC" in offered[0].name
    assert [c.value for c in offered[1:]] == ["5", "15", "30", "60", "1440"]
    assert offered[2].name == "in 15 minutes"
    assert start_choices("nonsense", NOW, "en")[0].value == "5"
    assert start_choices("", NOW, "de")[1].name == "in 15 Minuten"


@pytest.mark.parametrize(
    ("format", "options", "refusal"),
    [
        (Format.ROUND_ROBIN, {"rounds": 5}, "`rounds` is for Swiss tournaments only"),
        (Format.SWISS, {"double": True}, "`double` is for round robins only"),
        (Format.SWISS, {"duration_minutes": 60}, "`duration` is for arenas only"),
        (Format.ROUND_ROBIN, {"berserk": True}, "berserk is for arenas only"),
        (Format.ARENA, {}, "an arena needs a `duration`"),
        (Format.ARENA, {"duration_minutes": 60, "berserk": True}, "berserk halves a clock"),
        (Format.ROUND_ROBIN, {"bye": "0.5"}, "`bye` is for Swiss tournaments only"),
    ],
)
def test_an_option_the_format_has_no_use_for_is_refused(
    format: Format, options: dict[str, object], refusal: str
) -> None:
    terms: dict[str, object] = {
        "rounds": None,
        "double": None,
        "duration_minutes": None,
        "berserk": None,
        "clocked": False,
    }
    with pytest.raises(TournamentError) as refused:
        check_format_options(format, **{**terms, **options})  # type: ignore[arg-type]
    assert refusal in str(refused.value)


def test_each_format_takes_its_own_options() -> None:
    check_format_options(
        Format.SWISS,
        rounds=5,
        double=None,
        duration_minutes=None,
        berserk=None,
        clocked=False,
        bye="0.5",
    )
    check_format_options(
        Format.ROUND_ROBIN,
        rounds=None,
        double=True,
        duration_minutes=None,
        berserk=None,
        clocked=True,
    )
    check_format_options(
        Format.ARENA, rounds=None, double=None, duration_minutes=60, berserk=True, clocked=True
    )
    check_rating_range(1200, 1200)
    with pytest.raises(TournamentError):
        check_rating_range(1600, 1400)


# -- the buttons ---------------------------------------------------------------------------


async def test_a_tournament_buttons_id_names_its_action_and_event_and_nothing_else() -> None:
    kit = TournamentKit()
    view = kit.announcement(7, open_=True, code="en")
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert ids == [
        "tournament:join:7",
        "tournament:leave:7",
        "tournament:standings:7",
        "tournament:manage:7",
    ]
    assert [i.custom_id for i in kit.announcement(7, open_=False, code="en").children] == [  # type: ignore[attr-defined]
        "tournament:standings:7",
        "tournament:manage:7",
    ]
    panel = kit.panel(7, started=True, paused=True, code="de")
    assert [i.custom_id for i in panel.children] == [  # type: ignore[attr-defined]
        "tournament:resume:7",
        "tournament:cancel:7",
    ]
    template = TournamentButton.__discord_ui_compiled_template__
    match = template.fullmatch("tournament:pdn:12")
    assert match is not None
    rebuilt = await kit.button.from_custom_id(None, None, match)  # type: ignore[arg-type]
    assert (rebuilt.action, rebuilt.tournament_id) == (TournamentAction.PDN, 12)
    for forged in ("tournament:delete:7", "tournament:join:-1", "tournament:join:" + "9" * 20):
        assert template.fullmatch(forged) is None


def test_a_sentence_names_a_subcommand_as_the_readers_client_lists_it() -> None:
    """``/tournament create`` in /help reads ``/turnier erstellen`` in German: the group and its
    subcommand are both put in by their names in the reader's language."""
    assert as_typed("`/tournament create format:swiss`", "de") == (
        "`/turnier erstellen format:Schweizer System`"
    )
    assert as_typed("`/tournament standings`", "en") == "`/tournament standings`"
    assert as_typed("`/draw offer|accept`", "de") == "`/remis anbieten|annehmen`"
    assert [c.value for c in FORMAT.choices] == ["swiss", "round_robin", "arena"]
