// Transcription engines behind one interface, tried in order by the transcription service:
// the video's own captions, an OpenAI-compatible API, whisper.cpp with a fetched model, offline pocketsphinx.
import type { RawCue } from '../../../shared/captions.js';

export type EngineId = 'captions' | 'api' | 'whisper' | 'offline';

/** A caption track listed on the video page (`itemStruct.video.subtitleInfos[]`). */
export interface SubtitleTrack {
  url: string;
  language: string; // LanguageCodeName, e.g. 'eng-US'
  format: string; // 'webvtt' | 'creator_caption' | ...
  source?: string; // 'LC' (creator) | 'ASR' | 'MT' (machine translation)
}

/** What an engine may use; audio is prepared lazily, only for engines that need it. */
export interface TranscriptionInput {
  subtitles: SubtitleTrack[];
  /** Fetches a caption file through the guarded HTTP client. */
  fetchText(url: string, signal?: AbortSignal): Promise<string>;
  /** Path of the media file on local disk (downloaded once, seekable). */
  mediaFile(): Promise<string>;
  duration: number;
  workDir: string;
  signal?: AbortSignal;
  /** The spoken language the person chose (short code); absent: detected where the engine can. */
  language?: string;
  /** English words for speech in another language (Whisper's translate task; others write what they hear). */
  translate?: boolean;
}

export interface EngineTranscript {
  language: string; // short code, e.g. 'en'
  cues: RawCue[];
}

export interface TranscriptionEngine {
  readonly id: EngineId;
  /** null when usable; otherwise what to install or configure. */
  unavailableReason(): string | null;
  /** null when this engine has nothing for this input (e.g. the video lists no captions). */
  transcribe(input: TranscriptionInput): Promise<EngineTranscript | null>;
  /** Whether the engine runs heavy local work (then it goes through the media pool). */
  readonly local: boolean;
  /** What stored transcripts are keyed by (default the id): a new model gives fresh ones. */
  cacheId?(): string;
}

const LANGUAGE_NAMES: Record<string, string> = {
  english: 'en',
  spanish: 'es',
  french: 'fr',
  german: 'de',
  italian: 'it',
  portuguese: 'pt',
  dutch: 'nl',
  russian: 'ru',
  japanese: 'ja',
  korean: 'ko',
  chinese: 'zh',
  arabic: 'ar',
  hindi: 'hi',
  turkish: 'tr',
  polish: 'pl',
  indonesian: 'id',
  vietnamese: 'vi',
  thai: 'th',
  ukrainian: 'uk',
  swedish: 'sv',
};

/** 'eng-US' -> 'en', 'English' -> 'en', 'pt-BR' -> 'pt'; unknown values pass through lowercased. */
export function languageCode(value: string | undefined | null): string {
  if (!value) return 'und';
  const v = value.trim().toLowerCase();
  if (LANGUAGE_NAMES[v]) return LANGUAGE_NAMES[v];
  const head = v.split(/[-_]/)[0];
  const iso3: Record<string, string> = {
    eng: 'en',
    spa: 'es',
    fra: 'fr',
    fre: 'fr',
    deu: 'de',
    ger: 'de',
    ita: 'it',
    por: 'pt',
    jpn: 'ja',
    kor: 'ko',
    cmn: 'zh',
    zho: 'zh',
    rus: 'ru',
    ara: 'ar',
    hin: 'hi',
    ind: 'id',
    vie: 'vi',
    tha: 'th',
    tur: 'tr',
  };
  return iso3[head] ?? head;
}
