// Bluesky's servers on 127.0.0.1, speaking their real protocol (one server answers every host, by
// Host): the AppView (public.api.bsky.app: getPostThread, resolveHandle, XRPC errors), the PLC
// directory (DID documents), a did:web host, a PDS (com.atproto.sync.getBlob) and the CDNs
// (cdn.bsky.app pictures, video.bsky.app thumbnails). Posts are the real capture
// (test/fixtures/bluesky/atat-posts.json) or constructed from the Lexicons (constructed-posts.ts).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sampleJpeg } from '../tiktok/media.js';
import { toneMp4 } from '../media-samples.js';
import {
  type Author,
  blobCid,
  blockedThread,
  constructedPost,
  didDocument,
  externalEmbeds,
  imagesEmbeds,
  notFoundThread,
  plcDid,
  tid,
  videoEmbeds,
} from './constructed-posts.js';
import { everyForm } from './embed-forms.js';
import { type Served, send, trickle } from './serve-file.js';
import { createFakeSocial, type FakeSocial } from './fake-social.js';

const FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/bluesky/atat-posts.json');
export type FixtureName = 'video' | 'images' | 'quoteWithImages' | 'external' | 'text';
type Post = Record<string, any>; // a postView as JSON

export const PDS_HOST = 'pds.fake-bluesky.test';
export const WEB_DID_HOST = 'creator.fake-bluesky.test';
const HOSTS = ['public.api.bsky.app', 'plc.directory', PDS_HOST, WEB_DID_HOST, 'cdn.bsky.app', 'video.bsky.app'];

export async function startFakeBluesky() {
  const fixtures = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')).posts as Record<FixtureName, Post>;
  const accounts = new Map<string, { handle: string; pds: string }>(); // did -> account
  const threads = new Map<string, unknown>(); // at-uri -> thread
  const blobs = new Map<string, Served>(); // `${did} ${cid}` -> file
  const files = new Map<string, Served>(); // CDN path -> file
  const requests: string[] = [];
  const state = {
    pdsDown: false,
    plcDown: false,
    blobBytesPerSecond: 0,
    /** A PDS that trickles: `bytes` of each blob every `everyMs`, never silent long enough to time out. */
    blobTrickle: null as { bytes: number; everyMs: number } | null,
    /** Blob transfers trickling right now (each ends when our side closes the connection). */
    trickling: 0,
  };
  let seq = 0;

  const json = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));

  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', `https://${host}`);
    requests.push(`${host}${url.pathname}`);
    const q = (name: string) => url.searchParams.get(name) ?? '';
    if (host === 'public.api.bsky.app') {
      if (url.pathname === '/xrpc/app.bsky.feed.getPostThread') {
        if (!/^\d+$/.test(q('depth')) || q('parentHeight') !== '0') return json(res, 400, { error: 'InvalidRequest' });
        const thread = social.thread(q('uri'), Number(q('depth')), threads.get(q('uri')));
        return thread
          ? json(res, 200, { thread })
          : json(res, 400, { error: 'NotFound', message: `Post not found: ${q('uri')}` });
      }
      if (url.pathname === '/xrpc/com.atproto.identity.resolveHandle') {
        const did = [...accounts].find(([, a]) => a.handle === q('handle'))?.[0];
        return did
          ? json(res, 200, { did })
          : json(res, 400, { error: 'InvalidRequest', message: 'Unable to resolve handle' });
      }
      if (social.handle(url, res)) return;
      return json(res, 404, { error: 'XRPCNotSupported' });
    }
    if (host === 'plc.directory' || host === WEB_DID_HOST) {
      if (state.plcDown) return res.writeHead(503).end();
      const did =
        host === WEB_DID_HOST
          ? url.pathname === '/.well-known/did.json'
            ? `did:web:${WEB_DID_HOST}`
            : ''
          : decodeURIComponent(url.pathname.slice(1));
      const account = accounts.get(did);
      return account
        ? json(res, 200, didDocument(did, account.handle, account.pds))
        : json(res, 404, { message: `DID not registered: ${did}` });
    }
    if (host === PDS_HOST) {
      if (state.pdsDown) return req.socket.destroy(); // a PDS that does not answer
      if (url.pathname !== '/xrpc/com.atproto.sync.getBlob') return json(res, 404, { error: 'XRPCNotSupported' });
      const s = blobs.get(`${q('did')} ${q('cid')}`);
      if (!s) return json(res, 400, { error: 'BlobNotFound', message: 'Blob not found' });
      if (state.blobTrickle) return trickle(res, s, state.blobTrickle, state);
      return void send(req, res, s, state.blobBytesPerSecond);
    }
    const s = files.get(url.pathname);
    if ((host === 'cdn.bsky.app' || host === 'video.bsky.app') && s) return void send(req, res, s);
    res.writeHead(404).end('Not Found');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const hostMap = Object.fromEntries(HOSTS.map((h) => [h, origin]));

  const register = (author: Author, pds = `https://${PDS_HOST}`) =>
    accounts.set(author.did, { handle: author.handle, pds });
  const serveUrl = (u: string, file: string, type = 'image/jpeg') => files.set(new URL(u).pathname, { file, type });
  const link = (actor: string, rkey: string) => `https://bsky.app/profile/${actor}/post/${rkey}`;

  /** Serves a post's pictures, thumbnails and avatar, and (on the PDS) its video and captions. */
  function servePost(
    post: Post,
    media: {
      video?: string;
      images?: string[];
      captions?: Array<{ cid: string; file: string }>;
      /** Content-Type the PDS gives the video blob, the CDN the full-size pictures (a hostile server's). */
      videoType?: string;
      imageType?: string;
    },
  ) {
    const did = post.author.did as string;
    if (post.author.avatar) serveUrl(post.author.avatar, sampleJpeg());
    const view = post.embed?.media ?? post.embed;
    const record = post.record.embed?.media ?? post.record.embed;
    for (const [i, image] of (view?.images ?? []).entries()) {
      serveUrl(image.fullsize, media.images?.[i] ?? sampleJpeg(), media.imageType);
      serveUrl(image.thumb, sampleJpeg());
    }
    if (view?.thumbnail) serveUrl(view.thumbnail, sampleJpeg());
    if (view?.external?.thumb) serveUrl(view.external.thumb, sampleJpeg());
    if (record?.video && media.video)
      blobs.set(`${did} ${record.video.ref.$link}`, { file: media.video, type: media.videoType ?? 'video/mp4' });
    for (const c of media.captions ?? []) blobs.set(`${did} ${c.cid}`, { file: c.file, type: 'text/vtt' });
    threads.set(post.uri, { $type: 'app.bsky.feed.defs#threadViewPost', post, replies: [] });
  }

  /**
   * Serves whatever a post of any embed form names: every CDN picture (a JPEG), every video blob on
   * its owner's PDS (a quoted post's author's inside a quote), and the post's thread.
   */
  function serveAnyForm(post: Post, video: string) {
    const walk = (node: unknown, did: string, depth: number): void => {
      if (depth > 12 || !node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const n of node) walk(n, did, depth + 1);
        return;
      }
      const o = node as Record<string, any>;
      const owner = typeof o.author?.did === 'string' && (o.value || o.record) ? o.author.did : did;
      if (o.$type === 'app.bsky.embed.video' && o.video?.ref?.$link)
        blobs.set(`${owner} ${o.video.ref.$link}`, { file: video, type: 'video/mp4' });
      for (const [k, v] of Object.entries(o)) {
        if (typeof v === 'string' && /^https:\/\/(cdn|video)\.bsky\.app\//.test(v) && k !== 'playlist')
          serveUrl(v, sampleJpeg());
        else walk(v, owner, depth + 1);
      }
    };
    register({ did: post.author.did, handle: post.author.handle });
    walk(post, post.author.did, 0);
    threads.set(post.uri, { $type: 'app.bsky.feed.defs#threadViewPost', post, replies: [] });
  }

  const social = createFakeSocial({
    json,
    threads,
    servePost: (post) => {
      register({ did: post.author.did, handle: post.author.handle });
      serveAnyForm(post, toneMp4(2, { faststart: true }));
    },
  });

  function newAuthor(o: { didWeb?: boolean; handle?: string } = {}): Author {
    const n = ++seq;
    const author = {
      did: o.didWeb ? `did:web:${WEB_DID_HOST}` : plcDid(`author ${n} ${origin}`),
      handle: o.handle ?? `creator${n}.bsky.social`,
      displayName: `Creator ${n}`,
    };
    register(author);
    return author;
  }

  return {
    origin,
    hostMap,
    hostMapJson: JSON.stringify(hostMap),
    requests,
    state,
    /** A real captured post (video file on the PDS for its blob); its link by DID and by handle. */
    addFixture(name: FixtureName, media: { video?: string; images?: string[] } = {}) {
      const post = fixtures[name];
      register({ did: post.author.did, handle: post.author.handle });
      servePost(post, { video: media.video ?? toneMp4(3, { faststart: true }), ...media });
      const rkey = post.uri.split('/').pop() as string;
      return { post, url: link(post.author.did, rkey), handleUrl: link(post.author.handle, rkey) };
    },
    /**
     * A constructed video post; `quote`: inside a quote post (recordWithMedia); `vtt`: its captions;
     * `type`: the Content-Type its PDS sends the video blob with.
     */
    addVideoPost(
      o: {
        file?: string;
        text?: string;
        vtt?: string;
        quote?: boolean;
        didWeb?: boolean;
        author?: Author;
        type?: string;
      } = {},
    ) {
      const author = o.author ?? newAuthor(o);
      const rkey = tid(++seq);
      const file = o.file ?? toneMp4(3, { faststart: true });
      const cid = blobCid(`video ${author.did} ${rkey}`);
      const captionFile = o.vtt ? path.join(path.dirname(file), `bsky-${rkey}.vtt`) : null;
      if (captionFile) fs.writeFileSync(captionFile, o.vtt as string);
      const captions = captionFile
        ? [{ lang: 'en', cid: blobCid(`vtt ${rkey}`), size: fs.statSync(captionFile).size }]
        : undefined;
      const embeds = videoEmbeds(author.did, { cid, size: fs.statSync(file).size, captions });
      const quote = o.quote
        ? { uri: `at://${plcDid('quoted')}/app.bsky.feed.post/${tid(1)}`, cid: blobCid('quoted') }
        : undefined;
      const post = constructedPost(author, rkey, o.text ?? `A clip from Bluesky ${rkey}`, embeds, quote);
      servePost(post, {
        video: file,
        videoType: o.type,
        captions: captions?.map((c) => ({ cid: c.cid, file: captionFile as string })),
      });
      return { post, author, rkey, cid, url: link(author.did, rkey), handleUrl: link(author.handle, rkey) };
    },
    /** A constructed picture post (up to 4 JPEG files), or a quote post carrying them; `type`: the CDN's Content-Type. */
    addPicturePost(images: string[], o: { quote?: boolean; type?: string } = {}) {
      const author = newAuthor();
      const rkey = tid(++seq);
      const embeds = imagesEmbeds(
        author.did,
        images.map((f, i) => ({
          cid: blobCid(`img ${rkey} ${i}`),
          size: fs.statSync(f).size,
          width: 1080,
          height: 1440,
        })),
      );
      const quote = o.quote
        ? { uri: `at://${plcDid('quoted')}/app.bsky.feed.post/${tid(2)}`, cid: blobCid('quoted2') }
        : undefined;
      const post = constructedPost(author, rkey, `Pictures ${rkey}`, embeds, quote);
      servePost(post, { images, imageType: o.type });
      return { post, url: link(author.did, rkey) };
    },
    /** Every embed form of the Lexicons (embed-forms.ts) by one new author: name -> its post and link. */
    addEveryForm(video = toneMp4(2, { faststart: true })) {
      const author = newAuthor();
      const { posts, quotedAuthor } = everyForm(author);
      register(quotedAuthor);
      return Object.fromEntries(
        Object.entries(posts).map(([name, { post, kind }]) => {
          serveAnyForm(post, video);
          return [name, { post, kind, url: link(author.did, post.uri.split('/').pop() as string) }];
        }),
      );
    },
    social,
    /** A profile of many pages (fake-social.ts) by a new author. */
    addProfile(opts: Parameters<FakeSocial['addProfile']>[1] & { handle?: string }) {
      const author = newAuthor({ handle: opts.handle });
      const profile = social.addProfile(author, opts);
      return { author, profile, url: `https://bsky.app/profile/${author.handle}` };
    },
    /** A link card without a picture: a post with nothing to save. */
    addLinkCard() {
      const author = newAuthor();
      const rkey = tid(++seq);
      const post = constructedPost(author, rkey, 'Read this', externalEmbeds(author.did, null));
      servePost(post, {});
      return { post, url: link(author.did, rkey) };
    },
    /** A post the AppView answers as #blockedPost or #notFoundPost, or not at all (400 NotFound). */
    addUnavailable(kind: 'blocked' | 'notFound' | 'missing') {
      const author = newAuthor();
      const rkey = tid(++seq);
      const uri = `at://${author.did}/app.bsky.feed.post/${rkey}`;
      if (kind === 'blocked') threads.set(uri, blockedThread(uri, author.did));
      if (kind === 'notFound') threads.set(uri, notFoundThread(uri));
      return link(author.did, rkey);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
export type FakeBluesky = Awaited<ReturnType<typeof startFakeBluesky>>;
