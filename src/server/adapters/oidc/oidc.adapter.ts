// OpenID Connect Authorization Code flow with PKCE, through openid-client.
import * as oidc from 'openid-client';

export interface OidcLoginState {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  picture?: unknown;
}

export interface OidcAdapter {
  readonly issuer: string;
  /** Returns the provider URL to send the browser to, and what the callback must check. */
  start(redirectUri: string): Promise<{ url: string; login: OidcLoginState }>;
  /** Exchanges the code in `callbackUrl`; throws when state, nonce or code do not check out. */
  finish(callbackUrl: URL, login: OidcLoginState): Promise<OidcClaims>;
}

export function createOidcAdapter(opts: { issuerUrl: string; clientId: string; clientSecret: string }): OidcAdapter {
  let configuration: Promise<oidc.Configuration> | null = null;
  const insecure = new URL(opts.issuerUrl).protocol === 'http:';
  const discover = () => {
    configuration ??= oidc
      .discovery(
        new URL(opts.issuerUrl),
        opts.clientId,
        opts.clientSecret,
        undefined,
        // Plain http is only accepted for a provider on this machine (development and tests).
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err) => {
        configuration = null; // try discovery again on the next sign-in
        throw err;
      });
    return configuration;
  };

  return {
    issuer: opts.issuerUrl,
    async start(redirectUri) {
      const config = await discover();
      const login: OidcLoginState = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(login.codeVerifier),
        code_challenge_method: 'S256',
        state: login.state,
        nonce: login.nonce,
      });
      return { url: url.href, login };
    },
    async finish(callbackUrl, login) {
      const config = await discover();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no id_token claims');
      let info: Record<string, unknown> = {};
      try {
        info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      } catch {
        // The id_token claims are enough when the provider has no usable userinfo endpoint.
      }
      return { ...info, ...claims, sub: claims.sub } as OidcClaims;
    },
  };
}
