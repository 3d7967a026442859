// Caption formats shared by server and client: WebVTT parsing (TikTok's own captions), segment
// normalisation (ordered, non-overlapping, inside the media) and SRT / WebVTT / text output.

export interface CaptionSegment {
  id: number;
  start: number; // seconds
  end: number; // seconds
  text: string;
}

export interface RawCue {
  start: number;
  end: number;
  text: string;
}

/** `hh:mm:ss.ttt` or `mm:ss.ttt` (a comma is accepted too) to seconds; NaN when malformed. */
export function parseTimestamp(ts: string): number {
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})[.,](\d{1,3})$/.exec(ts.trim());
  if (!m) return NaN;
  const [, h, mi, s, ms] = m;
  return Number(h ?? 0) * 3600 + Number(mi) * 60 + Number(s) + Number(ms.padEnd(3, '0')) / 1000;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** WebVTT cues; tags such as <c>, <v Name>, <00:00:01.000> are stripped, NOTE/STYLE blocks skipped. */
export function parseWebVtt(text: string): RawCue[] {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!/^WEBVTT/.test(body.trimStart())) throw new Error('not a WebVTT file');
  const cues: RawCue[] = [];
  for (const block of body.split(/\n{2,}/)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    const timing = lines.findIndex((l) => l.includes('-->'));
    if (timing < 0) continue;
    const [a, b] = lines[timing].split('-->');
    const start = parseTimestamp(a);
    const end = parseTimestamp((b ?? '').trim().split(/\s+/)[0] ?? '');
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue;
    const cueText = decodeEntities(
      lines
        .slice(timing + 1)
        .join(' ')
        .replace(/<[^>]*>/g, ''),
    )
      .replace(/\s+/g, ' ')
      .trim();
    if (cueText) cues.push({ start, end, text: cueText });
  }
  return cues;
}

/** Ordered, non-overlapping segments inside [0, duration], numbered from 1, empty text dropped. */
export function normalizeSegments(cues: RawCue[], duration: number): CaptionSegment[] {
  const limit = duration > 0 ? duration : Infinity;
  const sorted = cues
    .map((c) => ({
      start: Math.max(0, c.start),
      end: Math.min(limit, c.end),
      text: c.text.replace(/\s+/g, ' ').trim(),
    }))
    .filter((c) => c.text && c.start < limit && Number.isFinite(c.start))
    .sort((x, y) => x.start - y.start);
  const out: CaptionSegment[] = [];
  for (const c of sorted) {
    const prev = out[out.length - 1];
    let start = c.start;
    if (prev && start < prev.end) {
      // Overlap: the earlier cue ends where this one starts (or they share a start: merge).
      if (start <= prev.start) {
        prev.text = `${prev.text} ${c.text}`;
        prev.end = Math.max(prev.end, Math.min(limit, c.end));
        continue;
      }
      prev.end = start;
    }
    const end = Math.max(start, Math.min(limit, c.end));
    start = round3(start);
    out.push({ id: out.length + 1, start, end: round3(end), text: c.text });
  }
  return out.map((s) => ({ ...s, start: round3(s.start), end: round3(s.end) }));
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function clock(seconds: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
}

export function toSrt(segments: CaptionSegment[]): string {
  return segments.map((s, i) => `${i + 1}\n${clock(s.start, ',')} --> ${clock(s.end, ',')}\n${s.text}\n`).join('\n');
}

export function toWebVtt(segments: CaptionSegment[]): string {
  const cues = segments.map(
    (s) => `${clock(s.start, '.')} --> ${clock(s.end, '.')}\n${s.text.replace(/-->/g, '->')}\n`,
  );
  return `WEBVTT\n\n${cues.join('\n')}`;
}

/** `m:ss` for the segment list. */
export function shortClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** SPEC 9 'Transcript file name': the sanitised title plus a suffix, e.g. `_transcription.txt`. */
export function transcriptFileName(title: string, suffix = '_transcription.txt'): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 80);
  return `${base || 'video'}${suffix}`;
}
