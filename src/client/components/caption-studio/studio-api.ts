// The caption studio's calls to the API: projects (create, read, autosave with revision), renders
// followed through the media job (percent, cancel) and export links. Errors keep apiRequest's shape
// ('<status>: <body>') so serverMessage() reads them.
import type {
  CaptionProject,
  CaptionProjectSummary,
  CaptionRenderResult,
  CaptionSource,
  SaveCaptionProjectRequest,
} from '@shared/contracts/caption-studio';
import { type MediaJobView, RESPOND_ASYNC } from '@shared/contracts/media-jobs';
import { apiRequest } from '../../lib/query-client';
import { type JobProgress, requestMediaResult } from '../../lib/media-job';

const POLL_MS = 700;

async function failed(res: Response): Promise<Error> {
  return new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
}

/** Opens a project: the server transcribes the source (a media job when it takes a while). */
export function createProject(source: CaptionSource, onProgress: (p: JobProgress) => void): Promise<CaptionProject> {
  return requestMediaResult<CaptionProject>('/api/caption-projects', { source }, onProgress);
}

export async function getProject(id: string): Promise<CaptionProject> {
  return (await apiRequest('GET', `/api/caption-projects/${encodeURIComponent(id)}`)).json();
}

export async function listProjects(): Promise<CaptionProjectSummary[]> {
  return (await apiRequest('GET', '/api/caption-projects')).json();
}

/**
 * Autosave; a 409 means another tab or browser saved first (its error carries the status).
 * `keepalive` lets the last save of a page being closed or reloaded reach the server.
 */
export async function saveProject(
  id: string,
  body: SaveCaptionProjectRequest,
  keepalive = false,
): Promise<CaptionProject> {
  const json = JSON.stringify(body);
  const res = await fetch(`/api/caption-projects/${encodeURIComponent(id)}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: json,
    credentials: 'include',
    // Browsers refuse keepalive bodies over 64 KB; a long project's last save then goes as usual.
    keepalive: keepalive && json.length < 60_000,
  });
  if (!res.ok) throw await failed(res);
  return res.json();
}

export const mediaUrl = (id: string) => `/api/caption-projects/${encodeURIComponent(id)}/media`;
export const exportUrl = (id: string, format: string) =>
  `/api/caption-projects/${encodeURIComponent(id)}/export/${format}`;

export type RenderProgress = { state: MediaJobView['state']; position?: number; percent?: number } | null;

/**
 * Starts the burn-in and follows its job: percent while it runs, `signal` cancels it on the server
 * too. The finished render is asked for once more (the server keeps it) and comes back as a signed link.
 */
export async function renderProject(
  id: string,
  onProgress: (p: RenderProgress) => void,
  signal: AbortSignal,
): Promise<CaptionRenderResult> {
  const url = `/api/caption-projects/${encodeURIComponent(id)}/render`;
  let jobId: string | undefined;
  const cancel = () => {
    if (jobId) void fetch(`/api/media-jobs/${jobId}`, { method: 'DELETE', credentials: 'include' });
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (let round = 0; round < 3; round++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { Prefer: RESPOND_ASYNC },
        credentials: 'include',
        signal,
      });
      if (!res.ok) throw await failed(res);
      if (res.status !== 202) return (await res.json()) as CaptionRenderResult;
      let job = (await res.json()) as MediaJobView;
      jobId = job.id;
      while (job.state === 'queued' || job.state === 'running') {
        onProgress({ state: job.state, position: job.position, percent: job.progress });
        await new Promise((r) => setTimeout(r, POLL_MS));
        signal.throwIfAborted();
        const r = await fetch(`/api/media-jobs/${job.id}`, { credentials: 'include', signal });
        if (!r.ok) throw await failed(r);
        job = (await r.json()) as MediaJobView;
      }
      if (job.state === 'failed') throw new Error(`500: ${JSON.stringify(job.error ?? {})}`);
      onProgress({ state: 'done', percent: 100 });
    }
    throw new Error('500: {"message":"The render did not arrive. Please try again."}');
  } finally {
    signal.removeEventListener('abort', cancel);
    onProgress(null);
  }
}
