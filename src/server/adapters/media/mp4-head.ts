// Reads the head of an MP4 being relayed, without holding the transfer back for long: a faststart
// file (`moov` before `mdat`, as whole HEVC gears are served) says there which tracks it has, so
// a file that should carry sound but has no sound track is caught before any byte reaches the
// client (issue 28). The bytes read are put back in front of the stream, untouched.
import { Readable } from 'node:stream';

/** At most this much is read to find the `moov` box; past it (or after `mdat`) we cannot tell. */
const MAX_HEAD = 4 * 1024 * 1024;

/** `need`: the bytes the head must reach before another look can tell more. */
type Verdict = { complete: true; sound: boolean | null } | { complete: false; need: number };

/** Walks the top-level boxes of `head`: the tracks' handler types once `moov` is whole in it. */
export function soundInHead(head: Buffer): Verdict {
  let at = 0;
  while (at + 8 <= head.length) {
    let size = head.readUInt32BE(at);
    const type = head.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > head.length) return { complete: false, need: at + 16 };
      size = Number(head.readBigUInt64BE(at + 8));
      header = 16;
    }
    if (size === 0 || type === 'mdat') return { complete: true, sound: null }; // moov at the end: unknown
    if (size < header) return { complete: true, sound: null }; // not an MP4 we can read
    if (type === 'moov') {
      if (at + size > head.length) return { complete: false, need: at + size };
      const moov = head.subarray(at, at + size);
      // hdlr box: size, 'hdlr', version+flags, pre_defined, then the handler type.
      for (let i = moov.indexOf('hdlr'); i >= 0; i = moov.indexOf('hdlr', i + 4))
        if (moov.toString('latin1', i + 12, i + 16) === 'soun') return { complete: true, sound: true };
      return { complete: true, sound: false };
    }
    at += size;
  }
  return { complete: false, need: at + 8 };
}

/**
 * Reads `stream` until the head says whether the file has a sound track (null: it cannot say), then
 * hands back a stream of every byte. `release` is called for the chunks copied into the head.
 */
export function peekSound(
  stream: Readable,
  release: (chunk: Buffer) => void,
): Promise<{ sound: boolean | null; stream: Readable }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let need = 8;
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const finish = (sound: boolean | null, ended: boolean) => {
      cleanup();
      const head = Buffer.concat(chunks, length);
      for (const c of chunks) release(c);
      if (ended) return resolve({ sound, stream: Readable.from(head.length ? [head] : []) });
      if (head.length) stream.unshift(head);
      resolve({ sound, stream });
    };
    function onReadable() {
      for (let chunk = stream.read() as Buffer | null; chunk !== null; chunk = stream.read() as Buffer | null) {
        chunks.push(chunk);
        length += chunk.length;
        if (length >= need) {
          const verdict = soundInHead(chunks.length === 1 ? chunk : Buffer.concat(chunks, length));
          if (verdict.complete) return finish(verdict.sound, false);
          need = verdict.need;
        }
        if (length >= MAX_HEAD) return finish(null, false);
      }
    }
    function onEnd() {
      const verdict = soundInHead(Buffer.concat(chunks, length));
      finish(verdict.complete ? verdict.sound : null, true);
    }
    function onError(err: Error) {
      cleanup();
      reject(err);
    }
    // Closed before its end without an error event (destroyed by its owner).
    function onClose() {
      onError(stream.errored ?? new Error('stream closed before its head was read'));
    }
    // The caller may start reading late (the remux opens both parts first): a stream that already
    // broke or was destroyed sends no more events, and waiting for them would hang.
    if (stream.destroyed) return onClose();
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('close', onClose);
  });
}
