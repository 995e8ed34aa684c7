"""``/lobby``'s page and an open challenge's message, in process: pages of five with Previous /
Next, an Accept button per challenge, the rating range in words, and every language within
Discord's limits (the real catalogs)."""

from __future__ import annotations

import pytest
from test_bot_ui import ALICE, challenge_view
from test_i18n import LANGUAGES

from bot.ui.buttons import Buttons
from bot.ui.embeds import challenge_embed
from bot.ui.limits import BUTTON_LABEL, EMBED_DESCRIPTION
from bot.ui.lobby import LobbyKit, lobby_page

OPEN = {"opponent": None, "min_rating": 1400, "max_rating": 1700, "thread": False}


def ids(view: object) -> list[str]:
    return [item.custom_id for item in view.children]  # type: ignore[attr-defined]


def test_the_lobby_pages_five_challenges_at_a_time() -> None:
    kit = LobbyKit()
    listed = [challenge_view(id=i, **OPEN) for i in range(1, 13)]
    embed, view = lobby_page(kit, listed, 0, "en")
    assert embed.title == "Open challenges (12)"
    assert embed.footer.text == "Page 1 of 3"
    assert ids(view) == [f"lobby:accept:{i}" for i in range(1, 6)] + ["lobby:page:1"]
    lines = (embed.description or "").splitlines()
    assert len(lines) == 5
    assert lines[0].startswith(
        "**#1** Alice · German Dame (Brettspielnetz rules) · 1 hour a move · <#100> · "
        "rated 1400 to 1700 · expires <t:1800000000:R>"
    )
    _, middle = lobby_page(kit, listed, 1, "en")
    assert ids(middle)[-2:] == ["lobby:page:0", "lobby:page:2"]
    last_embed, last = lobby_page(kit, listed, 7, "en")  # past the end: the last page
    assert last_embed.footer.text == "Page 3 of 3"
    assert ids(last) == ["lobby:accept:11", "lobby:accept:12", "lobby:page:1"]
    empty, nothing = lobby_page(kit, [], 0, "en")
    assert empty.title == "Open challenges (0)" and ids(nothing) == []
    assert empty.description == "No open challenges. Post one with `/challenge` and no opponent."


def test_an_open_challenge_names_nobody_and_offers_no_decline() -> None:
    challenge = challenge_view(**OPEN)
    embed = challenge_embed(challenge)
    assert embed.description == (
        f"<@{ALICE.id}> offers a game of German Dame (Brettspielnetz rules): anyone here may "
        "accept."
    )
    assert {f.name: f.value for f in embed.fields}["Rating range"] == "rated 1400 to 1700"
    assert ids(Buttons().challenge(7, open_to_all=True)) == [
        "challenge:accept:7",
        "challenge:cancel:7",
    ]
    only_low = challenge_embed(challenge_view(**{**OPEN, "max_rating": None}))
    assert {f.name: f.value for f in only_low.fields}["Rating range"] == "rated 1400 or more"


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_lobby_fits_discord_in_every_language(code: str) -> None:
    listed = [challenge_view(id=10**18 + i, match=True, **OPEN) for i in range(5)]
    embed, view = lobby_page(LobbyKit(), listed * 2, 1, code)
    assert len(embed.description or "") <= EMBED_DESCRIPTION
    assert "Open challenges" not in (embed.title or "")  # translated
    labels = [item.item.label or "" for item in view.children]  # type: ignore[attr-defined]
    assert all(0 < len(words) <= BUTTON_LABEL for words in labels)
    assert len(view.children) == 6
