# Multi-stage build: compile with dev dependencies, run with production ones only.
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATABASE_URL=sqlite:/data/hr.sqlite
# Payslip PDFs: Debian's Chromium (driven by puppeteer-core, no browser download) and qpdf for the
# optional PDF password; the worker renders, the API only streams.
RUN apt-get update && apt-get install -y --no-install-recommends chromium qpdf fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+(process.env.BASE_PATH||'')+'/app/api/health/live').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The API with npm start's V8 flags (32 MiB semi-spaces, the old generation grown by 30 %: docs/operations.md); run the worker with:
# docker run ... node --max-old-space-size=256 dist/src/worker.js (as `npm run worker`; README, Running it)
CMD ["node", "--max-semi-space-size=32", "--heap-growing-percent=30", "dist/src/main.js"]
