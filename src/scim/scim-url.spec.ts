import { scimUrlRouter } from './scim-url';

const scimRoutedUrl = (url: string, apiPrefix: string) => scimUrlRouter(apiPrefix)(url);

describe('scimUrlRouter', () => {
  it('routes endpoint names in any case, without a trailing slash, keeping the query', () => {
    expect(scimRoutedUrl('/app/api/scim/v2/users', '/app/api')).toBe('/app/api/scim/v2/Users');
    expect(scimRoutedUrl('/app/api/scim/v2/Users/?filter=a+eq+b', '/app/api')).toBe('/app/api/scim/v2/Users?filter=a+eq+b');
    expect(scimRoutedUrl('/hr/app/api/scim/v2/GROUPS/12', '/hr/app/api')).toBe('/hr/app/api/scim/v2/Groups/12');
    expect(scimRoutedUrl('/app/api/scim/v2/Unknown/x/', '/app/api')).toBe('/app/api/scim/v2/Unknown/x');
  });

  it('leaves every other URL alone', () => {
    expect(scimRoutedUrl('/app/api/employees/', '/app/api')).toBe('/app/api/employees/');
    expect(scimRoutedUrl('/app/api/scim-tokens', '/app/api')).toBe('/app/api/scim-tokens');
  });
});
