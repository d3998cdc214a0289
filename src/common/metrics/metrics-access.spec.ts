import { metricsRefusal } from './metrics-access';

/** Who reads /metrics, and what a refusal says (Hardening IV items 9 and 27). */
describe('metrics access', () => {
  it('serves loopback without a token only when no proxy header of any kind is present', () => {
    expect(metricsRefusal('127.0.0.1', {}, null)).toBeNull();
    expect(metricsRefusal('::1', {}, 'secret')).toBeNull();
    for (const header of ['x-real-ip', 'x-forwarded-for', 'forwarded', 'x-forwarded-proto', 'via', 'cf-connecting-ip']) {
      expect({ header, refusal: metricsRefusal('127.0.0.1', { [header]: '203.0.113.9' }, null) }).toEqual({
        header,
        refusal: `This request came through a proxy (${header}): send METRICS_TOKEN as a bearer token (set it first)`,
      });
    }
    expect(metricsRefusal('203.0.113.9', {}, null)).toBe(
      'Metrics are served to loopback only: set METRICS_TOKEN to scrape from elsewhere',
    );
  });

  it('says what is wrong with a bearer from loopback: not the token, or no token set', () => {
    expect(metricsRefusal('127.0.0.1', { authorization: 'Bearer hra_user' }, null)).toBe(
      'This bearer token is not for /metrics (METRICS_TOKEN is not set): scrape from this machine without one',
    );
    expect(metricsRefusal('127.0.0.1', { authorization: 'Bearer wrong' }, 'secret')).toBe(
      'The bearer token is not METRICS_TOKEN',
    );
    expect(metricsRefusal('203.0.113.9', { authorization: 'Bearer secret', 'x-real-ip': '1.2.3.4' }, 'secret')).toBeNull();
  });
});
