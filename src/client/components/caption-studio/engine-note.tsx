// Which engine wrote the project's words, and where the server's Whisper model stands: being
// prepared (its percent, read again every 2 s), ready (transcribe again with it), unavailable (why),
// or not fetched by this server (the one command that brings it). Issue 46.
import { useQuery } from '@tanstack/react-query';
import { type CaptionProject, SPOKEN_LANGUAGES, WHISPER_FETCH_COMMAND } from '@shared/contracts/caption-studio';
import { whisperModelStatus } from '../../lib/api';
import { BUTTON } from './ui';

const ENGINE_TEXT = (spoken: string) => ({
  captions: "Words from the video's own captions.",
  api: `Words by the transcription service (${spoken}): check before publishing.`,
  whisper: `Words by Whisper on this server (${spoken}): check before publishing.`,
  offline: 'Words by the built-in recogniser (English only, rough): check every line.',
});

function WhisperState({ onTranscribeAgain }: { onTranscribeAgain?: () => void }) {
  const status = useQuery({
    queryKey: ['/api/caption-studio/whisper'],
    queryFn: whisperModelStatus,
    refetchInterval: (q) => (q.state.data?.state === 'preparing' ? 2000 : false),
    retry: false,
  });
  const st = status.data;
  if (!st) return null;
  return (
    <span data-testid="whisper-state" data-state={st.state}>
      {' '}
      {st.state === 'preparing' && <>Better captions are being prepared: {st.percent} %.</>}
      {st.state === 'unavailable' && <>Whisper is not available on this server: {st.reason}.</>}
      {st.state === 'off' && (
        <>
          For Whisper-quality captions in many languages, the server's administrator runs{' '}
          <code className="rounded bg-slate-100 px-1">{WHISPER_FETCH_COMMAND}</code> once.
        </>
      )}
      {st.state === 'ready' && onTranscribeAgain && (
        <>
          Whisper is ready on this server.{' '}
          <button
            type="button"
            onClick={onTranscribeAgain}
            className={`${BUTTON} border border-violet-300 px-2 py-0.5 text-xs text-violet-800 hover:bg-violet-50`}
          >
            Transcribe again with Whisper
          </button>
        </>
      )}
    </span>
  );
}

export function EngineNote({
  engine,
  language,
  onTranscribeAgain,
}: Pick<CaptionProject, 'engine' | 'language'> & { onTranscribeAgain?: () => void }) {
  const spoken = SPOKEN_LANGUAGES[language as keyof typeof SPOKEN_LANGUAGES] ?? language;
  return (
    <p data-testid="studio-engine" data-engine={engine} className="text-xs text-slate-600">
      {ENGINE_TEXT(spoken)[engine]}
      {(engine === 'offline' || engine === 'captions') && <WhisperState onTranscribeAgain={onTranscribeAgain} />}
    </p>
  );
}
