// The one guarded HTTP client and its helpers. See http-client.ts for the API.
export { createHttpClient, HttpClientError, PAGE_MAX_BYTES, type HttpClient, type HttpResponse, type RequestOptions, type LookupFn } from './http-client.js';
export { CookieJar, type StoredCookies } from './cookie-jar.js';
export { hostAllowed, hostMatches, isPrivateAddress, normaliseHost, type HostPattern } from './address-policy.js';
