# The bot as an image: `python -m bot` as an unprivileged user, the database on the /data volume.
# Build with `docker build -t draughts-bot .` (podman: `podman build --format docker -t
# draughts-bot .`, as podman's default OCI format drops the HEALTHCHECK); run with
# docker-compose.yml or as docs/OPERATIONS.md says. tests/project/test_deploy.py checks the
# promises made here; tools/container_check.sh builds and runs it with podman.
#
# Two stages, because the engine's native core (engine._core, C sources in engine/core/) must be
# compiled and the slim Python image has no compiler: `builder` installs one and turns the source
# into a wheel; the image itself starts again from the same slim Python, without a compiler or the
# source, and installs that wheel.

FROM python:3.11-slim-bookworm AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

# A C compiler and the C library's headers (Python's own headers come with the image).
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# The build backend at its pinned version; this layer is rebuilt only when constraints.txt changes.
COPY constraints.txt ./
RUN pip install -c constraints.txt setuptools

# Then the source (.dockerignore keeps everything but the package, its metadata and its build
# script out), built into a wheel without the index: the backend is installed already.
COPY . .
RUN pip wheel --no-deps --no-build-isolation --no-index --wheel-dir /wheels .

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

# Every folder the bot uses exists in the image, made here rather than by WORKDIR (buildah and
# podman create a WORKDIR only for a later RUN, so /app was missing from their images): /app,
# the empty working directory; /data, the volume, with the endgame tables' folder in it, owned by
# the bot's user so that a new named volume takes that owner.
RUN useradd --create-home --uid 10001 draughts \
    && mkdir -p /app /data/endgame \
    && chown draughts:draughts /data /data/endgame \
    && chmod 0700 /data /data/endgame

WORKDIR /src

# The dependencies come from the pins alone, so this layer is rebuilt only when constraints.txt
# changes: an edit of the bot's source or of the README reuses it.
COPY constraints.txt ./
RUN pip install -r constraints.txt

# Then the bot itself, the builder's wheel, without the index: its dependencies are installed
# already, `pip check` fails the build if pyproject.toml asks for something the pins lack, and the
# import fails it if the native core does not load here. (/wheels holds one small wheel; removing
# it keeps it out of the running container, not out of the COPY layer.)
COPY --from=builder /wheels /wheels
RUN pip install --no-deps --no-index /wheels/*.whl \
    && pip check \
    && python -c "import engine._core, engine._core_wide" \
    && rm -rf /wheels

# Run from an empty directory the bot cannot write to, so it imports the installed package (not
# anything in /src) and no stray .env or ./data is picked up from the working directory.
WORKDIR /app
USER draughts
VOLUME /data
ENV DATABASE_PATH=/data/draughts.db
# The engine's endgame databases (engine/endgame.py) are not built into the image (160 MB for
# all variants, 5 minutes of CPU at every rebuild of this layer): each is built once, at first use
# and in the background, onto a volume, so a new container reuses them (docker-compose.scale.yml
# gives its bots a shared volume of their own here).
ENV ENGINE_ENDGAME_DIR=/data/endgame

# Python handles SIGTERM even as PID 1 (the bot installs a handler): in-flight work is finished
# and the database closed within a few seconds. Compose's stop_grace_period leaves room for it.
STOPSIGNAL SIGTERM
# Healthy while the running bot's heartbeat (a file beside the database) is fresh.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "healthcheck"]

CMD ["python", "-m", "bot"]
