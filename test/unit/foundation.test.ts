import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { MemoryStore, RateLimiter } from '../../src/server/lib/rate-limiter.js';
import { maskUrl } from '../../src/server/plugins/request-log.js';
import { subscriptionStatusOf, isPro } from '../../src/server/services/entitlements.service.js';
import { formatAge, formatDuration, formatFileSize, formatNumber } from '../../src/client/lib/format.js';
import type { User } from '../../src/server/db/repositories/users.repository.js';

const base = { DATA_DIR: '/tmp/smt-unit', SESSION_SECRET: 'x'.repeat(32) };

describe('configuration', () => {
  it('applies the defaults', () => {
    const c = loadConfig(base);
    expect(c.PORT).toBe(5000);
    expect(c.publicUrl).toBe('http://localhost:5000');
    expect(c.oidc).toBeNull();
    expect(c.UPSTREAM_HOST_MAP).toEqual({});
  });
  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT /],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must be a postgres/],
    [{ UPSTREAM_HOST_MAP: '{nope' }, /^Invalid configuration: UPSTREAM_HOST_MAP must be a JSON object/],
    [{ OIDC_ISSUER_URL: 'https://id.example.com' }, /OIDC_CLIENT_ID is required/],
    [{ PAYPAL_CLIENT_SECRET: 'x' }, /PAYPAL_CLIENT_ID is required when PAYPAL_CLIENT_SECRET is set/],
    [
      { S3_ENDPOINT: 'http://127.0.0.1:9', S3_BUCKET: 'b' },
      /S3_ACCESS_KEY_ID is required when S3_ENDPOINT, S3_BUCKET are set/,
    ],
    [{ LLM_API_KEY: 'k' }, /LLM_BASE_URL is required when LLM_API_KEY is set/],
    [{ TRANSCRIBE_API_KEY: 'k' }, /TRANSCRIBE_API_URL is required when TRANSCRIBE_API_KEY is set/],
    [{ NODE_ENV: 'production', SESSION_SECRET: '' }, /SESSION_SECRET is required in production/],
    [
      { NODE_ENV: 'production', UPSTREAM_HOST_MAP: '{"www.tiktok.com":"http://127.0.0.1:1"}' },
      /UPSTREAM_HOST_MAP is refused/,
    ],
    [
      { NODE_ENV: 'production', WHISPER_MODEL_PINS: `{"tiny.en":{"sha256":"${'a'.repeat(64)}","bytes":1}}` },
      /WHISPER_MODEL_PINS is refused when NODE_ENV=production/,
    ],
    [
      { WHISPER_MODEL_PINS: '{"tiny.en":{"sha256":"x"}}' },
      /WHISPER_MODEL_PINS must be a JSON object mapping model names/,
    ],
  ])('refuses %o with one line naming the variable', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
  it('parses the host map and admin emails', () => {
    const c = loadConfig({
      ...base,
      UPSTREAM_HOST_MAP: '{"*.tiktokcdn.com":"http://127.0.0.1:9"}',
      ADMIN_EMAILS: ' A@x.com, b@y.com ,',
    });
    expect(c.UPSTREAM_HOST_MAP).toEqual({ '*.tiktokcdn.com': 'http://127.0.0.1:9' });
    expect(c.ADMIN_EMAILS).toEqual(['a@x.com', 'b@y.com']);
  });
});

describe('rate limiter', () => {
  it('allows the limit per window, then asks to wait, then resets', async () => {
    let now = 0;
    const rl = new RateLimiter('test', 2, 1000, new MemoryStore(), () => now);
    expect([await rl.hit('k'), await rl.hit('k')]).toEqual([0, 0]);
    expect(await rl.hit('k')).toBe(1);
    expect(await rl.hit('other')).toBe(0);
    now = 1000;
    expect(await rl.hit('k')).toBe(0);
  });
});

describe('request log', () => {
  it('masks secrets in query strings', () => {
    expect(maskUrl('/api/callback?code=abc&state=s1&iss=x')).toBe('/api/callback?code=***&state=***&iss=x');
    expect(maskUrl('/subscription?success=true&token=T&ba_token=B')).toBe(
      '/subscription?success=true&token=***&ba_token=***',
    );
    expect(maskUrl('/api/health')).toBe('/api/health');
  });
});

describe('entitlements', () => {
  const user = (p: Partial<User>): User =>
    ({ proGranted: false, proUntil: null, downloadCount: 0, subscriptionStatus: 'free', ...p }) as User;
  it('counts down the free quota with a floor of 0', () => {
    expect(subscriptionStatusOf(user({ downloadCount: 5 }))).toMatchObject({
      remainingDownloads: 1,
      canDownload: true,
      isProUser: false,
    });
    expect(subscriptionStatusOf(user({ downloadCount: 6 }))).toMatchObject({
      remainingDownloads: 0,
      canDownload: false,
    });
    expect(subscriptionStatusOf(user({ downloadCount: 9 }))).toMatchObject({
      remainingDownloads: 0,
      canDownload: false,
    });
  });
  it('is Pro by grant or until the paid-through instant', () => {
    const now = new Date('2026-11-22T00:00:00Z');
    expect(isPro(user({ proGranted: true }), now)).toBe(true);
    expect(isPro(user({ proUntil: new Date('2026-11-23T00:00:00Z') }), now)).toBe(true);
    expect(isPro(user({ proUntil: new Date('2026-11-21T00:00:00Z') }), now)).toBe(false);
  });
});

describe('display formats (decision 0092)', () => {
  it('abbreviates numbers at K, M and B', () => {
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1K');
    expect(formatNumber(1530)).toBe('1.5K');
    expect(formatNumber(2_400_000)).toBe('2.4M');
    expect(formatNumber(3_000_000_000)).toBe('3B');
  });
  it('formats durations, sizes and ages', () => {
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(9)).toBe('0:09');
    expect(formatFileSize(512 * 1024)).toBe('512 KB');
    expect(formatFileSize(5.25 * 1024 * 1024)).toBe('5.3 MB');
    expect(formatFileSize(undefined)).toBe('Unknown size');
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(formatAge('2026-11-22T11:30:00Z', now)).toBe('Just now');
    expect(formatAge('2026-11-22T07:00:00Z', now)).toBe('5h ago');
    expect(formatAge('2026-11-19T12:00:00Z', now)).toBe('3d ago');
  });
});
