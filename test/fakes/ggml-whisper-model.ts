// Writes a whisper.cpp model file in the real ggml format with made-up weights: the layout
// whisper.cpp's loader reads (magic, hyper-parameters, mel filters, vocabulary, named tensors).
// - `random` weights, with the real sizes (REAL_SIZES): the shape of tiny or base, for speed
//   measurements (speed does not depend on the values).
// - `scripted` weights: every block is zero (each layer passes its input on), and the decoder's
//   position embeddings point at a chosen next token, so whisper.cpp's own decoding (timestamp
//   rules, language detection, token times) runs for real and writes SCRIPT_TEXT whatever it
//   hears. It proves loading, running, word times and languages, never accuracy.
import fs from 'node:fs';
import {
  GGML_MAGIC,
  tensorBytes,
  whisperTensors,
  type WhisperHparams,
} from '../../src/server/adapters/asr/ggml-model.js';

export const REAL_SIZES = {
  tiny: { nAudioState: 384, nAudioHead: 6, nAudioLayer: 4 },
  base: { nAudioState: 512, nAudioHead: 8, nAudioLayer: 6 },
} as const;

export interface FakeModelOptions {
  /** Layer width, heads and depth (encoder and decoder alike); default a tiny 64-wide 1-layer model. */
  dims?: { nAudioState: number; nAudioHead: number; nAudioLayer: number };
  multilingual?: boolean;
  /** Seed of the made-up weights: one seed, one file, byte for byte. */
  seed?: number;
  weights?: 'random' | 'scripted';
  /** Scripted multilingual models: the language that detection finds (whisper's order). */
  detects?: (typeof LANGUAGES)[number];
  /** Scripted models: text tokens written per window (SCRIPT_TOKENS over and over) and where the window ends. */
  script?: { tokens: number; endSeconds: number };
}

/** The first of whisper's languages, in its token order. */
const LANGUAGES = ['en', 'zh', 'de', 'es', 'ru', 'ko', 'fr'] as const;
/** What a scripted model writes for each 30-second window: tokens 0-3 of its vocabulary. */
export const SCRIPT_TOKENS = [' Hello', ' world', 'wide', '.'];
export const SCRIPT_TEXT = 'Hello worldwide.';

/** whisper.cpp's special tokens (whisper_vocab): English-only models have one language token less. */
function specialTokens(multilingual: boolean) {
  const d = multilingual ? 1 : 0;
  return { eot: 50256 + d, sot: 50257 + d, beg: 50363 + d };
}

/** Small deterministic pseudo-random numbers (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** IEEE half precision of a number well inside its range. */
function f16(x: number): number {
  if (x === 0) return 0;
  const sign = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  if (e < -14) return sign;
  const m = Math.round((a / 2 ** e - 1) * 1024);
  return sign | ((e + 15) << 10) | Math.min(m, 1023);
}

export function fakeHparams(o: FakeModelOptions = {}): WhisperHparams {
  const d = o.dims ?? { nAudioState: 64, nAudioHead: 2, nAudioLayer: 1 };
  return {
    nVocab: o.multilingual ? 51865 : 51864,
    nAudioCtx: 1500,
    nAudioState: d.nAudioState,
    nAudioHead: d.nAudioHead,
    nAudioLayer: d.nAudioLayer,
    nTextCtx: 448,
    nTextState: d.nAudioState,
    nTextHead: d.nAudioHead,
    nTextLayer: d.nAudioLayer,
    nMels: 80,
    ftype: 1,
  };
}

/** The words of the made-up vocabulary: every token is a word of its own (a leading space). */
export const FAKE_WORDS = ['hello', 'caption', 'video', 'speech', 'words', 'model', 'time', 'line'];

/** Writes the model to `file`; returns its size in bytes. */
export function writeFakeWhisperModel(file: string, o: FakeModelOptions = {}): number {
  const h = fakeHparams(o);
  const rnd = random(o.seed ?? 1);
  const fd = fs.openSync(file, 'w');
  let written = 0;
  const put = (b: Buffer) => {
    fs.writeSync(fd, b);
    written += b.length;
  };
  const i32 = (...v: number[]) => {
    const b = Buffer.alloc(4 * v.length);
    v.forEach((x, i) => {
      b.writeInt32LE(x, i * 4);
    });
    put(b);
  };
  try {
    const magic = Buffer.alloc(4);
    magic.writeUInt32LE(GGML_MAGIC, 0);
    put(magic);
    i32(h.nVocab, h.nAudioCtx, h.nAudioState, h.nAudioHead, h.nAudioLayer, h.nTextCtx);
    i32(h.nTextState, h.nTextHead, h.nTextLayer, h.nMels, h.ftype);
    // Mel filters: 80 triangles over 201 FFT bins (their shape only matters for real speech).
    const nFft = 201;
    i32(h.nMels, nFft);
    const filters = Buffer.alloc(h.nMels * nFft * 4);
    for (let m = 0; m < h.nMels; m++) {
      const centre = ((m + 1) * nFft) / (h.nMels + 1);
      for (let k = 0; k < nFft; k++)
        filters.writeFloatLE(Math.max(0, 1 - Math.abs(k - centre) / 3), (m * nFft + k) * 4);
    }
    put(filters);
    // Text tokens up to end-of-text (50256 in English models, 50257 in multilingual ones).
    const textTokens = o.multilingual ? 50257 : 50256;
    const vocab: Buffer[] = [Buffer.from(new Int32Array([textTokens]).buffer)];
    for (let i = 0; i < textTokens; i++) {
      // whisper.cpp looks up the blank token " " by text (suppress_blank): it must exist.
      const text = SCRIPT_TOKENS[i] ?? (i === SCRIPT_TOKENS.length ? ' ' : ` ${FAKE_WORDS[i % FAKE_WORDS.length]}`);
      const w = Buffer.from(text);
      const len = Buffer.alloc(4);
      len.writeUInt32LE(w.length, 0);
      vocab.push(len, w);
    }
    put(Buffer.concat(vocab));
    // One block of made-up half-precision values, repeated: a real-size model is written in seconds.
    const pattern = Buffer.alloc(1 << 20);
    for (let i = 0; i < pattern.length; i += 2) pattern.writeUInt16LE(f16((rnd() - 0.5) * 0.2), i);
    const scripted = o.weights === 'scripted' ? script(h, o) : null;
    for (const t of whisperTensors(h)) {
      const name = Buffer.from(t.name);
      i32(t.ne.length, name.length, t.type, ...t.ne);
      put(name);
      const bytes = tensorBytes(t);
      if (scripted) {
        put(scripted(t.name, bytes));
      } else if (t.type === 0) {
        const isScale = t.name.endsWith('ln.weight') || t.name.endsWith('ln_post.weight');
        const b = Buffer.alloc(bytes);
        for (let i = 0; i < bytes; i += 4) b.writeFloatLE(isScale ? 1 : (rnd() - 0.5) * 0.2, i);
        put(b);
      } else {
        for (let left = bytes; left > 0; left -= pattern.length)
          put(pattern.subarray(0, Math.min(left, pattern.length)));
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

/**
 * Scripted weights. Direction k of the layer width is e(2k) - e(2k+1) (zero mean, so layer norm
 * keeps it). Token j of the script has embedding 3 * dir(j); position p has embedding
 * 300 * dir(token to write after position p). With every block zero, the decoder's output at
 * position p is (after layer norm) dir(target), whose logit (about 34) dwarfs all others (0):
 * <|0.00|> Hello world wide . <|1.50|> <|endoftext|>, and the detected language first. The same
 * holds at the real sizes (REAL_SIZES), with the same amount of computation as real weights.
 */
function script(h: WhisperHparams, o: FakeModelOptions) {
  const multilingual = !!o.multilingual;
  const t = specialTokens(multilingual);
  const lang = t.sot + 1 + LANGUAGES.indexOf(o.detects ?? 'en');
  const transcribe = multilingual ? 50359 : -1;
  const { tokens, endSeconds } = o.script ?? { tokens: SCRIPT_TOKENS.length, endSeconds: 1.5 };
  const text = Array.from({ length: tokens }, (_, i) => i % SCRIPT_TOKENS.length);
  // The prompt is <|startoftranscript|> (then language and task in multilingual models).
  const prompt = multilingual ? [t.sot, lang, transcribe] : [t.sot];
  const targets = [...prompt.slice(1), t.beg, ...text, t.beg + Math.round(endSeconds / 0.02), t.eot];
  if (multilingual) targets[0] = lang; // detection reads the prediction after <|startoftranscript|>
  const dirs = new Map<number, number>();
  const dir = (token: number) => {
    if (!dirs.has(token)) dirs.set(token, dirs.size);
    return dirs.get(token)!;
  };
  const used = [...new Set([...prompt, ...targets])];
  for (const token of used) dir(token);
  if (dirs.size * 2 > h.nTextState) throw new Error('layer too narrow for the script');
  const setDir = (b: Buffer, row: number, k: number, scale: number) => {
    b.writeFloatLE(scale, (row * h.nTextState + 2 * k) * 4);
    b.writeFloatLE(-scale, (row * h.nTextState + 2 * k + 1) * 4);
  };
  return (name: string, bytes: number): Buffer => {
    if (name === 'decoder.positional_embedding') {
      const b = Buffer.alloc(bytes);
      targets.forEach((token, p) => {
        setDir(b, p, dir(token), 300);
      });
      return b;
    }
    if (name === 'decoder.token_embedding.weight') {
      const b = Buffer.alloc(bytes); // f16
      for (const token of used) {
        const k = dir(token);
        b.writeUInt16LE(f16(3), (token * h.nTextState + 2 * k) * 2);
        b.writeUInt16LE(f16(-3), (token * h.nTextState + 2 * k + 1) * 2);
      }
      return b;
    }
    if (/ln(_post)?\.weight$|_ln\.weight$/.test(name)) {
      const b = Buffer.alloc(bytes);
      for (let i = 0; i < bytes; i += 4) b.writeFloatLE(1, i);
      return b;
    }
    return Buffer.alloc(bytes);
  };
}
