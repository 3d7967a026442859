import { describe, expect, it } from 'vitest';
import { PassThrough, Readable } from 'node:stream';
import { MeteredBody } from '../../src/server/services/metered-body.js';

function hooks(commit: () => Promise<unknown> = async () => true) {
  const calls: string[] = [];
  return {
    calls,
    hooks: {
      commit: async (bytes: number) => {
        calls.push(`commit ${bytes}`);
        return commit();
      },
      release: (bytes: number) => void calls.push(`release ${bytes}`),
    },
  };
}

async function readAll(body: Readable): Promise<{ data: Buffer; error: Error | null }> {
  const chunks: Buffer[] = [];
  try {
    for await (const c of body) chunks.push(c as Buffer);
    return { data: Buffer.concat(chunks), error: null };
  } catch (err) {
    return { data: Buffer.concat(chunks), error: err as Error };
  }
}

describe('MeteredBody (a quota-counted download body)', () => {
  it('passes every byte through in order and commits once, with the byte count', async () => {
    const parts = Array.from({ length: 50 }, (_, i) => Buffer.alloc(10_000, i));
    const h = hooks();
    const { data, error } = await readAll(new MeteredBody(Readable.from(parts), 500_000, h.hooks));
    expect(error).toBeNull();
    expect(data.equals(Buffer.concat(parts))).toBe(true);
    expect(h.calls).toEqual(['commit 500000']);
  });

  it('holds the last chunk back until the commit has settled', async () => {
    let finishCommit!: () => void;
    const h = hooks(() => new Promise<void>((r) => (finishCommit = r)));
    const source = new PassThrough();
    const body = new MeteredBody(source, 6, h.hooks);
    const seen: string[] = [];
    body.on('data', (c: Buffer) => seen.push(c.toString()));
    source.write('abc');
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(['abc']); // the length is known: only the chunk completing the file waits
    source.end('def');
    await new Promise((r) => setTimeout(r, 20));
    expect(h.calls).toEqual(['commit 6']);
    expect(seen).toEqual(['abc']);
    finishCommit();
    await new Promise((r) => body.once('end', r));
    expect(seen).toEqual(['abc', 'def']);
  });

  it('without a known length, holds each chunk until the next one shows it was not the last', async () => {
    const h = hooks();
    const source = new PassThrough();
    const body = new MeteredBody(source, null, h.hooks);
    const seen: string[] = [];
    body.on('data', (c: Buffer) => seen.push(c.toString()));
    source.write('abc');
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([]);
    source.write('def');
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(['abc']);
    source.end();
    await new Promise((r) => body.once('end', r));
    expect(seen).toEqual(['abc', 'def']);
    expect(h.calls).toEqual(['commit 6']);
  });

  it('fails and releases when the upstream ends short of its announced length', async () => {
    const h = hooks();
    const { error } = await readAll(new MeteredBody(Readable.from([Buffer.alloc(100)]), 1000, h.hooks));
    expect(error?.message).toMatch(/short upstream body: 100 of 1000/);
    expect(h.calls).toEqual(['release 100']);
  });

  it('fails and releases when the upstream breaks mid-file, never committing', async () => {
    const h = hooks();
    const source = new PassThrough();
    const body = new MeteredBody(source, null, h.hooks);
    const read = readAll(body);
    source.write(Buffer.alloc(300));
    setTimeout(() => source.destroy(new Error('premature close: 300 of 900 bytes')), 10);
    const { error } = await read;
    expect(error?.message).toMatch(/premature close/);
    expect(h.calls).toEqual(['release 300']);
  });

  it('stops the upstream and releases when the reader goes away', async () => {
    const h = hooks();
    const source = new PassThrough();
    const body = new MeteredBody(source, null, h.hooks);
    source.write(Buffer.alloc(1000));
    await new Promise((r) => setTimeout(r, 10));
    body.destroy();
    await new Promise((r) => setTimeout(r, 10));
    expect(source.destroyed).toBe(true);
    expect(h.calls).toEqual(['release 1000']);
  });

  it('counts a file of unknown length made while sent once more than half of its expected size reached the reader', async () => {
    for (const [sent, calls] of [
      [600, ['commit 600']],
      [400, ['release 401']], // the bytes received, as for any release
    ] as const) {
      const h = hooks();
      const source = new PassThrough();
      // Exact length unknown (a remux streamed as it is made); about 1000 bytes expected.
      const body = new MeteredBody(source, null, h.hooks, 10_000, 1000);
      const got: Buffer[] = [];
      body.on('data', (c: Buffer) => got.push(c));
      source.write(Buffer.alloc(sent));
      source.write(Buffer.alloc(1)); // the last chunk of an unknown length is held back
      await new Promise((r) => setTimeout(r, 10));
      body.destroy();
      await new Promise((r) => setTimeout(r, 10));
      expect(h.calls).toEqual(calls);
    }
  });

  it('releases when the commit itself fails, and does not send the last chunk', async () => {
    const h = hooks(async () => {
      throw new Error('database down');
    });
    const { data, error } = await readAll(
      new MeteredBody(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 4, h.hooks),
    );
    expect(error?.message).toBe('database down');
    expect(data.toString()).toBe('ab');
    expect(h.calls).toEqual(['commit 4', 'release 4']);
  });

  it('does not hold the transfer for a commit that waits on the database: the last chunk goes after holdMs', async () => {
    let finishCommit!: () => void;
    const h = hooks(() => new Promise<void>((r) => (finishCommit = r)));
    const body = new MeteredBody(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 4, h.hooks, 50);
    const { data, error } = await readAll(body);
    expect(error).toBeNull();
    expect(data.toString()).toBe('abcd');
    expect(h.calls).toEqual(['commit 4']); // committing later, never released
    finishCommit();
  });

  it('after delivering, a commit that finally fails neither breaks the stream nor releases', async () => {
    let failCommit!: (e: Error) => void;
    const h = hooks(() => new Promise<void>((_r, reject) => (failCommit = reject)));
    const body = new MeteredBody(Readable.from([Buffer.from('abcd')]), 4, h.hooks, 20);
    const { data, error } = await readAll(body);
    expect([data.toString(), error]).toEqual(['abcd', null]);
    failCommit(new Error('database still down'));
    await new Promise((r) => setTimeout(r, 20));
    expect(h.calls).toEqual(['commit 4']);
  });

  it('keeps memory bounded with a slow reader: the upstream is paused, not drained into the buffer', async () => {
    const h = hooks();
    let produced = 0;
    const source = new Readable({
      highWaterMark: 64 * 1024,
      read() {
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    const body = new MeteredBody(source, null, h.hooks);
    await new Promise((r) => setTimeout(r, 50)); // nobody reads
    expect(produced).toBeLessThan(1024 * 1024);
    body.destroy();
  });

  describe('a reader that leaves before the end (issue 34)', () => {
    /** Ten chunks of 1,000 bytes; the reader takes `n` of them, then goes away. */
    async function leaveAfter(n: number, opts: { breakAt?: number } = {}) {
      const h = hooks();
      const source = new PassThrough();
      const body = new MeteredBody(source, 10_000, h.hooks);
      let got = 0;
      body.on('data', (c: Buffer) => {
        got += c.length;
        body.pause();
      });
      body.on('error', () => undefined);
      for (let i = 0; i < 10; i++) {
        if (opts.breakAt === i) {
          source.destroy(new Error('upstream cut'));
          await new Promise((r) => setTimeout(r, 10));
          break;
        }
        source.write(Buffer.alloc(1000, i));
        await new Promise((r) => setImmediate(r));
        if (got >= n * 1000) break;
        body.resume();
      }
      body.destroy();
      await new Promise((r) => setTimeout(r, 10));
      return { calls: h.calls, got };
    }

    it('is counted once more than half of the file reached them (89.5 % is not free)', async () => {
      const { calls, got } = await leaveAfter(9);
      expect(got).toBe(9000);
      expect(calls).toEqual(['commit 9000']);
      expect((await leaveAfter(6)).calls).toEqual(['commit 6000']);
    });

    it('is not counted at half or less, nor when the upstream failed however far it got', async () => {
      expect((await leaveAfter(5)).calls).toEqual(['release 5000']);
      expect((await leaveAfter(1)).calls).toEqual(['release 1000']);
      const cut = await leaveAfter(10, { breakAt: 9 });
      expect(cut.calls).toEqual(['release 9000']);
    });
  });
});
