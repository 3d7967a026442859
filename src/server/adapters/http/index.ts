// The guarded HTTP client (user and outside URLs, http-client.ts), its per-endpoint form for
// operator-configured services (operator-client.ts) and their helpers.
export {
  createHttpClient,
  HttpClientError,
  PAGE_MAX_BYTES,
  type HttpClient,
  type HttpResponse,
  type RequestOptions,
  type LookupFn,
  type TransferLimits,
} from './http-client.js';
export { CookieJar, type StoredCookies } from './cookie-jar.js';
export { hostAllowed, hostMatches, isPrivateAddress, normaliseHost, type HostPattern } from './address-policy.js';
export {
  createOperatorClient,
  type OperatorClient,
  type OperatorClientOptions,
  type OperatorResponse,
} from './operator-client.js';
export { createGuardedFetch, type GuardedFetch, type GuardedFetchOptions } from './guarded-fetch.js';
