// What the start line says about who can reach this server (issue 31): the listen address decides
// which machines can connect, PUBLIC_URL which of them can use it (the Origin check).
import { isLoopbackHost, type Config } from '../config.js';

export function reachability(config: Pick<Config, 'HOST' | 'PORT' | 'publicUrl' | 'publicUrlIsLoopback'>): string {
  const listen = `${config.HOST}:${config.PORT}`;
  if (isLoopbackHost(config.HOST)) {
    return `reachable from this machine only, at ${config.publicUrl} (set PUBLIC_URL or HOST to serve other machines)`;
  }
  if (config.publicUrlIsLoopback) {
    return (
      `listening on ${listen}, so other machines can connect, but PUBLIC_URL is ${config.publicUrl}: ` +
      'they can send GET requests (read pages and the API), but every POST, PUT, PATCH or DELETE of theirs ' +
      '(signing up and in included) is refused (403) until PUBLIC_URL names the address they use'
    );
  }
  return `reachable from other machines at ${config.publicUrl} (listening on ${listen})`;
}
