# Deckyard: one image for every service; the command picks the service.
#   docker build -t deckyard .
#   docker run deckyard deckyard run --service accounts

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/deckyard
WORKDIR /src
# Only what the package needs: tests, docs and deploy files stay out of the image.
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY services ./services
COPY gateway ./gateway
COPY deckyard ./deckyard
RUN /opt/deckyard/bin/pip install .

FROM python:3.11-slim
ENV PATH=/opt/deckyard/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN groupadd --system --gid 10001 deckyard \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin deckyard
COPY --from=build /opt/deckyard /opt/deckyard
WORKDIR /app
USER 10001:10001
# 8000: gateway HTTP API; 8080: /health and /ready of the other services.
EXPOSE 8000 8080
CMD ["deckyard", "run", "--service", "gateway"]
