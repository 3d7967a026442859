// One open caption project: preview (JASSUB drawing the project's ASS), transcript, style, render.
import { useCallback, useMemo, useRef, useState } from 'react';
import { Check, CloudOff, Loader2 } from 'lucide-react';
import { buildAss } from '@shared/caption-ass';
import type { CaptionProject } from '@shared/contracts/caption-studio';
import { toast } from '../../hooks/use-toast';
import { CaptionPreview } from './caption-preview';
import { EngineNote } from './engine-note';
import { RenderPanel } from './render-panel';
import { mediaUrl } from './studio-api';
import { StyleControls } from './style-controls';
import { TranscriptEditor } from './transcript-editor';
import { type SaveState, useCaptionProject } from './use-caption-project';

function SaveStatus({ state, error }: { state: SaveState; error?: string }) {
  const text = { saved: 'All changes saved', unsaved: 'Saving soon…', saving: 'Saving…', error: error ?? 'Not saved' }[
    state
  ];
  const Icon = state === 'saved' ? Check : state === 'error' ? CloudOff : Loader2;
  return (
    <p
      data-testid="studio-save-state"
      data-state={state}
      role="status"
      className={`inline-flex items-center gap-1 text-xs ${state === 'error' ? 'text-red-700' : 'text-slate-500'}`}
    >
      <Icon className={`h-3.5 w-3.5 ${state === 'saving' || state === 'unsaved' ? 'animate-spin' : ''}`} aria-hidden />
      {text}
    </p>
  );
}

export function StudioEditor({
  initial,
  onClose,
  onTranscribeAgain,
}: {
  initial: CaptionProject;
  onClose: () => void;
  /** A new project from the same source, listened to by Whisper (not the platform's captions). */
  onTranscribeAgain?: () => void;
}) {
  const onConflict = useCallback(
    (message: string) => toast({ title: 'Updated elsewhere', description: message, variant: 'destructive' }),
    [],
  );
  const { project, lines, style, setLines, setStyle, saveState, saveError, saveNow } = useCaptionProject(
    initial,
    onConflict,
  );
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [time, setTime] = useState(0);
  const ass = useMemo(
    () => buildAss({ width: project.width, height: project.height, title: project.title, lines, style }),
    [project.width, project.height, project.title, lines, style],
  );
  const seek = useCallback((t: number) => {
    const v = videoRef.current;
    if (!v) return;
    v.currentTime = t;
    void v.play().catch(() => undefined);
  }, []);

  return (
    <section
      data-testid="caption-studio"
      aria-labelledby="studio-heading"
      className="space-y-4 rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <h2 id="studio-heading" className="break-words text-lg font-semibold text-slate-900">
            {project.title || 'Caption studio'}
          </h2>
          <SaveStatus state={saveState} error={saveError} />
          <EngineNote engine={project.engine} language={project.language} onTranscribeAgain={onTranscribeAgain} />
        </div>
        <button
          type="button"
          onClick={onClose}
          className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50"
        >
          Close project
        </button>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <CaptionPreview
          src={mediaUrl(project.id)}
          ass={ass}
          width={project.width}
          height={project.height}
          videoRef={videoRef}
          onTime={setTime}
        />
        <div className="space-y-4">
          <TranscriptEditor lines={lines} edit={setLines} time={time} seek={seek} />
          <StyleControls style={style} onChange={setStyle} />
        </div>
      </div>
      <RenderPanel projectId={project.id} flush={saveNow} />
    </section>
  );
}
