// The body of a quota-counted download: the upstream file passed through untouched, with its last
// chunk held back until the download was committed (decision 0102), so the subscription status a
// client reads right after the download already counts it.
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
  private held: Buffer | null = null;
  private committing = false;
  private delivered = false;

  constructor(
    private readonly source: Readable,
    private readonly expected: number | null,
    private readonly hooks: MeterHooks,
    /** The longest the last chunk waits for the commit; the commit goes on after it. */
    private readonly holdMs = 10_000,
  ) {
    super({ highWaterMark: 256 * 1024 });
    source.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      // With a known length only the chunk that completes the file waits; otherwise the last chunk
      // is only known at the end, so each one waits for the next.
      const out = expected !== null && this.received < expected ? chunk : this.held;
      if (out !== chunk) this.held = chunk;
      if (out && !this.push(out)) source.pause();
    });
    source.once('end', () => this.finish());
    source.once('error', (err) => this.destroy(err));
    source.once('close', () => {
      if (!this.committing) this.destroy(new Error(`upstream closed after ${this.received} bytes`));
    });
  }

  bytes(): number {
    return this.received;
  }

  override _read(): void {
    this.source.resume();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    // Reaching here before the commit started means the file was not delivered whole.
    if (!this.committing) this.hooks.release(this.received);
    this.source.destroy();
    cb(err);
  }

  private finish(): void {
    if (this.destroyed) return;
    if (this.expected !== null && this.received !== this.expected) {
      this.destroy(new Error(`short upstream body: ${this.received} of ${this.expected}`));
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
      this.destroy(err);
    });
  }
}
