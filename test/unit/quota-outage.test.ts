// A download's count is written once the database is back (issue 31): the commit retries while
// the database is away, as the release already did, instead of failing the transfer.
import { describe, expect, it } from 'vitest';
import { createQuotaService } from '../../src/server/services/quota.service.js';
import type { DownloadsRepository } from '../../src/server/db/repositories/downloads.repository.js';
import type { User } from '../../src/server/db/repositories/users.repository.js';

/** What a query against a stopped PostgreSQL throws (see errors.ts infrastructureError). */
const databaseDown = () =>
  Object.assign(new Error('Failed query: update downloads'), { cause: { code: 'ECONNREFUSED', message: 'refused' } });

describe('quota commit while the database is away', () => {
  it('retries until the database answers, then counts once', async () => {
    let failures = 3;
    const commits: number[] = [];
    const downloads = {
      reserve: async () => 7,
      commit: async (_user: string, id: number) => {
        if (failures-- > 0) throw databaseDown();
        commits.push(id);
        return true;
      },
      release: async () => true,
    } as unknown as DownloadsRepository;
    const quota = createQuotaService({ downloads, retryDelaysMs: [1, 1, 1, 1] });
    const r = await quota.reserve({ id: 'u1', proGranted: true } as User, {} as never);
    await expect(r.commit(100)).resolves.toBe(true);
    expect(commits).toEqual([7]);
    await expect(r.release(100)).resolves.toBe(true); // settled once: the commit's answer
    expect(commits).toEqual([7]);
  });

  it('does not retry a fault that is not the database being away', async () => {
    let calls = 0;
    const downloads = {
      reserve: async () => 8,
      commit: async () => {
        calls++;
        throw new Error('a bug');
      },
    } as unknown as DownloadsRepository;
    const quota = createQuotaService({ downloads, retryDelaysMs: [1, 1, 1] });
    const r = await quota.reserve({ id: 'u1', proGranted: true } as User, {} as never);
    await expect(r.commit(1)).rejects.toThrow('a bug');
    expect(calls).toBe(1);
  });
});
