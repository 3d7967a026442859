/**
 * The bulk transport's read buffers, reused (decision 0106). Relaying allocates a 256 KB slab per
 * ~200 KB read: at loopback speed that is hundreds of MB/s of fresh memory outside the JS heap, and
 * V8 answers it with a collection every ~25 MB and, now and then, runs of full collections that
 * tripled the server's CPU per download (docs/benchmarks.md, Downloader).
 *
 * A slab is reused only when the reader has moved past it (retire) and every chunk cut from it was
 * released by the consumer that received it (releaseChunk, called once the bytes have left the
 * process, e.g. from the callback of the socket write that sent them). A consumer that never
 * releases keeps its chunks' slabs out of reuse: they are garbage-collected as before. So reuse can
 * only happen where a consumer vouched for every chunk of the slab.
 */
export const SLAB_SIZE = 256 * 1024;
const MAX_FREE = 32; // 8 MB kept for the next transfers at most

interface SlabState {
  slab: Buffer;
  out: number; // chunks handed out and not yet released
  retired: boolean;
}

/** One use of a slab, from takeSlab to retire. Retiring twice, or late, touches only this use. */
export interface SlabLease {
  readonly buf: Buffer;
  /** The reader will not read into this slab again. */
  retire(): void;
}

const current = new WeakMap<ArrayBufferLike, SlabState>(); // the slab's current use
const outstanding = new WeakMap<Buffer, SlabState>(); // chunk -> the use it was cut from
const free: Buffer[] = [];
let reused = 0;

/** How many times a slab was taken from the free list since the process started (tests, benchmarks). */
export const slabsReused = () => reused;

export function takeSlab(): SlabLease {
  const recycled = free.pop();
  if (recycled) reused++;
  const slab = recycled ?? Buffer.allocUnsafeSlow(SLAB_SIZE);
  const s: SlabState = { slab, out: 0, retired: false };
  current.set(slab.buffer, s);
  return {
    buf: slab,
    retire() {
      if (s.retired) return;
      s.retired = true;
      recycle(s);
    },
  };
}

/** Records that `chunk` (a view of a slab in use) goes to a consumer; returns it. */
export function handOut(chunk: Buffer): Buffer {
  const s = current.get(chunk.buffer);
  if (s && !s.retired && !outstanding.has(chunk)) {
    s.out++;
    outstanding.set(chunk, s);
  }
  return chunk;
}

/** The consumer no longer needs these bytes. Anything not handed out by handOut is ignored. */
export function releaseChunk(chunk: Buffer): void {
  const s = outstanding.get(chunk);
  if (!s) return;
  outstanding.delete(chunk);
  s.out--;
  recycle(s);
}

function recycle(s: SlabState): void {
  if (!s.retired || s.out !== 0) return;
  if (current.get(s.slab.buffer) === s) current.delete(s.slab.buffer);
  if (free.length < MAX_FREE) free.push(s.slab);
}

export function freeSlabCount(): number {
  return free.length;
}
