// Where results (MP3s) live: local files under DATA_DIR by default, an S3-compatible bucket when
// S3_* is configured (so several app nodes share results). Keys are product-chosen, never user text.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AwsClient } from 'aws4fetch';
import { createGuardedFetch } from '../http/guarded-fetch.js';
import type { HostMap } from '../http/host-map.js';

export interface ByteRange {
  start: number;
  end: number; // inclusive
}

export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** Stores `file` under `key`; the file may be moved (callers treat it as consumed). */
  put(key: string, file: string, contentType: string): Promise<void>;
  /** Size in bytes, or null when the object is missing. */
  size(key: string): Promise<number | null>;
  open(key: string, range?: ByteRange): Promise<Readable | null>;
  delete(key: string): Promise<void>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
}

export function createLocalStore(root: string): MediaStore {
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    kind: 'local',
    async put(key, file) {
      const target = fileOf(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // Move when on the same disk (the usual case: temp files live under DATA_DIR too); else copy to a
      // temporary name then rename, so readers never see a half-written file.
      try {
        await fsp.rename(file, target);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      }
      const partial = `${target}.${process.pid}.${Date.now()}.part`;
      try {
        await fsp.copyFile(file, partial);
        await fsp.rename(partial, target);
      } catch (err) {
        // A full disk leaves nothing half-written behind to be served later.
        await fsp.rm(partial, { force: true });
        throw err;
      }
    },
    async size(key) {
      try {
        return (await fsp.stat(fileOf(key))).size;
      } catch {
        return null;
      }
    },
    async open(key, range) {
      const file = fileOf(key);
      try {
        await fsp.access(file);
      } catch {
        return null;
      }
      return fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    async delete(key) {
      await fsp.rm(fileOf(key), { force: true });
    },
  };
}

export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** UPSTREAM_HOST_MAP (tests; refused in production by config). */
  hostMap?: HostMap;
}

/** S3's limit for one PUT, so the largest object this store can hold: a larger answer is not ours. */
export const S3_MAX_OBJECT_BYTES = 5 * 1024 ** 3;
/** Longest wait for an answer's headers and longest silence while a body streams, either way. */
export const S3_TIMEOUT_MS = 60_000;

/**
 * The S3 store's fetch (decision 0017): the guarded client of the configured endpoint's origin
 * only (redirects elsewhere refused), bodies streamed both ways with no overall deadline (a large
 * object on a slow link takes what it takes) but a silence limit, answers cut at S3's object limit.
 * Uploads are not capped here: their bytes are our own file, whose size we send.
 */
export function createS3Fetch(cfg: Pick<S3Config, 'endpoint' | 'hostMap'>): typeof fetch {
  return createGuardedFetch({
    endpoint: cfg.endpoint,
    timeoutMs: S3_TIMEOUT_MS,
    maxBytes: S3_MAX_OBJECT_BYTES,
    hostMap: cfg.hostMap,
  }) as typeof fetch;
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** An answer whose body we do not read: free its connection. */
async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => {});
}

/** Path-style S3 (works with AWS, MinIO, R2, Backblaze, Garage), signed with SigV4 by aws4fetch. */
export function createS3Store(cfg: S3Config, fetchImpl: typeof fetch = createS3Fetch(cfg)): MediaStore {
  const aws = new AwsClient({
    accessKeyId: cfg.accessKeyId,
    secretAccessKey: cfg.secretAccessKey,
    service: 's3',
    region: cfg.region,
  });
  const urlOf = (key: string) => {
    assertSafeKey(key);
    return `${cfg.endpoint.replace(/\/$/, '')}/${encodeURIComponent(cfg.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
  };
  const send = async (key: string, init: RequestInit) => fetchImpl(await aws.sign(urlOf(key), init));
  return {
    kind: 's3',
    async put(key, file, contentType) {
      // Streamed from disk, never held whole in memory: the payload hash is computed first (one
      // more read of the file) so the upload stays signed, with its length declared.
      const { size } = await fsp.stat(file);
      const headers = {
        'content-type': contentType,
        'content-length': String(size),
        'x-amz-content-sha256': await sha256OfFile(file),
      };
      const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream;
      const res = await send(key, { method: 'PUT', body, headers, duplex: 'half' } as RequestInit);
      await discard(res);
      if (!res.ok) throw new Error(`S3 PUT ${key} failed: ${res.status}`);
    },
    async size(key) {
      const res = await send(key, { method: 'HEAD' });
      await discard(res);
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`S3 HEAD ${key} failed: ${res.status}`);
      return Number(res.headers.get('content-length') ?? 0);
    },
    async open(key, range) {
      const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
      const res = await send(key, { method: 'GET', headers });
      if (!res.ok || !res.body) {
        await discard(res);
        if (res.status === 404) return null;
        throw new Error(`S3 GET ${key} failed: ${res.status}`);
      }
      return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
    },
    async delete(key) {
      const res = await send(key, { method: 'DELETE' });
      await discard(res);
      if (!res.ok && res.status !== 404) throw new Error(`S3 DELETE ${key} failed: ${res.status}`);
    },
  };
}
