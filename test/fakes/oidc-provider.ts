// A real, certified OpenID Provider (the `oidc-provider` package) on 127.0.0.1 for tests.
// Its built-in "dev interactions" show a login form (any login + password) and a consent page,
// both with a "[ Cancel ]" link that returns `error=access_denied` to the client.
import http from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from '../helpers/e2e.js';

export interface FakeOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startFakeOidc(redirectUri: string): Promise<FakeOidc> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'smt-test-client';
  const clientSecret = 'smt-test-secret-0123456789abcdef';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    cookies: { keys: ['a-test-cookie-signing-key-for-oidc'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'picture'] },
    // The login typed on the provider's page becomes the account: "maya" → maya@example.com.
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: `${sub}@example.com`,
        email_verified: true,
        given_name: sub.charAt(0).toUpperCase() + sub.slice(1),
        family_name: 'Tester',
        picture: `https://example.com/${sub}.png`,
      }),
    }),
    features: { devInteractions: { enabled: true } },
  });
  const server = http.createServer(provider.callback());
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
