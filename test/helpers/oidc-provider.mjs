// A real OpenID provider (panva's oidc-provider) on loopback for the OIDC sign-in tests, in a
// process of its own (oidc-provider is ESM; the suites run CommonJS). Prints {"issuer"} once
// listening. Test controls, on the same port:
//   POST /__test/login-as {sub, claims}   the account the next sign-in logs in as
//   POST /__test/userinfo-calls            {calls}: how many times UserInfo was asked
//   POST /__test/mode {mode}              null | "forge" (ID token signed by another key) |
//                                          "audience" (ID token, rightly signed, for another client)
// The provider runs at its defaults (conformIdTokenClaims: true, OpenID Connect Core §5.4: with an
// access token issued, the e-mail and profile claims are at UserInfo, not in the ID token); with
// `--claims-in-id-token` they are in the ID token too, as Entra ID and Okta put them.
// Usage: node test/helpers/oidc-provider.mjs <redirect_uri> <client_id> <client_secret> [--claims-in-id-token]
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import * as jose from 'jose';

const [redirectUri, clientId, clientSecret, variant] = process.argv.slice(2);
const claimsInIdToken = variant === '--claims-in-id-token';
const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await jose.exportJWK(privateKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
const forger = (await jose.generateKeyPair('RS256', { extractable: true })).privateKey;

const accounts = new Map();
let next = null;
let mode = null;
let userinfoCalls = 0;

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [jwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'oid'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    cookies: { keys: ['test-only-cookie-key'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const claims = accounts.get(sub);
      return claims ? { accountId: sub, claims: () => ({ sub, ...claims }) } : undefined;
    },
    ...(claimsInIdToken ? { conformIdTokenClaims: false } : {}),
  });
  provider.proxy = true;
  provider.use(async (ctx, go) => {
    await go();
    if (ctx.oidc?.route === 'userinfo') userinfoCalls += 1;
    if (ctx.oidc?.route !== 'token' || !mode || !ctx.body?.id_token) return;
    const payload = jose.decodeJwt(ctx.body.id_token);
    const signed = (body, key) => new jose.SignJWT(body).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(key);
    const idToken =
      mode === 'forge' ? await signed(payload, forger) : await signed({ ...payload, aud: 'another-client' }, privateKey);
    ctx.body = { ...ctx.body, id_token: idToken };
  });
  const handle = provider.callback();
  server.on('request', async (req, res) => {
    try {
      if (req.url.startsWith('/__test/')) {
        let body = '';
        for await (const chunk of req) body += chunk;
        const data = JSON.parse(body || '{}');
        if (req.url === '/__test/login-as') {
          accounts.set(data.sub, data.claims ?? {});
          next = data.sub;
        } else if (req.url === '/__test/mode') mode = data.mode ?? null;
        else if (req.url === '/__test/userinfo-calls') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ calls: userinfoCalls }));
          return;
        }
        res.writeHead(204).end();
        return;
      }
      if (req.url.startsWith('/interaction/')) {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(req, res, { login: { accountId: next } }, { mergeWithLastSubmission: false });
        } else {
          const grant = new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
          grant.addOIDCScope('openid email profile');
          await provider.interactionFinished(
            req,
            res,
            { consent: { grantId: await grant.save() } },
            { mergeWithLastSubmission: true },
          );
        }
        return;
      }
      handle(req, res);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
