// `npm run cli -- models:fetch <name>` and `models:import <file>`: a whisper.cpp model into
// DATA_DIR/models from its official host (resumed when cut, progress every 5 % on stderr) or from a
// file brought by hand (air-gapped servers), kept only when its size and SHA-256 are the pinned ones.
// The work itself is adapters/asr/model-download.ts, shared with the server's own fetch
// (services/whisper-model.service.ts; docs/decisions/0066 and 0130).
import { fail } from '../errors.js';
import type { createHttpClient } from '../adapters/http/http-client.js';
import {
  MB,
  ModelDownloadError,
  catalogueModel,
  downloadModel,
  importModel,
  pinOf,
} from '../adapters/asr/model-download.js';
import { WHISPER_MODELS, type WhisperModelPin } from '../adapters/asr/whisper-models.js';

export interface ModelFetchDeps {
  http: ReturnType<typeof createHttpClient>;
  dir: string;
  /** WHISPER_MODEL_PINS (tests only): replaces a model's pinned checksum and size. */
  pins?: Record<string, WhisperModelPin>;
  /** Progress lines (stderr in the command line). */
  progress: (line: string) => void;
  /** Tries in one run when the connection is cut (each resumes where the last stopped). */
  attempts?: number;
}

export async function fetchModel(name: string | undefined, deps: ModelFetchDeps): Promise<string> {
  const model = catalogueModel(name);
  if (!model) {
    const names = WHISPER_MODELS.map((m) => m.name).join(', ');
    throw fail('cli.invalid', { reason: `Name a model to fetch: npm run cli -- models:fetch <${names}>` });
  }
  let shown = -1;
  try {
    const { file, already } = await downloadModel(model, {
      ...deps,
      progress: (done, total, event) => {
        if (event === 'resumed') return deps.progress(`${model.name}: the connection was cut at ${MB(done)}; resuming`);
        const percent = Math.floor((done / total) * 20) * 5; // every 5 %
        if (percent === shown) return;
        shown = percent;
        deps.progress(`${model.name}: ${percent}% (${(done / 1e6).toFixed(1)} of ${MB(total)})`);
      },
    });
    if (already) return `Model ${model.name} is already in ${file}.`;
    return `Model ${model.name} stored in ${file} (${MB(pinOf(model, deps.pins).bytes)}). The next transcription uses it.`;
  } catch (err) {
    if (!(err instanceof ModelDownloadError)) throw err;
    const reason =
      err.kind === 'unreachable' || err.kind === 'stopped'
        ? `${err.message} Run the same command again to resume.`
        : `${err.message}${err.kind === 'mismatch' ? '' : '.'}`;
    throw fail('cli.failed', { reason });
  }
}

export async function importModelFile(
  source: string | undefined,
  deps: Pick<ModelFetchDeps, 'dir' | 'pins'>,
): Promise<string> {
  if (!source)
    throw fail('cli.invalid', { reason: 'Name the model file to import: npm run cli -- models:import <file>' });
  try {
    const { model, file } = await importModel(source, deps);
    return `Model ${model.name} checked against its pinned SHA-256 and stored in ${file}. The next transcription uses it.`;
  } catch (err) {
    if (err instanceof ModelDownloadError) throw fail('cli.failed', { reason: `${err.message}.` });
    throw err;
  }
}
