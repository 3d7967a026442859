// One naming rule for every file we hand out (decision 0094): the server's names, and the browser
// saving a download under the name the server sent.
import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../../src/server/lib/download-headers.js';
import { attachmentName, downloadFileName, fileStem } from '../../src/shared/file-names.js';

describe('file names', () => {
  it('names a file by platform, author and id, with the form it has', () => {
    expect(downloadFileName('tiktok', 'tjrobertson52', '7504044860782021930')).toBe(
      'tiktok-tjrobertson52-7504044860782021930.mp4',
    );
    expect(downloadFileName('clips', '', 'abc', '1080p')).toBe('clips-abc-1080p.mp4');
    expect(downloadFileName('tiktok', 'a', '1', 'images')).toBe('tiktok-a-1-photos.zip');
    expect(downloadFileName('tiktok', 'a', '1', 'slideshow')).toBe('tiktok-a-1-slideshow.mp4');
    expect(fileStem('bluesky', 'jö/../x', '3k?x=1')).toBe('bluesky-j..x-3kx1');
  });

  it('reads back the name the server sends, whatever its characters', () => {
    for (const name of ['tiktok-a-1.mp4', 'bluesky-jo.bsky.social-3kabc-photos.zip', 'clips-ünï-1.mp4', 'a "b".mp4'])
      expect(attachmentName(contentDisposition(name))).toBe(name);
  });

  it('gives no name for a header without one, or one naming a path', () => {
    expect(attachmentName(null)).toBeNull();
    expect(attachmentName('attachment')).toBeNull();
    expect(attachmentName('attachment; filename="../x.mp4"')).toBeNull();
    expect(attachmentName("attachment; filename*=UTF-8''..%2Fx.mp4")).toBeNull();
    expect(attachmentName("attachment; filename*=UTF-8''%E0%A4%A")).toBeNull();
  });
});
