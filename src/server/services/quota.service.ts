// The free quota (decision 0092 'The server decides'): reserve a slot atomically before streaming, commit it once
// the whole file was sent, release it when the transfer fails. Pro users are never limited (their
// downloads are still recorded and counted). A reservation older than STALE_RESERVATION_MS can
// only belong to a crashed process and is failed at the user's next reservation.
import { FREE_DOWNLOAD_LIMIT } from '../../shared/constants.js';
import { fail, infrastructureError } from '../errors.js';
import type { DownloadMeta, DownloadsRepository } from '../db/repositories/downloads.repository.js';
import type { User } from '../db/repositories/users.repository.js';
import { isPro } from './entitlements.service.js';

export const STALE_RESERVATION_MS = 2 * 60 * 60 * 1000;

export const quotaExhausted = () =>
  fail(
    'quota.exhausted',
    { limit: FREE_DOWNLOAD_LIMIT },
    {
      limitReached: true,
    },
  );

export interface Reservation {
  userId: string;
  downloadId: number;
  /** Settles once: commit or release, whichever comes first. */
  commit(bytes: number): Promise<boolean>;
  release(bytes: number): Promise<boolean>;
}

/** Waits between commit or release attempts while the database is away: about ten minutes in all. */
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000, 15_000, ...Array<number>(18).fill(30_000)];

async function retryWhileUnavailable<T>(op: () => Promise<T>, delays = RETRY_DELAYS_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (attempt >= delays.length || !infrastructureError(err)) throw err;
      await new Promise((r) => setTimeout(r, delays[attempt]));
    }
  }
}

export function createQuotaService(deps: {
  downloads: DownloadsRepository;
  now?: () => number;
  retryDelaysMs?: number[];
}) {
  const now = deps.now ?? Date.now;
  return {
    /**
     * A reservation made by a request and settled by a media job, possibly on another node (a repost
     * kit): the same commit and release by the slot's ids, each retried while the database is away.
     */
    resume(userId: string, downloadId: number): Pick<Reservation, 'commit' | 'release'> {
      const retry = (op: () => Promise<boolean>) => retryWhileUnavailable(op, deps.retryDelaysMs);
      return {
        commit: (bytes) => retry(() => deps.downloads.commit(userId, downloadId, bytes)),
        release: (bytes) => retry(() => deps.downloads.release(userId, downloadId, bytes)),
      };
    },
    async reserve(user: User, meta: DownloadMeta): Promise<Reservation> {
      const limit = isPro(user) ? null : FREE_DOWNLOAD_LIMIT;
      const id = await deps.downloads.reserve(user.id, meta, limit, new Date(now() - STALE_RESERVATION_MS));
      if (id === null) throw quotaExhausted();
      let settled: Promise<boolean> | null = null;
      // Commit and release both retry while the database is away (about ten minutes), so no slot
      // stays reserved for the stale-reservation period; a commit that still failed leaves the slot
      // to a release.
      const settle = (op: () => Promise<boolean>) =>
        (settled ??= op().catch((err) => {
          settled = null;
          throw err;
        }));
      return {
        userId: user.id,
        downloadId: id,
        // The file went out whole: its count is written, waiting for the database if it is away
        // (issue 31: a transfer under way is never dropped for it).
        commit: (bytes) =>
          settle(() => retryWhileUnavailable(() => deps.downloads.commit(user.id, id, bytes), deps.retryDelaysMs)),
        release: (bytes) =>
          settle(() => retryWhileUnavailable(() => deps.downloads.release(user.id, id, bytes), deps.retryDelaysMs)),
      };
    },
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;
