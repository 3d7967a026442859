// Where results (MP3s) live: local files under DATA_DIR by default, an S3-compatible bucket when
// S3_* is configured (so several app nodes share results). Keys are product-chosen, never user text.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AwsClient } from 'aws4fetch';

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
}

/** Path-style S3 (works with AWS, MinIO, R2, Backblaze, Garage), signed with SigV4 by aws4fetch. */
export function createS3Store(cfg: S3Config, fetchImpl: typeof fetch = fetch): MediaStore {
  const aws = new AwsClient({ accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey, service: 's3', region: cfg.region });
  const urlOf = (key: string) => {
    assertSafeKey(key);
    return `${cfg.endpoint.replace(/\/$/, '')}/${encodeURIComponent(cfg.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
  };
  const send = async (key: string, init: RequestInit) => fetchImpl(await aws.sign(urlOf(key), init));
  return {
    kind: 's3',
    async put(key, file, contentType) {
      const body = await fsp.readFile(file);
      const res = await send(key, { method: 'PUT', body, headers: { 'content-type': contentType } });
      if (!res.ok) throw new Error(`S3 PUT ${key} failed: ${res.status}`);
    },
    async size(key) {
      const res = await send(key, { method: 'HEAD' });
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`S3 HEAD ${key} failed: ${res.status}`);
      return Number(res.headers.get('content-length') ?? 0);
    },
    async open(key, range) {
      const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
      const res = await send(key, { method: 'GET', headers });
      if (res.status === 404) return null;
      if (!res.ok || !res.body) throw new Error(`S3 GET ${key} failed: ${res.status}`);
      return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
    },
    async delete(key) {
      const res = await send(key, { method: 'DELETE' });
      if (!res.ok && res.status !== 404) throw new Error(`S3 DELETE ${key} failed: ${res.status}`);
    },
  };
}
