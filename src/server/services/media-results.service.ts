// Stored results (MP3s, transcripts): saved once per video, reused until they expire, handed out
// as expiring signed links, served with Range support, and cleaned up by a background job.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { fail } from '../errors.js';
import type { MediaResult, MediaResultsRepository } from '../db/repositories/media-results.repository.js';
import type { MediaStore } from '../adapters/storage/media-store.js';
import { signMediaLink, verifyMediaLink } from '../adapters/storage/signed-links.js';
import { DEFAULT_PLATFORM } from '../platforms/default.js';

export interface MediaResultsDeps {
  repo: MediaResultsRepository;
  store: MediaStore;
  secret: string;
  ttlMs: number;
  logger?: { warn(obj: object, msg: string): void };
  now?: () => number;
}

const linkGone = () => fail('media.link_expired');

export function createMediaResultsService(deps: MediaResultsDeps) {
  const now = deps.now ?? Date.now;
  // Storage keys of expired rows seen by find(), deleted from the store when save() replaces them.
  const stale = new Map<string, string>();

  return {
    /**
     * A stored result still fresh and present in the store, or undefined. An expired or missing
     * one is returned as `stale` so save() can replace it without another query.
     */
    async find(key: string): Promise<MediaResult | undefined> {
      const row = await deps.repo.findAny(key);
      if (!row) return undefined;
      if (row.expiresAt.getTime() > now() && (await deps.store.size(row.storageKey)) !== null) return row;
      stale.set(key, row.storageKey);
      return undefined;
    },

    async save(input: {
      key: string;
      kind: string;
      platform?: string;
      videoId: string | null;
      file: string;
      ext: string;
      contentType: string;
      size: number;
      meta: Record<string, unknown>;
    }) {
      // A fresh random name per save: a link to an older copy never serves newer bytes.
      const storageKey = `${input.kind}/${crypto.randomBytes(12).toString('hex')}.${input.ext}`;
      await deps.store.put(storageKey, input.file, input.contentType);
      const previous = stale.get(input.key);
      stale.delete(input.key);
      const row = await deps.repo.upsert({
        key: input.key,
        kind: input.kind,
        platform: input.platform ?? DEFAULT_PLATFORM,
        videoId: input.videoId,
        storageKey,
        contentType: input.contentType,
        size: input.size,
        meta: input.meta,
        expiresAt: new Date(now() + deps.ttlMs),
      });
      if (previous && previous !== storageKey) await deps.store.delete(previous).catch(() => undefined);
      return row;
    },

    /** The whole stored object (small results such as transcripts), or null when it is gone. */
    async readText(row: MediaResult): Promise<string | null> {
      const stream = await deps.store.open(row.storageKey);
      if (!stream) return null;
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },

    /** A stored result's whole file for this server to send (no link involved), or null when gone. */
    async openRow(row: MediaResult): Promise<{ stream: Readable; size: number } | null> {
      const size = await deps.store.size(row.storageKey);
      const stream = size === null ? null : ((await deps.store.open(row.storageKey)) as Readable | null);
      return stream && size !== null ? { stream, size } : null;
    },

    /** A signed link valid until the result expires. */
    link(row: MediaResult): string {
      return signMediaLink(deps.secret, row.storageKey, Math.floor(row.expiresAt.getTime() / 1000));
    },

    /** Opens a stored result for GET /api/media/<key>; `range` is the raw Range header. */
    async open(storageKey: string, exp: number, sig: string, range?: string) {
      const verdict = verifyMediaLink(deps.secret, storageKey, exp, sig, Math.floor(now() / 1000));
      if (verdict === 'invalid') throw fail('media.link_invalid');
      if (verdict === 'expired') throw linkGone();
      const row = await deps.repo.findByStorageKey(storageKey);
      const size = row ? await deps.store.size(storageKey) : null;
      if (!row || size === null) throw linkGone();
      const r = parseRange(range, size);
      if (r === 'unsatisfiable') throw fail('media.range', undefined, {}, { 'content-range': `bytes */${size}` });
      const stream = (await deps.store.open(storageKey, r ?? undefined)) as Readable | null;
      if (!stream) throw linkGone();
      const meta = (row.meta ?? {}) as { fileName?: string };
      return {
        stream,
        size,
        range: r,
        contentType: row.contentType,
        fileName: meta.fileName ?? storageKey.split('/').pop() ?? storageKey,
      };
    },

    /** Deletes expired results from the store and the table. */
    async cleanup(): Promise<number> {
      let removed = 0;
      for (;;) {
        const batch = await deps.repo.listExpired(new Date(now()));
        if (!batch.length) return removed;
        for (const row of batch) {
          try {
            await deps.store.delete(row.storageKey);
          } catch (err) {
            deps.logger?.warn({ err, key: row.key }, 'media cleanup: could not delete stored file');
          }
          await deps.repo.delete(row.key);
          removed++;
        }
      }
    },
  };
}
export type MediaResultsService = ReturnType<typeof createMediaResultsService>;

/** A single `bytes=a-b` range (the only kind players and browsers send for media). */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
