// `/api/health`: the server answers and its database does (one round trip).
import type { Database } from '../db/client.js';

export function createHealthService(database: Pick<Database, 'ping'>) {
  return {
    /** Rejects when the database does not answer. */
    ping: () => database.ping(),
  };
}
export type HealthService = ReturnType<typeof createHealthService>;
