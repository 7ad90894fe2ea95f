# mexican-train-bot: a slim image that installs the same package the README's quick start does.
#
# Two stages: the first builds a wheel from the sources; the second installs only that wheel
# and runs from /data, where there are no sources. (Run from a directory holding bot/, Python
# would import that copy instead of the installed package: `python -m` puts the working
# directory first on the import path.) The image installs the versions pinned in
# constraints.txt with the README's words (`pip install -c constraints.txt`; scripts/lock
# upgrades them), so an image built today and one built next month hold the libraries CI
# tested. The build stage sets PIP_CONSTRAINT as well: unlike -c, it also reaches the
# isolated environment pip builds the wheel in (setuptools).
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_CONSTRAINT=/src/constraints.txt
WORKDIR /src
COPY pyproject.toml README.md LICENSE constraints.txt ./
COPY bot ./bot
COPY renderers ./renderers
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MT_DATABASE=/data/mexican-train.sqlite3

COPY --from=build /wheels /wheels
COPY --from=build /src/constraints.txt /wheels/constraints.txt
# The README's `pip install -c constraints.txt .`, from the wheel built above.
RUN pip install -c /wheels/constraints.txt /wheels/*.whl \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin mtbot \
    && mkdir -p /data \
    && chown mtbot /data

# The database (and its -wal/-shm files) lives in this directory: mount a volume here.
VOLUME ["/data"]
WORKDIR /data
USER mtbot

# /healthz on 127.0.0.1:8321 inside the container (MT_HEALTH_PORT): gateway connected and
# database answering. `docker ps` shows healthy/unhealthy.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

# DISCORD_TOKEN comes from the environment (docker run -e / compose env_file). `docker stop`
# sends SIGTERM: the bot finishes moves in progress (MT_SHUTDOWN_GRACE, 8 s) and exits 0.
CMD ["python", "-m", "bot"]
