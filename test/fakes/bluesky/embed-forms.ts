// One constructed post per embed form of the current Lexicons (test/fixtures/bluesky/lexicons/),
// alone and inside a quote post (recordWithMedia), and a quote alone of a video post: the table
// the unit test checks against the Lexicons' unions and the integration test downloads.
import {
  type Author,
  blobCid,
  externalEmbeds,
  galleryEmbeds,
  imagesEmbeds,
  plcDid,
  postView,
  quoteOnlyEmbeds,
  tid,
  videoEmbeds,
} from './constructed-posts.js';

export type MediaForm = 'video' | 'images' | 'gallery' | 'external';
type Embeds = { record: Record<string, unknown>; view: Record<string, unknown> };

export function mediaEmbeds(form: MediaForm, did: string, seed: string, o: { videoSize?: number } = {}): Embeds {
  const pictures = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ cid: blobCid(`${seed} img ${i}`), size: 1000, width: 1080, height: 1350 }));
  if (form === 'video') return videoEmbeds(did, { cid: blobCid(`${seed} video`), size: o.videoSize ?? 1000 });
  if (form === 'images') return imagesEmbeds(did, pictures(2));
  if (form === 'gallery') return galleryEmbeds(did, pictures(6));
  return externalEmbeds(did, { cid: blobCid(`${seed} card`), size: 1000 });
}

/** recordWithMedia of `media` quoting `quoted` (its stored ref and its #viewRecord). */
export function withQuote(media: Embeds, quoted: ReturnType<typeof quoteOnlyEmbeds>): Embeds {
  return {
    record: { $type: 'app.bsky.embed.recordWithMedia', media: media.record, record: quoted.record },
    view: { $type: 'app.bsky.embed.recordWithMedia#view', media: media.view, record: quoted.view },
  };
}

/** A plain text post to quote. */
export function textPost(author: Author, n: number) {
  return postView(author, tid(n), `Quoted text ${n}`, undefined, undefined);
}

/** Every form, keyed `app.bsky.embed.<form>` and `recordWithMedia+<form>`, with the kind it carries. */
export function everyForm(author: Author) {
  const quotedAuthor = { did: plcDid('quoted author'), handle: 'quoted.bsky.social' };
  const quotedText = quoteOnlyEmbeds(textPost(quotedAuthor, 900));
  const videoPost = postView(
    quotedAuthor,
    tid(901),
    'A quoted video',
    ...pair(mediaEmbeds('video', quotedAuthor.did, 'q')),
  );
  const cases: Record<string, { embeds: Embeds; kind: 'video' | 'images' }> = {};
  for (const form of ['video', 'images', 'gallery', 'external'] as const) {
    const kind = form === 'video' ? 'video' : 'images';
    cases[`app.bsky.embed.${form}`] = { embeds: mediaEmbeds(form, author.did, form), kind };
    cases[`recordWithMedia+${form}`] = {
      embeds: withQuote(mediaEmbeds(form, author.did, `rwm ${form}`), quotedText),
      kind,
    };
  }
  cases['app.bsky.embed.record'] = { embeds: quoteOnlyEmbeds(videoPost), kind: 'video' };
  return {
    quotedAuthor,
    posts: Object.fromEntries(
      Object.entries(cases).map(([name, c], i) => [
        name,
        { post: postView(author, tid(800 + i), `Form ${name}`, c.embeds.record, c.embeds.view), kind: c.kind },
      ]),
    ),
  };
}

const pair = (e: Embeds) => [e.record, e.view] as const;
