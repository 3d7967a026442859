/**
 * A fake S3-compatible object store on 127.0.0.1 (path-style: /<bucket>/<key>): PUT, GET (with
 * Range), HEAD, DELETE. It refuses requests without a SigV4 Authorization header for the expected
 * access key, and a PUT whose x-amz-content-sha256 does not match the body, like S3 does.
 *
 *   const s3 = await startFakeS3({ bucket: 'media', accessKeyId: 'AKIDEXAMPLE' });
 *   env S3_ENDPOINT=s3.url S3_BUCKET=media S3_ACCESS_KEY_ID=AKIDEXAMPLE S3_SECRET_ACCESS_KEY=...
 *   s3.objects (Map key -> { body, contentType }), s3.log (method + key)
 */
import crypto from 'node:crypto';
import http from 'node:http';

export async function startFakeS3(opts: { bucket: string; accessKeyId: string }) {
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const log: string[] = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    log.push(`${req.method} ${key}`);
    const xml = (status: number, code: string) => {
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`);
    };
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${opts.accessKeyId}/`) || !req.headers['x-amz-date'])
      return xml(403, 'AccessDenied');
    if (bucket !== opts.bucket) return xml(404, 'NoSuchBucket');
    const declared = req.headers['x-amz-content-sha256'];
    if (req.method === 'PUT') {
      if (declared !== 'UNSIGNED-PAYLOAD' && declared !== crypto.createHash('sha256').update(body).digest('hex'))
        return xml(400, 'XAmzContentSHA256Mismatch');
      objects.set(key, { body, contentType: String(req.headers['content-type'] ?? 'application/octet-stream') });
      res.writeHead(200, { etag: `"${crypto.createHash('md5').update(body).digest('hex')}"` });
      return res.end();
    }
    const obj = objects.get(key);
    if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    if (!obj) return xml(404, 'NoSuchKey');
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), obj.body.length - 1) : obj.body.length - 1;
      res.writeHead(206, {
        'content-type': obj.contentType,
        'content-length': end - start + 1,
        'content-range': `bytes ${start}-${end}/${obj.body.length}`,
      });
      return res.end(req.method === 'HEAD' ? undefined : obj.body.subarray(start, end + 1));
    }
    res.writeHead(200, { 'content-type': obj.contentType, 'content-length': obj.body.length });
    res.end(req.method === 'HEAD' ? undefined : obj.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    objects,
    log,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
