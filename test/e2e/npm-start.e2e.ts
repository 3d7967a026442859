// Issue 22: stopping `npm start` (SIGTERM or SIGINT to npm's own PID) stops the server too, with
// its exit code, and leaves the port free; logs are JSON when stdout is not a terminal.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/e2e.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every live process started with this test's tag in its environment (npm, sh, start.mjs, server). */
function processesUsingPort(port: number): string[] {
  const tag = `SMT_START_TAG=smt-start-port-${port}`;
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z')) continue; // exited, not yet reaped
      if (fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(tag))
        found.push(`${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')}`);
    } catch {
      /* gone, or not ours to read */
    }
  }
  return found;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  describe(`npm start and ${signal}`, () => {
    it('stops the server with npm, exits with its code and frees the port', async () => {
      const port = await freePort();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `smt-start-port-${port}-`));
      const npm = spawn('npm', ['start', '--silent'], {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          SMT_START_TAG: `smt-start-port-${port}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      npm.stdout.on('data', (d) => (out += d));
      npm.stderr.on('data', (d) => (out += d));
      const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
        npm.on('exit', (code, sig) => r({ code, signal: sig })),
      );

      // Ready: the server's JSON log line (stdout is a pipe here, so no pretty printing).
      await new Promise<void>((resolve, reject) => {
        const onData = () => {
          if (out.includes('Social Media Toolkit is ready')) {
            npm.stdout.off('data', onData);
            resolve();
          }
        };
        npm.stdout.on('data', onData);
        npm.once('exit', () => reject(new Error(`npm start exited early: ${out}`)));
      });
      const ready = out.split('\n').find((l) => l.includes('Social Media Toolkit is ready'))!;
      // JSON when stdout is not a terminal; the line names the security mode (decision 0007).
      expect(JSON.parse(ready)).toMatchObject({
        msg: expect.stringMatching(/^Social Media Toolkit is ready: test mode, /),
        level: 30,
        mode: 'test',
      });
      expect(await portIsFree(port)).toBe(false);
      expect(processesUsingPort(port).some((p) => p.includes('dist/server/main.js'))).toBe(true);

      process.kill(npm.pid!, signal);
      const result = await exited;
      expect(result.code).toBe(0); // the server shut down cleanly and npm passed its code on
      // Nothing of ours is left: no node server holding the port.
      const deadline = Date.now() + 10_000;
      while (processesUsingPort(port).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(processesUsingPort(port)).toEqual([]);
      expect(await portIsFree(port)).toBe(true);
      expect(out).toContain('shutting down');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }, 120_000);
  });
}
