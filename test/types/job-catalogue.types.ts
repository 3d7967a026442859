// Type test of the job catalogue (issue 35), checked by `npx tsc --noEmit -p tsconfig.json` (the
// project includes test/): a kind the catalogue does not declare, or a payload that is not its
// kind's, does not compile. Each `@ts-expect-error` fails the check if the error it expects
// disappears, so a catalogue loosened back to strings is caught here. Never run, only compiled.
import type { JobDispatcher } from '../../src/server/jobs/dispatcher.js';
import type { MediaJobs } from '../../src/server/services/media-jobs.service.js';
import type { MediaResult } from '../../src/server/db/repositories/media-results.repository.js';

export function mediaKinds(jobs: MediaJobs, signal: AbortSignal) {
  // Declared kinds with their payloads compile, and a waiting caller gets the stored result, typed.
  const kept: Promise<MediaResult> = jobs.run({
    kind: 'remux',
    key: 'k',
    data: { platform: 'p', videoId: '1', quality: '1080p' },
  });
  jobs.register('audio', async (data, job) => {
    const url: string = data.url; // the payload arrives typed: no String(...) back
    void url;
    void job.signal;
    return kept;
  });
  // Asked not to wait, the caller may get where the job stands instead.
  void jobs.run({ kind: 'audio', key: 'k', data: { url: 'u' } }, signal, { respondAsync: true }).then((out) => {
    // @ts-expect-error a pending job is not a stored result
    const row: MediaResult = out;
    void row;
  });

  // @ts-expect-error a kind the catalogue does not declare
  void jobs.run({ kind: 'remuxx', key: 'k', data: { url: 'u' } });
  // @ts-expect-error a declared kind with another kind's payload
  void jobs.run({ kind: 'remux', key: 'k', data: { url: 'u' } });
  // @ts-expect-error a payload field of the wrong type
  void jobs.run({ kind: 'caption-render', key: 'k', data: { projectId: 1, userId: 'u' } });
  // @ts-expect-error retries belong to the catalogue, not to a call
  void jobs.run({ kind: 'remux', key: 'k', data: { platform: 'p', videoId: '1', quality: 'q' }, retry: false });
  // @ts-expect-error a handler for an undeclared kind
  jobs.register('thumbnail-sprite', async () => kept);
  // @ts-expect-error a handler reading a field its kind's payload does not have
  jobs.register('preview', async (data) => (data.url ? kept : kept));
}

export function queuedKinds(jobs: JobDispatcher) {
  void jobs.send('batch.item', { itemId: 1 }, { place: 0 });
  jobs.register('batch.item', async ({ itemId }) => {
    const n: number = itemId;
    void n;
  });
  // @ts-expect-error a kind the catalogue does not declare
  void jobs.send('batch.itm', { itemId: 1 });
  // @ts-expect-error the item id is a number
  void jobs.send('batch.item', { itemId: '1' });
  // @ts-expect-error media kinds go through the media jobs (they wait for a stored result)
  void jobs.send('audio', { url: 'u' });
}
