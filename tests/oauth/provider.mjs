// The OpenID Provider of the tests: panva's oidc-provider (OpenID Certified),
// pinned in package.json and package-lock.json next to this file, on
// loopback. tests/oauth/conftest.py copies this file next to the installed
// node_modules and starts it; nothing here is fit for anything but tests.
//
// Environment:
//   CLAIMS_FILE  a JSON file {subject: {claim: value}}; its entry for a token's
//                subject (a user's login, or a client id for client
//                credentials) is added to that access token (groups, tenant).
//                Read at every token, so the fixture changes it between tokens.
//   RESOURCES    comma-separated resource indicators accepted besides any
//                loopback URL (http://127.0.0.1:PORT/PATH, http://localhost:…).
//   SCOPES       space-separated scopes every resource grants.
//
//   REPORT_FD    the file descriptor (a pipe) where the fixture reads this
//                script's reports, one JSON line each (stdout and stderr get
//                the provider's own notices).
//
// Listens on a free loopback port, then reports
// {"issuer": "http://127.0.0.1:PORT", "kid": KID}. On SIGHUP it rotates keys:
// a new signing key first, the previous one kept for verification (the one
// before is dropped), and reports {"rotated": KID} once the new key signs. Every refusal is the provider's own (invalid_target for an
// unknown resource, invalid_client, ...).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';

import Provider, { errors } from 'oidc-provider';

const CLAIMS_FILE = process.env.CLAIMS_FILE || '';
const RESOURCES = (process.env.RESOURCES || '').split(',').filter(Boolean);
const SCOPES = process.env.SCOPES || 'read write deploy admin';
const REPORT_FD = Number(process.env.REPORT_FD);
const TTL = 600;
const report = (value) => fs.writeSync(REPORT_FD, `${JSON.stringify(value)}\n`);
const EXPIRED_CLIENT = 'ci-expired';
const OPAQUE_CLIENTS = new Set(['ci-opaque', 'desktop-opaque']);
const REDIRECT_URI = 'http://127.0.0.1:33418/callback';

const rsaKey = () => ({
  ...crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid: crypto.randomUUID(),
  use: 'sig',
  alg: 'RS256',
});

function loopback(resource) {
  let url;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
    && url.port !== '' && !url.hash && !url.search;
}

function claimsFor(subject) {
  if (!CLAIMS_FILE || !subject) return undefined;
  const all = JSON.parse(fs.readFileSync(CLAIMS_FILE, 'utf8'));
  return all[subject] || undefined;
}

const secretClient = (id) => ({
  client_id: id,
  client_secret: `${id}-secret`,
  grant_types: ['client_credentials'],
  response_types: [],
  redirect_uris: [],
});
const publicClient = (id) => ({
  client_id: id,
  token_endpoint_auth_method: 'none',
  application_type: 'native',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  redirect_uris: [REDIRECT_URI],
});

let keys = [rsaKey()];

const configuration = () => ({
  jwks: { keys },
  cookies: { keys: ['test-only-cookie-key'] },
  ttl: {
    AccessToken: TTL, AuthorizationCode: 60, ClientCredentials: TTL, Grant: 3600,
    IdToken: TTL, Interaction: 600, RefreshToken: 3600, Session: 3600,
  },
  clients: [
    secretClient('ci-bot'),
    secretClient(EXPIRED_CLIENT),
    secretClient('ci-opaque'),
    // The resource server's own credentials for introspection (RFC 7662 §2.1).
    { ...secretClient('harbor'), grant_types: [] },
    publicClient('desktop'),
    publicClient('desktop-opaque'),
  ],
  findAccount: async (ctx, sub) => ({
    accountId: sub,
    claims: async () => ({ sub, ...claimsFor(sub) }),
  }),
  // Client-credentials tokens have no account: their subject is the client,
  // also in introspection answers (which show `sub` only for accounts).
  extraTokenClaims: async (ctx, token) => (token.accountId
    ? claimsFor(token.accountId)
    : { sub: token.clientId, ...claimsFor(token.clientId) }),
  formats: {
    customizers: {
      // Really signed, already expired: iat two hours ago, exp one hour ago.
      jwt: async (ctx, token, jwt) => {
        if (token.clientId === EXPIRED_CLIENT) {
          jwt.payload.iat -= 7200;
          jwt.payload.exp = jwt.payload.iat + 3600;
        }
      },
    },
  },
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    // Only the resource server's credentials (and a token's own client) may
    // introspect; a client revokes only its own tokens.
    introspection: {
      enabled: true,
      allowedPolicy: async (ctx, client, token) => client.clientId === 'harbor'
        || token.clientId === client.clientId,
    },
    revocation: {
      enabled: true,
      allowedPolicy: async (ctx, client, token) => token.clientId === client.clientId,
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => undefined,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (ctx, resource, client) => {
        if (!RESOURCES.includes(resource) && !loopback(resource)) throw new errors.InvalidTarget();
        return {
          scope: SCOPES,
          accessTokenFormat: OPAQUE_CLIENTS.has(client.clientId) ? 'opaque' : 'jwt',
          accessTokenTTL: TTL,
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
});

let provider;
const server = http.createServer((req, res) => provider.callback()(req, res));
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  provider = new Provider(issuer, configuration());
  process.on('SIGHUP', () => {
    keys = [rsaKey(), keys[0]];
    provider = new Provider(issuer, configuration());
    report({ rotated: keys[0].kid });
  });
  report({ issuer, kid: keys[0].kid });
});
