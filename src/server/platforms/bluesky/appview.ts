// One XRPC query to Bluesky's public AppView (public.api.bsky.app), answered as JSON: its status
// and body (an XRPC error is `{ error, message }`). Bounded size, no redirects, guarded client.
import type { HttpClient } from '../../adapters/http/index.js';
import { upstream } from './errors.js';
import { APPVIEW } from './identity.js';

export interface XrpcAnswer<T> {
  status: number;
  body: Partial<T> & { error?: string; message?: string };
}

export function createAppView(deps: { http: HttpClient }) {
  return async function query<T>(
    method: string,
    params: Record<string, string>,
    o: { signal?: AbortSignal; maxBytes: number },
  ): Promise<XrpcAnswer<T>> {
    try {
      const res = await deps.http.request(`https://${APPVIEW}/xrpc/${method}?${new URLSearchParams(params)}`, {
        allow: [APPVIEW],
        signal: o.signal,
        maxRedirects: 0,
        maxBytes: o.maxBytes,
        headers: { accept: 'application/json' },
      });
      const text = await res.text(o.maxBytes);
      let body: XrpcAnswer<T>['body'] = {};
      try {
        const parsed = JSON.parse(text) as unknown;
        if (parsed && typeof parsed === 'object') body = parsed as XrpcAnswer<T>['body'];
      } catch {
        // not JSON: judged by its status
      }
      if (typeof body.error !== 'string') body.error = undefined;
      return { status: res.status, body };
    } catch (err) {
      throw upstream(err);
    }
  };
}
export type AppView = ReturnType<typeof createAppView>;
