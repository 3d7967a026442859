// The whisper.cpp models an operator can fetch (`npm run cli -- models:fetch <name>`) and the ones
// present in DATA_DIR/models. Pins: the SHA-256 and size of each file on its host (the Git LFS
// object ids of huggingface.co/ggerganov/whisper.cpp, recorded alike by many independent projects;
// whisper.cpp's models/README.md publishes the SHA-1 of the same files): docs/decisions/0066.
import fs from 'node:fs';
import path from 'node:path';
import { WHISPER_FETCH_COMMAND } from '../../../shared/contracts/caption-studio.js';

export interface WhisperModelPin {
  sha256: string;
  bytes: number;
}

export interface CatalogueModel extends WhisperModelPin {
  name: string;
  /** English-only (`.en`) models write English whatever is spoken. */
  multilingual: boolean;
}

/** Files on the model host, in order of preference when several are present (larger first). */
export const WHISPER_MODELS: readonly CatalogueModel[] = [
  {
    name: 'small.en',
    multilingual: false,
    bytes: 487_614_201,
    sha256: 'c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d',
  },
  {
    name: 'small',
    multilingual: true,
    bytes: 487_601_967,
    sha256: '1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b',
  },
  {
    name: 'base.en',
    multilingual: false,
    bytes: 147_964_211,
    sha256: 'a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002',
  },
  {
    name: 'base',
    multilingual: true,
    bytes: 147_951_465,
    sha256: '60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe',
  },
  {
    name: 'tiny.en',
    multilingual: false,
    bytes: 77_704_715,
    sha256: '921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f',
  },
  {
    name: 'tiny',
    multilingual: true,
    bytes: 77_691_713,
    sha256: 'be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21',
  },
];

/** The command the studio suggests (base.en: English, fast enough on two cores, docs/benchmarks.md). */
export const FETCH_COMMAND = WHISPER_FETCH_COMMAND;

/** Where the official files live: huggingface.co answers with a redirect to its CDN. */
export const MODEL_HOST_ALLOW = ['huggingface.co', '*.huggingface.co', '*.hf.co'] as const;
export const modelUrl = (name: string) =>
  `https://huggingface.co/ggerganov/whisper.cpp/resolve/main/${modelFileName(name)}`;

export const modelFileName = (name: string) => `ggml-${name}.bin`;
export const modelsDir = (dataDir: string) => path.join(dataDir, 'models');

/**
 * The model file to use: `preferred` (a name or file name in the folder) when set, else the first
 * catalogue model present, else any other `ggml-*.bin` an operator put there (largest first).
 */
export function findModelFile(dir: string, preferred?: string): string | null {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((f) => f.endsWith('.bin') && !f.startsWith('.'));
  } catch {
    return null;
  }
  if (preferred) {
    const file = names.find((f) => f === preferred || f === modelFileName(preferred));
    return file ? path.join(dir, file) : null;
  }
  for (const m of WHISPER_MODELS)
    if (names.includes(modelFileName(m.name))) return path.join(dir, modelFileName(m.name));
  const others = names
    .filter((f) => f.startsWith('ggml-'))
    .map((f) => ({ f, size: fs.statSync(path.join(dir, f)).size }))
    .sort((a, b) => b.size - a.size);
  return others[0] ? path.join(dir, others[0].f) : null;
}

/** A model's short name from its file (`ggml-base.en.bin` -> `base.en`). */
export const modelNameOf = (file: string) =>
  path
    .basename(file)
    .replace(/^ggml-/, '')
    .replace(/\.bin$/, '');
