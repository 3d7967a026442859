// A PostgreSQL server of the test's own (initdb in a temp dir, its own port), so a test can stop,
// restart or kill it without touching the shared server other suites use. Runs as the `postgres`
// system user (initdb refuses root), from Debian's postgresql package.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './e2e.js';

const BIN = (() => {
  const root = '/usr/lib/postgresql';
  const version = fs.existsSync(root) ? fs.readdirSync(root).sort().at(-1) : undefined;
  if (!version)
    throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install -y postgresql)');
  return path.join(root, version, 'bin');
})();

export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  restart(): void;
  destroy(): void;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-pg-'));
  fs.chmodSync(dir, 0o755);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asPostgres = (bin: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(BIN, bin), ...args], { stdio: 'pipe', timeout: 60_000 });
  execFileSync('chown', ['postgres:postgres', dir]);
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (...args: string[]) =>
    asPostgres('pg_ctl', ['-D', data, '-o', opts, '-w', '-l', path.join(dir, 'log'), ...args]);
  ctl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => void ctl('stop', '-m', 'fast'),
    start: () => void ctl('start'),
    restart: () => void ctl('restart', '-m', 'fast'),
    destroy() {
      try {
        ctl('stop', '-m', 'immediate');
      } catch {
        /* already stopped */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
