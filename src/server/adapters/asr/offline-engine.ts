// Engine 3: offline speech recognition with Debian's pocketsphinx + pocketsphinx-en-us, using the
// measured pipeline: ffmpeg 16 kHz WAV + silencedetect -> pocketsphinx_batch -> -hypseg.
// English only; rough on real speech (~30% WER) but private and free. See docs/decisions/0502.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { whichSync } from '../media/binaries.js';
import { parseSilences, speechSpans, speechWavArgs } from '../media/ffmpeg-args.js';
import { runProcess } from '../media/media-runner.js';
import { controlEntries, controlFile, parseHypseg, wordsToCues } from './pocketsphinx.js';
import type { TranscriptionEngine } from './types.js';

export interface OfflineEngineConfig {
  ffmpeg: string;
  /** pocketsphinx_batch binary; null = look it up on PATH. */
  batchBin?: string | null;
  modelDir: string;
  timeoutMs: number;
}

export const INSTALL_HINT =
  'install pocketsphinx and pocketsphinx-en-us (apt-get install -y pocketsphinx pocketsphinx-en-us)';

export function createOfflineEngine(cfg: OfflineEngineConfig): TranscriptionEngine {
  const hmm = path.join(cfg.modelDir, 'en-us');
  const lm = path.join(cfg.modelDir, 'en-us.lm.bin');
  const dict = path.join(cfg.modelDir, 'cmudict-en-us.dict');
  // Looked up when needed, not only at start: installing the packages needs no restart. Once
  // found it is kept (a PATH scan and three stats per request are cheap, but not free).
  let bin: string | null = null;
  const locate = (): string | null => {
    if (bin) return bin;
    const found = cfg.batchBin ?? whichSync('pocketsphinx_batch');
    if (found && [hmm, lm, dict].every((p) => fs.existsSync(p))) bin = found;
    return bin;
  };
  return {
    id: 'offline',
    local: true,
    unavailableReason: () => (locate() ? null : INSTALL_HINT),
    async transcribe(input) {
      const bin = locate();
      if (!bin) return null;
      const wav = path.join(input.workDir, 'speech.wav');
      const run = { timeoutMs: cfg.timeoutMs, signal: input.signal };
      const { stderr } = await runProcess(cfg.ffmpeg, speechWavArgs(await input.mediaFile(), wav), run);
      // The WAV's own length (16-bit mono 16 kHz after a 44-byte header) bounds every time.
      const duration = Math.max(0, ((await fsp.stat(wav)).size - 44) / 32000);
      const spans = speechSpans(parseSilences(stderr, duration), duration);
      const entries = controlEntries(spans);
      if (!entries.length) return { language: 'en', cues: [] };
      await fsp.writeFile(path.join(input.workDir, 'speech.ctl'), controlFile('speech', entries));
      const hypseg = path.join(input.workDir, 'speech.hypseg');
      await runProcess(
        bin,
        [
          '-hmm',
          hmm,
          '-lm',
          lm,
          '-dict',
          dict,
          '-adcin',
          'yes',
          '-adchdr',
          '44',
          '-cepdir',
          input.workDir,
          '-cepext',
          '.wav',
          '-ctl',
          path.join(input.workDir, 'speech.ctl'),
          '-hypseg',
          hypseg,
          '-logfn',
          '/dev/null',
        ],
        run,
      );
      const words = parseHypseg(await fsp.readFile(hypseg, 'utf8'), entries);
      return { language: 'en', cues: wordsToCues(words) };
    },
  };
}
