// Sign-in through an OpenID Connect provider (Authorization Code + PKCE): where to send the
// browser, and what the callback means. The routes only move the login state in and out of the
// session and redirect where this service says.
import type { Logger } from 'pino';
import type { OidcAdapter, OidcLoginState } from '../adapters/oidc/oidc.adapter.js';
import type { User } from '../db/repositories/users.repository.js';
import type { AuthService } from './auth.service.js';

export type { OidcLoginState };

export type CallbackOutcome = { user: User } | { failed: 'cancelled' | 'failed' | 'expired' };

export function createOidcLoginService(deps: {
  oidc: OidcAdapter;
  auth: AuthService;
  callbackUrl: string;
  logger: Pick<Logger, 'warn'>;
}) {
  return {
    /** The provider URL and the state the callback must match; null when the provider is unreachable. */
    async start(): Promise<{ url: string; login: OidcLoginState } | null> {
      try {
        return await deps.oidc.start(deps.callbackUrl);
      } catch (err) {
        deps.logger.warn({ reason: err instanceof Error ? err.message : String(err) }, 'oidc start failed');
        return null;
      }
    },

    async finish(
      callbackUrl: URL,
      login: OidcLoginState | undefined,
      providerError: string | undefined,
    ): Promise<CallbackOutcome> {
      // The person cancelled at the provider (access_denied) or the provider refused.
      if (providerError) return { failed: providerError === 'access_denied' ? 'cancelled' : 'failed' };
      if (!login) return { failed: 'expired' };
      try {
        const claims = await deps.oidc.finish(callbackUrl, login);
        return { user: await deps.auth.upsertFromClaims(deps.oidc.issuer, claims) };
      } catch (err) {
        // Only the reason is logged: the error's details hold codes and tokens.
        const reason =
          err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : 'oidc failure';
        deps.logger.warn({ reason, code: (err as { code?: string }).code }, 'oidc callback refused');
        return { failed: 'failed' };
      }
    },
  };
}
export type OidcLoginService = ReturnType<typeof createOidcLoginService>;
