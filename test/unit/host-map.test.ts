// One UPSTREAM_HOST_MAP matcher for the guarded client and PayPal (they used to disagree).
import { describe, expect, it } from 'vitest';
import { mapUpstream } from '../../src/server/adapters/http/host-map.js';
import { reroute } from '../../src/server/adapters/paypal/types.js';

const map = {
  '*.paypal.com': 'http://127.0.0.1:1001',
  '*.sandbox.paypal.com': 'http://127.0.0.1:1002',
  'api-m.sandbox.paypal.com': 'http://127.0.0.1:1003',
  'api-m.sandbox.paypal.com:8443': 'http://127.0.0.1:1004',
};

describe('UPSTREAM_HOST_MAP matching', () => {
  it('prefers host:port, then the exact host, then the longest wildcard', () => {
    expect(mapUpstream(new URL('https://api-m.sandbox.paypal.com:8443/x'), map)?.href).toBe('http://127.0.0.1:1004/x');
    expect(mapUpstream(new URL('https://api-m.sandbox.paypal.com/v1/a?b=1'), map)?.href).toBe(
      'http://127.0.0.1:1003/v1/a?b=1',
    );
    expect(mapUpstream(new URL('https://api.sandbox.paypal.com/v1/notifications/certs/C'), map)?.href).toBe(
      'http://127.0.0.1:1002/v1/notifications/certs/C',
    );
    expect(mapUpstream(new URL('https://paypal.com/'), map)?.href).toBe('http://127.0.0.1:1001/');
    expect(mapUpstream(new URL('https://PAYPAL.com./'), map)?.href).toBe('http://127.0.0.1:1001/');
    expect(mapUpstream(new URL('https://evilpaypal.com/'), map)).toBeNull();
  });

  it('PayPal re-routes through the same matcher', () => {
    for (const u of [
      'https://api-m.sandbox.paypal.com/v1/a?b=1',
      'https://api.sandbox.paypal.com/x',
      'https://www.tiktok.com/x',
    ]) {
      expect(reroute(u, map)).toBe(mapUpstream(new URL(u), map)?.href ?? u);
    }
  });
});
