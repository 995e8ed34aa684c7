# The bot as an image: `python -m bot` as an unprivileged user, the database on the /data volume.
# Build with `docker build -t draughts-bot .`; run with docker-compose.yml or as
# docs/OPERATIONS.md says. tests/test_deploy.py checks the promises made here.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

RUN useradd --create-home --uid 10001 draughts \
    && mkdir -p /data \
    && chown draughts:draughts /data

WORKDIR /src

# The dependencies come from the pins alone, so this layer is rebuilt only when constraints.txt
# changes: an edit of the bot's source or of the README reuses it.
COPY constraints.txt ./
RUN pip install -r constraints.txt

# Then the bot itself, without the index: its dependencies and its build backend are installed
# already, and `pip check` fails the build if pyproject.toml asks for something the pins lack.
# .dockerignore keeps everything but the package and its metadata out of the build context.
COPY . .
RUN pip install --no-deps --no-build-isolation . \
    && pip check

# Run from an empty directory the bot cannot write to, so it imports the installed package (not
# the copy in /src) and no stray .env or ./data is picked up from the working directory.
WORKDIR /app
USER draughts
VOLUME /data
ENV DATABASE_PATH=/data/draughts.db

# Python handles SIGTERM even as PID 1 (the bot installs a handler): in-flight work is finished
# and the database closed within a few seconds. Compose's stop_grace_period leaves room for it.
STOPSIGNAL SIGTERM
# Healthy while the running bot's heartbeat (a file beside the database) is fresh.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "healthcheck"]

CMD ["python", "-m", "bot"]
