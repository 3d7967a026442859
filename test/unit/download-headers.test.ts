// The one rule for naming a sent file (server/lib/download-headers.ts): whatever an author or a
// title holds (beyond ASCII, quotes, emoji, a backslash), the header is legal for Node to send and
// a browser reads back the exact name (RFC 8187 `filename*`), with an ASCII fallback for old ones.
import http from 'node:http';
import { parse } from 'content-disposition';
import { describe, expect, it } from 'vitest';
import { contentDisposition, downloadHeaders } from '../../src/server/lib/download-headers.js';
import { announcedSize } from '../../src/client/components/downloader/use-video-download.js';

const NAMES = [
  'tiktok-fakecreator-7312345678901234567.mp4',
  'tiktok-Zoë_Ångström-123.mp4',
  'say "hi" & bye.srt',
  'back\\slash.txt',
  'clip 🎬🔥 final.mp4',
  '日本語のタイトル.vtt',
  "O'Brien; filename=evil.mp4",
];

describe('contentDisposition', () => {
  it.each(NAMES)('%s: Node accepts the header and it reads back as the same name', (name) => {
    const header = contentDisposition(name);
    expect(() => http.validateHeaderValue('content-disposition', header)).not.toThrow();
    expect(header).toMatch(/^attachment; /);
    const parsed = parse(header);
    expect(parsed.type).toBe('attachment');
    // filename* (RFC 8187) wins where present; the fallback is plain ASCII.
    expect(parsed.parameters.filename).toBe(name);
  });

  it('gives an ASCII fallback without raw non-ASCII bytes, quotes escaped', () => {
    const header = contentDisposition('say "hi" 🎬.mp4');
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(header).toContain('filename="say \\"hi\\" ??.mp4"');
    expect(header).toContain("filename*=UTF-8''say%20%22hi%22%20%F0%9F%8E%AC.mp4");
  });

  it('is inline when the file is shown, not saved', () => {
    expect(contentDisposition('a.jpg', true)).toBe('inline');
  });
});

describe('downloadHeaders', () => {
  it('sets type, name, caching, nosniff and a known length', () => {
    expect(
      downloadHeaders({ fileName: 'ü.zip', contentType: 'application/zip', length: 42, cache: 'private, no-store' }),
    ).toEqual({
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="?.zip"; filename*=UTF-8''%C3%BC.zip`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-length': '42',
    });
  });

  it('leaves the length out when it is not known', () => {
    const h = downloadHeaders({ fileName: 'a.mp4', contentType: 'video/mp4', length: null, cache: 'no-store' });
    expect(h).not.toHaveProperty('content-length');
  });

  it('announces a file made while it is sent by its expected size, never as Content-Length (issue 38)', () => {
    const h = downloadHeaders({
      fileName: 'a.mp4',
      contentType: 'video/mp4',
      length: null,
      expectedLength: 1234,
      cache: 'no-store',
    });
    expect(h).not.toHaveProperty('content-length');
    expect(h['x-expected-length']).toBe('1234');
    // A known length wins: the estimate is only for files whose exact size is not known yet.
    const exact = downloadHeaders({
      fileName: 'a.mp4',
      contentType: 'video/mp4',
      length: 9,
      expectedLength: 8,
      cache: 'no-store',
    });
    expect([exact['content-length'], exact['x-expected-length']]).toEqual(['9', undefined]);
  });
});

describe("the client's progress size (announcedSize)", () => {
  it('uses the exact length when sent, else the expected one marked as an estimate, else none', () => {
    expect(announcedSize(new Headers({ 'content-length': '10', 'x-expected-length': '12' }))).toEqual({
      total: 10,
      estimated: false,
    });
    expect(announcedSize(new Headers({ 'x-expected-length': '12' }))).toEqual({ total: 12, estimated: true });
    expect(announcedSize(new Headers({}))).toEqual({ total: null, estimated: false });
  });
});
