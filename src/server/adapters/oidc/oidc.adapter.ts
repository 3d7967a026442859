// OpenID Connect Authorization Code flow with PKCE, through openid-client.
//
// Every request of the library (discovery, token, userinfo, JWKS) goes through the guarded client
// as its customFetch (decision 0017): the configured issuer's origin as configured (even http on
// this machine); an endpoint the discovery document names on another origin only when it is https
// on the default port at a public address (the user-URL rules; large providers split their
// endpoints across hosts), checked when discovery answers and again at connect time. Redirects
// leaving those origins, other URLs and private addresses are refused; answers are capped and timed.
import net from 'node:net';
import type * as Oidc from 'openid-client';
import { createGuardedFetch, HttpClientError, isPrivateAddress, normaliseHost, type LookupFn } from '../http/index.js';
import type { HostMap } from '../http/host-map.js';

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

/** Discovery, token, userinfo and JWKS answers are small: a larger one is refused. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const TIMEOUT_MS = 15_000;
/** Endpoints of the discovery document that this adapter calls (server side). */
const CALLED_ENDPOINTS = ['token_endpoint', 'userinfo_endpoint', 'jwks_uri'] as const;

export interface OidcAdapterOptions {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** UPSTREAM_HOST_MAP (tests; refused in production by config). */
  hostMap?: HostMap;
  /** Headers wait and body silence of each request (tests shorten it). */
  timeoutMs?: number;
  /** DNS resolver (tests). */
  lookup?: LookupFn;
}

/**
 * The origins of the endpoints we call other than the issuer's; throws, naming the endpoint, when
 * one is not acceptable (another origin must be https, default port, not a private IP literal;
 * names resolving to private addresses are refused at connect time).
 */
export function otherEndpointOrigins(metadata: Partial<Record<string, unknown>>, issuerOrigin: string): string[] {
  const origins = new Set<string>();
  for (const name of CALLED_ENDPOINTS) {
    const value = metadata[name];
    if (typeof value !== 'string') continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`OIDC provider: its ${name} is not a valid URL`);
    }
    if (url.origin === issuerOrigin) continue;
    const host = normaliseHost(url.hostname);
    if (
      url.protocol !== 'https:' ||
      url.port ||
      url.username ||
      url.password ||
      (net.isIP(host) && isPrivateAddress(host))
    )
      throw new Error(
        `OIDC provider: its ${name} (${url.origin}) is refused: an endpoint outside the issuer's ` +
          `origin (${issuerOrigin}) must be https on the default port at a public address`,
      );
    origins.add(url.origin);
  }
  return [...origins];
}

/** openid-client wraps what its fetch throws: surface the guarded client's refusal (clear message, upstream.* code). */
function guardedCause(err: unknown): unknown {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (e instanceof HttpClientError) return e;
  return err;
}

// Loaded by the first sign-in, not by the server's start (decision 0077).
let library: Promise<typeof Oidc> | null = null;
const openidClient = () => (library ??= import('openid-client'));

export function createOidcAdapter(opts: OidcAdapterOptions): OidcAdapter {
  let configuration: Promise<Oidc.Configuration> | null = null;
  const issuer = new URL(opts.issuerUrl);
  const insecure = issuer.protocol === 'http:';
  let publicOrigins: readonly string[] = [];
  const guardedFetch = createGuardedFetch({
    endpoint: issuer.href,
    timeoutMs: opts.timeoutMs ?? TIMEOUT_MS,
    maxBytes: MAX_ANSWER_BYTES,
    publicOrigins: () => publicOrigins,
    hostMap: opts.hostMap,
    lookup: opts.lookup,
  });
  const discover = () => {
    configuration ??= openidClient()
      .then((oidc) =>
        oidc.discovery(issuer, opts.clientId, opts.clientSecret, undefined, {
          [oidc.customFetch]: guardedFetch as Oidc.CustomFetch,
          // Plain http is only accepted for a provider on this machine (development and tests).
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        }),
      )
      .then((config) => {
        publicOrigins = otherEndpointOrigins(config.serverMetadata(), issuer.origin);
        return config;
      })
      .catch((err) => {
        configuration = null; // try discovery again on the next sign-in
        throw guardedCause(err);
      });
    return configuration;
  };

  return {
    issuer: opts.issuerUrl,
    async start(redirectUri) {
      const config = await discover();
      const oidc = await openidClient();
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
      const oidc = await openidClient();
      const tokens = await oidc
        .authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: login.state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        })
        .catch((err: unknown) => {
          throw guardedCause(err);
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
