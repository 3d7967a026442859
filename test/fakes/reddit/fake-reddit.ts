// Reddit's servers on 127.0.0.1 (one server answers every Reddit host, by Host; issue 44): the
// public JSON (`www.reddit.com/comments/<id>.json`), application-only OAuth (`/api/v1/access_token`)
// and `oauth.reddit.com/comments/<id>`, share links and v.redd.it addresses that redirect, the DASH
// manifest and its files on v.redd.it (dash-media.ts), pictures on i.redd.it / preview.redd.it.
// Refusals as Reddit answers them: 403 {"reason": "private" | "quarantined"}, 404 {"reason":
// "banned"}, 404, and 429 with X-Ratelimit-* headers. Every request is recorded with its headers.
import fs from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { sampleJpeg } from '../tiktok/media.js';
import { type DashSet, manifestOf } from './dash-media.js';
import { basePost, htmlEscaped, galleryFields, imageFields, listings, type PostData, videoFields } from './posts.js';

export type Refusal = 'private' | 'quarantined' | 'banned' | 'missing' | 'ratelimited';
export interface Hit {
  host: string;
  path: string;
  userAgent: string;
  authorization: string | null;
}

const CLIENT = { id: 'fake-client-id', secret: 'fake-client-secret', token: 'fake-app-token' };

/** Sends `file` at `bytesPerSecond` (0: as fast as it goes), in 64 KB steps. */
async function send(res: http.ServerResponse, file: string, bytesPerSecond: number) {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fs.statSync(file).size });
  const start = Date.now();
  let sent = 0;
  const pace = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      sent += chunk.length;
      const due = bytesPerSecond ? (sent / bytesPerSecond) * 1000 - (Date.now() - start) : 0;
      setTimeout(() => cb(null, chunk), Math.max(0, due));
    },
  });
  await pipeline(fs.createReadStream(file, { highWaterMark: 64 * 1024 }), pace, res).catch(() => undefined);
}

export async function startFakeReddit(opts: { bytesPerSecond?: number } = {}) {
  const posts = new Map<string, PostData>();
  const refusals = new Map<string, Refusal>();
  const videos = new Map<string, { set: DashSet; postId: string; sub: string }>();
  const shares = new Map<string, string>(); // share code -> post id
  const hits: Hit[] = [];
  let tokensIssued = 0;

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));

  function answerPost(res: http.ServerResponse, id: string, raw: boolean) {
    const refusal = refusals.get(id);
    const limits = { 'x-ratelimit-used': '3', 'x-ratelimit-remaining': '97.0', 'x-ratelimit-reset': '420' };
    if (refusal === 'ratelimited')
      return json(res, 429, { message: 'Too Many Requests', error: 429 }, { ...limits, 'x-ratelimit-remaining': '0' });
    if (refusal === 'private') return json(res, 403, { reason: 'private', message: 'Forbidden', error: 403 });
    if (refusal === 'quarantined')
      return json(res, 403, {
        reason: 'quarantined',
        quarantine_message: 'quarantined',
        message: 'Forbidden',
        error: 403,
      });
    if (refusal === 'banned') return json(res, 404, { reason: 'banned', message: 'Not Found', error: 404 });
    const post = posts.get(id);
    if (!post || refusal === 'missing') return json(res, 404, { message: 'Not Found', error: 404 });
    const text = JSON.stringify(listings(post));
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', ...limits });
    res.end(raw ? text : htmlEscaped(text));
  }

  const server = http.createServer(async (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', `https://${host}`);
    hits.push({
      host,
      path: url.pathname,
      userAgent: String(req.headers['user-agent'] ?? ''),
      authorization: req.headers.authorization ?? null,
    });
    const raw = url.searchParams.get('raw_json') === '1';
    if (host === 'www.reddit.com' || host === 'reddit.com') {
      if (req.method === 'POST' && url.pathname === '/api/v1/access_token') {
        const basic = Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64');
        let body = '';
        for await (const c of req) body += c;
        if (req.headers.authorization !== `Basic ${basic}` || body !== 'grant_type=client_credentials')
          return json(res, 401, { message: 'Unauthorized', error: 401 });
        tokensIssued++;
        return json(res, 200, { access_token: CLIENT.token, token_type: 'bearer', expires_in: 86400, scope: '*' });
      }
      const post = /^\/comments\/([a-z0-9]+)\.json$/.exec(url.pathname);
      if (post) return answerPost(res, post[1], raw);
      const share = /^\/r\/(\w+)\/s\/(\w+)$/.exec(url.pathname);
      const target = share && shares.get(share[2]);
      if (target) {
        const p = posts.get(target);
        return res
          .writeHead(301, {
            location: `https://www.reddit.com${p?.permalink ?? `/comments/${target}/`}?share_id=x&utm_medium=ios_app`,
          })
          .end();
      }
      return json(res, 404, { message: 'Not Found', error: 404 });
    }
    if (host === 'oauth.reddit.com') {
      if (req.headers.authorization !== `Bearer ${CLIENT.token}`)
        return json(res, 401, { message: 'Unauthorized', error: 401 });
      const post = /^\/comments\/([a-z0-9]+)$/.exec(url.pathname);
      return post ? answerPost(res, post[1], raw) : json(res, 404, { message: 'Not Found', error: 404 });
    }
    if (host === 'v.redd.it') {
      const [, videoId, name] = /^\/(\w+)(?:\/([\w.]+))?$/.exec(url.pathname) ?? [];
      const video = videos.get(videoId ?? '');
      if (!video) return res.writeHead(404).end();
      if (!name) {
        const p = posts.get(video.postId);
        return res.writeHead(301, { location: `https://www.reddit.com${p?.permalink}` }).end();
      }
      if (name === 'DASHPlaylist.mpd')
        return res.writeHead(200, { 'content-type': 'application/dash+xml' }).end(manifestOf(video.set));
      const file =
        video.set.videos.find((v) => v.name === name)?.file ??
        (video.set.audio?.name === name ? video.set.audio.file : null);
      if (!file) return res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error>AccessDenied</Error>');
      return send(res, file, opts.bytesPerSecond ?? 0);
    }
    if (['i.redd.it', 'preview.redd.it', 'external-preview.redd.it', 'b.thumbs.redditmedia.com'].includes(host)) {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': fs.statSync(sampleJpeg()).size });
      return fs.createReadStream(sampleJpeg()).pipe(res);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const hostNames = [
    'www.reddit.com',
    'reddit.com',
    'oauth.reddit.com',
    'v.redd.it',
    'i.redd.it',
    'preview.redd.it',
    'external-preview.redd.it',
    'b.thumbs.redditmedia.com',
  ];
  const hostMap = Object.fromEntries(hostNames.map((h) => [h, origin]));
  const linkOf = (id: string) => `https://www.reddit.com${posts.get(id)?.permalink}`;

  return {
    hostMap,
    hostMapJson: JSON.stringify(hostMap),
    hits,
    client: CLIENT,
    tokensIssued: () => tokensIssued,
    /** A video post; returns its link. `extra` overrides post fields (over_18, removed_by_category...). */
    addVideo(id: string, sub: string, set: DashSet, extra: PostData = {}) {
      const videoId = `v${id}x0vid`;
      const top = set.videos[0];
      const fields = videoFields({
        videoId,
        height: top.height,
        width: top.width,
        seconds: set.seconds,
        hasAudio: !!set.audio,
        fallbackName: top.name,
        isGif: extra.isGif,
      });
      posts.set(id, basePost(id, sub, `Video ${id}`, { ...fields, ...extra }));
      videos.set(videoId, { set, postId: id, sub });
      return linkOf(id);
    },
    addGallery(id: string, sub: string, mediaIds: string[]) {
      posts.set(id, basePost(id, sub, `Gallery ${id}`, galleryFields(mediaIds)));
      return linkOf(id);
    },
    addImage(id: string, sub: string) {
      posts.set(id, basePost(id, sub, `Picture ${id}`, imageFields(`img${id}`)));
      return linkOf(id);
    },
    addText(id: string, sub: string) {
      posts.set(
        id,
        basePost(id, sub, `Question ${id}`, { is_self: true, selftext: 'Just words', domain: `self.${sub}` }),
      );
      return linkOf(id);
    },
    /** A crosspost of `originalId` into `sub`. */
    addCrosspost(id: string, sub: string, originalId: string) {
      const original = posts.get(originalId);
      posts.set(
        id,
        basePost(id, sub, `Crosspost ${id}`, {
          crosspost_parent: `t3_${originalId}`,
          crosspost_parent_list: [original],
        }),
      );
      return linkOf(id);
    },
    refuse(id: string, sub: string, refusal: Refusal) {
      if (!posts.has(id)) posts.set(id, basePost(id, sub, `Refused ${id}`));
      refusals.set(id, refusal);
      return linkOf(id);
    },
    addShare(code: string, id: string) {
      shares.set(code, id);
      return `https://www.reddit.com/r/${posts.get(id)?.subreddit}/s/${code}`;
    },
    videoLink: (id: string) => `https://v.redd.it/v${id}x0vid`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
