# The speedgate GitHub App. Configure with Probot's environment: APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH),
# WEBHOOK_SECRET, PORT (default 3000), LOG_LEVEL, and GHE_HOST/GHE_PROTOCOL for GitHub Enterprise Server; and its
# store: DATABASE_URL for a PostgreSQL server shared by replicas, else the embedded database in /data (a volume).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm install --no-save --omit=dev --ignore-scripts tsx@4

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json \
    SPEEDGATE_DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY bot ./bot
COPY src ./src
# The app needs no write access to its own files; its only state is the database, in /data unless DATABASE_URL is set.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "bot/server.ts"]
