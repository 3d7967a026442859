// The job catalogue (issue 30): every kind declared once with its retry rule and time limit; a
// kind without a handler, or a handler without a kind, stops the start with one clear line; one
// rule says which failures are transient for every kind.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/server/adapters/jobs/job-queue.js';
import { fail } from '../../src/server/errors.js';
import { checkHandlers, JOB_CATALOGUE, kindsOn } from '../../src/server/jobs/catalogue.js';
import { isTransient } from '../../src/server/jobs/retry-rule.js';
import { createJobDispatcher, queueOf } from '../../src/server/jobs/dispatcher.js';
import { createMediaJobs, MEDIA_QUEUE } from '../../src/server/services/media-jobs.service.js';
import type { MediaResultsService } from '../../src/server/services/media-results.service.js';

const unreachable = new Proxy({}, { get: () => () => Promise.reject(new Error('queue reached')) });
/** A media jobs service whose queue must never be reached (the check comes first); any kind name compiles. */
const mediaJobs = () =>
  createMediaJobs<Record<string, object>>({
    queue: unreachable as JobQueue,
    results: unreachable as MediaResultsService,
    logger: pino({ level: 'silent' }),
    concurrency: 1,
    maxQueue: 4,
    waitMs: 1000,
    timeoutSeconds: 60,
  });
const noop = async () => Promise.reject(new Error('not run'));

describe('job catalogue', () => {
  it('declares every media kind on the media queue, and the batch items and schedules on theirs', () => {
    expect(kindsOn(MEDIA_QUEUE).sort()).toEqual([
      'audio',
      'caption-render',
      'images',
      'preview',
      'remux',
      'repost-kit',
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
    for (const k of [
      'audio',
      'transcript',
      'remux',
      'images',
      'slideshow',
      'studio-source',
      'caption-render',
      'repost-kit',
    ])
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

  it('checks the batch items and schedules too: a kind on its own queue with no handler stops the start', async () => {
    const jobs = createJobDispatcher({ queue: unreachable as JobQueue, limits: { media: 60, batchItem: 60 } });
    jobs.register('schedule', async () => undefined, { queues: () => [] });
    await expect(jobs.start(true)).rejects.toThrow('job catalogue: no handler for kind batch.item on queue batch.item');
    jobs.register('batch.item', async () => undefined);
    const defined: string[] = [];
    const queue = { define: async (q: { name: string }) => void defined.push(q.name), work: async () => '' };
    const ready = createJobDispatcher({ queue: queue as unknown as JobQueue, limits: { media: 60, batchItem: 900 } });
    ready.register('batch.item', async () => undefined);
    ready.register('schedule', async () => undefined, { queues: () => ['schedule.a', 'schedule.b'] });
    await ready.start(false);
    expect(defined).toEqual(['batch.item', 'schedule.a', 'schedule.b']);
  });

  it("declares each queue from the catalogue: retry rule, time limit, the kind's priority", () => {
    expect(queueOf('batch.item', { media: 600, batchItem: 900 }, 3)).toEqual({
      name: 'batch.item',
      concurrency: 3,
      retryLimit: 2,
      retryDelaySeconds: 5,
      expireInSeconds: 900,
    });
    expect(JOB_CATALOGUE['batch.item'].priority({ place: 0 })).toBeGreaterThan(
      JOB_CATALOGUE['batch.item'].priority({ place: 5 }),
    );
    // Pro before free whatever their open jobs; among equals, fewer open jobs first.
    expect(JOB_CATALOGUE.audio.priority({ plan: 2, ownerOpen: 50 })).toBeGreaterThan(
      JOB_CATALOGUE.audio.priority({ plan: 1, ownerOpen: 0 }),
    );
    expect(JOB_CATALOGUE.audio.priority({ plan: 1, ownerOpen: 0 })).toBeGreaterThan(
      JOB_CATALOGUE.audio.priority({ plan: 1, ownerOpen: 1 }),
    );
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
      fail('upstream.not_media', { type: 'text/html' }),
      fail('media.no_audio'),
      fail('media.interrupted'),
      fail('request.aborted'),
      fail('internal'),
    ])
      expect([e.code, isTransient(e)]).toEqual([e.code, false]);
  });
});
