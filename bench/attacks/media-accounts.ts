// What the media attacks share (issue 42): the built server with a fake TikTok whose videos can
// trickle, accounts signed in (Pro through the CLI), and the server's CPU time and RSS from /proc
// (found by its port, since other servers may run beside it).
import fs from 'node:fs';
import { startServer, type RunningServer } from '../../test/helpers/e2e.js';
import { signUpOn } from '../pro-server.js';
import { startFakeTikTok, type FakeTikTok } from '../../test/fakes/tiktok/fake-tiktok.js';

export interface Account {
  headers: Record<string, string>;
}

/** The pid of the built server listening on `port` (its environment says PORT=<port>). */
function serverPid(port: string): number {
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (!cmd.includes('dist/server/main.js')) continue;
      const env = fs.readFileSync(`/proc/${d}/environ`, 'utf8').split('\0');
      if (env.includes(`PORT=${port}`)) return Number(d);
    } catch {
      /* gone, or not ours */
    }
  }
  throw new Error(`no server process on port ${port}`);
}

/**
 * The built server (BENCH_ROOT: another built checkout, e.g. the code before a fix, with this
 * tree's node_modules linked in); CONNECTIONS_PER_IP is lifted (the attacker may come from many
 * addresses) unless ATTACK_CONNECTIONS_PER_IP says otherwise.
 */
export async function startMediaServer(env: Record<string, string>) {
  const tt: FakeTikTok = await startFakeTikTok();
  const server: RunningServer = await startServer(
    {
      UPSTREAM_HOST_MAP: tt.hostMapJson,
      VIDEO_INFO_PER_MINUTE: '100000',
      CONNECTIONS_PER_IP: process.env.ATTACK_CONNECTIONS_PER_IP ?? '100000',
      LOG_LEVEL: 'error',
      ...env,
    },
    process.env.BENCH_ROOT ? { root: process.env.BENCH_ROOT } : {},
  );
  const pid = serverPid(server.env.PORT);
  return {
    tt,
    server,
    account: (pro: boolean): Promise<Account> => signUpOn(server, { pro }),
    /** utime + stime of the server and its waited-for children, in ms. */
    cpuMs() {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
    },
    rssMb() {
      const line = fs
        .readFileSync(`/proc/${pid}/status`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('VmRSS:'));
      return Number(line?.match(/\d+/)?.[0] ?? 0) / 1024;
    },
    async stop() {
      await server.stop();
      await tt.close();
    },
  };
}
