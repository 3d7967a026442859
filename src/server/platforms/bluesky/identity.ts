// Who holds an account's files (docs/sources.md 'Bluesky original files'): the `#atproto_pds` service of the author's
// DID document, from plc.directory for did:plc or https://<domain>/.well-known/did.json for did:web;
// and a handle's DID (com.atproto.identity.resolveHandle on the AppView). Both kept for an hour: an
// account moves its PDS rarely, and every download of its posts needs it.
import { LRUCache } from 'lru-cache';
import type { HttpClient } from '../../adapters/http/index.js';
import { fail } from '../../errors.js';
import { BLUESKY, upstream, xrpcFailure } from './errors.js';
import { readDid } from './link.js';

export const APPVIEW = 'public.api.bsky.app';
export const PLC_DIRECTORY = 'plc.directory';
const DOC_MAX_BYTES = 256 * 1024;
const TTL_MS = 60 * 60 * 1000;

interface DidDocument {
  id?: unknown;
  service?: Array<{ id?: unknown; type?: unknown; serviceEndpoint?: unknown }>;
}

/** The PDS origin a DID document names (`#atproto_pds`, an https origin on a default port); null when none. */
export function pdsOf(doc: DidDocument, did: string): string | null {
  if (doc.id !== did || !Array.isArray(doc.service)) return null;
  const entry = doc.service.find(
    (s) => (s.id === '#atproto_pds' || s.id === `${did}#atproto_pds`) && s.type === 'AtprotoPersonalDataServer',
  );
  if (typeof entry?.serviceEndpoint !== 'string') return null;
  try {
    const url = new URL(entry.serviceEndpoint);
    return url.protocol === 'https:' && !url.port && !url.username && !url.password ? url.origin : null;
  } catch {
    return null;
  }
}

export function createIdentity(deps: { http: HttpClient }) {
  const pdsCache = new LRUCache<string, Promise<string>>({ max: 5000, ttl: TTL_MS });
  const handleCache = new LRUCache<string, Promise<string>>({ max: 5000, ttl: TTL_MS });

  async function getJson<T>(url: string, allow: string[], signal?: AbortSignal): Promise<{ status: number; body: T }> {
    try {
      const res = await deps.http.request(url, {
        allow,
        signal,
        maxRedirects: 2,
        maxBytes: DOC_MAX_BYTES,
        headers: { accept: 'application/json' },
      });
      const text = await res.text(DOC_MAX_BYTES);
      try {
        return { status: res.status, body: JSON.parse(text) as T };
      } catch {
        return { status: res.status, body: {} as T };
      }
    } catch (err) {
      throw upstream(err);
    }
  }

  async function lookUpPds(did: string, signal?: AbortSignal): Promise<string> {
    const domain = did.startsWith('did:web:') ? did.slice(8) : null;
    const url = domain ? `https://${domain}/.well-known/did.json` : `https://${PLC_DIRECTORY}/${did}`;
    const { status, body } = await getJson<DidDocument>(url, [domain ?? PLC_DIRECTORY], signal);
    if (status === 404 || status === 410) throw fail('video.not_found', { variant: 'withheld', ...BLUESKY });
    if (status !== 200) throw fail('upstream.unavailable', BLUESKY);
    const pds = pdsOf(body, did);
    if (!pds) throw fail('upstream.unavailable', BLUESKY);
    return pds;
  }

  /** Caches one lookup per key; a failed one is forgotten so the next request asks again. */
  function cached(cache: LRUCache<string, Promise<string>>, key: string, load: () => Promise<string>) {
    const hit = cache.get(key);
    if (hit) return hit;
    const value = load();
    cache.set(key, value);
    value.catch(() => {
      if (cache.peek(key) === value) cache.delete(key);
    });
    return value;
  }

  return {
    /** The https origin of the PDS holding this DID's repository and blobs. */
    pds: (did: string, signal?: AbortSignal) => cached(pdsCache, did, () => lookUpPds(did, signal)),
    /** The DID a handle names today. */
    did: (handle: string, signal?: AbortSignal) =>
      cached(handleCache, handle, async () => {
        const url = `https://${APPVIEW}/xrpc/com.atproto.identity.resolveHandle?handle=${encodeURIComponent(handle)}`;
        const { status, body } = await getJson<{ did?: unknown; error?: string }>(url, [APPVIEW], signal);
        // An unknown handle answers 400 InvalidRequest "Unable to resolve handle".
        if (status === 400) throw fail('video.not_found', BLUESKY);
        if (status !== 200) throw xrpcFailure(status, body.error);
        const did = typeof body.did === 'string' ? readDid(body.did) : null;
        if (!did) throw fail('video.not_found', BLUESKY);
        return did;
      }),
  };
}
export type Identity = ReturnType<typeof createIdentity>;
