# The speedgate GitHub App. Configure with Probot's environment: APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH),
# WEBHOOK_SECRET, PORT (default 3000), LOG_LEVEL, and GHE_HOST/GHE_PROTOCOL for GitHub Enterprise Server.
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm install --no-save --omit=dev --ignore-scripts tsx@4

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY bot ./bot
COPY src ./src
# The app holds no state worth keeping and needs no write access to its own files.
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "bot/server.ts"]
