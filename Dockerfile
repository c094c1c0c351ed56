# Crow's Nest: one image for the web app and the collector (the Helm chart picks the command).
# Node 24 is the current LTS line.
FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
# A V8 heap ceiling for a container run without the Helm chart (which derives it from the memory limit):
# without one, Node.js grows its heap towards the host's memory and a memory-limited container is killed.
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    NODE_OPTIONS=--max-old-space-size=512
# A fixed non-root user so Kubernetes can check runAsNonRoot without reading /etc/passwd.
RUN groupadd --system --gid 10001 crows-nest && useradd --system --uid 10001 --gid crows-nest --no-create-home crows-nest
COPY --from=build --chown=root:root /app /app
USER 10001:10001
EXPOSE 3000 9464
# Web by default; the collector runs `node --no-memory-reducer dist/collector.mjs` (compiled by `npm run build`;
# the flag: lib/collector/heap.ts).
CMD ["node", "--import", "tsx", "scripts/web.ts"]
