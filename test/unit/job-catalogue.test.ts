// The job catalogue (issue 30): every kind declared once with its retry rule and time limit; a
// kind without a handler, or a handler without a kind, stops the start with one clear line; one
// rule says which failures are transient for every kind.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/server/adapters/jobs/job-queue.js';
import { fail } from '../../src/server/errors.js';
import { checkHandlers, JOB_CATALOGUE, kindsOn } from '../../src/server/jobs/catalogue.js';
import { isTransient } from '../../src/server/jobs/retry-rule.js';
import { createMediaJobs, MEDIA_QUEUE } from '../../src/server/services/media-jobs.service.js';
import type { MediaResultsService } from '../../src/server/services/media-results.service.js';

/** A media jobs service whose queue must never be reached (the check comes first). */
const mediaJobs = () => {
  const unreachable = new Proxy({}, { get: () => () => Promise.reject(new Error('queue reached')) });
  return createMediaJobs({
    queue: unreachable as JobQueue,
    results: unreachable as MediaResultsService,
    logger: pino({ level: 'silent' }),
    concurrency: 1,
    maxQueue: 4,
    waitMs: 1000,
    timeoutSeconds: 60,
  });
};
const noop = async () => Promise.reject(new Error('not run'));

describe('job catalogue', () => {
  it('declares every media kind on the media queue, and the batch items and schedules on theirs', () => {
    expect(kindsOn(MEDIA_QUEUE).sort()).toEqual([
      'audio',
      'caption-render',
      'images',
      'preview',
      'remux',
      'slideshow',
      'studio-source',
      'transcript',
    ]);
    expect(JOB_CATALOGUE['batch.item']).toMatchObject({ queue: 'batch.item', retry: { retries: 2 } });
    expect(JOB_CATALOGUE.remux.retry.retries).toBe(0);
    expect(JOB_CATALOGUE.audio.timeoutSeconds({ media: 600, batchItem: 900 })).toBe(660);
  });

  it('stops the start when a declared kind has no handler', async () => {
    const jobs = mediaJobs();
    for (const k of ['audio', 'transcript', 'remux', 'images', 'slideshow', 'studio-source', 'caption-render'])
      jobs.register(k, noop);
    await expect(jobs.start(true)).rejects.toThrow('job catalogue: no handler for kind preview on queue media');
  });

  it('stops the start when a handler has no declared kind, and refuses one registered later', async () => {
    const jobs = mediaJobs();
    for (const k of kindsOn(MEDIA_QUEUE)) jobs.register(k, noop);
    jobs.register('thumbnail-sprite', noop);
    await expect(jobs.start(true)).rejects.toThrow(
      'job catalogue: handler for undeclared kind thumbnail-sprite on queue media; ' +
        'declare it in src/server/jobs/catalogue.ts',
    );
    expect(() => checkHandlers('media', ['audio'], ['audio'])).not.toThrow();
  });
});

describe('one retry rule for every kind', () => {
  it('retries the platform not answering, slow or limiting us, and our own passing faults', () => {
    for (const e of [
      fail('upstream.unavailable', { platform: 'Clips' }),
      fail('upstream.timeout'),
      fail('upstream.rate_limited', { platform: 'Clips' }),
      fail('upstream.incomplete'),
      fail('media.busy'),
      fail('media.store_unavailable'),
      new Error('socket hang up'),
    ])
      expect([e.message, isTransient(e)]).toEqual([e.message, true]);
  });

  it('never retries an answer about the link or the file, nor a tool that was killed', () => {
    for (const e of [
      fail('video.not_found', { platform: 'Clips' }),
      fail('upstream.blocked'),
      fail('upstream.too_large'),
      fail('media.no_audio'),
      fail('media.interrupted'),
      fail('request.aborted'),
      fail('internal'),
    ])
      expect([e.code, isTransient(e)]).toEqual([e.code, false]);
  });
});
