// The built server started for a benchmark with a Pro account signed in, and the server's CPU
// time (its own and its children's, e.g. ffmpeg) read from /proc.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { type RunningServer, startServer } from '../test/helpers/e2e.js';

let accounts = 0;

/** A new account on `server`, signed in (Pro with `pro`): the headers its JSON requests carry. */
export async function signUpOn(server: RunningServer, opts: { pro?: boolean } = {}) {
  const email = `bench${Date.now()}-${accounts++}@example.com`;
  const reg = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  const cookie = reg.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  if (opts.pro) await server.cli(['user:grant-pro', email]);
  return { headers: { 'content-type': 'application/json', origin: server.url, cookie } };
}

export async function startProServer(env: Record<string, string>) {
  const server = await startServer({ VIDEO_INFO_PER_MINUTE: '100000', LOG_LEVEL: 'error', ...env });
  const pid = Number(execFileSync('pgrep', ['-f', '-n', 'dist/server/main.js'], { encoding: 'utf8' }).trim());
  const { headers } = await signUpOn(server, { pro: true });
  return {
    server,
    headers,
    /** utime + stime of the server and its waited-for children, in ms. */
    cpuMs() {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
    },
  };
}
