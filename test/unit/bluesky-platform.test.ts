// Bluesky's pure parts (issue 37): our post ids (DID and record key, both ways), the PDS a DID
// document names, and the real captured posts (test/fixtures/bluesky/atat-posts.json) mapped to the
// neutral model: a video's one option is its blob on the PDS, a picture post's slides are the CDN's
// fullsize pictures, a quote post's own media counts, a link card or plain text has no media.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBlueskyLink, postId, readPostId } from '../../src/server/platforms/bluesky/link';
import { pdsOf } from '../../src/server/platforms/bluesky/identity';
import { mapPost, mediaKind, type PostView } from '../../src/server/platforms/bluesky/post-mapper';

const posts = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/bluesky/atat-posts.json'), 'utf8'),
).posts as Record<string, PostView>;
const blobUrl = (cid: string) => `https://pds.example/xrpc/com.atproto.sync.getBlob?did=x&cid=${cid}`;

describe('Bluesky', () => {
  it('makes a path-safe id of a DID and a record key, and reads it back', () => {
    for (const did of ['did:plc:l7mosai5i2u562b5qbosw6c7', 'did:web:creator.example-host.com']) {
      const id = postId(did, '3lhnr2o6kb22h');
      expect(id).toMatch(/^[a-z0-9.-]+$/);
      expect(readPostId(id)).toEqual({ did, rkey: '3lhnr2o6kb22h' });
    }
    expect(postId('did:plc:l7mosai5i2u562b5qbosw6c7', '3lhnr2o6kb22h')).toBe(
      'plc-l7mosai5i2u562b5qbosw6c7-3lhnr2o6kb22h',
    );
    for (const bad of [
      'plc-short-3lhnr2o6kb22h',
      'web-nodot-3lhnr2o6kb22h',
      'key-abc-3lhnr2o6kb22h',
      '7504044860782021930',
    ])
      expect(readPostId(bad)).toBeNull();
  });

  it('tells a DID link from a handle link, and keeps only the DID methods it can resolve', () => {
    expect(parseBlueskyLink('https://bsky.app/profile/Kamhoyung.bsky.social/post/3lhnr2o6kb22h')).toEqual({
      kind: 'handle',
      handle: 'kamhoyung.bsky.social',
      rkey: '3lhnr2o6kb22h',
    });
    expect(
      parseBlueskyLink('https://bsky.app/profile/did%3Aplc%3Al7mosai5i2u562b5qbosw6c7/post/3lhnr2o6kb22h'),
    ).toEqual({
      kind: 'post',
      did: 'did:plc:l7mosai5i2u562b5qbosw6c7',
      rkey: '3lhnr2o6kb22h',
    });
    expect(parseBlueskyLink('https://bsky.app/profile/did:key:z6Mkabc/post/3lhnr2o6kb22h')).toBeNull();
  });

  it("finds the #atproto_pds service of the DID's own document, https only", () => {
    const did = 'did:plc:l7mosai5i2u562b5qbosw6c7';
    const doc = (serviceEndpoint: string, id = did) => ({
      id,
      service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint }],
    });
    expect(pdsOf(doc('https://morel.us-east.host.bsky.network'), did)).toBe('https://morel.us-east.host.bsky.network');
    expect(pdsOf(doc('http://pds.example'), did)).toBeNull();
    expect(pdsOf(doc('https://pds.example:8443'), did)).toBeNull();
    expect(pdsOf(doc('https://pds.example', 'did:plc:someoneelse234567abcdefgh'), did)).toBeNull();
    expect(pdsOf({ id: did, service: [] }, did)).toBeNull();
  });

  it('maps the real captured posts of every shape', () => {
    expect(Object.fromEntries(Object.entries(posts).map(([k, p]) => [k, mediaKind(p)]))).toEqual({
      video: 'video',
      images: 'images',
      quoteWithImages: 'images',
      external: 'images', // the link card's picture
      text: 'none',
    });
    const video = mapPost(posts.video, 'id', blobUrl);
    expect(video).toMatchObject({
      author: 'kamhoyung.bsky.social',
      authorName: 'Kamhoyung',
      isPhotoPost: false,
      thumbnailUrl:
        'https://video.bsky.app/watch/did%3Aplc%3Al7mosai5i2u562b5qbosw6c7/bafkreic3uqlah5pnqzq4tx2r5cg6kyj2uziq4jn4uatuwdhvl33sx2qkgm/thumbnail.jpg',
      options: [
        {
          quality: 'hd',
          size: 1387501,
          urls: [blobUrl('bafkreic3uqlah5pnqzq4tx2r5cg6kyj2uziq4jn4uatuwdhvl33sx2qkgm')],
        },
      ],
    });
    expect(video.title).not.toContain('\n');
    const quote = mapPost(posts.quoteWithImages, 'id', null);
    expect(quote.images.map((i) => [i.urls[0].split('/').pop(), i.width, i.height])).toEqual([
      ['bafkreibkxgznhp42mnr6dgxkfylsu53nkjlzte4mhmgvspx4ib55jfes3e@jpeg', 890, 1238],
    ]);
    expect(quote.title).toBe('Post by @iamkonstantin.eu'); // an empty text
  });
});
