"""The container path's promises across the files that make them: the README's and
OPERATIONS.md's ``docker run`` lines, the Dockerfile's folders and volume, and the Compose files'
volumes, read statically (issue 27, item 8).  ``tools/container_check.py`` builds and runs the
image for real where podman or Docker is installed; CI machines have neither.

Beside ``test_deploy.py`` (whose readers of the Dockerfile and the Compose files these use)
because that file holds the image's build and the pins."""

from __future__ import annotations

import re
import shlex
from pathlib import Path, PurePosixPath

from project.test_deploy import (
    ROOT,
    compose,
    env_instructions,
    image_steps,
    scale_compose,
    service,
)

README = ROOT / "README.md"
OPERATIONS = ROOT / "docs" / "OPERATIONS.md"


def shell_blocks(path: Path) -> list[str]:
    """The ``sh`` code blocks of a Markdown file, continued lines joined."""
    blocks = re.findall(r"```sh\n(.*?)```", path.read_text(), re.DOTALL)
    return [block.replace("\\\n", " ") for block in blocks]


def commands(path: Path, start: str) -> list[list[str]]:
    """Every command line of ``path``'s shell blocks that starts with ``start`` (its words)."""
    found = []
    for block in shell_blocks(path):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words[: len(start.split())] == start.split():
                found.append(words)
    return found


def options(words: list[str]) -> dict[str, list[str]]:
    """``docker run``'s options and their values (``-d`` and ``--init`` take none)."""
    flags = {"-d", "--init", "--read-only", "--rm"}
    found: dict[str, list[str]] = {}
    rest = words[2:]
    while rest and rest[0].startswith("-"):
        name = rest.pop(0)
        value = "" if name in flags else rest.pop(0)
        found.setdefault(name, []).append(value)
    return found


def data_folder() -> str:
    return str(PurePosixPath(env_instructions(image_steps())["DATABASE_PATH"]).parent)


def readme_run() -> list[str]:
    (line,) = commands(README, "docker run")
    return line


def test_the_readmes_run_line_keeps_everything_on_the_volume_and_nothing_else():
    """Without ``--read-only`` a database written beside the volume (an old relative
    ``DATABASE_PATH``) stayed in the container and went with it; the README's line is the one
    most people copy."""
    given = options(readme_run())
    assert "--read-only" in given
    assert given["--tmpfs"] == ["/tmp"]  # the worker processes' sockets
    volumes = [v.split(":") for v in given["-v"]]
    assert [target for _, target, *_ in volumes] == [data_folder()]
    assert given["--restart"] == ["unless-stopped"] and "--init" in given
    assert float(given["--stop-timeout"][0]) >= 30
    assert given["--env-file"] == [".env"]


def test_operations_runs_the_image_as_the_readme_does():
    (line,) = commands(OPERATIONS, "docker run")
    assert options(line) == options(readme_run())
    assert line[-1] == readme_run()[-1] == "draughts-bot"


def test_podman_builds_keep_the_health_check():
    """podman's default OCI format drops HEALTHCHECK: both guides say how to keep it."""
    for path in (README, OPERATIONS):
        assert "podman build --format docker -t draughts-bot ." in path.read_text(), path


def test_every_folder_the_image_runs_in_is_made_by_a_run_step():
    """buildah and podman make a WORKDIR only for a later RUN: the last one (where the bot runs)
    and the data folder with the endgame tables' must come from a RUN, owned by the user."""
    steps = image_steps()
    workdir = [args for keyword, args in steps if keyword == "WORKDIR"][-1]
    endgame = env_instructions(steps)["ENGINE_ENDGAME_DIR"]
    made = " ".join(args for keyword, args in steps if keyword == "RUN" and "mkdir" in args)
    for folder in (workdir, data_folder(), endgame):
        assert re.search(rf"mkdir\s+-p\b[^&]*\s{re.escape(folder)}(\s|/|$)", made), folder
    assert PurePosixPath(endgame).is_relative_to(data_folder())  # on the volume
    assert re.search(rf"chown\s+\S+\s+[^&]*{re.escape(endgame)}\b", made)


def test_the_scale_bots_keep_the_endgame_tables_on_a_shared_volume():
    """/data is a tmpfs there (the heartbeat): the tables, a minute of CPU, must not be."""
    scale = scale_compose()
    endgame = env_instructions(image_steps())["ENGINE_ENDGAME_DIR"]
    bots = [s for name, s in scale["services"].items() if name.startswith("bot-")]
    assert len(bots) >= 2
    mounted = set()
    for bot in bots:
        targets = {v.split(":")[1]: v.split(":")[0] for v in bot.get("volumes", [])}
        assert endgame in targets, "the endgame tables are rebuilt at every start"
        assert endgame not in bot["tmpfs"]
        mounted.add(targets[endgame])
    (volume,) = mounted  # one volume, shared: built once for every bot
    assert volume in scale["volumes"]


def test_the_migration_reads_the_single_bots_volume_not_a_new_one():
    """OPERATIONS' migration mounts the single bot's volume by name in the scale project: the
    scale file must declare it under that name, as existing (``external``), or Compose makes an
    empty one of the project's."""
    single = compose()["volumes"]
    data_volume = next(
        v.split(":")[0] for v in service()["volumes"] if v.split(":")[1] == data_folder()
    )
    scale_volumes = scale_compose()["volumes"]
    runs = commands(OPERATIONS, "docker compose -f docker-compose.scale.yml run")
    text = OPERATIONS.read_text()
    runs += [
        shlex.split(found)
        for found in re.findall(r"`(docker compose -f docker-compose\.scale\.yml run [^`]+)`", text)
    ]
    mounted = {
        words[i + 1].split(":")[0] for words in runs for i, w in enumerate(words) if w == "-v"
    }
    assert data_volume in mounted, "OPERATIONS no longer migrates the single bot's volume"
    for name in mounted:
        assert name in scale_volumes, f"{name} is a new, empty volume in the scale project"
        assert scale_volumes[name]["name"] == single[name]["name"] == name
        assert scale_volumes[name]["external"] is True


def test_both_compose_files_restart_the_bot_as_the_readme_does():
    """Restarts: ``unless-stopped`` everywhere; a missing token or a bad setting does not loop
    under it because the bot waits in a container (tests/e2e/test_bot_entry.py)."""
    policies = {service()["restart"]}
    policies |= {
        s["restart"] for name, s in scale_compose()["services"].items() if name.startswith("bot-")
    }
    assert policies == set(options(readme_run())["--restart"]) == {"unless-stopped"}
