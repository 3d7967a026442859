// Logs: readable lines for a terminal, JSON otherwise, secrets redacted either way.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger';

function capture(pretty: boolean) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  const logger = createLogger('info', { pretty, destination: out });
  return { logger, text: () => text };
}

describe('logger', () => {
  it('writes readable lines when pretty (a terminal)', () => {
    const { logger, text } = capture(true);
    logger.info({ url: 'http://localhost:5000', body: { password: 'hunter2' } }, 'Social Media Toolkit is ready');
    expect(text()).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Social Media Toolkit is ready\n/);
    expect(text()).toContain('url: "http://localhost:5000"');
    expect(text()).not.toContain('hunter2');
    expect(() => JSON.parse(text())).toThrow();
  });

  it('writes one JSON object per line otherwise', async () => {
    const { logger, text } = capture(false);
    logger.info({ body: { password: 'hunter2' } }, 'ready');
    await new Promise((r) => setImmediate(r));
    const line = JSON.parse(text().trim());
    expect(line).toMatchObject({ level: 30, msg: 'ready', body: { password: '***' } });
  });
});
