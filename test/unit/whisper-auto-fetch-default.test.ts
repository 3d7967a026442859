// `npm start` fetches the Whisper model by itself; tests never do unless they opt in (issue 46).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { whisperAutoFetch } from '../../src/server/services/whisper-model.service.js';

const base = { SESSION_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/smt-whisper-default' };

describe('WHISPER_AUTO_FETCH', () => {
  it('is on for a server started as npm start starts it, off under NODE_ENV=test', () => {
    expect(whisperAutoFetch(loadConfig({ ...base }))).toBe(true);
    expect(whisperAutoFetch(loadConfig({ ...base, NODE_ENV: 'production' }))).toBe(true);
    expect(whisperAutoFetch(loadConfig({ ...base, NODE_ENV: 'test' }))).toBe(false);
  });

  it('follows the operator either way', () => {
    expect(whisperAutoFetch(loadConfig({ ...base, WHISPER_AUTO_FETCH: 'off' }))).toBe(false);
    expect(whisperAutoFetch(loadConfig({ ...base, NODE_ENV: 'test', WHISPER_AUTO_FETCH: 'on' }))).toBe(true);
    expect(() => loadConfig({ ...base, WHISPER_AUTO_FETCH: 'maybe' })).toThrow(/WHISPER_AUTO_FETCH/);
  });
});
