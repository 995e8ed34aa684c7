FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

RUN useradd --create-home --uid 10001 draughts \
    && mkdir -p /data \
    && chown draughts:draughts /data

WORKDIR /app
COPY . .
RUN pip install --no-cache-dir .

USER draughts
VOLUME /data
ENV DATABASE_PATH=/data/draughts.db

CMD ["python", "-m", "bot"]
