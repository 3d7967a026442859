// The error catalogue (decision 0020): every code the server raises is in it, every call site fills
// the placeholders of the template it picks, and the client renders the server's exact text.
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  ERROR_CATALOGUE,
  errorTemplate,
  isErrorCode,
  renderError,
  type ErrorCode,
} from '../../src/shared/error-messages.js';
import { AppError, fail } from '../../src/server/errors.js';
import { HttpClientError } from '../../src/server/adapters/http/http-errors.js';
import { registerErrorHandler } from '../../src/server/plugins/error-handler.js';
import { messageFor } from '../../src/client/lib/api-error.js';

const SERVER = path.resolve(import.meta.dirname, '../../src/server');
const HOLE = /\{(\w+)\}/g;

function sources(dir: string): Array<{ file: string; text: string }> {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sources(p);
    return d.name.endsWith('.ts') ? [{ file: path.relative(SERVER, p), text: fs.readFileSync(p, 'utf8') }] : [];
  });
}

/** The text between the brace at `start` and its match. */
function braced(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return text.slice(start + 1, i);
  }
  throw new Error('unbalanced braces');
}

/** Split at the commas outside brackets and parentheses. */
function topLevel(text: string): string[] {
  const parts = [''];
  let depth = 0;
  for (const ch of text) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) parts.push('');
    else parts[parts.length - 1] += ch;
  }
  return parts.map((s) => s.trim()).filter(Boolean);
}

/** Spreads of known param objects at call sites. */
const SPREADS: Record<string, string[]> = { TIKTOK: ['platform'], BLUESKY: ['platform'], REDDIT: ['platform'] };

type Call = { where: string; code: string; keys: string[] | null; variant?: string };

/** Every `fail('code', { ... })` in src/server with the keys of its params (null: not a literal). */
function failCalls(): Call[] {
  const calls: Call[] = [];
  for (const { file, text } of sources(SERVER)) {
    for (const m of text.matchAll(/\bfail\(\s*'([^']+)'\s*(,\s*)?/g)) {
      const where = `${file}:${text.slice(0, m.index).split('\n').length}`;
      const after = m.index! + m[0].length;
      if (!m[2] || text.startsWith('undefined', after) || text[after] === ')') {
        calls.push({ where, code: m[1], keys: [] });
        continue;
      }
      if (text[after] !== '{') {
        const spread = /^(\w+)\)/.exec(text.slice(after));
        calls.push({ where, code: m[1], keys: spread && SPREADS[spread[1]] ? SPREADS[spread[1]] : null });
        continue;
      }
      const keys: string[] = [];
      let variant: string | undefined;
      for (const part of topLevel(braced(text, after))) {
        const spread = /^\.\.\.(\w+)$/.exec(part);
        if (spread) keys.push(...(SPREADS[spread[1]] ?? [`<unknown spread ${spread[1]}>`]));
        else keys.push(/^(\w+)/.exec(part)![1]);
        const v = /^variant:\s*'(\w+)'$/.exec(part);
        if (v) variant = v[1];
      }
      calls.push({ where, code: m[1], keys, variant });
    }
  }
  return calls;
}

describe('error catalogue', () => {
  const calls = failCalls();

  it('finds the call sites it checks', () => {
    expect(calls.length).toBeGreaterThan(100);
    expect(new Set(calls.map((c) => c.code)).size).toBeGreaterThan(60);
  });

  it('knows every code the server raises', () => {
    const unknown = calls.filter((c) => !isErrorCode(c.code)).map((c) => `${c.where} ${c.code}`);
    expect(unknown).toEqual([]);
  });

  it('is the only source of error texts: no hand-built AppError outside errors.ts and the framework fallback', () => {
    const adHoc = sources(SERVER)
      .flatMap(({ file, text }) => text.split('\n').map((line, i) => ({ where: `${file}:${i + 1}`, line })))
      .filter(
        ({ where, line }) =>
          /new AppError\(/.test(line) &&
          !where.startsWith('errors.ts') &&
          !line.includes('new AppError(status, code, error.message)'),
      );
    expect(adHoc).toEqual([]);
  });

  it('fills every placeholder of the template each call site picks', () => {
    const problems: string[] = [];
    for (const c of calls.filter((c) => c.keys && isErrorCode(c.code))) {
      const params = Object.fromEntries(c.keys!.map((k) => [k, k === 'variant' ? (c.variant ?? '?') : 'x']));
      const template = errorTemplate(c.code as ErrorCode, params);
      if (template === undefined) problems.push(`${c.where} ${c.code}: no variant ${c.variant}`);
      else if (renderError(c.code, params) === undefined)
        problems.push(`${c.where} ${c.code}: leaves ${template.match(HOLE)?.join(' ')} of "${template}"`);
    }
    expect(problems).toEqual([]);
  });

  it('has a 4xx or 5xx status and renderable templates for every code and variant', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE) as Array<
      [ErrorCode, (typeof ERROR_CATALOGUE)[ErrorCode]]
    >) {
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      expect(code, code).toMatch(/^[a-z_]+(\.[a-z_]+)*$/);
      const variants: Record<string, string> = 'variants' in entry ? entry.variants : {};
      for (const [variant, template] of [[undefined, entry.message], ...Object.entries(variants)] as Array<
        [string | undefined, string]
      >) {
        const params: Record<string, string> = Object.fromEntries(
          [...template.matchAll(HOLE)].map((h) => [h[1], `<${h[1]}>`]),
        );
        const text = renderError(code, variant ? { ...params, variant } : params);
        expect(text, `${code} ${variant ?? ''}`).toBeDefined();
        expect(text, `${code} ${variant ?? ''}`).not.toMatch(HOLE);
      }
    }
  });

  it('refuses to render with a missing param or an unknown variant, and fail() refuses too', () => {
    expect(renderError('video.private')).toBeUndefined();
    expect(renderError('video.private', { platform: 'TikTok' })).toBe(
      'This TikTok video is private, so it cannot be downloaded. Try a public video.',
    );
    expect(renderError('media.unreadable', { variant: 'nope' })).toBeUndefined();
    expect(renderError('no.such_code')).toBeUndefined();
    expect(() => fail('video.private', {} as never)).toThrow(/cannot render/);
  });

  it('builds errors with the catalogue status, default Retry-After and params', () => {
    const e = fail('upstream.rate_limited', { platform: 'TikTok' });
    expect(e).toBeInstanceOf(AppError);
    expect([e.status, e.code, e.headers['retry-after'], e.params]).toEqual([
      429,
      'upstream.rate_limited',
      '60',
      { platform: 'TikTok' },
    ]);
    expect(fail('media.busy', undefined, {}, { 'retry-after': '3' }).headers['retry-after']).toBe('3');
    expect(fail('not_found').params).toBeUndefined();
    const h = new HttpClientError('blocked', 'private');
    expect([h.status, h.code, h.message, h.kind]).toEqual([
      400,
      'upstream.blocked',
      'This link points to a private address.',
      'blocked',
    ]);
  });

  it('sends the envelope the client renders to the same text', async () => {
    const samples: AppError[] = [
      fail('video.private', { platform: 'TikTok' }),
      fail('link.unsupported', { platforms: 'TikTok or Clips' }),
      fail('link.unsupported', { variant: 'provide', platforms: 'TikTok' }),
      fail('video.no_slide', { slides: 3 }),
      fail('upstream.unavailable', { variant: 'slide', n: 2, platform: 'Clips' }),
      fail('quota.exhausted', { limit: 3 }, { limitReached: true }),
      fail('media.unreadable', { variant: 'sound' }),
      fail('billing.pro_required'),
      new HttpClientError('timeout', 'stalled'),
    ];
    const app = Fastify();
    registerErrorHandler(app);
    app.post('/big', { bodyLimit: 10 }, async () => 'ok');
    app.get('/e/:n', async (req) => {
      throw samples[Number((req.params as { n: string }).n)];
    });
    try {
      for (const [n, sample] of samples.entries()) {
        const res = await app.inject({ method: 'GET', url: `/e/${n}` });
        const body = res.json();
        expect(res.statusCode).toBe(sample.status);
        expect(body.message).toBe(sample.message);
        expect(messageFor(body), sample.code).toBe(body.message);
        // Rendered from the catalogue, not copied: a changed message in the body does not show.
        expect(messageFor({ ...body, message: 'other' })).toBe(body.message);
      }
      const missing = await app.inject({ method: 'GET', url: '/api/nothing' });
      expect(missing.json()).toEqual({ message: 'Not found.', code: 'not_found' });
      const big = await app.inject({ method: 'POST', url: '/big', payload: { text: 'x'.repeat(100) } });
      expect([big.statusCode, big.json()]).toEqual([
        413,
        { message: 'Request body is too large', code: 'request.fst_err_ctp_body_too_large' },
      ]);
    } finally {
      await app.close();
    }
    expect(messageFor({ code: 'made.up', message: 'As the server said.' })).toBe('As the server said.');
    expect(messageFor({ code: 'video.private', message: 'As the server said.' })).toBe('As the server said.');
  });
});
