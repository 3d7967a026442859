/**
 * The header value a client sends to get a 202 and a media job instead of waiting (RFC 7240). A
 * module of its own, free of zod, so the client's API calls (on the landing page too) can use it.
 */
export const RESPOND_ASYNC = 'respond-async';
