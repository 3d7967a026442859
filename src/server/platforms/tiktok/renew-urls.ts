// Signed CDN links expire (`expire=`, `x-expires=`; research §9): after the page was fetched again,
// the same file has the same host and path with a new query. This finds, for each stale link, its
// fresh counterpart in the new item (yt-dlp and gallery-dl simply fetch the page again; so do we).
type Json = Record<string, unknown>;

/** Every https URL string in `value`, however deep. */
function collectUrls(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 12) return out;
  if (typeof value === 'string') {
    if (value.startsWith('https://')) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collectUrls(v, out, depth + 1);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value as Json)) collectUrls(v, out, depth + 1);
  }
  return out;
}

const fileOf = (u: string) => {
  try {
    const url = new URL(u);
    return `${url.host}${url.pathname}`;
  } catch {
    return null;
  }
};

/** The fresh links of `stale` found in `freshItem` (same host and path), in the same order; [] when none. */
export function renewTikTokUrls(stale: string[], freshItem: Json): string[] {
  const byFile = new Map<string, string>();
  for (const u of collectUrls(freshItem)) {
    const key = fileOf(u);
    if (key && !byFile.has(key)) byFile.set(key, u);
  }
  return stale.map((u) => byFile.get(fileOf(u) ?? '')).filter((u): u is string => !!u);
}
