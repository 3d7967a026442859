// Engine "whisper": whisper.cpp (npm smart-whisper, built at install with the CPU's SIMD) with a
// model file an operator fetched into DATA_DIR/models (`npm run cli -- models:fetch base.en`) or put
// there by hand. Word times from whisper.cpp's token times; the language is the one asked for
// (multilingual models), else detected; `.en` models write English. Runs in a child process
// (whisper-child.mjs): off the event loop, killed at the media time limit or on cancel, and a
// fault in native code cannot end the server. See docs/decisions/0066.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RawCue } from '../../../shared/captions.js';
import type { CaptionWord } from '../../../shared/contracts/caption-studio.js';
import { runProcess } from '../media/media-runner.js';
import { inspectWhisperModel, ModelFileError, type WhisperModelInfo } from './ggml-model.js';
import type { TranscriptionEngine } from './types.js';
import { FETCH_COMMAND, findModelFile, modelNameOf } from './whisper-models.js';

export interface WhisperEngineConfig {
  ffmpeg: string;
  /** DATA_DIR/models */
  modelsDir: string;
  /** WHISPER_MODEL: the model to use when several are present (a name such as base.en, or a file name). */
  preferred?: string;
  /** Where the server's own fetch of the model stands, when it is not there yet (null: not fetching). */
  pending?: () => string | null;
  /** WHISPER_THREADS (default 1). */
  threads?: number;
  timeoutMs: number;
}

/** One token of whisper.cpp's answer (smart-whisper's `detail` format; times in milliseconds). */
export interface WhisperToken {
  text: string;
  p: number;
  from: number;
  to: number;
}
export interface WhisperSegment {
  from: number;
  to: number;
  text: string;
  lang?: string;
  tokens?: WhisperToken[];
}

const SPECIAL = /^(\[_[A-Z0-9_]+\]|<\|[^|]*\|>)$/;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Words from whisper.cpp's tokens: a token that starts with a space starts a word, others (the
 * rest of a word, punctuation) extend it. A segment whose tokens split a character's bytes (CJK
 * text) keeps its text without word times (the editor spreads them).
 */
export function segmentsToCues(segments: WhisperSegment[]): RawCue[] {
  const cues: RawCue[] = [];
  for (const s of segments) {
    const text = s.text.trim().replace(/\s+/g, ' ');
    if (!text) continue;
    const tokens = (s.tokens ?? []).filter((t) => !SPECIAL.test(t.text) && t.text !== '');
    const cue: RawCue = { start: s.from / 1000, end: Math.max(s.to, s.from) / 1000, text };
    if (tokens.length && !tokens.some((t) => t.text.includes('\uFFFD'))) {
      const words: Array<CaptionWord & { ps: number[] }> = [];
      for (const t of tokens) {
        const last = words[words.length - 1];
        if (!last || /^\s/.test(t.text)) {
          words.push({ text: t.text.trim(), start: t.from / 1000, end: t.to / 1000, ps: [t.p] });
        } else {
          last.text += t.text;
          last.end = Math.max(last.end, t.to / 1000);
          last.ps.push(t.p);
        }
      }
      cue.words = words
        .filter((w) => w.text)
        .map(({ ps, ...w }) => ({
          ...w,
          start: round3(Math.max(cue.start, w.start)),
          end: round3(Math.min(cue.end, Math.max(w.end, w.start))),
          confidence: round3(Math.min(1, Math.max(0, ps.reduce((a, b) => a + b, 0) / ps.length))),
        }));
      cue.text = cue.words.map((w) => w.text).join(' ');
    }
    cues.push(cue);
  }
  return cues;
}

/** The child runner beside this file in the source tree, found from src/ (tsx) and dist/ (bundle). */
function childScript(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    for (const rel of ['whisper-child.mjs', 'src/server/adapters/asr/whisper-child.mjs']) {
      if (fs.existsSync(path.join(dir, rel))) return path.join(dir, rel);
    }
    dir = path.dirname(dir);
  }
  throw new Error('whisper-child.mjs not found');
}

/** Whether smart-whisper's native part was built (npm ci compiles it; a failed build leaves none). */
function bindingBuilt(): boolean {
  try {
    const main = createRequire(import.meta.url).resolve('smart-whisper');
    return fs.existsSync(path.join(path.dirname(main), '..', 'build', 'Release', 'smart-whisper.node'));
  } catch {
    return false;
  }
}

export function createWhisperEngine(cfg: WhisperEngineConfig): TranscriptionEngine {
  // One thread by default: whisper.cpp's threads spin-wait for each other, so more threads than
  // free cores (media jobs run side by side) is many times slower (docs/benchmarks.md).
  const threads = cfg.threads ?? 1;
  const built = bindingBuilt();
  // The last file checked, by path, size and time: a damaged file is refused until it changes.
  let checked: { key: string; info?: WhisperModelInfo; error?: string } | null = null;
  const keyOf = (file: string) => {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    return st ? `${file}:${st.size}:${st.mtimeMs}` : null;
  };
  const current = () => findModelFile(cfg.modelsDir, cfg.preferred);
  const refetch = (file: string) => `npm run cli -- models:fetch ${modelNameOf(file)}`;

  async function inspect(file: string): Promise<WhisperModelInfo> {
    const key = keyOf(file);
    if (checked?.key !== key || !key) {
      try {
        checked = { key: key ?? '', info: await inspectWhisperModel(file) };
      } catch (err) {
        checked = { key: key ?? '', error: err instanceof ModelFileError ? err.message : String(err) };
      }
    }
    if (checked.error) throw new Error(`Whisper model ${path.basename(file)}: ${checked.error}`);
    return checked.info as WhisperModelInfo;
  }

  return {
    id: 'whisper',
    local: true,
    cacheId() {
      const file = current();
      return file ? `whisper-${modelNameOf(file)}` : 'whisper';
    },
    unavailableReason() {
      if (!built) return 'build the whisper.cpp binding (npm ci compiles smart-whisper; it needs a C++ compiler)';
      const file = current();
      if (!file)
        return (cfg.pending?.() ?? cfg.preferred)
          ? `put the Whisper model ${cfg.preferred} in ${cfg.modelsDir} (WHISPER_MODEL) or fetch it`
          : `fetch a Whisper model (${FETCH_COMMAND})`;
      if (checked?.error && checked.key === keyOf(file))
        return `the Whisper model ${path.basename(file)} is damaged (${checked.error}); fetch it again (${refetch(file)})`;
      return null;
    },
    async transcribe(input) {
      const file = current();
      if (!file || !built) return null;
      const info = await inspect(file);
      const sound = path.join(input.workDir, 'speech.f32');
      const run = { timeoutMs: cfg.timeoutMs, signal: input.signal };
      await runProcess(cfg.ffmpeg, soundArgs(await input.mediaFile(), sound), run);
      const asked = input.language && input.language !== 'auto' ? input.language : 'auto';
      const language = info.multilingual ? asked : 'en';
      // Translating into English needs a multilingual model (an .en model writes English anyway).
      const translate = !!input.translate && info.multilingual;
      const { stdout } = await runProcess(
        process.execPath,
        [childScript(), file, sound, language, String(threads), translate ? 'translate' : 'transcribe'],
        run,
      );
      const segments = JSON.parse(stdout) as WhisperSegment[];
      if (!Array.isArray(segments)) throw new Error('whisper.cpp gave no segments');
      const detected = segments.find((s) => s.lang)?.lang;
      const spoken = translate || !info.multilingual ? 'en' : (detected ?? (asked === 'auto' ? 'und' : asked));
      return { language: spoken, cues: segmentsToCues(segments) };
    },
  };
}

/** 16 kHz mono 32-bit float samples: what whisper.cpp reads, with no parsing in the child. */
function soundArgs(input: string, output: string): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-i',
    input,
    '-vn',
    '-ac',
    '1',
    '-ar',
    '16000',
  ].concat(['-f', 'f32le', output]);
}
