// The caption studio on /auto-captions (Pro's "advanced captions", decision 0092): pick a source, the
// server transcribes it into a caption project, then the editor. The open project's id is kept in
// the address (?project=…), so a reload or another browser opens the same saved project.
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import type { CaptionSource, SpokenLanguage } from '@shared/contracts/caption-studio';
import { toast } from '../../hooks/use-toast';
import { progressLabel, progressNote, useMediaJob } from '../../hooks/use-media-job';
import { captionProjectCreate, captionProjectGet } from '../../lib/api';
import { serverMessage } from '../../lib/api-error';
import { SourcePicker } from './source-picker';
import { StudioEditor } from './studio-editor';

const readProjectParam = () => new URLSearchParams(window.location.search).get('project');

function writeProjectParam(id: string | null) {
  const u = new URL(window.location.href);
  if (id) u.searchParams.set('project', id);
  else u.searchParams.delete('project');
  window.history.replaceState(window.history.state, '', u);
}

export default function CaptionStudio({ url }: { url: string }) {
  const [projectId, setProjectId] = useState<string | null>(readProjectParam);
  // The server transcribes the source into a project: a media job when it takes a while.
  const transcribe = useMediaJob(
    (o: { source: CaptionSource; language?: SpokenLanguage; listen?: boolean; translate?: boolean }) =>
      captionProjectCreate(o),
  );
  const qc = useQueryClient();
  useEffect(() => writeProjectParam(projectId), [projectId]);

  const project = useQuery({
    queryKey: ['/api/caption-projects', projectId],
    queryFn: () => captionProjectGet(projectId as string),
    enabled: !!projectId,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const create = useMutation({
    mutationFn: transcribe.run,
    onSuccess: (p) => {
      qc.setQueryData(['/api/caption-projects', p.id], p);
      void qc.invalidateQueries({ queryKey: ['/api/caption-projects'], exact: true });
      setProjectId(p.id);
    },
    onError: (err) =>
      toast({
        title: 'Could not open the caption studio',
        description: serverMessage(err) ?? 'Please try again.',
        variant: 'destructive',
      }),
  });

  if (projectId && project.data) {
    const { source } = project.data;
    const again = () => {
      setProjectId(null);
      create.mutate({ source, listen: true });
    };
    return (
      <StudioEditor
        key={project.data.id}
        initial={project.data}
        onClose={() => setProjectId(null)}
        onTranscribeAgain={again}
      />
    );
  }
  return (
    <section
      aria-labelledby="studio-start-heading"
      className="space-y-3 rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="studio-start-heading" className="inline-flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Sparkles className="h-5 w-5 text-violet-600" aria-hidden />
        Caption studio
      </h2>
      <p className="text-sm text-slate-600">
        Fix words, pick a caption style and burn the captions into the video, word by word.
      </p>
      {projectId && project.isError && (
        <p role="alert" className="text-sm text-red-700">
          {serverMessage(project.error) ?? 'This caption project could not be opened.'}
        </p>
      )}
      <SourcePicker
        url={url}
        busy={create.isPending}
        onSource={(source, language, translate) => create.mutate({ source, language, translate })}
        onOpen={setProjectId}
      />
      {create.isPending && (
        <p role="status" aria-live="polite" className="text-sm text-slate-700">
          {progressLabel(transcribe.status, 'Transcribing the video…')} {progressNote(transcribe.status) ?? ''}
        </p>
      )}
    </section>
  );
}
