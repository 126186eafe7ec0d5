# Muster: a slim, non-root image. SQLite lives in the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/muster.sqlite3

RUN useradd --create-home --uid 10001 muster \
    && mkdir -p /data && chown muster:muster /data

WORKDIR /app
# The pinned, hashed releases first (a layer that changes only with the lock), then Muster itself.
COPY requirements.lock ./
RUN pip install -r requirements.lock
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY migrations ./migrations
RUN pip install --no-deps --no-build-isolation .

USER muster
VOLUME ["/data"]
ENTRYPOINT ["muster"]
CMD ["run"]
