// The composition root: repositories, adapters and services built once from configuration by the
// wiring modules (wiring/), and handed to the routes as the services they may call
// (routes/route-context.ts). Tests build the same context with their own database and fakes.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { LlmClient } from './adapters/llm/openai-chat.adapter.js';
import { createHealthService } from './services/health.service.js';
import { createPlatformListService } from './services/platform-list.service.js';
import type { Services } from './services/services.js';
import { createRepositories } from './wiring/repositories.js';
import { createAdapters, type AdapterOverrides } from './wiring/adapters.js';
import { createMediaServices, type MediaOverrides } from './wiring/media.js';
import { createAccountServices, createContentServices } from './wiring/accounts-and-content.js';
import { createBackground } from './wiring/background.js';
import { createMediaWithContentServices } from './wiring/media-with-content.js';

export interface ContextOverrides extends AdapterOverrides, MediaOverrides {
  /** Hashtags and captions: the language model client (null = built-in engine only). */
  llm?: LlmClient | null;
}

export function createContext(config: Config, database: Database, logger: Logger, overrides: ContextOverrides = {}) {
  const repos = createRepositories(database.db);
  const adapters = createAdapters(config, database, repos, logger, overrides);
  const parts = { repos, adapters, logger };
  const media = createMediaServices(config, { ...parts, database }, overrides);
  const accounts = createAccountServices(config, parts);
  const content = createContentServices(config, parts, overrides);
  const services: Services = {
    health: createHealthService(database),
    platforms: createPlatformListService(adapters.platforms),
    ...accounts.services,
    ...media.services,
    ...content.services,
    ...createMediaWithContentServices({ repos, adapters, media, content }),
  };
  if (adapters.billing.note) logger.warn(adapters.billing.note);
  media.videoObservers.push((v) => services.trendsObservations.record(adapters.platforms.get(v.ref.platform), v));
  const { schedules, background } = createBackground(config, {
    database,
    repos,
    adapters,
    services,
    media,
    textWork: content.textWork,
    logger,
  });
  return {
    config,
    database,
    db: database.db,
    logger,
    repos,
    adapters,
    platforms: adapters.platforms,
    services,
    guards: accounts.guards,
    limits: accounts.limits,
    videoObservers: media.videoObservers,
    schedules,
    /** The job queue (tests watch what it reads). */
    jobQueue: adapters.jobQueue,
    background,
  };
}

export type AppContext = ReturnType<typeof createContext>;
