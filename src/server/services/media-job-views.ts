// How a media job looks to the people who asked for it: its state, where it waits, its error as it
// was thrown on whichever node ran it, and once done its stored file(s) as signed links.
import type { JobStatus } from '../adapters/jobs/job-queue.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import type { MediaJobView } from '../../shared/contracts/media-jobs.js';
import { type AppError, fail, revive } from '../errors.js';
import type { MediaResultsService } from './media-results.service.js';
import type { StoredPart } from './media-jobs.types.js';

export const interrupted = () => fail('media.interrupted');

/** The error a job ended with, as it was thrown on whichever node ran it (a worker lost: interrupted). */
export const errorFrom = (output: Record<string, unknown> | null): AppError =>
  revive((output?.error ?? output) as Parameters<typeof revive>[0]) ?? interrupted();

export function createJobViews(results: MediaResultsService) {
  /** A done job's stored file as a signed link (what the tool's own answer would give). */
  async function resultOf(s: JobStatus | null): Promise<Pick<MediaJobView, 'result' | 'parts'>> {
    const row = s ? await results.find(String(s.data.key)) : undefined;
    return row ? describe(row) : {};
  }

  /** A stored result as a done job shows it: its signed link and, for a result of several files, its parts. */
  async function describe(row: MediaResult): Promise<Pick<MediaJobView, 'result' | 'parts'>> {
    const result = { url: results.link(row), size: String(row.size), expiresAt: row.expiresAt.toISOString() };
    const parts = (row.meta as { parts?: StoredPart[] } | null)?.parts;
    return Array.isArray(parts) ? { result, parts: await Promise.all(parts.map(partView)) } : { result };
  }

  /** A part of a result made of several files: each file kept under its own key, linked on its own. */
  async function partView(part: StoredPart): Promise<NonNullable<MediaJobView['parts']>[number]> {
    const files = await Promise.all(
      part.files.map(async (f) => {
        const row = await results.find(f.key);
        return row ? { name: f.name, url: results.link(row), size: String(row.size) } : null;
      }),
    );
    return { name: part.name, files: files.filter((f) => f !== null), ...(part.error ? { error: part.error } : {}) };
  }

  function view(id: string, s: JobStatus | null): MediaJobView {
    if (!s) throw fail('media.job_not_found');
    if (s.state === 'created' || s.state === 'retry')
      return { id, state: 'queued', ...(s.position ? { position: s.position } : {}) };
    if (s.state === 'active') {
      const p = Number(s.data.progress);
      return { id, state: 'running', ...(Number.isFinite(p) && s.data.progress !== undefined ? { progress: p } : {}) };
    }
    if (s.state === 'completed' && !s.output?.error) return { id, state: 'done' };
    const e = s.state === 'cancelled' ? interrupted() : errorFrom(s.output);
    return {
      id,
      state: 'failed',
      error: { code: e.code, message: e.message, ...(e.params ? { params: e.params } : {}) },
    };
  }

  return { resultOf, describe, view };
}
