// The server's list of client routes (HTTP 200 vs 404) must be the client's router table.
import { describe, expect, it } from 'vitest';
import { APP_PATHS, PUBLIC_PATHS, isClientPath } from '../../src/shared/client-paths';
import { publicRoutes, signedInRoutes } from '../../src/client/routes';

describe('client paths', () => {
  it('match the router table in src/client/routes.tsx', () => {
    expect(signedInRoutes.map((r) => r.path).sort()).toEqual(APP_PATHS.map((a) => a.path).sort());
    expect(publicRoutes.map((r) => r.path).sort()).toEqual([...PUBLIC_PATHS].sort());
  });

  it('tell known paths from unknown ones', () => {
    for (const p of ['/', '/?url=x', '/blog', '/blog/', '/blog/my-post', '/subscription?cancel=true', '/sign-in'])
      expect(isClientPath(p), p).toBe(true);
    for (const p of ['/nope', '/blog/a/b', '/blogs', '/index.htm', '/subscription/x'])
      expect(isClientPath(p), p).toBe(false);
  });
});
