// First-party observations: one row per successful video lookup, recorded in the background so
// the lookup is never slowed down or failed by it (errors are logged, never thrown).
import type { Logger } from 'pino';
import type { TrendsRepository } from '../db/repositories/trends.repository.js';
import type { FetchedVideo, Platform } from '../platforms/platform.js';

export function createObservationRecorder(deps: { repo: TrendsRepository; logger: Logger; now?: () => Date }) {
  const pending = new Set<Promise<void>>();
  /** What the video's platform observes of it (Platform.observe; a platform without it records nothing). */
  function record(platform: Platform, video: FetchedVideo): void {
    let observation: ReturnType<NonNullable<Platform['observe']>> | undefined;
    try {
      observation = platform.observe?.(video);
    } catch (err) {
      deps.logger.warn({ err }, 'could not read a video for trends');
      return;
    }
    if (!observation) return;
    const p = deps.repo
      .recordObservation({ ...observation, platform: platform.id, observedAt: deps.now?.() ?? new Date() })
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
