/**
 * Writes the service's OpenAPI document: `npm run openapi [file]` (default openapi.json). The same
 * document the service serves at {base_url}/openapi.json, built from an application on an
 * in-memory SQLite database, with BASE_PATH unset: its servers entry is /app/api. `npm run lint:api`
 * lints it with Spectral; `npm run client` generates the TypeScript client from it.
 */
import { writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { buildOpenApiDocument, createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/config';

async function main(): Promise<void> {
  const file = process.argv[2] ?? 'openapi.json';
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'error' });
  const quiet = new Writable({ write: (_chunk, _enc, cb) => cb() });
  const app = await createApp(config, { logDestination: quiet, shutdownHooks: false });
  try {
    writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(app, config), null, 2)}\n`);
    console.log(`wrote ${file}`);
  } finally {
    await app.close();
  }
}

void main();
