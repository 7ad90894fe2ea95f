# mexican-train-bot: a slim image that installs the same package the README's quick start does.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MT_DATABASE=/data/mexican-train.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY renderers ./renderers
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin mtbot \
    && mkdir -p /data \
    && chown mtbot /data

# The database (and its -wal/-shm files) lives in this directory: mount a volume here.
VOLUME ["/data"]
USER mtbot

# DISCORD_TOKEN comes from the environment (docker run -e / compose env_file).
CMD ["python", "-m", "bot"]
