// The ASS file of a caption project: what the browser previews (JASSUB, libass in WASM) and what
// ffmpeg burns in (libass), so preview = output. Caption text is always plain text here: override
// tags, drawing commands and line-break escapes typed by a person are shown, never interpreted.
import { type CaptionLine, type CaptionProject, type CaptionStyle, STUDIO_LIMITS } from './contracts/caption-studio.js';

/** The default look of a new project: clean white with outline, bottom of the safe area. */
export const DEFAULT_CAPTION_STYLE: CaptionStyle = {
  preset: 'clean',
  position: 'bottom',
  font: 'Inter',
  size: 64,
  textColor: '#ffffff',
  highlightColor: '#ffd400',
  outlineColor: '#000000',
  boxColor: '#000000',
  wordsPerLine: 4,
};

/**
 * TikTok's safe area on a 1080x1920 frame: the For You / search bar at the top, the description, sound
 * and progress bar at the bottom, the like/comment/share column on the right. TikTok publishes no
 * numbers for organic posts; these are the margins of the widely used 2026 safe-zone overlays
 * (top 250 px, bottom 420 px, right 170 px; socaptions.com "TikTok safe zones 2026"), plus a 60 px
 * left margin so text never touches the edge. Scaled to the video's frame size.
 */
export const TIKTOK_SAFE_AREA = { width: 1080, height: 1920, top: 250, bottom: 420, left: 60, right: 170 } as const;

/** Pop shows one to three words at a time. */
const POP_MAX_WORDS = 3;
/** A gap shorter than this between two caption chunks is bridged so captions do not flicker. */
const BRIDGE_GAP = 0.5;
const ZERO_WIDTH_JOINER = '\u2060';
const MAX_EVENT_CHARS = 2000;

export type AssInput = Pick<CaptionProject, 'width' | 'height' | 'lines' | 'style'> & { title?: string };

/** `#rrggbb` to ASS `&HAABBGGRR` (alpha 00 = opaque). */
export function assColor(hex: string, alpha = 0): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex) ?? ['', 'ff', 'ff', 'ff'];
  const a = alpha.toString(16).padStart(2, '0');
  return `&H${a}${m[3]}${m[2]}${m[1]}`.toUpperCase();
}

/** Seconds to ASS `H:MM:SS.cc`. */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round((Number.isFinite(seconds) ? seconds : 0) * 100));
  const h = Math.floor(cs / 360_000);
  const m = Math.floor((cs % 360_000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${h}:${pad(m)}:${pad(s)}.${pad(cs % 100)}`;
}

/**
 * Plain text for an ASS event: control characters become spaces (no line breaks smuggled in), every
 * backslash is followed by a zero-width word joiner (so `\N`, `\h`, `\{` are shown, not obeyed) and
 * braces are escaped as libass reads them (`\{`, `\}`), so `{\p1}` is never an override block.
 */
export function escapeAssText(text: string, maxChars: number = STUDIO_LIMITS.wordChars): string {
  const plain = Array.from(text.replace(/[\p{Cc}\u2028\u2029]/gu, ' '))
    .slice(0, maxChars)
    .join('');
  return plain.replace(/\\/g, `\\${ZERO_WIDTH_JOINER}`).replace(/([{}])/g, '\\$1');
}

/** Uppercase for the bold preset, without touching scripts that have no case. */
const displayWord = (style: CaptionStyle, text: string) => (style.preset === 'bold' ? text.toUpperCase() : text);

interface Chunk {
  start: number;
  end: number;
  words: { text: string; start: number; end: number }[];
}

/** The project's lines cut into what is on screen at once: at most `wordsPerLine` words (pop: 1-3). */
export function captionChunks(lines: CaptionLine[], style: CaptionStyle): Chunk[] {
  const per = Math.max(1, style.preset === 'pop' ? Math.min(style.wordsPerLine, POP_MAX_WORDS) : style.wordsPerLine);
  const chunks: Chunk[] = [];
  for (const line of lines.slice(0, STUDIO_LIMITS.lines)) {
    const words = line.words
      .slice(0, STUDIO_LIMITS.wordsPerLine)
      .map((w) => ({ text: w.text, start: finite(w.start), end: Math.max(finite(w.start), finite(w.end)) }))
      .filter((w) => w.text.trim() !== '');
    for (let i = 0; i < words.length; i += per) {
      const group = words.slice(i, i + per);
      const start = group[0].start;
      const end = Math.max(group[group.length - 1].end, start + 0.05);
      chunks.push({ start, end, words: group });
    }
  }
  chunks.sort((a, b) => a.start - b.start);
  // Bridge short gaps (the chunk stays until the next one starts) and never overlap the next chunk.
  for (let i = 0; i < chunks.length - 1; i++) {
    const next = chunks[i + 1].start;
    if (next - chunks[i].end < BRIDGE_GAP) chunks[i].end = Math.max(chunks[i].start + 0.01, next);
  }
  return chunks;
}

const finite = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);

function styleLine(project: AssInput): string {
  const { style, width, height } = project;
  const scale = width / TIKTOK_SAFE_AREA.width;
  const vscale = height / TIKTOK_SAFE_AREA.height;
  const size = Math.max(8, Math.round(style.size * scale));
  const text = assColor(style.textColor);
  const outline = assColor(style.outlineColor);
  const boxed = style.preset === 'boxed';
  const bold = style.preset === 'bold' || style.preset === 'pop' || style.preset === 'karaoke';
  // BorderStyle 3 draws an opaque box in the outline colour; its "outline" width is the box padding.
  const borderStyle = boxed ? 3 : 1;
  const outlineColor = boxed ? assColor(style.boxColor) : outline;
  const backColor = boxed ? assColor(style.boxColor) : assColor(style.outlineColor, 0x80);
  const outlineWidth = round1((boxed ? 0.22 : style.preset === 'bold' ? 0.12 : 0.07) * style.size * scale);
  const shadow = boxed ? 0 : round1((style.preset === 'bold' ? 0.06 : 0.03) * style.size * scale);
  const alignment = { bottom: 2, middle: 5, top: 8 }[style.position];
  const marginL = Math.round(TIKTOK_SAFE_AREA.left * scale);
  const marginR = Math.round(TIKTOK_SAFE_AREA.right * scale);
  const marginV = Math.round((style.position === 'top' ? TIKTOK_SAFE_AREA.top : TIKTOK_SAFE_AREA.bottom) * vscale);
  return [
    'Caption',
    style.font,
    size,
    text,
    assColor(style.highlightColor),
    outlineColor,
    backColor,
    bold ? -1 : 0,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    borderStyle,
    outlineWidth,
    shadow,
    alignment,
    marginL,
    marginR,
    marginV,
    1,
  ].join(',');
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function dialogue(start: number, end: number, text: string): string {
  return `Dialogue: 0,${assTime(start)},${assTime(end)},Caption,,0,0,0,,${text}`;
}

function chunkText(style: CaptionStyle, chunk: Chunk): string {
  const text = chunk.words.map((w) => escapeAssText(displayWord(style, w.text))).join(' ');
  return text.slice(0, MAX_EVENT_CHARS);
}

/** Events for one chunk; karaoke gives one event per word state, the active word in the highlight colour. */
function chunkEvents(style: CaptionStyle, chunk: Chunk): string[] {
  if (style.preset === 'karaoke') {
    const hl = `${assColor(style.highlightColor).replace('&H00', '&H')}&`; // override tags take &HBBGGRR&
    return chunk.words.map((w, i) => {
      const from = i === 0 ? chunk.start : w.start;
      const to = i === chunk.words.length - 1 ? chunk.end : chunk.words[i + 1].start;
      const text = chunk.words
        .map((o, j) => {
          const t = escapeAssText(displayWord(style, o.text));
          return j === i ? `{\\1c${hl}}${t}{\\r}` : t;
        })
        .join(' ');
      return dialogue(from, Math.max(to, from + 0.01), text);
    });
  }
  if (style.preset === 'pop') {
    // Each group springs in from 80 % over a tenth of a second.
    return [
      dialogue(chunk.start, chunk.end, `{\\fscx80\\fscy80\\t(0,100,\\fscx100\\fscy100)}${chunkText(style, chunk)}`),
    ];
  }
  return [dialogue(chunk.start, chunk.end, chunkText(style, chunk))];
}

/** The whole ASS file for a project (frame size as PlayRes, so sizes and margins are in the video's pixels). */
export function buildAss(project: AssInput): string {
  // The title is a header value, never drawn: one line, bounded.
  const title = Array.from((project.title ?? 'Captions').replace(/[\p{Cc}\u2028\u2029]/gu, ' '))
    .slice(0, STUDIO_LIMITS.titleChars)
    .join('');
  const events = captionChunks(project.lines, project.style).flatMap((c) => chunkEvents(project.style, c));
  return [
    '[Script Info]',
    `Title: ${title}`,
    'ScriptType: v4.00+',
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: None',
    `PlayResX: ${project.width}`,
    `PlayResY: ${project.height}`,
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, ' +
      'Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, ' +
      'MarginL, MarginR, MarginV, Encoding',
    `Style: ${styleLine(project)}`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
}
