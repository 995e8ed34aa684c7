"""The operator's deploy keeps its promises: .env.example, Dockerfile, .dockerignore, Compose, pins.

No Docker engine is needed: the Dockerfile and the Compose file are read as Docker reads them
(instructions in order; YAML with duplicate keys refused), the build context is computed with
.dockerignore's matching rules and really imported from a copy, and the pinned versions are compared
with the dependency tree that the installed distributions declare. The image itself is built by hand
(docs/OPERATIONS.md says how to check one).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import yaml
from dotenv import dotenv_values
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
CONSTRAINTS = ROOT / "constraints.txt"


# -- Dockerfile --------------------------------------------------------------------------------


def dockerfile(text: str | None = None) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined and comments dropped."""
    text = (ROOT / "Dockerfile").read_text() if text is None else text
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        keyword, _, args = (pending + line).partition(" ")
        instructions.append((keyword.upper(), args.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return instructions


def exec_form(args: str) -> list[str]:
    """A JSON-array (exec form) argument; the shell form would put /bin/sh between Docker and us."""
    value = json.loads(args)
    assert isinstance(value, list), args
    assert all(isinstance(item, str) for item in value), args
    return value


def env_instructions(instructions: list[tuple[str, str]]) -> dict[str, str]:
    """Every variable the image's ENV lines set (``ENV A=1 B=2`` and the old ``ENV A 1``)."""
    env: dict[str, str] = {}
    for keyword, args in instructions:
        if keyword != "ENV":
            continue
        words = shlex.split(args)
        if "=" not in words[0]:
            env[words[0]] = " ".join(words[1:])
            continue
        for word in words:
            name, _, value = word.partition("=")
            env[name] = value
    return env


def copy_sources(args: str) -> list[str]:
    words = [word for word in shlex.split(args) if not word.startswith("--")]
    assert len(words) >= 2, args
    return words[:-1]


def index_of(instructions: list[tuple[str, str]], wanted: str, pattern: str) -> int:
    hits = [
        i
        for i, (keyword, args) in enumerate(instructions)
        if keyword == wanted and re.search(pattern, args)
    ]
    assert len(hits) == 1, f"expected one {wanted} matching {pattern!r}, found {len(hits)}"
    return hits[0]


@dataclass(frozen=True)
class Stage:
    """One ``FROM`` of a multi-stage Dockerfile and the instructions up to the next."""

    image: str
    name: str
    """The ``AS`` name, or "" for an unnamed stage."""
    steps: list[tuple[str, str]]


def stages(instructions: list[tuple[str, str]] | None = None) -> list[Stage]:
    """The Dockerfile's build stages in order; the last one is the image that runs."""
    instructions = dockerfile() if instructions is None else instructions
    assert instructions and instructions[0][0] == "FROM", "a Dockerfile starts with FROM"
    found: list[Stage] = []
    for keyword, args in instructions:
        if keyword == "FROM":
            words = args.split()
            assert len(words) in (1, 3) and (len(words) == 1 or words[1].upper() == "AS"), args
            found.append(Stage(words[0], words[2] if len(words) == 3 else "", []))
        else:
            found[-1].steps.append((keyword, args))
    return found


def image_steps() -> list[tuple[str, str]]:
    """The instructions of the stage that becomes the image."""
    return stages()[-1].steps


COMPILER = r"\b(gcc|cc|clang|build-essential)\b"


def test_dockerfile_builds_the_wheel_in_a_stage_with_a_compiler():
    """The native core is C: a builder stage with a compiler makes the wheel from the source,
    which is copied once, after the pinned build backend, and built without the index."""
    builder, image = stages()
    assert builder.name, "the builder stage is named so that the image can copy from it"
    assert builder.image == image.image, "the wheel is built for the very Python that runs it"
    steps = builder.steps
    compiler = index_of(steps, "RUN", rf"apt-get install\b.*{COMPILER}")
    backend = index_of(steps, "RUN", r"pip install\b.*\s-[rc]\s*constraints\.txt")
    assert re.search(r"\bsetuptools\b", steps[backend][1]), "the build backend, pinned"
    sources = [
        i
        for i, (keyword, args) in enumerate(steps)
        if keyword in ("COPY", "ADD") and {".", "./"} & set(copy_sources(args))
    ]
    assert len(sources) == 1, "the source is copied in one step, the whole (allowlisted) context"
    source = sources[0]
    wheel = index_of(steps, "RUN", r"pip wheel\b")
    assert compiler < source and backend < source < wheel
    for flag in ("--no-deps", "--no-build-isolation", "--no-index"):
        assert flag in steps[wheel][1], flag
    # Before the backend is installed, only the pins may be in the stage: anything else would
    # invalidate that layer on every edit.
    copied_early = [
        path
        for keyword, args in steps[:backend]
        if keyword in ("COPY", "ADD")
        for path in copy_sources(args)
    ]
    assert set(copied_early) <= {"constraints.txt", "pyproject.toml"}


def test_dockerfile_installs_pinned_dependencies_before_the_built_bot():
    builder, image = stages()
    steps = image.steps
    dependencies = index_of(steps, "RUN", r"pip install\b.*\s-[rc]\s*constraints\.txt")
    wheels = index_of(steps, "COPY", rf"--from={re.escape(builder.name)}\s")
    package = index_of(steps, "RUN", r"pip install\b.*--no-deps")
    assert dependencies < wheels < package
    # The image takes exactly what the builder wrote: its wheel directory.
    wheel_run = next(args for keyword, args in builder.steps if re.search(r"pip wheel\b", args))
    wheel_dir = re.search(r"(?:--wheel-dir|-w)[ =](\S+)", wheel_run)
    assert wheel_dir and copy_sources(steps[wheels][1]) == [wheel_dir[1]]
    assert re.search(rf"pip install\b.*\s{re.escape(wheel_dir[1])}/\S*\.whl", steps[package][1])
    # Without the index (the pins are installed already), checked, and the native core loads.
    assert "--no-index" in steps[package][1]
    assert "pip check" in steps[package][1]
    assert "import engine._core" in steps[package][1]
    copied_early = [
        path
        for keyword, args in steps[:dependencies]
        if keyword in ("COPY", "ADD")
        for path in copy_sources(args)
    ]
    assert "constraints.txt" in copied_early
    assert set(copied_early) <= {"constraints.txt", "pyproject.toml"}
    # Neither the source nor a compiler reaches the image.
    assert not [
        args
        for keyword, args in steps
        if keyword in ("COPY", "ADD") and {".", "./"} & set(copy_sources(args))
    ]
    assert not [args for keyword, args in steps if keyword == "RUN" and re.search(COMPILER, args)]


def test_dockerfile_puts_the_database_on_the_volume_and_runs_unprivileged():
    steps = image_steps()
    env = env_instructions(steps)
    database = PurePosixPath(env["DATABASE_PATH"])
    assert database.is_absolute()
    volumes = [args for keyword, args in steps if keyword == "VOLUME"]
    assert volumes == [str(database.parent)]
    users = [i for i, (keyword, _) in enumerate(steps) if keyword == "USER"]
    assert users, "the image runs as root"
    user = steps[users[-1]][1]
    assert user not in ("root", "0") and not user.startswith(("root:", "0:"))
    assert users[-1] < index_of(steps, "CMD", ".")
    creation = next(args for keyword, args in steps if keyword == "RUN" and "useradd" in args)
    assert re.search(rf"useradd\b.*\b{re.escape(user)}\b", creation)
    # The unprivileged user owns the volume's directory (a fresh named volume copies its owner).
    assert re.search(
        rf"chown\s+{re.escape(user)}\S*\s+{re.escape(str(database.parent))}\b", creation
    )


def test_dockerfile_health_stop_and_command():
    steps = image_steps()
    health = [args for keyword, args in steps if keyword == "HEALTHCHECK"]
    assert len(health) == 1
    options, _, command = health[0].partition("CMD ")
    assert exec_form(command) == ["python", "-m", "bot", "healthcheck"]
    assert "--timeout=" in options and "--start-period=" in options
    assert [args for keyword, args in steps if keyword == "STOPSIGNAL"] == ["SIGTERM"]
    assert exec_form(steps[-1][1]) == ["python", "-m", "bot"] and steps[-1][0] == "CMD"


def test_dockerfile_python_is_the_one_the_pins_were_resolved_for():
    supported = Requirement(f"x{PYPROJECT['project']['requires-python']}").specifier
    for stage in stages():
        match = re.fullmatch(r"python:(3\.\d+)(-[a-z0-9.-]+)?", stage.image)
        assert match, stage.image
        assert Version(match[1]) in supported
        assert f"for Python {match[1]} on Linux" in CONSTRAINTS.read_text()


def test_dockerfile_reader_sees_a_source_copy_before_the_dependencies():
    """The checks above would catch the old Dockerfile (everything copied, then one install)."""
    old = "FROM python:3.11-slim\nWORKDIR /app\nCOPY . .\nRUN pip install --no-cache-dir .\n"
    steps = dockerfile(old)
    with pytest.raises(AssertionError):
        index_of(steps, "RUN", r"pip install\b.*\s-[rc]\s*constraints\.txt")
    assert [keyword for keyword, _ in steps] == ["FROM", "WORKDIR", "COPY", "RUN"]
    # One stage: nothing to compile the native core in.
    assert [(stage.image, stage.name) for stage in stages(steps)] == [("python:3.11-slim", "")]


def test_dockerfile_reader_splits_the_stages():
    text = "FROM python:3.11 AS build\nRUN make\nFROM python:3.11-slim\nCOPY --from=build /w /w\n"
    found = stages(dockerfile(text))
    assert [(s.image, s.name, [k for k, _ in s.steps]) for s in found] == [
        ("python:3.11", "build", ["RUN"]),
        ("python:3.11-slim", "", ["COPY"]),
    ]
    assert copy_sources(found[1].steps[0][1]) == ["/w"]


# -- .env.example ------------------------------------------------------------------------------


def docker_env_file(text: str) -> dict[str, str]:
    """What ``docker run --env-file`` makes of a file: NAME=VALUE taken literally (no quotes or
    inline comments removed), blank and ``#`` lines skipped, a bare NAME passed from the host."""
    env: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.lstrip()
        if not line or line.startswith("#"):
            continue
        name, equals, value = line.partition("=")
        assert name and not re.search(r"\s", name), f"docker refuses the line {raw!r}"
        env[name] = value if equals else os.environ.get(name, "")
    return env


def live_settings(path: Path) -> dict[str, str]:
    """The settings a copy of the file sets, as the bot (python-dotenv) reads it."""
    return {name: value or "" for name, value in dotenv_values(path).items()}


class Recorder(dict[str, str]):
    """An empty environment that remembers every name the settings loader asks for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.asked.add(key)
        return super().__contains__(key)


def known_settings() -> set[str]:
    env = Recorder()
    Settings.from_env(env)
    assert "DISCORD_TOKEN" in env.asked and "DATABASE_PATH" in env.asked
    return env.asked


def test_env_example_overrides_nothing_the_image_sets():
    live = live_settings(ROOT / ".env.example")
    image = env_instructions(image_steps())
    compose = service()["environment"]
    assert not set(live) & set(image), "a live line in .env.example overrides the image's ENV"
    assert not set(live) & set(compose)
    # The file's header promises that the token is the only line to fill in.
    assert live == {"DISCORD_TOKEN": ""}


def test_env_example_check_catches_the_old_database_line(tmp_path: Path):
    old = tmp_path / ".env"
    old.write_text("DISCORD_TOKEN=\n# comment\nDATABASE_PATH=./data/draughts.db\n")
    assert set(live_settings(old)) & set(env_instructions(image_steps())) == {"DATABASE_PATH"}


def test_env_example_reads_the_same_under_docker_and_the_bot():
    text = (ROOT / ".env.example").read_text()
    assert docker_env_file(text) == live_settings(ROOT / ".env.example")
    quoted = 'DISCORD_TOKEN="abc" # mine\n'
    assert docker_env_file(quoted) == {"DISCORD_TOKEN": '"abc" # mine'}


def test_env_example_and_readme_name_every_setting():
    known = known_settings()
    example = (ROOT / ".env.example").read_text()
    named = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", example, flags=re.MULTILINE))
    assert named == known, "every setting, and nothing else, has a line in .env.example"
    readme = (ROOT / "README.md").read_text()
    assert {name for name in known if f"| `{name}` |" not in readme} == set()


# -- .dockerignore and the build context -------------------------------------------------------


def dockerignore_rules() -> list[tuple[bool, re.Pattern[str]]]:
    """(is_exception, regex) per line, as Docker compiles them (filepath.Match plus ``**``)."""
    rules = []
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        exception = line.startswith("!")
        pattern = os.path.normpath(line.removeprefix("!").strip()).lstrip("/")
        regex = ""
        i = 0
        while i < len(pattern):
            char = pattern[i]
            if pattern.startswith("**/", i):
                regex += "(?:.*/)?"
                i += 3
                continue
            if pattern.startswith("**", i):
                regex += ".*"
                i += 2
                continue
            if char == "*":
                regex += "[^/]*"
            elif char == "?":
                regex += "[^/]"
            elif char == "[":
                end = pattern.index("]", i)
                regex += pattern[i : end + 1].replace("[!", "[^", 1)
                i = end
            else:
                regex += re.escape(char)
            i += 1
        rules.append((exception, re.compile(regex)))
    return rules


def ignored(path: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parents decides."""
    parts = path.split("/")
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    excluded = False
    for exception, regex in rules:
        if any(regex.fullmatch(candidate) for candidate in candidates):
            excluded = not exception
    return excluded


def build_context() -> list[str]:
    rules = dockerignore_rules()
    files = []
    for folder, dirs, names in os.walk(ROOT):
        relative = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if relative == "." else relative + "/"
        # Skip big folders nothing can bring back (no exception pattern reaches into them).
        dirs[:] = [
            d
            for d in dirs
            if not ignored(prefix + d, rules)
            or any(
                exception and regex.pattern.startswith(re.escape(d)) for exception, regex in rules
            )
        ]
        files += [prefix + name for name in names if not ignored(prefix + name, rules)]
    return sorted(files)


def test_build_context_holds_the_package_and_nothing_private():
    context = set(build_context())
    assert {
        "pyproject.toml",
        "setup.py",  # builds the native core
        "constraints.txt",
        PYPROJECT["project"]["readme"],
        "LICENSE",
    } <= context
    packages = [
        name.rstrip("*") for name in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    ]
    for package in packages:
        assert f"{package}/__init__.py" in context, f"{package}/ is missing from the build context"
        # Python modules, type stubs and the native core's C sources.
        sources = {
            p.relative_to(ROOT).as_posix()
            for p in (ROOT / package).rglob("*")
            if p.suffix in (".py", ".pyi", ".c", ".h")
        }
        assert {s for s in sources if "__pycache__" not in s} <= context
    for package, globs in PYPROJECT["tool"]["setuptools"].get("package-data", {}).items():
        for glob in globs:
            data = {p.relative_to(ROOT).as_posix() for p in (ROOT / package).glob(glob)}
            assert data and data <= context, f"{package}/{glob} is missing from the build context"
    rules = dockerignore_rules()
    for private in (
        ".env",
        ".git/config",
        ".venv/bin/python",
        "data/draughts.db",
        "data/draughts.db-wal",
        "tests/project/test_deploy.py",
        "docs/OPERATIONS.md",
        "bot/__pycache__/config.cpython-311.pyc",
        "rules/data/x.pyc",
        ".hypothesis/x",
        # The native core as compiled on the host (an editable install builds it in place).
        "engine/_core.cpython-311-x86_64-linux-gnu.so",
        "build/lib.linux-x86_64-cpython-311/engine/_core.cpython-311-x86_64-linux-gnu.so",
    ):
        assert ignored(private, rules), f"{private} would be sent to the image build"
    assert not any(
        name.endswith((".pyc", ".db", ".so")) or "/." in "/" + name
        for name in context - {".dockerignore"}
    )


def test_build_context_alone_runs_the_bot(tmp_path: Path):
    """A copy of exactly the build context, built as the image's builder stage builds its wheel
    (the packages, their data and the native core compiled from engine/core/), imports every
    module from what was built and answers ``--help``: nothing the image needs was left out by
    the allowlist or by the packaging."""
    context = tmp_path / "context"
    for name in build_context():
        target = context / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    lib = tmp_path / "lib"
    where = [f"--build-lib={lib}", f"--build-temp={tmp_path / 'temp'}"]
    built = subprocess.run(
        [sys.executable, "setup.py", "--quiet", "build", *where],
        cwd=context,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    assert any((lib / "engine" / f"_core{end}").is_file() for end in EXTENSION_SUFFIXES)
    assert not list(lib.rglob("*.c")), "the wheel carries C sources"
    empty = tmp_path / "app"
    empty.mkdir()
    env = {**os.environ, "PYTHONPATH": str(lib), "PYTHONDONTWRITEBYTECODE": "1"}
    for name in ("DISCORD_TOKEN", "DATABASE_PATH"):
        env.pop(name, None)
    packages = [
        name.rstrip("*") for name in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    ]
    script = (
        "import importlib, pkgutil, sys\n"
        f"for top in {packages!r}:\n"
        "    package = importlib.import_module(top)\n"
        f"    assert package.__file__.startswith({str(lib)!r}), package.__file__\n"
        "    for module in pkgutil.walk_packages(package.__path__, top + '.'):\n"
        "        imported = importlib.import_module(module.name)\n"
        f"        assert imported.__file__.startswith({str(lib)!r}), imported.__file__\n"
        "import engine._core\n"
        "print('imported')\n"
    )
    imported = subprocess.run(
        [sys.executable, "-c", script],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert imported.returncode == 0 and imported.stdout.strip() == "imported", imported.stderr
    helped = subprocess.run(
        [sys.executable, "-m", "bot", "--help"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert helped.returncode == 0, helped.stderr
    assert "DISCORD_TOKEN" in helped.stdout


# -- docker-compose.yml ------------------------------------------------------------------------


class StrictLoader(yaml.SafeLoader):
    """YAML as Compose needs it: a key written twice is an error, not a silent overwrite."""


def _mapping(loader: StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue  # `<<: *anchor`: merged keys are overridden by written ones, by design
        key = loader.construct_object(key_node)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def compose() -> dict[str, Any]:
    return yaml.load((ROOT / "docker-compose.yml").read_text(), Loader=StrictLoader)


def service() -> dict[str, Any]:
    services = compose()["services"]
    assert len(services) == 1
    return next(iter(services.values()))


def seconds(duration: str) -> float:
    """A Compose duration such as ``1m30s``."""
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h)", duration)
    assert parts and "".join(n + u for n, u in parts) == duration, duration
    unit = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    return sum(float(n) * unit[u] for n, u in parts)


def test_compose_runs_the_image_with_its_database_on_a_named_volume():
    bot = service()
    image_env = env_instructions(image_steps())
    assert bot["build"] == "."
    assert bot["env_file"] == ".env"
    assert bot["environment"]["DATABASE_PATH"] == image_env["DATABASE_PATH"]
    data = str(PurePosixPath(image_env["DATABASE_PATH"]).parent)
    mounts = [volume.split(":") for volume in bot["volumes"]]
    named = [name for name, target, *_ in mounts if target == data]
    assert len(named) == 1 and named[0] in compose()["volumes"], (
        "the database is not on a named volume"
    )
    assert "ports" not in bot and "network_mode" not in bot


def test_compose_restarts_checks_health_and_stops_gracefully():
    bot = service()
    assert bot["restart"] == "unless-stopped"
    health = bot["healthcheck"]
    assert health["test"] == ["CMD", "python", "-m", "bot", "healthcheck"]
    assert seconds(health["timeout"]) < seconds(health["interval"])
    assert seconds(health["start_period"]) >= 30
    assert bot["stop_signal"] == "SIGTERM"
    # Docker's default is 10 s; the bot needs a few, a move being saved a little more.
    assert seconds(bot["stop_grace_period"]) > 10


def test_compose_root_filesystem_is_read_only_except_data_and_tmp():
    bot = service()
    assert bot["read_only"] is True
    # The worker processes' forkserver puts its socket in a temporary directory.
    assert "/tmp" in bot["tmpfs"]
    assert bot["cap_drop"] == ["ALL"]


# -- docker-compose.scale.yml ------------------------------------------------------------------


def scale_compose() -> dict[str, Any]:
    return yaml.load((ROOT / "docker-compose.scale.yml").read_text(), Loader=StrictLoader)


def interpolated(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME:?message}`` interpolation (the only form the file uses)."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        assert name in env, f"{name} must be set: {match.group(2)}"
        return env[name]

    return re.sub(r"\$\{(\w+):\?([^}]*)\}", one, value)


def bot_processes() -> dict[str, Settings]:
    """Each bot service's settings, as the bot would read them from its environment."""
    services = scale_compose()["services"]
    env = {"POSTGRES_PASSWORD": "s3cret"}
    return {
        name: Settings.from_env(
            {k: interpolated(str(v), env) for k, v in body["environment"].items()}
        )
        for name, body in services.items()
        if name.startswith("bot")
    }


def test_scale_compose_runs_two_processes_covering_every_shard_once():
    processes = bot_processes()
    assert len(processes) == 2
    counts = {settings.shard_count for settings in processes.values()}
    assert len(counts) == 1 and None not in counts  # one SHARD_COUNT for all of them
    [count] = counts
    owned = [settings.shards.ids for settings in processes.values()]
    assert set().union(*owned) == set(range(count or 0))
    assert sum(len(ids) for ids in owned) == count, "a shard is run by two processes"
    assert all(0 < len(ids) < (count or 0) for ids in owned)


def test_scale_compose_shares_one_postgresql_database_whose_password_stays_in_env():
    processes = bot_processes()
    urls = {settings.database_url for settings in processes.values()}
    assert len(urls) == 1 and urls != {None}
    [url] = urls
    assert url is not None and "@postgres:5432/" in url and "s3cret" in url
    text = (ROOT / "docker-compose.scale.yml").read_text()
    assert "${POSTGRES_PASSWORD:?" in text and "s3cret" not in text
    services = scale_compose()["services"]
    postgres = services["postgres"]
    assert postgres["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert "ports" not in postgres  # reachable by the bots only
    assert any(v.endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    for name in processes:
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_scale_compose_bots_are_run_like_the_single_bot():
    services = scale_compose()["services"]
    single = service()
    for name in bot_processes():
        bot = services[name]
        for key in ("build", "env_file", "restart", "init", "stop_signal", "healthcheck"):
            assert bot[key] == single[key], key
        assert bot["read_only"] is True and "/tmp" in bot["tmpfs"]
        assert bot["cap_drop"] == ["ALL"] and "ports" not in bot
        # Two processes share the machine's CPUs: each says how many engine workers it runs.
        assert int(bot["environment"]["ENGINE_WORKERS"]) >= 1
        heartbeat = PurePosixPath(bot["environment"]["HEARTBEAT_PATH"])
        assert str(heartbeat.parent) in bot["tmpfs"]  # writable in a read-only container


def test_compose_reader_refuses_a_key_written_twice():
    with pytest.raises(yaml.constructor.ConstructorError, match="duplicate key"):
        yaml.load(
            "services:\n  bot:\n    restart: 'no'\n    restart: always\n", Loader=StrictLoader
        )


# -- constraints.txt ---------------------------------------------------------------------------


def pins(text: str | None = None) -> dict[str, Version]:
    """Every line of the constraints file, which must each be one exact ``name==version``."""
    text = CONSTRAINTS.read_text() if text is None else text
    pinned: dict[str, Version] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        requirement = Requirement(line)
        specifiers = list(requirement.specifier)
        assert len(specifiers) == 1 and specifiers[0].operator == "==", f"not a pin: {line}"
        assert not requirement.marker and not requirement.extras and not requirement.url, line
        name = canonicalize_name(requirement.name)
        assert name not in pinned, f"{name} is pinned twice"
        pinned[name] = Version(specifiers[0].version)
    return pinned


def target_environment(extra: str = "") -> dict[str, str]:
    """Marker values of the image (Linux, CPython, the Dockerfile's Python), whatever runs us."""
    python = re.match(r"python:(3\.\d+)", stages()[-1].image)
    assert python
    env = dict(default_environment())
    env.update(
        python_version=python[1],
        python_full_version=python[1] + ".0",
        sys_platform="linux",
        platform_system="Linux",
        os_name="posix",
        implementation_name="cpython",
        platform_python_implementation="CPython",
        extra=extra,
    )
    return env


def applies(requirement: Requirement, extras: set[str]) -> bool:
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate(target_environment(extra)) for extra in extras | {""})


def runtime_requirements() -> list[Requirement]:
    return [Requirement(line) for line in PYPROJECT["project"]["dependencies"]]


def closure() -> dict[str, list[Requirement]]:
    """Every distribution the bot needs at run time, with the requirements that pull it in,
    following the metadata of the installed distributions."""
    needed: dict[str, list[Requirement]] = {}
    queue = [r for r in runtime_requirements() if applies(r, set())]
    while queue:
        requirement = queue.pop()
        name = canonicalize_name(requirement.name)
        first = name not in needed
        needed.setdefault(name, []).append(requirement)
        if not first:
            continue
        try:
            declared = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            pytest.fail(f"{name} is needed but not installed; install with -c constraints.txt")
        # The child's markers see the extras its parent was asked for (``aiohttp[speedups]``).
        queue += [c for c in map(Requirement, declared) if applies(c, set(requirement.extras))]
    return needed


def test_constraints_are_exact_pins_and_agree_with_pyproject():
    pinned = pins()
    assert canonicalize_name(PYPROJECT["project"]["name"]) not in pinned
    declared = runtime_requirements() + [
        Requirement(r) for r in PYPROJECT["build-system"]["requires"]
    ]
    for requirement in declared:
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} (pyproject.toml) is not pinned"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"constraints.txt pins {name}=={pinned[name]}, outside pyproject's {requirement}"
        )


def test_constraints_pin_the_whole_runtime_tree_and_nothing_else():
    pinned = pins()
    needed = closure()
    build = {canonicalize_name(Requirement(r).name) for r in PYPROJECT["build-system"]["requires"]}
    assert set(needed) - set(pinned) == set(), "needed at run time but not pinned"
    assert set(pinned) - set(needed) - build == set(), "pinned but needed by nothing"
    for name, requirements in needed.items():
        for requirement in requirements:
            assert requirement.specifier.contains(pinned[name], prereleases=True), (
                f"{requirement} refuses the pinned {name}=={pinned[name]}"
            )


def test_environment_under_test_runs_the_pinned_versions():
    """The tests vouch for the versions the image installs only if they ran on those."""
    pinned = pins()
    drift = {
        name: f"installed {metadata.version(name)}, pinned {pinned[name]}"
        for name in closure()
        if name in pinned and Version(metadata.version(name)) != pinned[name]
    }
    assert drift == {}, 'reinstall with `pip install -c constraints.txt -e ".[test]"`'


def test_pin_reader_refuses_ranges_and_duplicates():
    with pytest.raises(AssertionError, match="not a pin"):
        pins("aiohttp>=3.9\n")
    with pytest.raises(AssertionError, match="pinned twice"):
        pins("Pillow==13.0.0\npillow==13.0.0\n")
    assert pins("# comment\ntyping_extensions==4.16.0\n") == {
        "typing-extensions": Version("4.16.0")
    }


# -- README ------------------------------------------------------------------------------------


def quick_start() -> str:
    readme = (ROOT / "README.md").read_text()
    return readme[
        readme.index("## Quick start") : readme.index("\n## ", readme.index("## Quick start") + 1)
    ]


def test_readme_states_the_python_the_project_requires():
    lowest = re.fullmatch(r">=\s*(3\.\d+)", PYPROJECT["project"]["requires-python"])
    assert lowest, "requires-python is no longer a plain lower bound: say it in the README"
    assert f"Python {lowest[1]} or newer" in quick_start()


def test_readme_quick_start_installs_as_ci_does():
    """CI (.ci/run) installs "exactly as the quick start says"; a drift would test another set."""
    commands = re.findall(r"```sh\n(.*?)\n```", quick_start(), flags=re.DOTALL)
    assert len(commands) == 2, "the quick start shows two commands: install and run, test"
    install = re.search(r"pip install ([^&]+?)\s*&&", commands[0])
    assert install and commands[0].endswith("python -m bot")
    ci = re.search(r'^"\$VENV/bin/pip" install (.+)$', (ROOT / ".ci/run").read_text(), re.MULTILINE)
    assert ci and shlex.split(ci[1]) == shlex.split(install[1])
    assert "-c constraints.txt" in install[1]


def test_the_engine_workers_default_reads_the_same_everywhere():
    """.env.example said "one per CPU but one" where README and --help say "at least two" too
    (724ab3b): an operator on a 2-core machine would expect one worker and get two."""
    from bot.cli import SETTINGS_HELP
    from bot.workers import default_workers

    assert default_workers(2) == 2 and default_workers(1) == 2 and default_workers(8) == 7
    texts = {
        ".env.example": (ROOT / ".env.example").read_text(),
        "README.md": (ROOT / "README.md").read_text(),
        "--help": SETTINGS_HELP,
    }
    for name, text in texts.items():
        at = text.index("ENGINE_WORKERS")  # the description is right before it or right after
        described = " ".join(text[max(0, at - 200) : at + 250].split())
        assert "one per CPU but one" in described and "at least two" in described, (name, described)
