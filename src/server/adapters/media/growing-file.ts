// A file being written by one process (ffmpeg's fragmented MP4) and read by any number of requests
// while it grows (issue 38): each reader starts at byte 0, follows the writer, ends only once the
// writer said the file is whole and every byte was read, and fails when the writer failed, so a
// reader never takes a short file for a whole one. Readers share one read descriptor (positional
// reads), held until the job and the last reader let go: the job may remove its temporary
// directory while they still read.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { Readable, Writable } from 'node:stream';

const CHUNK = 256 * 1024;

export class GrowingFile {
  /** Bytes written to disk so far (readers may read up to here). */
  private written = 0;
  private state: 'writing' | 'done' | 'failed' = 'writing';
  private error: Error | null = null;
  private readonly events = new EventEmitter().setMaxListeners(0);
  private readonly fd: number;
  private readonly rfd: number;
  /** The job plus each open reader: the read descriptor closes when none is left. */
  private holders = 1;

  constructor(
    readonly path: string,
    /** The size the whole file is expected to have (from its parts), for progress only. */
    readonly expectedBytes: number | null,
  ) {
    this.fd = fs.openSync(path, 'w');
    this.rfd = fs.openSync(path, 'r');
  }

  /** One holder lets go of the read descriptor (the job calls it once when it ends). */
  release(): void {
    if (--this.holders === 0) fs.close(this.rfd, () => undefined);
  }

  /** Bytes written so far. */
  get size(): number {
    return this.written;
  }

  /** The writing side: ffmpeg's stdout goes here. Resolves `firstBytes` on the first write. */
  sink(): Writable {
    return new Writable({
      highWaterMark: CHUNK,
      write: (chunk: Buffer, _enc, cb) => {
        fs.write(this.fd, chunk, 0, chunk.length, this.written, (err) => {
          if (err) return cb(err);
          this.written += chunk.length;
          this.events.emit('grow');
          cb();
        });
      },
      // No fsync: readers on this machine read through the page cache, and the stored copy is
      // another file (the faststart rewrite). Syncing a whole file was a fixed cost before the
      // last byte reached the client (issue 44).
      final: (cb) => cb(),
    });
  }

  /** Resolves once at least one byte is on disk; rejects when the writer fails first. */
  firstBytes(): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.written > 0) done(resolve);
        else if (this.state === 'failed') done(() => reject(this.error));
        else if (this.state === 'done') done(() => reject(new Error('empty output')));
      };
      const done = (fn: () => void) => {
        this.events.off('grow', check).off('state', check);
        fn();
      };
      this.events.on('grow', check).on('state', check);
      check();
    });
  }

  /** The file is whole: readers end once they reach its last byte. */
  finish(): void {
    if (this.state !== 'writing') return;
    this.state = 'done';
    fs.closeSync(this.fd);
    this.events.emit('state');
  }

  /** The file will never be whole: every reader fails with `err`. */
  fail(err: Error): void {
    if (this.state !== 'writing') return;
    this.state = 'failed';
    this.error = err;
    fs.close(this.fd, () => undefined);
    this.events.emit('state');
  }

  get whole(): boolean {
    return this.state === 'done';
  }

  /** A stream of the file from its first byte, following the writer; only while the job holds it. */
  reader(): Readable {
    if (this.holders <= 0) throw new Error('growing file already released');
    this.holders++;
    const fd = this.rfd;
    let offset = 0;
    let reading = false;
    let closed = false;
    let wanted = false; // the consumer asked for more (push() said yes, or read() was called)
    const wake = () => pump();
    const stop = () => {
      this.events.off('grow', wake).off('state', wake);
      if (!closed) {
        closed = true;
        this.release();
      }
    };
    const stream = new Readable({
      highWaterMark: CHUNK,
      read: () => {
        wanted = true;
        pump();
      },
      destroy: (err, cb) => {
        stop();
        cb(err);
      },
    });
    const pump = () => {
      if (reading || closed) return;
      if (this.state === 'failed') return stream.destroy(this.error ?? new Error('output failed'));
      const available = this.written - offset;
      if (available > 0 && !wanted) return;
      if (available <= 0) {
        if (this.state === 'done') {
          stop();
          stream.push(null);
        }
        return; // waits for 'grow' or 'state'
      }
      reading = true;
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, available));
      fs.read(fd, buf, 0, buf.length, offset, (err, n) => {
        reading = false;
        if (closed) return;
        if (err) return stream.destroy(err);
        offset += n;
        wanted = stream.push(n === buf.length ? buf : buf.subarray(0, n));
        pump();
      });
    };
    this.events.on('grow', wake).on('state', wake);
    return stream;
  }
}
