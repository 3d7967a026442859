// Every embed form of the current Lexicons (copied in test/fixtures/bluesky/lexicons/) is read
// as the media it carries, alone and inside a quote post; a form we do not know by name is read by
// its shape; only a post with truly nothing to save (text, a card without a picture) has no media.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { postMedia } from '../../src/server/platforms/bluesky/embeds';
import { mapPost, pixelSize } from '../../src/server/platforms/bluesky/post-mapper';
import { everyForm } from '../fakes/bluesky/embed-forms';
import { externalEmbeds, postView, tid } from '../fakes/bluesky/constructed-posts';

const lexicon = (name: string) =>
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, `../fixtures/bluesky/lexicons/${name}.json`), 'utf8'));
const author = { did: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', handle: 'someone.bsky.social' };
const { posts, quotedAuthor } = everyForm(author);

describe('Bluesky embed forms', () => {
  it('has a constructed post for every form the Lexicons name, alone and in a quote post', () => {
    const postForms: string[] = lexicon('feed.post').defs.main.record.properties.embed.refs;
    const quoteMedia: string[] = lexicon('embed.recordWithMedia').defs.main.properties.media.refs;
    const expected = [
      ...postForms.filter((f) => f !== 'app.bsky.embed.recordWithMedia'),
      ...quoteMedia.map((f) => `recordWithMedia+${f.replace('app.bsky.embed.', '')}`),
    ];
    expect(Object.keys(posts).sort()).toEqual([...new Set(expected)].sort());
  });

  it('finds the media of every form', () => {
    for (const [name, { post, kind }] of Object.entries(posts)) {
      const media = postMedia(post);
      expect(media.kind, name).toBe(kind);
      const model = mapPost(post, 'id', (cid) => `https://pds.example/blob/${cid}`);
      if (kind === 'video') expect(model.options[0].urls[0], name).toMatch(/^https:\/\/pds\.example\/blob\/bafkrei/);
      else expect(model.images.length, name).toBeGreaterThan(0);
    }
    expect(postMedia(posts['app.bsky.embed.gallery'].post)).toMatchObject({ kind: 'images', slides: { length: 6 } });
    // A quote alone: the quoted post's video, on its author's PDS.
    expect(postMedia(posts['app.bsky.embed.record'].post)).toMatchObject({ kind: 'video', did: quotedAuthor.did });
  });

  it('reads a form it does not know by name by its shape, and reports none only when there is none', () => {
    const gallery = posts['app.bsky.embed.gallery'].post;
    const renamed = {
      ...gallery,
      record: { ...gallery.record, embed: { $type: 'app.bsky.embed.mosaic' } },
      embed: { ...(gallery.embed as object), $type: 'app.bsky.embed.mosaic#view' },
    };
    expect(postMedia(renamed).kind).toBe('images');
    const card = externalEmbeds(author.did, null);
    expect(postMedia(postView(author, tid(1), 'a link', card.record, card.view)).kind).toBe('none');
    expect(postMedia(postView(author, tid(2), 'just text', undefined, undefined)).kind).toBe('none');
  });

  it('takes the record aspect ratio as a frame size only when it is one', () => {
    const video = (w: number, h: number) =>
      ({ kind: 'video', aspectRatio: { width: w, height: h } }) as Parameters<typeof pixelSize>[0];
    expect(pixelSize(video(9, 16))).toBeNull();
    expect(pixelSize(video(1080, 1920))).toEqual({ width: 1080, height: 1920 });
    const post = posts['app.bsky.embed.video'].post; // its record says 9:16
    expect(mapPost(post, 'id', (c) => c).options[0]).toMatchObject({ width: null, height: null });
    const frame = { width: 720, height: 1280, duration: 12.5 };
    expect(mapPost(post, 'id', (c) => c, frame)).toMatchObject({
      duration: 12.5,
      options: [{ width: 720, height: 1280 }],
    });
  });
});
