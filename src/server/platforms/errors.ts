// Link helpers every platform shares; their failures are the catalogue's neutral codes
// (shared/error-messages.ts, issue 19), each platform naming itself in `params.platform`.

/** Sites people paste that no platform module handles yet, named so the message can say so. */
const NOT_YET: Array<[RegExp, string]> = [
  [/(^|\.)instagram\.com$/i, 'Instagram'],
  [/(^|\.)(facebook\.com|fb\.watch|fb\.com)$/i, 'Facebook'],
  [/(^|\.)(youtube\.com|youtu\.be)$/i, 'YouTube'],
];

/** The name of a site we do not support yet, for a friendlier refusal; null when unknown. */
export function notYetSupported(url: string): string | null {
  try {
    const host = new URL(url.trim()).hostname.toLowerCase();
    return NOT_YET.find(([re]) => re.test(host))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** `TikTok`, `TikTok or Clips`: the platforms in a sentence. */
export const platformList = (names: string[]) => names.join(' or ');
