// The made-up "Clips" platform's servers on 127.0.0.1 (one server answers every Clips host, by Host):
// the site (short links redirect), the JSON API (hands out a media token) and the CDN (refuses
// requests without that token).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';

export interface FakeClip {
  id: string;
  file: string;
  cover: string;
  sound: string | null;
  vtt: string | null;
  seconds: number;
}

export async function startFakeClips() {
  const clips = new Map<string, FakeClip>();
  const shorts = new Map<string, string>();
  const down = new Set<string>(); // clips whose API answers 503
  const tokens = new Set<string>();
  const served: string[] = [];
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', `https://${host}`);
    if (host === 'clips.example') {
      const target = shorts.get(/^\/s\/(\w+)$/.exec(url.pathname)?.[1] ?? '');
      res.writeHead(target ? 302 : 404, target ? { location: `https://clips.example/v/${target}` } : {});
      return res.end();
    }
    if (host === 'api.clips.example') {
      const clipId = /^\/v1\/clips\/(\w+)$/.exec(url.pathname)?.[1] ?? '';
      if (down.has(clipId)) return res.writeHead(503).end();
      const clip = clips.get(clipId);
      if (!clip) return res.writeHead(404).end('{"error":"not found"}');
      const token = crypto.randomBytes(12).toString('hex');
      tokens.add(token);
      const cdn = (name: string) => `https://cdn.clips.example/${clip.id}/${name}`;
      res.writeHead(200, { 'content-type': 'application/json', 'x-media-token': token });
      return res.end(
        JSON.stringify({
          id: clip.id,
          caption: `Clip ${clip.id}`,
          creator: 'clipmaker',
          seconds: clip.seconds,
          cover: cdn('cover.jpg'),
          files: [{ label: 'hd', width: 320, height: 568, bytes: fs.statSync(clip.file).size, url: cdn('video.mp4') }],
          sound: clip.sound ? cdn('sound.mp3') : null,
          captions: clip.vtt ? [{ lang: 'eng-US', url: cdn('captions.vtt') }] : [],
        }),
      );
    }
    if (host === 'cdn.clips.example') {
      if (!tokens.has(/^Token (\w+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''))
        return res.writeHead(403).end();
      const [, id, name] = /^\/(\w+)\/([\w.]+)$/.exec(url.pathname) ?? [];
      const clip = clips.get(id ?? '');
      const files: Record<string, [string | null | undefined, string]> = {
        'video.mp4': [clip?.file, 'video/mp4'],
        'cover.jpg': [clip?.cover, 'image/jpeg'],
        'sound.mp3': [clip?.sound, 'audio/mpeg'],
      };
      if (name === 'captions.vtt' && clip?.vtt) return res.writeHead(200, { 'content-type': 'text/vtt' }).end(clip.vtt);
      const [file, type] = files[name ?? ''] ?? [];
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
    hostMap: { 'clips.example': origin, 'api.clips.example': origin, 'cdn.clips.example': origin },
    served,
    add(clip: FakeClip) {
      clips.set(clip.id, clip);
      return `https://clips.example/v/${clip.id}`;
    },
    /** The API answers 503 for this clip id. */
    breakClip(id: string) {
      down.add(id);
      return `https://clips.example/v/${id}`;
    },
    addShortLink: (code: string, id: string) => {
      shorts.set(code, id);
      return `https://clips.example/s/${code}`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
