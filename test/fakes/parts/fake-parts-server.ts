// The "Parts" platform's servers on 127.0.0.1 (one server, by Host): the JSON API and a CDN of
// video-only files and their sound files. `served` records every CDN path asked for.
import fs from 'node:fs';
import http from 'node:http';
import { splitParts } from '../media-samples.js';

export interface FakePartsPost {
  id: string;
  /** Whole MP4s (with sound), cut here into their two parts: the first is the big rendition. */
  files: string[];
  cover: string;
  seconds: number;
  vtt?: string | null;
  /** The first sound file answers 404, so the second is used. */
  firstSoundGone?: boolean;
}

export async function startFakeParts() {
  const posts = new Map<string, FakePartsPost & { parts: Array<{ video: string; sound: string }> }>();
  const served: string[] = [];
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', `https://${host}`);
    if (host === 'api.parts.example') {
      const post = posts.get(/^\/v1\/posts\/(\w+)$/.exec(url.pathname)?.[1] ?? '');
      if (!post) return res.writeHead(404).end('{}');
      const cdn = (name: string) => `https://cdn.parts.example/${post.id}/${name}`;
      const names = ['big', 'small'];
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          id: post.id,
          caption: `Post ${post.id}`,
          creator: 'partsmaker',
          seconds: post.seconds,
          cover: cdn('cover.jpg'),
          renditions: post.parts.map((p, i) => ({
            name: names[i] ?? `r${i}`,
            width: 320 >> i,
            height: 568 >> i,
            bytes: fs.statSync(p.video).size,
            video: cdn(`video-${i}.mp4`),
            sounds: [cdn(`sound-${i}-a.m4a`), cdn(`sound-${i}-b.m4a`)],
          })),
          captions: post.vtt ? [{ lang: 'en', url: cdn('captions.vtt') }] : [],
        }),
      );
    }
    if (host === 'cdn.parts.example') {
      const [, id, name] = /^\/(\w+)\/([\w.-]+)$/.exec(url.pathname) ?? [];
      const post = posts.get(id ?? '');
      if (!post) return res.writeHead(404).end();
      if (name === 'captions.vtt' && post.vtt) return res.writeHead(200, { 'content-type': 'text/vtt' }).end(post.vtt);
      const video = /^video-(\d)\.mp4$/.exec(name ?? '');
      const sound = /^sound-(\d)-(a|b)\.m4a$/.exec(name ?? '');
      let file: string | undefined;
      let type = 'video/mp4';
      if (name === 'cover.jpg') [file, type] = [post.cover, 'image/jpeg'];
      else if (video) file = post.parts[Number(video[1])]?.video;
      else if (sound && !(sound[2] === 'a' && post.firstSoundGone))
        [file, type] = [post.parts[Number(sound[1])]?.sound, 'audio/mp4'];
      if (!file) return res.writeHead(404).end();
      served.push(url.pathname);
      res.writeHead(200, { 'content-type': type, 'content-length': fs.statSync(file).size });
      return fs.createReadStream(file).pipe(res);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    hostMap: { 'parts.example': origin, 'api.parts.example': origin, 'cdn.parts.example': origin },
    served,
    add(post: FakePartsPost) {
      posts.set(post.id, { ...post, parts: post.files.map(splitParts) });
      return `https://parts.example/p/${post.id}`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
