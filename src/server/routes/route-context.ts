// What the routes are handed: the services and the guards and limits in front of them, and the
// settings that shape replies. Routes reach services only: no repository, adapter or platform is
// here (the composition root, wiring/, holds those and builds this).
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { RateLimits } from '../lib/rate-limits.js';
import type { Guards } from '../plugins/guards.js';
import type { Services } from '../services/services.js';

export interface RouteContext {
  config: Config;
  logger: Logger;
  services: Services;
  guards: Guards;
  limits: RateLimits;
}
