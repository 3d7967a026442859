// End-to-end helpers: the built server as a child process (its own DATA_DIR and port) and
// Debian's Chromium driven by playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { pgliteTemplate } from './test-db.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = path.resolve(import.meta.dirname, '../..');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  env: Record<string, string>;
  logs: () => string;
  /** Runs `npm run cli`-equivalent against this server's configuration. */
  cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

/**
 * env.PORT may be given when the URL must be known before the start (e.g. OIDC redirect URIs).
 * Without DATABASE_URL the server's PGlite starts as a copy of a migrated template (the first start of
 * an empty cluster costs seconds); `freshDatabase` makes it create its own, as a new install does.
 * `root`: the checkout whose build runs (a benchmark compares another build with this one).
 */
export async function startServer(
  env: Record<string, string> = {},
  opts: { freshDatabase?: boolean; root?: string } = {},
): Promise<RunningServer> {
  const root = opts.root ?? ROOT;
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-e2e-'));
  if (!env.DATABASE_URL && !process.env.DATABASE_URL && !opts.freshDatabase) {
    fs.cpSync(path.join(await pgliteTemplate(), 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
  }
  const fullEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    // Never the real model host (a test opts in with a stand-in for it).
    WHISPER_AUTO_FETCH: 'off',
    ...env,
  };
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy: ${output}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    dataDir,
    env: fullEnv,
    logs: () => output,
    cli: (args) =>
      new Promise((resolve) => {
        const p = spawn(process.execPath, ['dist/server/cli.js', ...args], { cwd: ROOT, env: fullEnv });
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (d) => (stdout += d));
        p.stderr.on('data', (d) => (stderr += d));
        p.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      }),
    async stop(opts = {}) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      if (!opts.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `args`: more Chromium switches (e.g. `--host-resolver-rules` to give 127.0.0.1 other names). */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
}

export async function newPage(
  browser: Browser,
  opts: { width?: number; height?: number; downloads?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    acceptDownloads: opts.downloads ?? true,
  });
  const page = await context.newPage();
  return { context, page };
}

/** Waits until the page has stopped scrolling (smooth scrolls run over several frames). */
export async function scrollSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((done) => {
        const y = window.scrollY;
        requestAnimationFrame(() =>
          requestAnimationFrame(() => requestAnimationFrame(() => done(window.scrollY === y))),
        );
      }),
    undefined,
    { polling: 50, timeout: 5_000 },
  );
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Creates an account through the real sign-in page and lands on the signed-in home. */
export async function registerInBrowser(
  page: Page,
  baseUrl: string,
  email: string,
  password = 'correct horse battery',
): Promise<void> {
  await page.goto(`${baseUrl}/api/login`);
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${baseUrl}/`);
  await page.getByTestId('plan-badge').waitFor();
  // The downloader is sent ready (decision 0074): wait until React answers input, not just the paint.
  await page.locator('html[data-ready]').waitFor({ state: 'attached' });
}

/** A new account made in the browser, made Pro by the operator's command, and shown as Pro. */
export async function registerProInBrowser(page: Page, server: RunningServer, email: string): Promise<void> {
  await registerInBrowser(page, server.url, email);
  const grant = await server.cli(['user:grant-pro', email]);
  if (grant.code !== 0) throw new Error(`user:grant-pro failed: ${grant.stderr}`);
  await page.reload();
  await page.getByTestId('plan-badge').filter({ hasText: 'PRO' }).first().waitFor();
}
