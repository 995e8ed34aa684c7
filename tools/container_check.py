"""Build the image and run it as the README says, against the fake Discord: the container path
checked for real, where CI cannot (it needs podman or Docker, and a base image).

    python tools/container_check.py [--engine podman|docker] [--builder buildah] [--no-build]

What it does, timing each step (docs/OPERATIONS.md, "Containers: Docker and podman", and
docs/BENCHMARKS.md record what it printed):

1. builds the image (``podman build --format docker``: the OCI default drops the HEALTHCHECK;
   or ``buildah bud --format docker``, the Docker-compatible builder, with ``--builder buildah``);
2. runs it with the README's flags (``--init --restart unless-stopped --stop-timeout 30
   --read-only --tmpfs /tmp --env-file .env -v VOLUME:/data``), plus ``--network host`` and the
   launcher of ``tests/support/`` mounted read-only as the command, which points discord.py at a
   fake Discord on 127.0.0.1 (nothing leaves the machine); waits for "ready to serve";
3. runs the image's health command, a backup into the volume, a build of Russian's endgame
   tables (into /data/endgame, as the bot's user), and a stop (SIGTERM, exit 0);
4. starts a new container on the same volume (the database and the tables are still there);
5. starts one without a token: it says so once, waits instead of exiting (no restart loop), and
   exits 2 when stopped.

It removes its containers and its volume at the end.  Needs the project's venv (the fake
Discord) and ``DISCORD_API_SPEC`` as the tests do.  Every call to the container engine while the
fake Discord runs is made from a thread: the fake must go on answering the bot meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.fake_discord import FakeDiscord  # noqa: E402

IMAGE = "draughts-bot"
VOLUME = "draughts-check-data"
NAME = "draughts-check"


def engine_run(engine: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([engine, *args], capture_output=True, text=True, timeout=600)
    if check and result.returncode != 0:
        raise SystemExit(f"{engine} {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return result


def readme_run_flags(env_file: Path) -> list[str]:
    """The flags of the README's ``docker run`` line (tests/project/test_deploy_containers.py
    holds the README and OPERATIONS.md to them)."""
    return [
        "--init",
        "--restart",
        "unless-stopped",
        "--stop-timeout",
        "30",
        "--read-only",
        "--tmpfs",
        "/tmp",
        "--env-file",
        str(env_file),
        "-v",
        f"{VOLUME}:/data",
    ]


def start(engine: str, name: str, env_file: Path, port: int) -> None:
    launcher = ROOT / "tests" / "support"
    engine_run(
        engine,
        "run",
        "-d",
        "--name",
        name,
        *readme_run_flags(env_file),
        "--network",
        "host",
        "-v",
        f"{launcher}:/support:ro",
        IMAGE,
        "python",
        "/support/discord_launcher.py",
        str(port),
        "bot.__main__:main",
        "--main",
    )


def logs(engine: str, name: str) -> str:
    result = engine_run(engine, "logs", name, check=False)
    return result.stdout + result.stderr


def wait_for(engine: str, name: str, text: str, timeout: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if text in logs(engine, name):
            return time.monotonic() - started
        time.sleep(0.1)
    raise SystemExit(f"{name}: no {text!r} within {timeout} s:\n{logs(engine, name)}")


def stop(engine: str, name: str) -> tuple[float, str]:
    started = time.monotonic()
    engine_run(engine, "stop", "-t", "30", name)
    took = time.monotonic() - started
    code = engine_run(engine, "inspect", "-f", "{{.State.ExitCode}}", name).stdout.strip()
    return took, code


async def check(engine: str, builder: str | None, build: bool) -> None:
    if build:
        started = time.monotonic()
        if builder == "buildah":
            command = ["buildah", "bud", "--format", "docker"]
        elif engine == "podman":
            command = ["podman", "build", "--format", "docker"]
        else:
            command = ["docker", "build"]
        engine_run(command[0], *command[1:], "--network", "host", "-t", IMAGE, str(ROOT))
        print(f"build: {time.monotonic() - started:.1f} s")
    size = engine_run(engine, "image", "inspect", "-f", "{{.Size}}", IMAGE).stdout.strip()
    print(f"image: {int(size) / 1e6:.0f} MB")
    health = engine_run(engine, "image", "inspect", "-f", "{{json .Config.Healthcheck}}", IMAGE)
    print(f"HEALTHCHECK kept: {'bot' in health.stdout and 'healthcheck' in health.stdout}")
    for name in (NAME, f"{NAME}-2", f"{NAME}-no-token"):
        engine_run(engine, "rm", "-f", name, check=False)
    engine_run(engine, "volume", "rm", "-f", VOLUME, check=False)
    with tempfile.TemporaryDirectory() as tmp:
        env_file = Path(tmp) / ".env"
        # Quoted, with a comment: --env-file passes it literally, the bot reads it as Compose.
        env_file.write_text('DISCORD_TOKEN="container-check-token" # the check\n')
        async with FakeDiscord() as fake:
            env_file.write_text(
                env_file.read_text() + f"DEV_GUILD_ID={fake.guild.id}\nHEARTBEAT_SECONDS=1\n"
            )
            await asyncio.to_thread(start, engine, NAME, env_file, fake.port)
            ready = await asyncio.to_thread(wait_for, engine, NAME, "ready to serve", 120)
            print(f"start to ready: {ready:.1f} s")
            tokens = {
                value
                for request in fake.requests
                for key, value in request.headers.items()
                if key.lower() == "authorization"
            }
            print(f"token sent: {sorted(tokens)}")
            await asyncio.sleep(2)  # a heartbeat or two
            health_run = await asyncio.to_thread(
                engine_run, engine, "exec", NAME, "python", "-m", "bot", "healthcheck"
            )
            print(f"healthcheck: {health_run.stdout.strip()}")
            if engine == "podman":
                result = await asyncio.to_thread(
                    engine_run, engine, "healthcheck", "run", NAME, check=False
                )
                print(f"podman healthcheck run: exit {result.returncode}")
            backup = await asyncio.to_thread(
                engine_run, engine, "exec", NAME, "python", "-m", "bot", "backup", "/data/b/"
            )
            print(f"backup: {backup.stdout.strip()}")
            tables = await asyncio.to_thread(
                engine_run,
                engine,
                "exec",
                NAME,
                "python",
                "-m",
                "engine.endgame",
                "build",
                "--variant",
                "russian",
            )
            print(f"endgame tables on the volume: {tables.stdout.strip()}")
            settings_line = (await asyncio.to_thread(logs, engine, NAME)).splitlines()[0]
            print(settings_line[settings_line.index("engine_endgame_dir") :])
            took, code = await asyncio.to_thread(stop, engine, NAME)
            print(f"stop: {took:.1f} s, exit {code}")
            await asyncio.to_thread(start, engine, f"{NAME}-2", env_file, fake.port)
            again = await asyncio.to_thread(
                wait_for, engine, f"{NAME}-2", "database /data/draughts.db checked", 120
            )
            print(f"second container found the database on the volume after {again:.1f} s")
            tables = await asyncio.to_thread(
                engine_run,
                engine,
                "exec",
                f"{NAME}-2",
                "python",
                "-m",
                "engine.endgame",
                "info",
                "--variant",
                "russian",
            )
            print(f"and the tables: {tables.stdout.strip()}")
            took, code = await asyncio.to_thread(stop, engine, f"{NAME}-2")
            print(f"stop: {took:.1f} s, exit {code}")
        env_file.write_text("# no token\n")
        engine_run(
            engine,
            "run",
            "-d",
            "--name",
            f"{NAME}-no-token",
            *readme_run_flags(env_file),
            "--network",
            "none",
            IMAGE,
        )
        await asyncio.to_thread(wait_for, engine, f"{NAME}-no-token", "waits until", 60)
        time.sleep(3)
        state = engine_run(engine, "inspect", "-f", "{{.State.Status}}", f"{NAME}-no-token")
        print(f"no token: {state.stdout.strip()} after 3 s, said:")
        print("  " + logs(engine, f"{NAME}-no-token").replace("\n", "\n  "))
        took, code = stop(engine, f"{NAME}-no-token")
        print(f"stop: {took:.1f} s, exit {code}")
    for name in (NAME, f"{NAME}-2", f"{NAME}-no-token"):
        engine_run(engine, "rm", "-f", name, check=False)
    engine_run(engine, "volume", "rm", "-f", VOLUME, check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="podman", choices=("podman", "docker"))
    parser.add_argument("--builder", choices=("buildah",), help="build with buildah bud instead")
    parser.add_argument("--no-build", action="store_true", help="use the image already built")
    args = parser.parse_args()
    asyncio.run(check(args.engine, args.builder, not args.no_build))


if __name__ == "__main__":
    main()
