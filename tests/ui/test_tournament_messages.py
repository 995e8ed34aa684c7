"""A tournament's messages, in process: the announcement, the pairings, the lists, the
standings post, each within Discord's limits and in the reader's language."""

from __future__ import annotations

import io
import re
from dataclasses import replace

import discord
from PIL import Image

from bot.enums import TournamentStatus
from bot.i18n import verbatim
from bot.results import Action, ActionResult, PairingView, TimeControl, TournamentView
from bot.tournaments.model import Entrant, Format, Standing, Table, Tiebreak
from bot.ui.limits import CHOICE_NAME, CONTENT, EMBEDS_TOTAL, THREAD_NAME, embed_size
from bot.ui.replies import Outgoing
from bot.ui.tournament_buttons import TournamentKit
from bot.ui.tournament_delivery import MAX_PAGES, TournamentPosts, is_over, standings_post
from bot.ui.tournament_embeds import (
    announcement_embed,
    event_line,
    events_embed,
    listing_embed,
    number_choices,
    pairing_choice,
    pairing_content,
    thread_title,
)

ANN = Entrant(id=11, name="Ann", rating=1620.0, number=1)
BOB = Entrant(id=12, name="Bob", rating=1480.0, number=2)
CID = Entrant(id=13, name="Cid *the* `Great`", rating=1710.0, number=3)


def event(players: tuple[Entrant, ...] = (ANN, BOB, CID), **changes: object) -> TournamentView:
    """Tournament #7 of server 10, a Swiss of 5 rounds on 3+2, taking entries."""
    rows = tuple(
        Standing(
            rank=n,
            entrant=p,
            points=float(len(players) - n),
            tiebreaks=(1.0, 0.5),
            cells=(),
            games=0,
        )
        for n, p in enumerate(players, 1)
    )
    view = TournamentView(
        id=7,
        guild_id=10,
        channel_id=100,
        name="Friday blitz",
        format=Format.SWISS,
        variant="english",
        variant_title=verbatim("English draughts / American checkers"),
        move_time=86400,
        clock=TimeControl(180, 2),
        rated=True,
        rounds=5,
        double=False,
        duration=None,
        starts_at=1_900_000_000.0,
        min_rating=1400,
        max_rating=1700,
        max_players=16,
        forfeit_after=600.0,
        berserk=False,
        bye_points=1.0,
        status=TournamentStatus.OPEN,
        round=0,
        message_id=None,
        created_by=11,
        ends_at=None,
        players=players,
        table=Table(
            format=Format.SWISS,
            tiebreaks=(Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER),
            rows=rows,
            rounds=5,
        ),
        pairings=(),
    )
    return replace(view, **changes)  # type: ignore[arg-type]


def fields(embed: discord.Embed) -> dict[str, str]:
    return {str(f.name): str(f.value) for f in embed.fields}


def test_the_announcement_shows_the_terms_the_start_and_who_joined() -> None:
    embed = announcement_embed(event(), "en")
    assert embed.title == "Tournament: Friday blitz"
    assert embed.description == "Taking entries: starts <t:1900000000:f> (<t:1900000000:R>)"
    assert fields(embed) == {
        "Format": "Swiss, 5 rounds",
        "Variant": "English draughts / American checkers",
        "Clock": "3+2 (Blitz)",
        "Rated": "yes",
        "Who may join": "rated 1400 to 1700",
        "Places": "16 at most",
        "No-shows": "a game not begun within 10 minutes is lost",
        # best seed first; a name is shown as text, never as Markdown
        "Players (3)": "Cid \\*the\\* \\`Great\\` (1710), Ann (1620), Bob (1480)",
    }
    assert embed.footer.text == "Tournament #7"
    german = announcement_embed(event(), "de")
    assert german.title == "Turnier: Friday blitz"
    assert fields(german)["Format"] == "Schweizer System, 5 Runden"


def test_the_announcement_is_the_live_leader_board_once_games_count() -> None:
    """Edited at every round (every wave of an arena), the announcement shows the top of the
    table: rank, name as text, points, and an arena player's flame."""
    assert "Leaders" not in fields(announcement_embed(event(), "en"))  # entries still open
    assert "Bye" not in fields(announcement_embed(event(), "en"))  # FIDE's point: not said
    assert fields(announcement_embed(event(bye_points=0.5), "en"))["Bye"] == "scores ½"
    running = event(status=TournamentStatus.RUNNING, round=2)
    assert fields(announcement_embed(running, "en"))["Leaders"] == (
        "1. Ann · **2**\n2. Bob · **1**\n3. Cid \\*the\\* \\`Great\\` · **0**"
    )
    nothing_yet = replace(
        running,
        table=replace(
            running.table, rows=tuple(replace(row, points=0.0) for row in running.table.rows)
        ),
    )
    assert "Leaders" not in fields(announcement_embed(nothing_yet, "en"))
    many = tuple(Entrant(id=20 + n, name=f"P{n}", rating=1500.0, number=n) for n in range(1, 9))
    arena = event(players=many, format=Format.ARENA, status=TournamentStatus.RUNNING)
    rows = tuple(replace(row, on_fire=row.rank == 1, points=2.5) for row in arena.table.rows)
    arena = replace(arena, table=replace(arena.table, rows=rows))
    leaders = fields(announcement_embed(arena, "de"))["Führende"].split("\n")
    assert leaders[0] == "1. P1 · **2½** 🔥" and len(leaders) == 5


def test_the_announcement_follows_the_event_and_keeps_within_discords_limits() -> None:
    running = announcement_embed(event(status=TournamentStatus.RUNNING, round=2), "en")
    assert running.description == "Running: round 2 of 5"
    by_hand = announcement_embed(event(starts_at=None, players=()), "en")
    assert by_hand.description == "Taking entries: starts when a moderator starts it"
    assert fields(by_hand)["Players (0)"] == "nobody yet: press Join"
    arena = event(
        format=Format.ARENA,
        rounds=None,
        duration=3600.0,
        berserk=True,
        status=TournamentStatus.RUNNING,
        ends_at=1_900_003_600.0,
        round=1,
    )
    shown = announcement_embed(arena, "en")
    assert shown.description == "Running: ends <t:1900003600:R>"
    assert fields(shown)["Format"] == "Arena, 1 hour"
    assert "Berserk" in fields(shown)
    crowd = tuple(Entrant(id=n, name="W" * 32, rating=1500.0 + n, number=n) for n in range(1, 501))
    for code in ("en", "de", "ru"):
        big = announcement_embed(event(players=crowd), code)
        assert embed_size(big) <= EMBEDS_TOTAL
        assert all(len(str(f.value)) <= 1024 for f in big.fields)
    listed = str(big.fields[-1].value)
    left = re.search(r"… и ещё (\d+)\.$", listed)  # the rest are counted
    assert left is not None and listed.count(" (") + int(left[1]) == 500


def test_join_and_leave_are_offered_only_while_entries_are_taken() -> None:
    kit = TournamentKit()

    def ids(view: TournamentView) -> list[str]:
        shown = kit.announcement(view.id, open_=view.open, code="en", over=is_over(view))
        return [item.custom_id for item in shown.children]  # type: ignore[attr-defined]

    assert ids(event())[:2] == ["tournament:join:7", "tournament:leave:7"]
    late_entry = event(status=TournamentStatus.RUNNING, round=2)
    assert ids(late_entry)[:2] == ["tournament:join:7", "tournament:leave:7"]
    closed = event(format=Format.ROUND_ROBIN, status=TournamentStatus.RUNNING, round=1)
    assert ids(closed) == ["tournament:standings:7", "tournament:manage:7"]
    over = ["tournament:standings:7"]  # nothing left to manage
    assert ids(event(status=TournamentStatus.FINISHED)) == over
    assert ids(event(status=TournamentStatus.CANCELLED)) == over


def test_a_pairing_pings_both_players_and_names_its_thread() -> None:
    board = PairingView(7, 2, 3, ANN, BOB, None, None, None)
    bye = PairingView(8, 2, 4, CID, None, None, None, None, white_points=1.0)
    view = event(status=TournamentStatus.RUNNING, round=2)
    assert pairing_content(view, board, "en") == (
        "Round 2, board 3: <@11> (White) v <@12> (Black) · pairing #7"
    )
    assert pairing_content(view, bye, "en") == "Round 2: <@13> has a bye and scores 1."
    arena = replace(view, format=Format.ARENA)
    assert pairing_content(arena, board, "en") == (
        "Pairing #7: <@11> (White) v <@12> (Black): your game is in the thread below."
    )
    assert thread_title(view, board, "en") == "R2 B3: Ann v Bob"
    long = PairingView(
        9, 2, 1, replace(ANN, name="A" * 80), replace(BOB, name="B" * 80), *[None] * 3
    )
    assert len(thread_title(view, long, "en")) > THREAD_NAME  # cut when the thread is opened
    assert pairing_choice(board, "en") == ("#7 R2 B3: Ann v Bob", 7)
    assert pairing_choice(bye, "en") == ("#8 R2: Cid *the* `Great` (bye)", 8)


def test_suggestions_hold_what_is_typed_within_discords_limits() -> None:
    offered = [(f"#{n} {'x' * 120}", n) for n in range(1, 40)]
    every = number_choices(offered, "")
    assert len(every) == 25 and all(len(c.name) <= CHOICE_NAME for c in every)
    assert [c.value for c in number_choices(offered, "#3")] == [3, 13, 23, *range(30, 40)]


def test_the_lists_name_each_event_with_its_state_or_winner() -> None:
    running = event(status=TournamentStatus.RUNNING, round=2)
    listed = listing_embed([running], "en")
    assert listed.title == "Tournaments (1)"
    assert listed.description == (
        "**#7** Friday blitz · Swiss, 5 rounds · 3+2 (Blitz) · 3 players · Running: round 2 of 5"
    )
    assert "`/tournament create`" in str(listing_embed([], "en").description)
    done = event(status=TournamentStatus.FINISHED)
    assert event_line(done, "en") == (
        "**#7** Friday blitz · Swiss, 5 rounds · 3 players · won by Ann"
    )
    assert events_embed([done], "pl").title == "Zakończone turnieje (1)"


async def test_the_standings_post_is_a_picture_per_page_with_alt_text_and_the_text() -> None:
    out = await standings_post(event(), "en", label="r2")
    assert out.content is not None and len(out.content) <= CONTENT and "```" in out.content
    [picture] = out.files
    assert picture.name == "standings-7-r2-1.png" and "Friday blitz" in picture.description
    assert Image.open(io.BytesIO(picture.data)).format == "PNG"
    crowd = tuple(Entrant(id=n, name=f"Player {n}", rating=1500.0, number=n) for n in range(1, 171))
    many = await standings_post(event(players=crowd), "de", final=True, label="final")
    assert len(many.files) == MAX_PAGES  # 11 pages drawn, Discord takes 10 a message
    assert [f.name for f in many.files][-1] == "standings-7-final-10.png"
    assert all(f.description for f in many.files)


async def test_a_round_announced_again_reuses_its_posts() -> None:
    """The tick announces a round again when its games are not all open after two minutes,
    perhaps while the first announcement is still being posted: its line, its standings and
    its pairings' messages are not posted a second time (here: byes, which open no game)."""
    sent: list[Outgoing] = []

    async def send(out: Outgoing) -> int:
        sent.append(out)
        return 1000 + len(sent)

    byes = (
        PairingView(21, 2, 1, ANN, None, None, None, None, white_points=1.0),
        PairingView(22, 2, 2, BOB, None, None, None, None, white_points=1.0),
    )
    view = event(status=TournamentStatus.RUNNING, round=2, pairings=byes)
    result = ActionResult(Action.ROUND_PAIRED, verbatim("Round 2 is paired."), tournament=view)
    posts = TournamentPosts(None, None, TournamentKit(), None, None)  # type: ignore[arg-type]
    await posts.pairings(send, result, view, "en")
    assert [out.part for out in sent] == ["news-r2", "standings-r2", "pairing-21", "pairing-22"]
    await posts.pairings(send, result, view, "en")
    assert len(sent) == 4
    later = replace(view, pairings=(*byes, PairingView(23, 2, 3, CID, None, *[None] * 3)))
    await posts.pairings(send, result, later, "en")
    assert [out.part for out in sent[4:]] == ["pairing-23"]
