// Reddit's DASH manifest (`secure_media.reddit_video.dash_url`, DASHPlaylist.mpd on v.redd.it): it
// names every file outright, the older `DASH_720.mp4` / `DASH_audio.mp4` and the newer
// `CMAF_720.mp4` / `CMAF_AUDIO_128.mp4` alike, so no file name is ever guessed (cobalt probes them).
// Each Representation is one whole fragmented MP4 (the on-demand profile: index first). Pure;
// the manifest is bounded by the caller and read once by fast-xml-parser (decision 0081).
import { XMLParser } from 'fast-xml-parser';

export interface DashVideo {
  url: string;
  width: number | null;
  height: number;
  bandwidth: number | null;
}
export interface DashAudio {
  url: string;
  bandwidth: number | null;
}
export interface DashFiles {
  videos: DashVideo[]; // tallest first, then by bandwidth
  audios: DashAudio[]; // best first
}

/** A real manifest lists a handful of files; anything past this is not one. */
const MAX_FILES = 32;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: '#text',
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ['Period', 'AdaptationSet', 'Representation', 'BaseURL'].includes(name),
});

type Node = Record<string, unknown>;
const nodes = (v: unknown): Node[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const num = (v: unknown): number | null => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : null;
};
const baseUrl = (n: Node): string | null => {
  const [first] = Array.isArray(n.BaseURL) ? n.BaseURL : [];
  return str(typeof first === 'object' && first ? (first as Node)['#text'] : first);
};

/**
 * The manifest's files, resolved against its own URL; a file that would leave `host` (the manifest's
 * host, v.redd.it) is dropped. Empty lists when the text is not a manifest.
 */
export function readManifest(xml: string, manifestUrl: string): DashFiles {
  const files: DashFiles = { videos: [], audios: [] };
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch {
    return files;
  }
  const base = new URL(manifestUrl);
  const resolve = (ref: string): string | null => {
    try {
      const u = new URL(ref, base);
      return u.protocol === 'https:' && u.hostname === base.hostname ? `${u.origin}${u.pathname}` : null;
    } catch {
      return null;
    }
  };
  const mpd = (doc.MPD ?? {}) as Node;
  let count = 0;
  for (const period of nodes(mpd.Period)) {
    for (const set of nodes(period.AdaptationSet)) {
      for (const rep of nodes(set.Representation)) {
        if (++count > MAX_FILES) break;
        const ref = baseUrl(rep) ?? baseUrl(set);
        const url = ref && resolve(ref);
        if (!url) continue;
        const type = `${str(set.contentType) ?? ''} ${str(set.mimeType) ?? ''} ${str(rep.mimeType) ?? ''}`;
        const bandwidth = num(rep.bandwidth);
        if (/audio/.test(type)) files.audios.push({ url, bandwidth });
        else {
          const height = num(rep.height) ?? num(set.maxHeight);
          if (height) files.videos.push({ url, width: num(rep.width), height, bandwidth });
        }
      }
    }
  }
  files.videos.sort((a, b) => b.height - a.height || (b.bandwidth ?? 0) - (a.bandwidth ?? 0));
  files.audios.sort((a, b) => (b.bandwidth ?? 0) - (a.bandwidth ?? 0));
  return files;
}
