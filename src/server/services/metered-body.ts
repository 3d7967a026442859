// The body of a quota-counted download: the upstream file passed through untouched, with its last
// chunk held back until the download was committed (decision 0102), so the subscription status a
// client reads right after the download already counts it. A reader that goes away after more than
// half of a file of known length (or, made while sent, of its expected length: issue 38) reached it
// is counted too (issue 34): closing at 89.5 % must not be a free download. An upstream that fails is never the reader's cost.
//
// A plain Readable fed by the source's 'data' events, not a Transform: a 100 MB relay moves hundreds
// of chunks, and a Transform's write side (buffering, callbacks, a second pipe) roughly doubled the
// server's per-chunk work (docs/benchmarks.md, Downloader).
import { Readable } from 'node:stream';

export interface MeterHooks {
  /**
   * Every byte arrived: count the download. The last chunk goes out once this settles, or after
   * `holdMs` at the latest: a commit waiting for the database must not hold the transfer (issue 31).
   */
  commit(bytes: number): Promise<unknown>;
  /** The transfer failed (upstream cut, short body, client gone, commit failed): give the slot back. */
  release(bytes: number): void;
}

export class MeteredBody extends Readable {
  private received = 0;
  /** Bytes handed on (pushed); those still in this stream's buffer have not reached the reader. */
  private pushed = 0;
  private notTheReader = false;
  private held: Buffer | null = null;
  private committing = false;
  private delivered = false;

  constructor(
    private readonly source: Readable,
    private readonly expected: number | null,
    private readonly hooks: MeterHooks,
    /** The longest the last chunk waits for the commit; the commit goes on after it. */
    private readonly holdMs = 10_000,
    /**
     * The size the "more than half" rule is judged on: the exact length, or for a file made while
     * it is sent (a streamed remux, issue 38) the size expected from its parts.
     */
    private readonly about: number | null = expected,
  ) {
    super({ highWaterMark: 256 * 1024 });
    source.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      // With a known length only the chunk that completes the file waits; otherwise the last chunk
      // is only known at the end, so each one waits for the next.
      const out = expected !== null && this.received < expected ? chunk : this.held;
      if (out !== chunk) this.held = chunk;
      if (!out) return;
      this.pushed += out.length;
      if (!this.push(out)) source.pause();
    });
    source.once('end', () => this.finish());
    source.once('error', (err) => this.fail(err));
    source.once('close', () => {
      if (!this.committing) this.fail(new Error(`upstream closed after ${this.received} bytes`));
    });
  }

  bytes(): number {
    return this.received;
  }

  override _read(): void {
    this.source.resume();
  }

  /** Not the reader's doing (the upstream broke, closed or came short; the commit failed): never charged. */
  private fail(err: Error): void {
    if (!this.destroyed) this.notTheReader = true;
    this.destroy(err);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    // Reaching here before the commit started means the file was not delivered whole: it counts
    // only when the reader left after more than half of it had reached them.
    if (!this.committing) {
      const delivered = this.pushed - this.readableLength;
      if (!this.notTheReader && this.about !== null && delivered * 2 > this.about) {
        this.committing = true;
        this.hooks.commit(delivered).catch(() => undefined); // the hook logs a failed commit
      } else this.hooks.release(this.received);
    }
    this.source.destroy();
    cb(err);
  }

  private finish(): void {
    if (this.destroyed) return;
    if (this.expected !== null && this.received !== this.expected) {
      this.fail(new Error(`short upstream body: ${this.received} of ${this.expected}`));
      return;
    }
    this.committing = true;
    const deliver = () => {
      if (this.delivered || this.destroyed) return;
      this.delivered = true;
      clearTimeout(hold);
      if (this.held) this.push(this.held);
      this.push(null);
    };
    const hold = setTimeout(deliver, this.holdMs);
    hold.unref();
    this.hooks.commit(this.received).then(deliver, (err: Error) => {
      clearTimeout(hold);
      // Already delivered: the hook logs it; the stream is done.
      if (this.delivered) return;
      this.committing = false;
      this.fail(err);
    });
  }
}
