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
            "ENGINE_ENDGAME_PIECES",
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
            "ENGINE_ENDGAME_PIECES": " 6 ",
            "UNRELATED": "ignored",
        }
    )
    assert settings.token == SECRET
    assert settings.database_path == Path("/srv/bot/games.db")
    assert settings.dev_guild_id == 123456789012345678
    assert settings.log_level == "DEBUG"
    assert settings.challenge_expiry == 2.5
    assert settings.scheduler_interval == 0.05
    assert settings.engine_endgame_pieces == 6


@pytest.mark.parametrize(
    "written",
    [
        f'"{SECRET}" # mine',
        f"'{SECRET}'",
        f'"{SECRET}"#mine',
        f"{SECRET} # mine",
        f'  "{SECRET}"  ',
    ],
)
def test_a_value_passed_literally_is_read_as_a_shell_reads_its_env_line(written: str) -> None:
    """``docker run --env-file`` and podman pass quotes and comments on: the bot reads the
    value as Compose, a shell or python-dotenv would."""
    settings = Settings.from_env({"DISCORD_TOKEN": written, "DATABASE_PATH": '"/data/x.db" # vol'})
    assert settings.token == SECRET
    assert settings.database_path == Path("/data/x.db")


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
        ("ENGINE_ENDGAME_PIECES", "1"),
        ("ENGINE_ENDGAME_PIECES", "7"),
        ("ENGINE_ENDGAME_PIECES", "5.5"),
        ("ENGINE_ENDGAME_PIECES", "many"),
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


# -- PostgreSQL and shards ---------------------------------------------------------------------

PG_URL = "postgresql://draughts:pa%40ss-w0rd@db.example:5432/games"


@pytest.mark.parametrize(
    "url", [PG_URL, "postgres://u@localhost/db", "postgresql://u:p@127.0.0.1:5433/db?sslmode=off"]
)
def test_a_postgresql_url_chooses_postgresql(url: str) -> None:
    settings = Settings.from_env({"DATABASE_URL": f"  {url} "})
    assert settings.database_url == url
    assert settings.database == url


def test_without_a_url_the_sqlite_file_is_the_database() -> None:
    settings = Settings.from_env({"DATABASE_URL": "  "})
    assert settings.database_url is None
    assert settings.database == Path(DEFAULT_DATABASE_PATH)
    assert settings.database_shown == str(Path(DEFAULT_DATABASE_PATH))


@pytest.mark.parametrize(
    "url",
    [
        "mysql://u:hunter2@host/db",
        "sqlite:///data/draughts.db",
        "./data/draughts.db",
        "postgresql://u:hunter2@host:port/db",
        "postgresql:///db",
    ],
)
def test_any_other_database_url_is_refused_without_quoting_its_password(url: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"DATABASE_URL": url})
    message = str(refused.value)
    assert "DATABASE_URL" in message
    assert "hunter2" not in message


def test_repr_and_shown_database_mask_the_password() -> None:
    settings = Settings.from_env({"DATABASE_URL": PG_URL, "DISCORD_TOKEN": SECRET})
    text = repr(settings)
    assert "pa%40ss-w0rd" not in text and "pa@ss-w0rd" not in text and SECRET not in text
    assert "database_url='postgresql://draughts:***@db.example:5432/games'" in text
    assert settings.database_shown == "postgresql://draughts:***@db.example:5432/games"
    # The log filter is given the password as written and decoded, and the token.
    assert set(settings.secrets()) == {SECRET, "pa%40ss-w0rd", "pa@ss-w0rd"}


def test_a_password_in_the_query_is_masked_and_known_to_the_log_filter() -> None:
    """libpq and asyncpg also read ``?password=`` (and ``sslpassword``): 724ab3b logged it."""
    from bot.logging_setup import RedactingFilter

    url = "postgresql://draughts@db.example:5432/games?sslmode=require&password=s%40cr+t&sslpassword=k3y"
    settings = Settings.from_env({"DATABASE_URL": url})
    shown = settings.database_shown
    assert shown == (
        "postgresql://draughts@db.example:5432/games?sslmode=require&password=***&sslpassword=***"
    )
    assert f"database_url='{shown}'" in repr(settings)
    assert {"s%40cr+t", "s@cr t", "s@cr+t", "k3y"} <= set(settings.secrets())
    said = RedactingFilter(settings.secrets()).redact(f"cannot reach {url}; s@cr t was refused")
    assert "s%40cr" not in said and "s@cr" not in said and "k3y" not in said, said
    # Any address's query password, even one the settings do not know.
    other = RedactingFilter().redact("connect to postgres://bob@other/db?password=s3cr3t&x=1")
    assert other == "connect to postgres://bob@other/db?password=[redacted]&x=1"


def test_the_log_filter_hides_database_passwords() -> None:
    from bot.logging_setup import RedactingFilter

    settings = Settings.from_env({"DATABASE_URL": PG_URL})
    redacting = RedactingFilter(settings.secrets())
    record = logging.LogRecord(
        "asyncpg",
        logging.ERROR,
        __file__,
        1,
        "cannot reach %s (password %s)",
        (PG_URL, "pa@ss-w0rd"),
        None,
    )
    redacting.filter(record)
    assert "pa%40ss" not in record.getMessage() and "pa@ss" not in record.getMessage()
    # Any postgresql:// address's password, even one the settings do not know.
    other = RedactingFilter().redact("connect to postgres://bob:s3cr3t@other/db failed")
    assert "s3cr3t" not in other and "postgres://bob:" in other


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("4", "0-1", (0, 1)),
        ("4", " 2-3 ", (2, 3)),
        ("4", "0,2, 3", (0, 2, 3)),
        ("8", "0-1,5,1-2", (0, 1, 2, 5)),
        ("1", "0", (0,)),
        ("4", "", None),
    ],
)
def test_shard_settings_are_parsed(count: str, ids: str, expected: tuple[int, ...] | None) -> None:
    settings = Settings.from_env({"SHARD_COUNT": count, "SHARD_IDS": ids})
    assert settings.shard_count == int(count)
    assert settings.shard_ids == expected


def test_no_shard_settings_mean_discord_decides() -> None:
    settings = Settings.from_env({})
    assert settings.shard_count is None and settings.shard_ids is None


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT"),
        ({"SHARD_IDS": "0-1"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "4"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-5"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a,b"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "-1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,,1"}, "SHARD_IDS"),
    ],
)
def test_bad_shard_settings_are_refused(env: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError, match=named):
        Settings.from_env(env)


def test_the_heartbeat_file_follows_the_database() -> None:
    sqlite = Settings.from_env({"DATABASE_PATH": "/srv/bot/games.db"})
    assert sqlite.heartbeat_file == Path("/srv/bot/games.db-alive")
    postgres = Settings.from_env({"DATABASE_PATH": "/data/draughts.db", "DATABASE_URL": PG_URL})
    assert postgres.heartbeat_file == Path("/data/heartbeat")
    assert Settings.from_env({"DATABASE_URL": PG_URL}).heartbeat_file == Path("data/heartbeat")
    chosen = Settings.from_env({"DATABASE_URL": PG_URL, "HEARTBEAT_PATH": "/run/bot/alive"})
    assert chosen.heartbeat_file == Path("/run/bot/alive")
