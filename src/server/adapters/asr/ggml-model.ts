// A whisper.cpp model file (ggml format) checked before the native loader reads it. whisper.cpp as
// smart-whisper 0.8 builds it ends the process when a file fails to load (it prints the timings of
// a context that was never made), so a damaged, cut or foreign file is refused here, with a reason,
// and the native loader only ever sees a file whose every tensor has the name, shape and size it expects.
import fsp from 'node:fs/promises';

export const GGML_MAGIC = 0x67676d6c; // "ggml"

/** ggml tensor types the loader accepts: id -> elements per block and bytes per block. */
const TYPES: Record<number, { block: number; bytes: number }> = {
  0: { block: 1, bytes: 4 }, // f32
  1: { block: 1, bytes: 2 }, // f16
  2: { block: 32, bytes: 18 }, // q4_0
  3: { block: 32, bytes: 20 }, // q4_1
  6: { block: 32, bytes: 22 }, // q5_0
  7: { block: 32, bytes: 24 }, // q5_1
  8: { block: 32, bytes: 34 }, // q8_0
};
/** The file's `ftype` (ggml_ftype) -> the type of its big matrices. */
const FTYPE_TO_TYPE: Record<number, number> = { 0: 0, 1: 1, 2: 2, 3: 3, 7: 8, 8: 6, 9: 7 };

export interface WhisperHparams {
  nVocab: number;
  nAudioCtx: number;
  nAudioState: number;
  nAudioHead: number;
  nAudioLayer: number;
  nTextCtx: number;
  nTextState: number;
  nTextHead: number;
  nTextLayer: number;
  nMels: number;
  ftype: number;
}

export interface WhisperModelInfo {
  hparams: WhisperHparams;
  /** Multilingual models have 51865+ tokens (language tokens); `.en` models 51864. */
  multilingual: boolean;
  /** By encoder depth, as whisper.cpp names it. */
  size: 'tiny' | 'base' | 'small' | 'medium' | 'large' | 'other';
}

export class ModelFileError extends Error {}

export interface TensorSpec {
  name: string;
  ne: number[];
  type: number;
}

/** Every tensor whisper.cpp's loader expects, with its shape (ggml order) and type. */
export function whisperTensors(h: WhisperHparams): TensorSpec[] {
  const wtype = FTYPE_TO_TYPE[h.ftype % 1000];
  const conv = wtype === 0 ? 0 : 1;
  const s = h.nAudioState;
  const t = h.nTextState;
  const out: TensorSpec[] = [
    { name: 'encoder.positional_embedding', ne: [s, h.nAudioCtx], type: 0 },
    { name: 'encoder.conv1.weight', ne: [3, h.nMels, s], type: conv },
    { name: 'encoder.conv1.bias', ne: [1, s], type: 0 },
    { name: 'encoder.conv2.weight', ne: [3, s, s], type: conv },
    { name: 'encoder.conv2.bias', ne: [1, s], type: 0 },
    { name: 'encoder.ln_post.weight', ne: [s], type: 0 },
    { name: 'encoder.ln_post.bias', ne: [s], type: 0 },
  ];
  const block = (prefix: string, n: number, cross: boolean) => {
    const vec = (name: string, len = n) => out.push({ name: `${prefix}.${name}`, ne: [len], type: 0 });
    const mat = (name: string, a = n, b = n) => out.push({ name: `${prefix}.${name}`, ne: [a, b], type: wtype });
    vec('mlp_ln.weight');
    vec('mlp_ln.bias');
    mat('mlp.0.weight', n, 4 * n);
    vec('mlp.0.bias', 4 * n);
    mat('mlp.2.weight', 4 * n, n);
    vec('mlp.2.bias');
    for (const a of cross ? ['attn', 'cross_attn'] : ['attn']) {
      vec(`${a}_ln.weight`);
      vec(`${a}_ln.bias`);
      mat(`${a}.query.weight`);
      vec(`${a}.query.bias`);
      mat(`${a}.key.weight`);
      mat(`${a}.value.weight`);
      vec(`${a}.value.bias`);
      mat(`${a}.out.weight`);
      vec(`${a}.out.bias`);
    }
  };
  for (let i = 0; i < h.nAudioLayer; i++) block(`encoder.blocks.${i}`, s, false);
  out.push(
    { name: 'decoder.positional_embedding', ne: [t, h.nTextCtx], type: 0 },
    { name: 'decoder.token_embedding.weight', ne: [t, h.nVocab], type: wtype },
    { name: 'decoder.ln.weight', ne: [t], type: 0 },
    { name: 'decoder.ln.bias', ne: [t], type: 0 },
  );
  for (let i = 0; i < h.nTextLayer; i++) block(`decoder.blocks.${i}`, t, true);
  return out;
}

export function tensorBytes(spec: { ne: number[]; type: number }): number {
  const ty = TYPES[spec.type];
  const n = spec.ne.reduce((a, b) => a * b, 1);
  return (n / ty.block) * ty.bytes;
}

/** Refuses hyper-parameters whisper.cpp would assert on or mis-size (a foreign or damaged header). */
function checkHparams(h: WhisperHparams): void {
  const bad = (why: string) => {
    throw new ModelFileError(`not a whisper model (${why})`);
  };
  if (h.nVocab < 51864 || h.nVocab > 51866) bad(`vocabulary of ${h.nVocab} tokens`);
  if (h.nAudioCtx !== 1500) bad(`audio context ${h.nAudioCtx}`);
  if (h.nTextCtx < 1 || h.nTextCtx > 448) bad(`text context ${h.nTextCtx}`);
  if (h.nAudioState !== h.nTextState || h.nAudioState < 8 || h.nAudioState > 4096) bad('layer width');
  for (const [heads, width] of [
    [h.nAudioHead, h.nAudioState],
    [h.nTextHead, h.nTextState],
  ])
    if (heads < 1 || width % heads !== 0) bad('attention heads');
  for (const layers of [h.nAudioLayer, h.nTextLayer]) if (layers < 1 || layers > 64) bad('layer count');
  if (h.nMels !== 80 && h.nMels !== 128) bad(`${h.nMels} mel bands`);
  if (FTYPE_TO_TYPE[h.ftype % 1000] === undefined) bad(`weight type ${h.ftype}`);
  // Quantised blocks hold 32 values: every matrix row must be a whole number of blocks.
  if (TYPES[FTYPE_TO_TYPE[h.ftype % 1000]].block > 1 && h.nAudioState % 32 !== 0) bad('layer width for its type');
}

/** Reads a file front to back through a small window (the header and vocabulary are ~1 MB). */
class Reader {
  private buf = Buffer.alloc(0);
  private bufAt = 0;
  pos = 0;
  constructor(
    private readonly fh: fsp.FileHandle,
    readonly size: number,
  ) {}
  async bytes(n: number): Promise<Buffer> {
    if (this.pos + n > this.size) throw new ModelFileError('the file is cut short');
    if (this.pos < this.bufAt || this.pos + n > this.bufAt + this.buf.length) {
      const len = Math.min(Math.max(n, 1 << 20), this.size - this.pos);
      this.buf = Buffer.alloc(len);
      await this.fh.read(this.buf, 0, len, this.pos);
      this.bufAt = this.pos;
    }
    const out = this.buf.subarray(this.pos - this.bufAt, this.pos - this.bufAt + n);
    this.pos += n;
    return out;
  }
  async i32(): Promise<number> {
    return (await this.bytes(4)).readInt32LE(0);
  }
}

/** Checks a ggml whisper model file whole (header, mel filters, vocabulary, every tensor's place). */
export async function inspectWhisperModel(file: string): Promise<WhisperModelInfo> {
  const fh = await fsp.open(file, 'r');
  try {
    const r = new Reader(fh, (await fh.stat()).size);
    if (r.size < 48 || (await r.bytes(4)).readUInt32LE(0) !== GGML_MAGIC)
      throw new ModelFileError('not a ggml model file (bad magic)');
    const v: number[] = [];
    for (let i = 0; i < 11; i++) v.push(await r.i32());
    const [nVocab, nAudioCtx, nAudioState, nAudioHead, nAudioLayer, nTextCtx, nTextState, nTextHead, nTextLayer] = v;
    const hparams: WhisperHparams = {
      nVocab,
      nAudioCtx,
      nAudioState,
      nAudioHead,
      nAudioLayer,
      nTextCtx,
      nTextState,
      nTextHead,
      nTextLayer,
      nMels: v[9],
      ftype: v[10],
    };
    checkHparams(hparams);
    const nMel = await r.i32();
    const nFft = await r.i32();
    if (nMel !== hparams.nMels || nFft < 1 || nFft > 1024) throw new ModelFileError('damaged mel filters');
    await r.bytes(nMel * nFft * 4);
    const words = await r.i32();
    if (words < 0 || words > hparams.nVocab) throw new ModelFileError('damaged vocabulary');
    for (let i = 0; i < words; i++) {
      const len = await r.i32();
      if (len < 0 || len > 256) throw new ModelFileError('damaged vocabulary');
      await r.bytes(len);
    }
    const expected = new Map(whisperTensors(hparams).map((t) => [t.name, t]));
    const seen = new Set<string>();
    while (r.pos < r.size) {
      const [dims, nameLen, type] = [await r.i32(), await r.i32(), await r.i32()];
      if (dims < 1 || dims > 4 || nameLen < 1 || nameLen > 128) throw new ModelFileError('damaged tensor header');
      const ne: number[] = [];
      for (let i = 0; i < dims; i++) ne.push(await r.i32());
      const name = (await r.bytes(nameLen)).toString('latin1');
      const spec = expected.get(name);
      if (!spec || seen.has(name)) throw new ModelFileError(`unexpected tensor ${JSON.stringify(name)}`);
      const shape = [...ne, 1, 1, 1].slice(0, 3).join('x');
      if (shape !== [...spec.ne, 1, 1, 1].slice(0, 3).join('x') || ne.slice(3).some((d) => d !== 1))
        throw new ModelFileError(`tensor ${name} has the wrong shape`);
      if (type !== spec.type) throw new ModelFileError(`tensor ${name} has the wrong type`);
      const size = tensorBytes(spec);
      if (r.pos + size > r.size) throw new ModelFileError('the file is cut short');
      r.pos += size;
      seen.add(name);
    }
    if (seen.size !== expected.size) throw new ModelFileError('the file is cut short (tensors missing)');
    const size = ({ 4: 'tiny', 6: 'base', 12: 'small', 24: 'medium', 32: 'large' } as const)[nAudioLayer] ?? 'other';
    return { hparams, multilingual: nVocab >= 51865, size };
  } finally {
    await fh.close();
  }
}
