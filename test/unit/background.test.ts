// lib/background.ts (decision 0075): the tasks a first request needs start before ready, the
// deferred ones after it in order; stop waits for a start still going; a failure reaches started().
import { describe, expect, it } from 'vitest';
import { openLater, runBackground, type BackgroundTask } from '../../src/server/lib/background.js';

const task = (name: string, log: string[], opts: { deferred?: boolean; start?: () => Promise<void> } = {}) =>
  ({
    name,
    deferred: opts.deferred,
    start: async () => {
      log.push(`start ${name}`);
      await opts.start?.();
    },
    stop: () => void log.push(`stop ${name}`),
  }) satisfies BackgroundTask;

describe('background tasks', () => {
  it('starts the needed ones before ready and the deferred ones after, in order; stops in reverse', async () => {
    const log: string[] = [];
    const hold = openLater();
    const bg = runBackground([
      task('a', log),
      task('queue', log, { deferred: true, start: () => hold.promise }),
      task('b', log),
      task('render', log, { deferred: true }),
    ]);
    await bg.start();
    expect(log).toEqual(['start a', 'start b']);
    await expect.poll(() => log).toEqual(['start a', 'start b', 'start queue']);
    const stopping = bg.stop();
    await new Promise((r) => setImmediate(r));
    expect(log).not.toContain('stop render'); // the start still going is waited for
    hold.open();
    await stopping;
    await bg.started();
    expect(log).toEqual([
      'start a',
      'start b',
      'start queue',
      'start render',
      'stop render',
      'stop b',
      'stop queue',
      'stop a',
    ]);
  });

  it('reports a deferred task that fails to start, and starts none after it', async () => {
    const log: string[] = [];
    const bg = runBackground([
      task('queue', log, { deferred: true, start: () => Promise.reject(new Error('no handler for kind x')) }),
      task('render', log, { deferred: true }),
    ]);
    await bg.start();
    await expect(bg.started()).rejects.toThrow('no handler for kind x');
    expect(log).toEqual(['start queue']);
  });
});
