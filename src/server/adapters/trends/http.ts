// The narrow slice of the guarded HTTP client (adapters/http) that the trends adapters use, so
// they can be tested with any transport and are wired to the one guarded client in context.ts.
export interface TrendsHttpRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Hosts this request may reach (checked again on every redirect by the guarded client). */
  allowHosts: string[];
  timeoutMs: number;
  maxBytes: number;
  /** Aborts the request (a collector being stopped). */
  signal?: AbortSignal;
}

export interface TrendsHttpResponse {
  status: number;
  contentType: string;
  text: string;
}

export interface TrendsHttp {
  request(url: string, init: TrendsHttpRequest): Promise<TrendsHttpResponse>;
}

/** A browser-like user agent: several feed hosts refuse non-browser agents (docs/sources.md 'News feeds'). */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
