import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_EVENTS } from '../src/webhooks/webhook-events';
import { eventSchemas } from '../src/common/outbox/event-schemas';
import { declaredSchemas } from '../src/common/openapi/declared-schemas';

/**
 * Every webhook event a subscriber may choose is written by some write path (issue 26): the write
 * path names its event (recordAudit's `event`, or recordEvent), so no renamed resource or action
 * can silently stop one. An event declared here and named nowhere fails this test.
 */
describe('webhook events', () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? sources(join(dir, e.name))
        : e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')
          ? [join(dir, e.name)]
          : [],
    );
  const files = sources(join(__dirname, '..', 'src'));
  // Every module's events file, as the application loads them: each declares its own webhook events.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const f of files.filter((f) => f.endsWith('.events.ts'))) require(f);
  const writers = files
    .filter((f) => !f.endsWith(join('common', 'outbox', 'outbox.ts')))
    .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
    .filter((line) => /\bevent: |recordEvent\(/.test(line));

  it('each declared event is named by a write path (recordAudit event or recordEvent)', () => {
    const unused = WEBHOOK_EVENTS.filter((event) => !writers.some((line) => line.includes(`'${event}'`)));
    expect(unused).toEqual([]);
    expect(writers.length).toBeGreaterThanOrEqual(WEBHOOK_EVENTS.length - 2);
  });

  it('every event typed in WebhookEventPayloads is declared (issue 64: the compile-time list is gone)', () => {
    // The keys of each `interface WebhookEventPayloads { ... }` that a module merges into the outbox's.
    const typed = files.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/interface WebhookEventPayloads \{([^}]*)\}/g)].flatMap((m) =>
        [...m[1].matchAll(/^\s*'([a-z_.]+)':/gm)].map((k) => k[1]),
      ),
    );
    expect(typed.length).toBeGreaterThan(10);
    expect([...WEBHOOK_EVENTS].sort()).toEqual([...new Set(typed)].sort());
  });

  it("each one's module declares its payload's schema, which the document holds (Hardening IV item 16)", () => {
    const names = new Set(declaredSchemas().map(([n]) => n));
    const missing = WEBHOOK_EVENTS.filter((e) => !names.has(eventSchemas().get(e) ?? '-'));
    expect(missing).toEqual([]);
  });
});
