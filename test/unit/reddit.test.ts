// Reddit's pure parts (issue 44): its link rule, the same for the server (parseLink) and the client
// (linkPattern over linkShape); the DASH manifest in both namings; the post mapper's choices.
import { describe, expect, it } from 'vitest';
import { linkShape } from '../../src/shared/platform-links';
import { LINK_PATTERN, parseRedditLink } from '../../src/server/platforms/reddit/link';
import { readManifest } from '../../src/server/platforms/reddit/dash';
import { mapPost } from '../../src/server/platforms/reddit/post-mapper';
import { dashSet, manifestOf } from '../fakes/reddit/dash-media';
import { basePost, galleryFields, videoFields } from '../fakes/reddit/posts';

const CORPUS: Array<[string, string | null]> = [
  ['https://www.reddit.com/r/videos/comments/1abc2de/a_video/', 'post'],
  ['https://reddit.com/r/videos/comments/1abc2de', 'post'],
  ['https://old.reddit.com/r/videos/comments/1abc2de/a_video/?utm_source=share', 'post'],
  ['https://new.reddit.com/r/Videos/comments/1ABC2DE/x/', 'post'],
  ['https://np.reddit.com/r/videos/comments/1abc2de/', 'post'],
  ['https://m.reddit.com/r/videos/comments/1abc2de/a_video/', 'post'],
  ['https://www.reddit.com/user/some-one/comments/1abc2de/mine/', 'post'],
  ['https://www.reddit.com/u/someone/comments/1abc2de/', 'post'],
  ['https://www.reddit.com/comments/1abc2de/', 'post'],
  ['https://redd.it/1abc2de', 'post'],
  ['https://www.reddit.com/r/videos/s/AbC123xYz', 'share'],
  ['https://v.redd.it/zv89llsvexdz', 'video'],
  ['https://www.reddit.com/r/videos/comments/1abc2de/a_video/kx1y2z3/', 'comment'],
  ['https://www.reddit.com/r/videos/', null],
  ['https://www.reddit.com/r/videos/comments/', null],
  ['https://www.reddit.com/r/videos/comments/1abc2de/a/b/c/', null],
  ['https://www.reddit.com.evil.com/r/videos/comments/1abc2de/', null],
  ['https://evilreddit.com/r/videos/comments/1abc2de/', null],
  ['https://user:pass@www.reddit.com/r/videos/comments/1abc2de/', null],
  ['https://www.reddit.com:444/r/videos/comments/1abc2de/', null],
  ['https://redd.it/', null],
  ['https://i.redd.it/abc.jpg', null],
  ['https://www.reddit.com/r/x/comments/1abc2de/', null], // a community name is at least 2 characters
  ['ftp://redd.it/1abc2de', null],
];

describe('Reddit links', () => {
  it.each(CORPUS)('%s is %s, for the server and the client alike', (link, kind) => {
    expect(parseRedditLink(link)?.kind ?? null).toBe(kind);
    const shape = linkShape(link);
    expect(!!shape && LINK_PATTERN.test(shape)).toBe(kind !== null);
  });
  it('names the post by its id, lower-cased', () => {
    expect(parseRedditLink('https://new.reddit.com/r/Videos/comments/1ABC2DE/x/')).toEqual({
      kind: 'post',
      id: '1abc2de',
    });
    expect(parseRedditLink('https://redd.it/1abc2de')).toEqual({ kind: 'post', id: '1abc2de' });
  });
});

describe("Reddit's DASH manifest", () => {
  it.each(['DASH', 'CMAF'] as const)(
    'reads every height and the sound of the %s naming from the manifest',
    (naming) => {
      const set = dashSet({ heights: [480, 240], seconds: 1, naming });
      const files = readManifest(manifestOf(set), 'https://v.redd.it/abc123/DASHPlaylist.mpd?a=1&v=1&f=sd');
      expect(files.videos.map((v) => [v.url, v.height])).toEqual([
        [`https://v.redd.it/abc123/${naming}_480.mp4`, 480],
        [`https://v.redd.it/abc123/${naming}_240.mp4`, 240],
      ]);
      expect(files.audios.map((a) => a.url)).toEqual([`https://v.redd.it/abc123/${naming}_AUDIO_128.mp4`]);
    },
  );
  it('drops files that would leave v.redd.it and reads nothing from text that is no manifest', () => {
    const xml = manifestOf(dashSet({ heights: [240], seconds: 1, naming: 'DASH' })).replace(
      'DASH_240.mp4',
      'https://evil.example/x.mp4',
    );
    expect(readManifest(xml, 'https://v.redd.it/abc/DASHPlaylist.mpd').videos).toEqual([]);
    expect(readManifest('<html>not a manifest', 'https://v.redd.it/abc/DASHPlaylist.mpd')).toEqual({
      videos: [],
      audios: [],
    });
  });
});

describe('Reddit posts to the neutral model', () => {
  const files = {
    videos: [
      { url: 'https://v.redd.it/a/CMAF_720.mp4', width: 1280, height: 720, bandwidth: 2_000_000 },
      { url: 'https://v.redd.it/a/CMAF_480.mp4', width: 854, height: 480, bandwidth: 1_000_000 },
    ],
    audios: [{ url: 'https://v.redd.it/a/CMAF_AUDIO_128.mp4', bandwidth: 128_000 }],
  };
  const video = (hasAudio: boolean) =>
    basePost(
      '1abc2de',
      'videos',
      'A video',
      videoFields({ videoId: 'a', height: 720, width: 1280, seconds: 5, hasAudio, fallbackName: 'CMAF_720.mp4' }),
    );
  it('splits every height with the sound, or marks each silent when the post has none', () => {
    const withSound = mapPost(video(true), files);
    expect(withSound.options.map((o) => [o.quality, o.form, o.audio, o.silent])).toEqual([
      ['720p', 'split', [['https://v.redd.it/a/CMAF_AUDIO_128.mp4']], undefined],
      ['480p', 'split', [['https://v.redd.it/a/CMAF_AUDIO_128.mp4']], undefined],
    ]);
    expect(withSound).toMatchObject({ author: 'videos', authorName: 'u/someone_posting', duration: 5 });
    const silent = mapPost(video(false), files);
    expect(silent.options.map((o) => [o.quality, o.form, o.silent])).toEqual([
      ['720p', 'whole', true],
      ['480p', 'whole', true],
    ]);
    expect(silent.originalSound).toBeNull();
  });
  it('keeps a gallery in its order with each largest source, skipping items that failed', () => {
    const post = basePost('2gal', 'pics', 'G', galleryFields(['b', 'a', 'c']));
    post.media_metadata.c.status = 'failed';
    const model = mapPost(post, null);
    expect(model.isPhotoPost).toBe(true);
    expect(model.images.map((i) => [i.urls[0].split('?')[0], i.width, i.height])).toEqual([
      ['https://preview.redd.it/b.jpg', 1080, 1350],
      ['https://preview.redd.it/a.jpg', 1080, 1350],
    ]);
  });
});
