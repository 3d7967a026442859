import { z } from 'zod';

// Caption studio (issue 29): word-timed caption projects, styles, burn-in renders and exports.
// One contract for server and client; the ASS file built from a project (src/shared/caption-ass.ts)
// is what the browser previews and what ffmpeg burns in.

/** Bounds that keep hostile input (10,000 words, lines of 10,000 characters) cheap and plain. */
export const STUDIO_LIMITS = {
  wordChars: 64,
  wordsPerLine: 40,
  lines: 2000,
  titleChars: 200,
  maxUploadSeconds: 600,
  /** No video is longer: a word time past it is hostile (1e300 was saved and exported, issue 34). */
  maxWordSeconds: 6 * 3600,
} as const;

/** One recognised word; `confidence` (0..1) when the engine gives one (low values are marked in the editor). */
export const captionWordSchema = z.object({
  text: z.string().min(1).max(STUDIO_LIMITS.wordChars),
  start: z.number().min(0).max(STUDIO_LIMITS.maxWordSeconds), // seconds; the project's duration bounds it too
  end: z.number().min(0).max(STUDIO_LIMITS.maxWordSeconds),
  confidence: z.number().min(0).max(1).optional(),
});
export type CaptionWord = z.infer<typeof captionWordSchema>;

/** A caption line as the editor shows it: its words carry the times; the line spans them. */
export const captionLineSchema = z.object({
  id: z.string().min(1).max(40),
  words: z.array(captionWordSchema).min(1).max(STUDIO_LIMITS.wordsPerLine),
});
export type CaptionLine = z.infer<typeof captionLineSchema>;

export const CAPTION_PRESETS = ['clean', 'karaoke', 'pop', 'boxed', 'bold'] as const;
export const CAPTION_POSITIONS = ['top', 'middle', 'bottom'] as const;
/** Bundled open fonts (Debian fonts-inter, fonts-bebas-neue, fonts-league-spartan, fonts-roboto). */
export const CAPTION_FONTS = ['Inter', 'Bebas Neue', 'League Spartan', 'Roboto'] as const;

/**
 * The font files behind each font, served by GET /api/caption-studio/fonts/:file for the preview and
 * handed to libass for the render (one set, so preview = output), plus the emoji fallback.
 */
export const CAPTION_FONT_FILES = {
  Inter: ['Inter-Regular.otf', 'Inter-Bold.otf'],
  'Bebas Neue': ['BebasNeue-Regular.otf', 'BebasNeue-Bold.otf'],
  'League Spartan': ['LeagueSpartan-Regular.otf', 'LeagueSpartan-Bold.otf'],
  Roboto: ['Roboto-Regular.ttf', 'Roboto-Bold.ttf'],
  emoji: ['NotoColorEmoji.ttf'],
} as const satisfies Record<(typeof CAPTION_FONTS)[number] | 'emoji', readonly string[]>;
export const captionFontParams = z.object({
  file: z.enum(Object.values(CAPTION_FONT_FILES).flat() as [string, ...string[]], { error: 'Unknown font file' }),
});

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Colours are #rrggbb');

export const captionStyleSchema = z.object({
  preset: z.enum(CAPTION_PRESETS),
  position: z.enum(CAPTION_POSITIONS),
  font: z.enum(CAPTION_FONTS),
  /** Font size in pixels of a 1080-pixel-wide frame (scaled to the video's width). */
  size: z.number().int().min(24).max(160),
  textColor: hexColor,
  highlightColor: hexColor,
  outlineColor: hexColor,
  boxColor: hexColor,
  /** Words shown at once (the "pop" preset shows 1 to 3). */
  wordsPerLine: z.number().int().min(1).max(12),
});
export type CaptionStyle = z.infer<typeof captionStyleSchema>;

export const captionSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('link'), url: z.string().trim().min(1).max(2000) }),
  z.object({ kind: z.literal('upload'), uploadId: z.string().min(1).max(100) }),
]);
export type CaptionSource = z.infer<typeof captionSourceSchema>;

export const captionProjectSchema = z.object({
  id: z.string().uuid(),
  source: captionSourceSchema,
  title: z.string().max(STUDIO_LIMITS.titleChars),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  duration: z.number().min(0),
  language: z.string(),
  /** Which engine wrote the words (transcription.ts's list): 'whisper' is whisper.cpp on this server. */
  engine: z.enum(['captions', 'api', 'whisper', 'offline']),
  lines: z.array(captionLineSchema).max(STUDIO_LIMITS.lines),
  style: captionStyleSchema,
  /** Increases on every save; a save carrying an older revision is refused (409) so two tabs never overwrite silently. */
  revision: z.number().int().min(0),
  updatedAt: z.string(),
});
export type CaptionProject = z.infer<typeof captionProjectSchema>;

export const captionProjectSummarySchema = captionProjectSchema.pick({
  id: true,
  title: true,
  duration: true,
  updatedAt: true,
});
export type CaptionProjectSummary = z.infer<typeof captionProjectSummarySchema>;

/** Spoken languages the studio offers (Whisper's best-known ones); absent: detected, or English. */
export const SPOKEN_LANGUAGES = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  it: 'Italian',
  pt: 'Portuguese',
  nl: 'Dutch',
  pl: 'Polish',
  tr: 'Turkish',
  ru: 'Russian',
  uk: 'Ukrainian',
  ar: 'Arabic',
  hi: 'Hindi',
  id: 'Indonesian',
  vi: 'Vietnamese',
  th: 'Thai',
  ja: 'Japanese',
  ko: 'Korean',
  zh: 'Chinese',
} as const;
export type SpokenLanguage = keyof typeof SPOKEN_LANGUAGES;

/** What the studio tells when the built-in recogniser ran: the one command that turns on Whisper. */
export const WHISPER_FETCH_COMMAND = 'npm run cli -- models:fetch base.en';

/**
 * GET /api/caption-studio/whisper: where this server's Whisper model stands. `preparing`: being
 * fetched (percent of the file); `unavailable`: the reason (e.g. the host cannot be reached);
 * `off`: the operator turned the fetch off (WHISPER_AUTO_FETCH=off).
 */
export const whisperModelStatusSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('ready'), model: z.string() }),
  z.object({ state: z.literal('preparing'), model: z.string(), percent: z.number().int().min(0).max(100) }),
  z.object({ state: z.literal('unavailable'), model: z.string(), reason: z.string() }),
  z.object({ state: z.literal('off'), model: z.string() }),
]);
export type WhisperModelStatus = z.infer<typeof whisperModelStatusSchema>;

/** POST /api/caption-projects: transcribes the source (a media job, `Prefer: respond-async` gives 202) and opens a project. */
export const createCaptionProjectRequest = z.object({
  source: captionSourceSchema,
  /** The spoken language, for a multilingual Whisper model; absent: detected. */
  language: z
    .enum(Object.keys(SPOKEN_LANGUAGES) as [SpokenLanguage, ...SpokenLanguage[]], { error: 'Unknown language' })
    .optional(),
  /** Listen to the sound even when the platform has its own captions ("Transcribe again with Whisper"). */
  listen: z.boolean().optional(),
  /** English captions for a video in another language (Whisper's translate task, multilingual models). */
  translate: z.boolean().optional(),
});

/** PUT /api/caption-projects/:id: autosave from the editor. */
export const saveCaptionProjectRequest = z.object({
  revision: z.number().int().min(0),
  lines: z.array(captionLineSchema).max(STUDIO_LIMITS.lines),
  style: captionStyleSchema,
});
export type SaveCaptionProjectRequest = z.infer<typeof saveCaptionProjectRequest>;

export const captionProjectParams = z.object({ id: z.string().uuid('Unknown caption project') });

export const CAPTION_EXPORT_FORMATS = ['srt', 'vtt', 'ass', 'txt'] as const;
export const captionExportParams = captionProjectParams.extend({ format: z.enum(CAPTION_EXPORT_FORMATS) });

/** A finished burn-in render: an expiring signed link served by this product. */
export const captionRenderResultSchema = z.object({
  url: z.string(),
  size: z.string().regex(/^\d+$/),
  expiresAt: z.string(),
});
export type CaptionRenderResult = z.infer<typeof captionRenderResultSchema>;
