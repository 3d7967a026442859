// TrendsHttp on top of the one guarded HTTP client (adapters/http): allow-listed hosts, private
// addresses refused, redirects re-checked, UPSTREAM_HOST_MAP for fakes, plus an overall deadline
// so a feed that never answers cannot hold a collector run.
import type { HttpClient } from '../http/index.js';
import type { TrendsHttp } from './http.js';

export function trendsHttpFrom(client: Pick<HttpClient, 'request'>): TrendsHttp {
  return {
    async request(url, init) {
      const deadline = AbortSignal.timeout(init.timeoutMs);
      const signal = init.signal ? AbortSignal.any([deadline, init.signal]) : deadline;
      try {
        const res = await client.request(url, {
          allow: init.allowHosts,
          method: init.method ?? 'GET',
          headers: init.headers,
          body: init.body,
          signal,
          maxRedirects: 5,
        });
        const text = await res.text(init.maxBytes);
        return { status: res.status, contentType: res.header('content-type') ?? '', text };
      } catch (err) {
        if (init.signal?.aborted) throw new Error('stopped');
        if (deadline.aborted) throw new Error(`no answer within ${Math.round(init.timeoutMs / 1000)} s`);
        throw err;
      }
    },
  };
}
