// peekSound on a stream that already broke, or that closes without an error event (issue 38): the
// streamed remux opens the gear and the sound at once and reads each head only once both answered,
// so a gear cut in its head may be torn down before its read starts. The read must fail then,
// never wait for events that already happened (it hung the remux job and its request).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { peekSound } from '../../src/server/adapters/media/mp4-head.js';

/** A stream holding the first 200 bytes of an MP4 (an `ftyp` box and the start of `moov`). */
function cutHead(): Readable {
  const head = Buffer.alloc(200);
  head.writeUInt32BE(24, 0);
  head.write('ftyp', 4, 'latin1');
  head.writeUInt32BE(100_000, 24);
  head.write('moov', 28, 'latin1');
  const stream = new Readable({ read: () => undefined });
  stream.on('error', () => undefined); // as the HTTP client's bodies do: errors go to their readers
  stream.push(head);
  return stream;
}

/** How the read settled after the events already queued ran (null: still waiting). */
async function settledAfterQueuedEvents(p: Promise<unknown>): Promise<'resolved' | 'rejected' | null> {
  let state: 'resolved' | 'rejected' | null = null;
  p.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  return state;
}

describe('peekSound', () => {
  it('fails at once on a stream that broke before the read started', async () => {
    const stream = cutHead();
    stream.destroy(new Error('premature close: 200 of 508927 bytes'));
    await new Promise((r) => setImmediate(r)); // its 'error' and 'close' events are gone
    const read = peekSound(stream, () => undefined);
    expect(await settledAfterQueuedEvents(read)).toBe('rejected');
    await expect(read).rejects.toThrow('premature close');
  });

  it('fails at once on a stream destroyed without an error before the read started', async () => {
    const stream = cutHead();
    stream.destroy();
    await new Promise((r) => setImmediate(r));
    expect(await settledAfterQueuedEvents(peekSound(stream, () => undefined))).toBe('rejected');
  });

  it('fails when the stream closes without an error event while its head is read', async () => {
    const stream = cutHead();
    const read = peekSound(stream, () => undefined);
    expect(await settledAfterQueuedEvents(read)).toBeNull(); // the head is not whole yet: it waits
    stream.destroy();
    expect(await settledAfterQueuedEvents(read)).toBe('rejected');
  });

  it('still hands back every byte of a head that ends early', async () => {
    const ended = cutHead();
    ended.push(null);
    const got = await peekSound(ended, () => undefined);
    expect(got.sound).toBeNull();
    const bytes: Buffer[] = [];
    for await (const c of got.stream) bytes.push(c as Buffer);
    expect(Buffer.concat(bytes).length).toBe(200);
  });
});
