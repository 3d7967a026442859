// Published posts as prepared answers (issue 42, decision 0088). A public post's JSON and its page are
// the same bytes for every reader until the post changes, so each is made once per version of the
// post (serialised once; compressed once, on libuv's threads, not this one) and kept in memory. A
// read then costs a small query (the post's version, not its text), and either a 304 or a kept
// buffer written out: nothing that grows with the post runs on the main thread per request.
// The version is read from the database on every request, so an edit, an unpublish or a delete on
// any node is seen at once by every node: a kept answer of another version is never sent.
import type { PreparedAnswer } from '../lib/prepared-answer.js';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type { PreparedAnswer };

/** Public content that can change: any cache may keep it, and asks again before each use. */
export const PUBLIC_REVALIDATE = 'public, max-age=0, must-revalidate';

/** Kept answers, every encoding counted, at most this many bytes; the least recently read go first. */
export const MAX_KEPT_BYTES = 64 * 1024 * 1024;
/** Below this, a body is sent as it is: compressing would save less than it costs. */
const MIN_COMPRESS = 1024;
/** Better brotli copies waiting to be made; beyond, a post keeps its first (quick) one. */
const MAX_WAITING_BETTER = 8;

/**
 * A weak validator from what the answer is made of (weak: the encodings differ in bytes). The same
 * on every node for the same version, so a browser revalidates against any of them.
 */
export function versionTag(...parts: string[]): string {
  return `W/"${crypto.createHash('sha1').update(parts.join('\n')).digest('base64url')}"`;
}

const quality = (q: number, size: number) => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size },
});

// Brotli's best (quality 11) takes seconds on a 500 KB post, so the first readers get quality 5
// (milliseconds), and the best copy replaces it when made, one post at a time.
let better: Promise<unknown> = Promise.resolve();
let waitingBetter = 0;
function improve(answer: PreparedAnswer): void {
  if (waitingBetter >= MAX_WAITING_BETTER) return;
  waitingBetter++;
  better = better
    .then(() => brotli(answer.identity, quality(11, answer.identity.length)))
    .then((best) => {
      if (answer.br && best.length < answer.br.length) answer.br = best;
    })
    .catch(() => undefined)
    .finally(() => waitingBetter--);
}

/** The body with its compressed copies, made off the main thread. */
export async function prepare(body: string, type: string, etag: string): Promise<PreparedAnswer> {
  const identity = Buffer.from(body);
  const answer: PreparedAnswer = { identity, type, etag, cacheControl: PUBLIC_REVALIDATE };
  if (identity.length < MIN_COMPRESS) return answer;
  const [br, gz] = await Promise.all([brotli(identity, quality(5, identity.length)), gzip(identity, { level: 6 })]);
  answer.br = br;
  answer.gzip = gz;
  improve(answer);
  return answer;
}

const sizeOf = (a: PreparedAnswer) => a.identity.length + (a.br?.length ?? 0) + (a.gzip?.length ?? 0);

/**
 * Answers kept by key (a post's slug and kind) and version. `get` gives the kept answer of that
 * version, or makes it (once, however many readers ask meanwhile) in place of any other version.
 */
export function createAnswerCache(maxBytes = MAX_KEPT_BYTES) {
  const kept = new Map<string, { version: string; answer: Promise<PreparedAnswer>; bytes: number }>();
  let total = 0;
  const drop = (key: string) => {
    const entry = kept.get(key);
    if (!entry) return;
    total -= entry.bytes;
    kept.delete(key);
  };
  return {
    get(key: string, version: string, make: () => Promise<PreparedAnswer>): Promise<PreparedAnswer> {
      const found = kept.get(key);
      if (found?.version === version) {
        // Most recently read last: eviction takes from the front.
        kept.delete(key);
        kept.set(key, found);
        return found.answer;
      }
      drop(key);
      const entry = { version, answer: make(), bytes: 0 };
      kept.set(key, entry);
      entry.answer.then(
        (answer) => {
          if (kept.get(key) !== entry) return;
          entry.bytes = sizeOf(answer);
          total += entry.bytes;
          for (const old of kept.keys()) {
            if (total <= maxBytes) break;
            if (old !== key) drop(old);
          }
        },
        // A failed make is not kept: the next reader tries again.
        () => kept.get(key) === entry && drop(key),
      );
      return entry.answer;
    },
    /** Kept answers and their bytes (for tests and the status page). */
    size: () => ({ answers: kept.size, bytes: total }),
  };
}
