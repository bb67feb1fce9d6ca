# Deckyard: one image for every service; the command picks the service.
#   docker build -t deckyard .
#   docker run deckyard deckyard run --service accounts

# The browser client (web/), built without the development sign-in (VITE_DEV_AUTH=0: the
# development key stays out of the bundle); the gateway serves it at / (WEB_ROOT).
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
COPY web ./
COPY gateway/dev_signing_key.pem /src/gateway/dev_signing_key.pem
RUN VITE_DEV_AUTH=0 npm run build

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/deckyard
WORKDIR /src
# The locked dependencies first, in a layer of their own: a change to the code does not
# invalidate it (requirements/runtime.lock, with hashes; `make lock` writes it).
COPY requirements/runtime.lock ./requirements/runtime.lock
RUN /opt/deckyard/bin/pip install --require-hashes -r requirements/runtime.lock
# The game engines are compiled with mypyc (deckyard/engines.py; docs/performance.md,
# "Engines compiled"): a C compiler and mypy in a build-only venv, neither in the image.
COPY requirements/engines.lock ./requirements/engines.lock
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* \
    && python -m venv /opt/build \
    && /opt/build/bin/pip install --require-hashes -r requirements/engines.lock
# Only what the package needs: tests, docs and deploy files stay out of the image.
COPY pyproject.toml README.md ./
COPY games ./games
COPY shared ./shared
COPY services ./services
COPY gateway ./gateway
COPY deckyard ./deckyard
# games/ compiled in place, then installed with its sources (the package data's *.so).
RUN /opt/build/bin/python -m deckyard.engines \
    && /opt/deckyard/bin/pip install --no-deps . \
    && cd / && /opt/deckyard/bin/python -c "from games.kit.frozen import COMPILED; assert COMPILED"

FROM python:3.11-slim
ENV PATH=/opt/deckyard/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    WEB_ROOT=/app/web
RUN groupadd --system --gid 10001 deckyard \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin deckyard
COPY --from=build /opt/deckyard /opt/deckyard
COPY --from=web /src/web/dist /app/web
WORKDIR /app
USER 10001:10001
# 8000: gateway HTTP API, the push channel (WebSocket /stream) and the web client; 8090: the gateway's internal status; 8080: /health and /ready
# of the other services.
EXPOSE 8000 8080 8090
# Alive when this container's process answers /health (gateway or service, whichever runs).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-m", "deckyard.healthcheck"]
CMD ["deckyard", "run", "--service", "gateway"]
