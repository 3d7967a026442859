// The one rule for the names of the files we hand out (decision 0094): the server names every file
// it sends with it (Content-Disposition, batch ZIP entries), and the browser saves a download under
// the name the server sent, so the same video has the same name from every tool.

/** ASCII-only, header-safe start of every file name: <platform id>-<author>-<id>. */
export function fileStem(platform: string, author: string, id: string): string {
  const safeAuthor = author.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40);
  const stem = platform.replace(/[^a-z0-9-]/g, '').slice(0, 40);
  return `${stem}-${safeAuthor ? `${safeAuthor}-` : ''}${id.replace(/[^\w-]/g, '').slice(0, 64)}`;
}

/** <stem>.mp4, <stem>-1080p.mp4 for a sharper joined file, <stem>-photos.zip / <stem>-slideshow.mp4 for a photo post. */
export function downloadFileName(platform: string, author: string, id: string, quality?: string): string {
  const stem = fileStem(platform, author, id);
  if (quality === 'images') return `${stem}-photos.zip`;
  if (quality === 'slideshow') return `${stem}-slideshow.mp4`;
  return quality && /^\d+p$/.test(quality) ? `${stem}-${quality}.mp4` : `${stem}.mp4`;
}

/** A post's replies as a file (issue 45): <platform>-<id>-replies.csv / .json. */
export function repliesFileName(platform: string, id: string, format: 'csv' | 'json'): string {
  return `${fileStem(platform, '', id)}-replies.${format}`;
}

/**
 * The file name of a `Content-Disposition` header (RFC 6266): `filename*` (RFC 8187, UTF-8) first,
 * else `filename`; null when there is none or it names a path.
 */
export function attachmentName(header: string | null | undefined): string | null {
  if (!header || header.length > 2048) return null;
  let name: string | null = null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header);
  if (extended) {
    try {
      name = decodeURIComponent(extended[1]);
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
    name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]) : null;
  }
  return name && !/[/\\\0]/.test(name) && name !== '.' && name !== '..' ? name : null;
}
