// The client's side of the one link rule (issue 30): which registered platform a pasted link
// belongs to, from what GET /api/platforms says. The server's Platform.parseLink stays the exact
// rule; a platform's `linkPattern` states the same shape, and a unit test holds the two together.
import type { PlatformInfo } from './contracts/platforms.js';

export const LINK_MAX = 2048;

/**
 * The platform-neutral part of every link rule: trimmed, http(s) only, no credentials or port,
 * host lower-cased without a trailing dot, query and fragment dropped. `https://host/path`, or
 * null when the text is no such link.
 */
export function linkShape(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > LINK_MAX) return null;
  const text = input.trim();
  if (!/^https?:\/\//i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.username || url.password || url.port) return null;
  return `${url.protocol}//${url.hostname.toLowerCase().replace(/\.$/, '')}${url.pathname}`;
}

const compiled = new Map<string, RegExp>();
const patternOf = (p: PlatformInfo) => {
  const known = compiled.get(p.linkPattern);
  if (known) return known;
  const re = new RegExp(p.linkPattern);
  compiled.set(p.linkPattern, re);
  return re;
};

/** The platform whose link this is, or null. */
export function platformOfLink(input: unknown, platforms: readonly PlatformInfo[]): PlatformInfo | null {
  const shape = linkShape(input);
  return shape === null ? null : (platforms.find((p) => patternOf(p).test(shape)) ?? null);
}

/** The platform whose profile link (a whole account's posts, issue 45) this is, or null. */
export function profileOfLink(input: unknown, platforms: readonly PlatformInfo[]): PlatformInfo | null {
  const shape = linkShape(input);
  if (shape === null) return null;
  return (
    platforms.find((p) => p.profilePattern && patternOf({ ...p, linkPattern: p.profilePattern }).test(shape)) ?? null
  );
}

/**
 * The first link of a registered platform inside shared text, as apps' share sheets send it
 * ("Check out this video … https://…"), or the text itself when it is such a link; a profile link
 * counts too.
 */
export function extractLink(text: unknown, platforms: readonly PlatformInfo[]): string | null {
  if (typeof text !== 'string' || text.length > 4096) return null;
  for (const candidate of text.match(/https?:\/\/[^\s"'<>]+/gi) ?? []) {
    const cleaned = candidate.replace(/[),.!?]+$/, '');
    if (platformOfLink(cleaned, platforms) || profileOfLink(cleaned, platforms)) return cleaned;
  }
  return null;
}

/** Every link of a registered platform in pasted text, in order (a batch's list). */
export function allLinks(text: string, platforms: readonly PlatformInfo[]): string[] {
  return (text.match(/https?:\/\/[^\s"'<>]+/gi) ?? [])
    .map((m) => m.replace(/[),.!?]+$/, ''))
    .filter((l) => platformOfLink(l, platforms));
}

/** `A`, `A or B`: the platforms' names in a sentence (the server's platformList too). */
export const platformNames = (platforms: readonly PlatformInfo[]) => platforms.map((p) => p.name).join(' or ');
