// The one list of types a relay passes on (issue 42): media by their bare name, misspellings under
// the right one, unlabelled files as what the relay expects, documents refused naming what came.
import { describe, expect, it } from 'vitest';
import { relayableType } from '../../src/server/adapters/http/media-type.js';

describe('relayable types', () => {
  it.each([
    ['video/mp4', 'video/mp4'],
    ['Video/MP4; codecs="avc1.42E01E"', 'video/mp4'],
    ['video/webm', 'video/webm'],
    ['video/quicktime', 'video/quicktime'],
    ['audio/mpeg', 'audio/mpeg'],
    ['audio/mp4', 'audio/mp4'],
    ['audio/aac', 'audio/aac'],
    ['image/jpeg', 'image/jpeg'],
    ['image/jpg', 'image/jpeg'],
    ['audio/mp3', 'audio/mpeg'],
    ['image/png', 'image/png'],
    ['image/webp', 'image/webp'],
    ['image/gif', 'image/gif'],
    ['image/avif', 'image/avif'],
    [undefined, 'video/mp4'],
    ['', 'video/mp4'],
    ['application/octet-stream', 'video/mp4'],
    ['binary/octet-stream', 'video/mp4'],
  ])('sends %s as %s', (given, sent) => expect(relayableType(given, 'video/mp4')).toBe(sent));

  it.each([
    'text/html',
    'text/html; charset=utf-8',
    'image/svg+xml',
    'application/xhtml+xml',
    'application/xml',
    'text/xml',
    'text/plain',
    'text/javascript',
    'application/json',
    'application/pdf',
    'multipart/x-mixed-replace; boundary=x',
    'image/x-icon',
  ])('refuses %s, naming it', (given) => {
    expect(() => relayableType(given, 'video/mp4')).toThrow(
      expect.objectContaining({
        code: 'upstream.not_media',
        status: 424,
        message: `The site sent a file of type ${given.split(';')[0]}, not a video, sound or picture.`,
      }),
    );
  });

  it('refuses a type that is no type name without repeating it', () => {
    expect(() => relayableType('<script>alert(1)</script>', 'image/jpeg')).toThrow(
      expect.objectContaining({ code: 'upstream.not_media', params: { variant: 'unnamed' } }),
    );
  });
});
