"""Settings from the environment (``bot.config``): defaults, parsing, refusals, secrecy."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot import __main__ as entry
from bot.config import DEFAULT_DATABASE_PATH, Settings, SettingsError
from bot.service import GameService

SECRET = "MTIzNDU2Nzg5.secret-token-value"


def test_defaults_from_an_empty_environment() -> None:
    settings = Settings.from_env({})
    assert settings.token == ""
    assert settings.database_path == Path("./data/draughts.db")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.challenge_expiry == 15 * 60
    assert settings.scheduler_interval == 5.0
    assert settings == Settings()


def test_blank_values_mean_the_defaults() -> None:
    blank = {
        name: "  "
        for name in (
            "DISCORD_TOKEN",
            "DATABASE_PATH",
            "DEV_GUILD_ID",
            "LOG_LEVEL",
            "CHALLENGE_EXPIRY_SECONDS",
            "SCHEDULER_INTERVAL_SECONDS",
        )
    }
    assert Settings.from_env(blank) == Settings()


def test_values_are_parsed_and_trimmed() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": f"  {SECRET}\n",
            "DATABASE_PATH": " /srv/bot/games.db ",
            "DEV_GUILD_ID": " 123456789012345678 ",
            "LOG_LEVEL": "debug",
            "CHALLENGE_EXPIRY_SECONDS": "2.5",
            "SCHEDULER_INTERVAL_SECONDS": "0.05",
            "UNRELATED": "ignored",
        }
    )
    assert settings.token == SECRET
    assert settings.database_path == Path("/srv/bot/games.db")
    assert settings.dev_guild_id == 123456789012345678
    assert settings.log_level == "DEBUG"
    assert settings.challenge_expiry == 2.5
    assert settings.scheduler_interval == 0.05


def test_from_env_reads_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_PATH", "elsewhere.db")
    monkeypatch.setenv("LOG_LEVEL", "warning")
    settings = Settings.from_env()
    assert settings.database_path == Path("elsewhere.db") and settings.log_level == "WARNING"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "abc"),
        ("DEV_GUILD_ID", "1.5"),
        ("DEV_GUILD_ID", "0"),
        ("DEV_GUILD_ID", "-7"),
        ("LOG_LEVEL", "loud"),
        ("LOG_LEVEL", "NOTSET"),
        ("CHALLENGE_EXPIRY_SECONDS", "soon"),
        ("CHALLENGE_EXPIRY_SECONDS", "0"),
        ("CHALLENGE_EXPIRY_SECONDS", "0.5"),
        ("CHALLENGE_EXPIRY_SECONDS", "nan"),
        ("SCHEDULER_INTERVAL_SECONDS", "0"),
        ("SCHEDULER_INTERVAL_SECONDS", "-1"),
        ("SCHEDULER_INTERVAL_SECONDS", "nan"),
        ("SCHEDULER_INTERVAL_SECONDS", "fast"),
    ],
)
def test_bad_values_are_refused_naming_the_setting(name: str, value: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env({name: value})
    assert name in str(info.value)
    assert isinstance(info.value, ValueError)


def test_an_infinite_scheduler_interval_is_refused() -> None:
    """``inf`` would put the scheduler to sleep for ever: no reminder or timeout would fire."""
    with pytest.raises(SettingsError, match="SCHEDULER_INTERVAL_SECONDS"):
        Settings.from_env({"SCHEDULER_INTERVAL_SECONDS": "inf"})


def test_repr_never_shows_the_token(caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": SECRET, "LOG_LEVEL": "DEBUG"})
    for text in (repr(settings), str(settings), f"{settings}", f"{settings!r}", repr([settings])):
        assert SECRET not in text
        assert "token='***'" in text
    assert "database_path=" in repr(settings) and "log_level='DEBUG'" in repr(settings)
    with caplog.at_level(logging.INFO):
        logging.getLogger("test").info("settings: %s / %r", settings, settings)
    assert SECRET not in caplog.text
    assert SECRET not in repr(Settings(token=SECRET))


def test_default_database_path_matches_the_documented_one() -> None:
    assert DEFAULT_DATABASE_PATH == "./data/draughts.db" == entry.DEFAULT_DATABASE_PATH


async def test_the_default_database_directory_is_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = Settings.from_env({})
    service = await GameService.open(settings.database_path, bot_user_id=1)
    await service.close()
    assert (tmp_path / "data" / "draughts.db").is_file()


async def test_the_configured_database_path_is_used(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "games.db"
    settings = Settings.from_env({"DATABASE_PATH": str(path)})
    service = await GameService.open(
        settings.database_path, bot_user_id=1, challenge_expiry=settings.challenge_expiry
    )
    try:
        assert service.store.path == path
        assert service.challenge_expiry == 15 * 60
    finally:
        await service.close()
    assert path.is_file()
