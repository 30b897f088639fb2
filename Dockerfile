# Tagsonic image for compose.yaml (gateway and worker roles share it).
FROM node:24-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg libchromaprint-tools ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/tagsonic
COPY package.json package-lock.json ./
COPY sdk/package.json sdk/
COPY core/package.json core/
COPY workers/package.json workers/
COPY gateway/package.json gateway/
COPY cli/package.json cli/
COPY test/package.json test/
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
ARG TAGSONIC_BUILD_ID
# How messages name a command here (./run exists only in a checkout); the build id keeps serverVersion stable.
ENV TAGSONIC_HOME=/app NODE_ENV=production NODE_COMPILE_CACHE=/tmp/tagsonic-node-compile-cache \
    TAGSONIC_COMMAND="docker compose run --rm gateway" TAGSONIC_BUILD_ID=${TAGSONIC_BUILD_ID}
# glibc malloc: 2 arenas, fixed mmap/trim thresholds (core/src/memory/malloc-env.ts) — ~25 MB less idle.
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072
EXPOSE 8002
ENTRYPOINT ["node", "--no-node-snapshot", "--max-semi-space-size=8", "cli/src/main.ts"]
CMD ["start"]
