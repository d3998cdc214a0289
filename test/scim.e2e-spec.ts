import { UserProvisioningService } from '../src/users/user-provisioning.service';
import { SettingsService } from '../src/settings/settings.service';
import { employeeBody } from './helpers/company';
import { apiCaller, createTestApp, createUser, okCaller, outboxEvents, TestApp } from './helpers/test-app';

/** SCIM 2.0 (docs/api/decisions.md §23): tokens, Users, Groups, the refusals of the issue, deactivation at once. */
describe('SCIM 2.0 provisioning', () => {
  let t: TestApp;
  let admin: string;
  let scimToken: string;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;

  beforeAll(async () => {
    t = await createTestApp({ TOKEN_CACHE_MS: '5000' });
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = (await createUser(t.app, 'Admin')).token;
    scimToken = (await ok('POST', '/scim-tokens', admin, { name: 'Entra ID' })).token;
  });
  afterAll(() => t.close());

  const scim = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = scimToken) =>
    t.app.inject({
      method,
      url: `/app/api/scim/v2${url}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(payload !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });
  const userBody = (userName: string, extra: Record<string, unknown> = {}) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    active: true,
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: `${userName.toLowerCase()}@corp.example`, type: 'work', primary: true }],
    ...extra,
  });
  const patch = (...Operations: unknown[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });

  it('issues SCIM tokens that work on /scim/v2 only, and REST tokens that do not work there', async () => {
    const listed = await ok('GET', '/scim-tokens', admin);
    expect(listed).toEqual([{ id: expect.any(Number), name: 'Entra ID', created_at: expect.any(String), last_used_at: null }]);
    expect(JSON.stringify(listed)).not.toContain(scimToken);
    const res = await scim('GET', '/Users');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    // A SCIM token on the REST API, a REST token on SCIM: 401 both.
    expect((await call('GET', '/employees', scimToken)).statusCode).toBe(401);
    const rest = await scim('GET', '/Users', undefined, admin);
    expect(rest.statusCode).toBe(401);
    expect(rest.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
    expect((await scim('GET', '/Users', undefined, 'hrs_not-a-token')).statusCode).toBe(401);
    // A revoked SCIM token stops at once.
    const spare = await ok('POST', '/scim-tokens', admin, { name: 'spare' });
    expect((await scim('GET', '/Groups', undefined, spare.token)).statusCode).toBe(200);
    await ok('DELETE', `/scim-tokens/${spare.id}`, admin);
    expect((await scim('GET', '/Groups', undefined, spare.token)).statusCode).toBe(401);
    expect(
      (await call('POST', '/scim-tokens', (await createUser(t.app, 'Restricted Admin')).token, { name: 'x' })).statusCode,
    ).toBe(403);
  });

  it('provisions a user linked to its employee by employeeNumber, finds it by userName, refuses a second one', async () => {
    const employee = await ok('POST', '/employees', admin, employeeBody({ employee_id: 'SCIM-7' }));
    const created = await scim(
      'POST',
      '/Users',
      userBody('Ada.Lovelace@corp.example', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        externalId: 'aad-1',
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { employeeNumber: 'SCIM-7', department: 'Engineering' },
      }),
    );
    expect(created.statusCode).toBe(201);
    const user = created.json();
    expect(user).toMatchObject({ userName: 'Ada.Lovelace@corp.example', active: true, externalId: 'aad-1' });
    expect(created.headers.location).toBe(user.meta.location);
    expect(created.headers['content-type']).toMatch(/^application\/scim\+json/);
    const rest = await ok('GET', `/users/${user.id}`, admin);
    expect(rest).toMatchObject({
      username: 'ada.lovelace@corp.example',
      user_level: 'Employee',
      employee: String(employee.id),
      active: true,
    });

    const found = (await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "ada.lovelace@CORP.example"')}`)).json();
    expect(found).toMatchObject({ totalResults: 1, Resources: [{ id: user.id }] });
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "aad-1"')}&attributes=userName`)).json().Resources,
    ).toEqual([{ schemas: expect.any(Array), id: user.id, userName: 'Ada.Lovelace@corp.example' }]);

    const again = await scim('POST', '/Users', userBody('ADA.LOVELACE@corp.example'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: '409', scimType: 'uniqueness', detail: expect.any(String) });
    const events = await outboxEvents(t.app, 'user.created');
    expect(events.some((e) => (e.data as { id: number }).id === Number(user.id))).toBe(true);
  });

  it('applies PATCH as Entra ID and Okta send it, and refuses unknown paths and bad values', async () => {
    const id = (await scim('POST', '/Users', userBody('grace'))).json().id;
    const res = await scim(
      'PATCH',
      `/Users/${id}`,
      patch(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'grace.hopper@corp.example' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Navy' },
        { op: 'replace', value: { displayName: 'Grace Hopper', 'name.givenName': 'Grace' } },
        { op: 'add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
      ),
    );
    expect(res.statusCode).toBe(204);
    const user = (await scim('GET', `/Users/${id}`)).json();
    expect(user.emails).toEqual([{ value: 'grace.hopper@corp.example', type: 'work', primary: true }]);
    expect(user.displayName).toBe('Grace Hopper');
    expect(user.name.givenName).toBe('Grace');
    expect(user.phoneNumbers).toEqual([{ type: 'mobile', value: '+1 555 0100' }]);
    expect(user['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({ department: 'Navy' });
    expect((await ok('GET', `/users/${id}`, admin)).email).toBe('grace.hopper@corp.example');

    const unknownPath = await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'shoeSize', value: 42 }));
    expect(unknownPath.statusCode).toBe(400);
    expect(unknownPath.json().scimType).toBe('invalidPath');
    expect(
      (await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'name.nickname', value: 'x' }))).json().scimType,
    ).toBe('invalidPath');
    expect((await scim('PATCH', `/Users/${id}`, patch({ op: 'remove' }))).json().scimType).toBe('noTarget');
    expect((await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'active', value: 'maybe' }))).json().scimType).toBe(
      'invalidValue',
    );
    expect((await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'groups', value: [] }))).json().scimType).toBe(
      'mutability',
    );
    expect((await scim('PATCH', `/Users/${id}`, { Operations: 'x' })).json().scimType).toBe('invalidSyntax');
    // Nothing of the refused requests was applied.
    expect((await scim('GET', `/Users/${id}`)).json().displayName).toBe('Grace Hopper');
  });

  it('answers malformed filters with invalidFilter, and evaluates and/or/not, sw, co, gt and value paths', async () => {
    for (const bad of [
      'userName eq',
      'userName zz "a"',
      '(userName eq "a"',
      'emails[type eq "work"',
      '"quoted" eq 1',
      'a eq "b" and',
    ]) {
      const res = await scim('GET', `/Users?filter=${encodeURIComponent(bad)}`);
      expect({ bad, status: res.statusCode, type: res.json().scimType }).toEqual({ bad, status: 400, type: 'invalidFilter' });
    }
    expect((await scim('GET', `/Users?filter=${encodeURIComponent('x eq "' + 'a'.repeat(3000) + '"')}`)).json().scimType).toBe(
      'invalidFilter',
    );
    await scim('POST', '/Users', userBody('filter-one', { displayName: 'One', title: 'Engineer' }));
    await scim('POST', '/Users', userBody('filter-two', { displayName: 'Two', title: 'Manager' }));
    const count = async (filter: string) =>
      (await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`)).json().totalResults;
    expect(await count('userName sw "filter-"')).toBe(2);
    expect(await count('userName sw "filter-" and not (title eq "Engineer")')).toBe(1);
    expect(await count('title eq "Engineer" or title eq "Manager"')).toBe(2);
    expect(await count('emails[type eq "work" and value co "filter-two"]')).toBe(1);
    expect(await count('userName sw "filter-" and meta.created gt "2000-01-01T00:00:00Z"')).toBe(2);
    expect(await count('userName sw "filter-" and meta.created lt "2000-01-01T00:00:00Z"')).toBe(0);
    const page = (await scim('GET', '/Users?startIndex=2&count=1')).json();
    expect(page).toMatchObject({ startIndex: 2, itemsPerPage: 1, Resources: [expect.any(Object)] });
    expect(page.totalResults).toBeGreaterThan(2);
  });

  it('deactivating a user ends its tokens at once: its next request is refused', async () => {
    const u = await createUser(t.app, 'Employee');
    expect((await call('GET', '/users/me/mfa', u.token)).statusCode).toBe(200); // now cached (TOKEN_CACHE_MS 5 s)
    const res = await scim('PATCH', `/Users/${u.user.id}`, patch({ op: 'Replace', path: 'active', value: 'False' }));
    expect(res.statusCode).toBe(204);
    expect((await call('GET', '/users/me/mfa', u.token)).statusCode).toBe(401);
    expect((await scim('GET', `/Users/${u.user.id}`)).json().active).toBe(false);
    const entries = await ok(
      'GET',
      `/audit-log?filters=${encodeURIComponent(JSON.stringify({ resource: 'users', resource_id: String(u.user.id) }))}`,
      admin,
    );
    expect(entries[0]).toMatchObject({ actor: 'scim', action: 'update', changes: { active: [true, false] } });
    expect((await outboxEvents(t.app, 'user.updated')).some((e) => (e.data as { id: number }).id === u.user.id)).toBe(true);
  });

  it('gives the level a group is mapped to, takes it back when the user leaves, refuses a second group of the name', async () => {
    await t.app.get(SettingsService).set('SCIM Group Levels', JSON.stringify({ 'HR Admins': 'Restricted Admin' }));
    try {
      const id = (await scim('POST', '/Users', userBody('hr-person'))).json().id;
      const group = await scim('POST', '/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'HR Admins',
        members: [],
      });
      expect(group.statusCode).toBe(201);
      const gid = group.json().id;
      expect(
        (await scim('PATCH', `/Groups/${gid}`, patch({ op: 'add', path: 'members', value: [{ value: id }] }))).statusCode,
      ).toBe(204);
      expect((await ok('GET', `/users/${id}`, admin)).user_level).toBe('Restricted Admin');
      expect((await scim('GET', `/Users/${id}`)).json().groups).toEqual([
        expect.objectContaining({ value: gid, display: 'HR Admins' }),
      ]);
      expect((await scim('PATCH', `/Groups/${gid}`, patch({ op: 'remove', path: `members[value eq "${id}"]` }))).statusCode).toBe(
        204,
      );
      expect((await ok('GET', `/users/${id}`, admin)).user_level).toBe('Employee');
      // displayName is not case-exact (RFC 7643 §4.2): a filter finds the group in any case, on every database.
      const anyCase = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "hr admins"')}`);
      expect(anyCase.json()).toMatchObject({ totalResults: 1, Resources: [{ id: gid }] });
      const dup = await scim('POST', '/Groups', { displayName: 'HR Admins' });
      expect(dup.json()).toMatchObject({ status: '409', scimType: 'uniqueness' });
    } finally {
      await t.app.get(SettingsService).set('SCIM Group Levels', '{}');
    }
    expect((await call('PUT', '/settings', admin, { name: 'SCIM Group Levels', value: '{"HR": "Boss"}' })).statusCode).toBe(400);
  });

  it('answers unknown ids, bodies that are not JSON and a missing userName in the SCIM error form', async () => {
    expect((await scim('GET', '/Users/999999')).json()).toMatchObject({ status: '404', detail: expect.any(String) });
    expect((await scim('GET', '/Users/abc')).statusCode).toBe(404);
    const junk = await t.app.inject({
      method: 'POST',
      url: '/app/api/scim/v2/Users',
      headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' },
      payload: '{"userName": tru',
    });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    expect((await scim('POST', '/Users', { active: true })).json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    // application/scim+json is for SCIM routes only.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/app/api/scim-tokens',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/scim+json' },
      payload: '{"name":"x"}',
    });
    expect(elsewhere.statusCode).toBe(415);
  });

  it('bounds what one request makes the filter do: multi-valued attributes, the filter’s work, projection by URN', async () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ value: `many${i}@corp.example`, type: 'other' }));
    const refused = await scim('POST', '/Users', userBody('Bounded', { emails: many }));
    expect([refused.statusCode, refused.json().scimType, refused.json().detail]).toEqual([
      400,
      'invalidValue',
      'emails holds at most 20 values',
    ]);
    const created = await scim('POST', '/Users', userBody('Bounded', { emails: many.slice(0, 20) }));
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    // A PATCH that would make it 21 is refused too, and changes nothing.
    const grown = await scim(
      'PATCH',
      `/Users/${id}`,
      patch({ op: 'add', path: 'emails', value: [{ value: 'one.more@corp.example' }] }),
    );
    expect(grown.statusCode).toBe(400);
    expect((await scim('GET', `/Users/${id}`)).json().emails).toHaveLength(20);
    // The attributes parameter with the core schema's URN keeps the attribute it names.
    const projected = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "Bounded"')}&attributes=${encodeURIComponent('urn:ietf:params:scim:schemas:core:2.0:User:userName')}`,
    );
    expect(projected.json().Resources).toEqual([
      { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], id, userName: 'Bounded' },
    ]);
  });

  it('finds users by emails.value eq through the database, not by reading every user (Hardening IV item 22)', async () => {
    const emails = [
      { value: 'first@corp.example', type: 'work', primary: true },
      { value: 'Second.Address@corp.example', type: 'home' },
    ];
    const created = await scim('POST', '/Users', userBody('Pushed', { emails }));
    expect(created.statusCode).toBe(201);
    const scan = jest.spyOn(t.app.get(UserProvisioningService), 'scan');
    try {
      const find = async (filter: string) =>
        ((await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`)).json().Resources as Array<{ userName: string }>).map(
          (r) => r.userName,
        );
      // A secondary address, in another case; in a value path; with another condition; and one nobody has.
      expect(await find('emails.value eq "second.address@CORP.example"')).toEqual(['Pushed']);
      expect(await find('emails[value eq "first@corp.example"]')).toEqual(['Pushed']);
      expect(await find('emails.value eq "first@corp.example" and userName sw "Push"')).toEqual(['Pushed']);
      expect(await find('emails.value eq "first@corp.example" and userName sw "Other"')).toEqual([]);
      expect(await find('emails.value eq "nobody@corp.example"')).toEqual([]);
      expect(scan).not.toHaveBeenCalled();
      // An address the database cannot be asked for as it is still finds by reading them.
      expect(await find('emails.value eq "a\\"b@corp.example"')).toEqual([]);
      expect(scan).toHaveBeenCalled();
    } finally {
      scan.mockRestore();
    }
  });

  it('answers /Me and /Bulk with 501, searches by POST .search, and sends no version while ETags are unsupported (Hardening IV item 17)', async () => {
    for (const [method, url] of [
      ['GET', '/Me'],
      ['POST', '/Bulk'],
      ['POST', '/.search'],
    ] as const) {
      const res = await scim(method, url, method === 'POST' ? { schemas: [] } : undefined);
      expect({ url, status: res.statusCode, body: res.json().status, type: res.headers['content-type'] }).toEqual({
        url,
        status: 501,
        body: '501',
        type: expect.stringMatching(/^application\/scim\+json/),
      });
    }
    await scim('POST', '/Users', userBody('Searched'));
    const search = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      filter: 'userName eq "Searched"',
      attributes: ['userName'],
    };
    const found = await scim('POST', '/Users/.search', search);
    expect([found.statusCode, found.json().totalResults, found.json().Resources[0].userName]).toEqual([200, 1, 'Searched']);
    expect(Object.keys(found.json().Resources[0]).sort()).toEqual(['id', 'schemas', 'userName']);
    // userName is returned always (the schema says so; the document requires it of every answer): the fuzz's find.
    const without = await scim('POST', '/Users/.search', {
      ...search,
      attributes: undefined,
      excludedAttributes: ['userName', 'emails'],
    });
    expect([without.statusCode, without.json().Resources[0].userName, 'emails' in without.json().Resources[0]]).toEqual([
      200,
      'Searched',
      false,
    ]);
    const one = await t.app.inject({
      method: 'GET',
      url: `/app/api/scim/v2/Users/${found.json().Resources[0].id}?excludedAttributes=userName`,
      headers: { authorization: `Bearer ${scimToken}` },
    });
    expect([one.statusCode, one.json().userName]).toEqual([200, 'Searched']);
    const schema = (await scim('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:User')).json();
    expect(schema.attributes.find((a: { name: string }) => a.name === 'userName').returned).toBe('always');
    expect(
      (await scim('POST', '/Groups/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'] })).statusCode,
    ).toBe(200);
    expect((await scim('POST', '/Users/.search', { schemas: ['urn:x'] })).json().scimType).toBe('invalidSyntax');
    // ServiceProviderConfig says etag.supported false: no resource carries a version.
    const config = (await scim('GET', '/ServiceProviderConfig')).json();
    expect(config.etag.supported).toBe(false);
    const user = (await scim('GET', `/Users/${found.json().Resources[0].id}`)).json();
    expect(user.meta.version).toBeUndefined();
  });
});
