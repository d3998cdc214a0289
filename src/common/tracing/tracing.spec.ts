import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { RedactQueryValues, redactQuery } from './tracing';

/** Traces carry no query values by default (Hardening IV item 27): search=, SCIM filters with e-mails. */
describe('query values in traces', () => {
  it('keeps the names and redacts the values, in a URL and in a bare query', () => {
    expect(redactQuery('/app/api/employees?search=ada%40x.com&limit=5')).toBe(
      '/app/api/employees?search=REDACTED&limit=REDACTED',
    );
    expect(redactQuery('filter=userName%20eq%20%22ada%22')).toBe('filter=REDACTED');
    expect(redactQuery('/app/api/employees/7')).toBe('/app/api/employees/7');
    expect(redactQuery('https://h/x?a=1#frag')).toBe('https://h/x?a=REDACTED#REDACTED');
  });

  it('a span leaves the process with its URL attributes redacted', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new RedactQueryValues(), new SimpleSpanProcessor({ exporter })] });
    const span = provider.getTracer('t').startSpan('GET', {
      attributes: {
        'http.target': '/app/api/scim/v2/Users?filter=emails%5Bvalue%20eq%20%22a%40b.c%22%5D',
        'url.query': 'search=secret',
        'http.method': 'GET',
      },
    });
    span.end();
    await provider.forceFlush();
    const [finished] = exporter.getFinishedSpans();
    expect(finished.attributes).toEqual({
      'http.target': '/app/api/scim/v2/Users?filter=REDACTED',
      'url.query': 'search=REDACTED',
      'http.method': 'GET',
    });
    await provider.shutdown();
  });
});
