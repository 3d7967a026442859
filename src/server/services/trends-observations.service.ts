// First-party observations: one row per successful video lookup, recorded in the background so
// the lookup is never slowed down or failed by it (errors are logged, never thrown).
import type { Logger } from 'pino';
import type { TrendsRepository } from '../db/repositories/trends.repository.js';
import { observationFromItemStruct } from '../platforms/tiktok/observation-mapper.js';

export function createObservationRecorder(deps: { repo: TrendsRepository; logger: Logger; now?: () => Date }) {
  const pending = new Set<Promise<void>>();
  function record(itemStruct: Record<string, unknown>): void {
    let observation: ReturnType<typeof observationFromItemStruct>;
    try {
      observation = observationFromItemStruct(itemStruct);
    } catch (err) {
      deps.logger.warn({ err }, 'could not read a video for trends');
      return;
    }
    if (!observation) return;
    const p = deps.repo
      .recordObservation({ ...observation, observedAt: deps.now?.() ?? new Date() })
      .catch((err) => deps.logger.warn({ err, videoId: observation.videoId }, 'could not record a trends observation'))
      .finally(() => pending.delete(p));
    pending.add(p);
  }
  return {
    record,
    /** Resolves when every recording started so far has finished (tests, shutdown). */
    async flush(): Promise<void> {
      await Promise.all([...pending]);
    },
  };
}

export type ObservationRecorder = ReturnType<typeof createObservationRecorder>;
