// Where a caption project's video comes from: the link of the page (or another one), an uploaded
// MP4/MOV/WebM with upload progress, or one of the person's recent projects.
import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { FileVideo, Link2, Loader2, Upload } from 'lucide-react';
import { type CaptionSource, SPOKEN_LANGUAGES, type SpokenLanguage } from '@shared/contracts/caption-studio';
import { formatDuration, formatFileSize } from '../../lib/format';
import { captionProjectsList } from '../../lib/api';
import { serverMessage } from '../../lib/api-error';
import { usePlatforms } from '../../hooks/use-platforms';
import { BUTTON as btn, FIELD } from './ui';
import { UPLOAD_ACCEPT, type UploadHandle, uploadVideo } from './upload-source';

export function SourcePicker(props: {
  url: string;
  busy: boolean;
  onSource: (s: CaptionSource, language?: SpokenLanguage, translate?: boolean) => void;
  onOpen: (projectId: string) => void;
}) {
  const [link, setLink] = useState(props.url);
  // The spoken language helps a multilingual Whisper model; unset, the engine detects it.
  const [language, setLanguage] = useState<SpokenLanguage | ''>('');
  // Whisper's translate task: English captions whatever is spoken (a multilingual model).
  const [translate, setTranslate] = useState(false);
  const onSource = (s: CaptionSource) => props.onSource(s, language || undefined, translate || undefined);
  const { example } = usePlatforms();
  const [upload, setUpload] = useState<{ name: string; sent: number; total: number } | null>(null);
  const [error, setError] = useState<string | undefined>();
  const handle = useRef<UploadHandle | null>(null);
  const recent = useQuery({ queryKey: ['/api/caption-projects'], queryFn: captionProjectsList, retry: false });

  async function pick(file: File | undefined) {
    if (!file) return;
    setError(undefined);
    setUpload({ name: file.name, sent: 0, total: file.size });
    const h = uploadVideo(file, (sent, total) => setUpload({ name: file.name, sent, total }));
    handle.current = h;
    try {
      const uploadId = await h.done;
      onSource({ kind: 'upload', uploadId });
    } catch (err) {
      setError(serverMessage(err) ?? (err instanceof Error ? err.message : 'The upload failed.'));
    } finally {
      handle.current = null;
      setUpload(null);
    }
  }

  const useLink = link.trim() || props.url.trim();
  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor="studio-link" className="sr-only">
          Video link for the caption studio
        </label>
        <input
          id="studio-link"
          type="url"
          placeholder={props.url || example}
          value={link}
          onChange={(e) => setLink(e.target.value)}
          className={`${FIELD} min-w-0 flex-1 px-3 py-2`}
        />
        <button
          type="button"
          disabled={props.busy || !!upload || !useLink}
          onClick={() => onSource({ kind: 'link', url: useLink })}
          className={`${btn} bg-violet-600 text-white hover:bg-violet-700`}
        >
          <Link2 className="h-4 w-4" aria-hidden />
          Edit captions of this link
        </button>
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        Spoken language
        <select
          data-testid="studio-language"
          value={language}
          onChange={(e) => setLanguage(e.target.value as SpokenLanguage | '')}
          className={`${FIELD} px-2 py-1`}
        >
          <option value="">Detect automatically</option>
          {Object.entries(SPOKEN_LANGUAGES).map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          data-testid="studio-translate"
          checked={translate}
          onChange={(e) => setTranslate(e.target.checked)}
        />
        English captions for a video in another language
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <label className={`${btn} cursor-pointer border border-violet-300 text-violet-800 hover:bg-violet-50`}>
          <Upload className="h-4 w-4" aria-hidden />
          Upload a video (MP4, MOV, WebM)
          <input
            type="file"
            accept={UPLOAD_ACCEPT}
            data-testid="studio-file"
            className="sr-only"
            disabled={props.busy || !!upload}
            onChange={(e) => {
              void pick(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
        {upload && (
          <button type="button" className={`${btn} border border-slate-300`} onClick={() => handle.current?.abort()}>
            Cancel upload
          </button>
        )}
      </div>
      {upload && (
        <div role="status" aria-live="polite" className="space-y-1 text-sm text-slate-700">
          <div className="flex items-center gap-2">
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            Uploading {upload.name}: {formatFileSize(upload.sent)} of {formatFileSize(upload.total)}
          </div>
          <progress className="h-2 w-full" max={upload.total || 1} value={upload.sent} aria-label="Upload progress" />
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {recent.data && recent.data.length > 0 && (
        <div>
          <h3 className="mb-1 text-xs font-semibold text-slate-600">Your caption projects</h3>
          <ul className="flex flex-wrap gap-2">
            {recent.data.slice(0, 8).map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  onClick={() => props.onOpen(p.id)}
                  className={`${btn} border border-slate-200 text-slate-700`}
                >
                  <FileVideo className="h-4 w-4" aria-hidden />
                  <span className="max-w-[12rem] truncate">{p.title || 'Untitled'}</span>
                  <span className="text-xs text-slate-500">{formatDuration(p.duration)}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
