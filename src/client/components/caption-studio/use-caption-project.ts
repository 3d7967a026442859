// One caption project in the editor: the local draft (lines and style) is what the screen shows;
// every change is saved as you type (debounced PUT with the revision it was based on). One save at a
// time; edits made meanwhile go in the next one. A 409 (another tab or browser saved first) loads
// the newer version and says so: nothing is overwritten silently.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CaptionLine, CaptionProject, CaptionStyle } from '@shared/contracts/caption-studio';
import { captionProjectGet, captionProjectSave } from '../../lib/api';
import { errorCode, serverMessage } from '../../lib/api-error';

const SAVE_DELAY_MS = 600;

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'error';

export function useCaptionProject(initial: CaptionProject, onConflict: (message: string) => void) {
  const [project, setProject] = useState(initial);
  const [lines, setLinesState] = useState<CaptionLine[]>(initial.lines);
  const [style, setStyleState] = useState<CaptionStyle>(initial.style);
  const [saveState, setSaveState] = useState<SaveState>('saved');
  const [saveError, setSaveError] = useState<string | undefined>();
  const draft = useRef({ lines: initial.lines, style: initial.style, revision: initial.revision, dirty: false });
  const inFlight = useRef(false);
  // Settles when the save in flight has ended (saveNow waits on it, not on a timer).
  const saving = useRef<Promise<void>>(Promise.resolve());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flushRef = useRef<() => Promise<void>>(async () => undefined);
  const schedule = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flushRef.current(), SAVE_DELAY_MS);
  }, []);

  const flush = useCallback(
    async (leaving = false) => {
      if (inFlight.current || !draft.current.dirty) return;
      inFlight.current = true;
      let ended = () => {};
      saving.current = new Promise<void>((r) => {
        ended = r;
      });
      draft.current.dirty = false;
      setSaveState('saving');
      const { lines: l, style: s, revision } = draft.current;
      try {
        const saved = await captionProjectSave(initial.id, { revision, lines: l, style: s }, leaving);
        draft.current.revision = saved.revision;
        setProject(saved);
        setSaveError(undefined);
        setSaveState(draft.current.dirty ? 'unsaved' : 'saved');
      } catch (err) {
        if (errorCode(err) === 'studio.stale_revision') {
          const latest = await captionProjectGet(initial.id).catch(() => null);
          if (latest) {
            draft.current = { lines: latest.lines, style: latest.style, revision: latest.revision, dirty: false };
            setProject(latest);
            setLinesState(latest.lines);
            setStyleState(latest.style);
            setSaveState('saved');
            onConflict('This project was changed in another tab or browser: showing the latest version.');
          }
        } else {
          draft.current.dirty = true;
          setSaveError(serverMessage(err) ?? 'Could not save. Your changes are kept here; retrying shortly.');
          setSaveState('error');
          timer.current = setTimeout(() => void flush(), SAVE_DELAY_MS * 5);
        }
      } finally {
        inFlight.current = false;
        ended();
        if (draft.current.dirty) schedule();
      }
    },
    [initial.id, onConflict, schedule],
  );

  flushRef.current = flush;

  const setLines = useCallback(
    (update: (prev: CaptionLine[]) => CaptionLine[]) => {
      const next = update(draft.current.lines);
      if (next === draft.current.lines) return;
      draft.current.lines = next;
      draft.current.dirty = true;
      setLinesState(next);
      setSaveState('unsaved');
      schedule();
    },
    [schedule],
  );

  const setStyle = useCallback(
    (patch: Partial<CaptionStyle>) => {
      draft.current.style = { ...draft.current.style, ...patch };
      draft.current.dirty = true;
      setStyleState(draft.current.style);
      setSaveState('unsaved');
      schedule();
    },
    [schedule],
  );

  /** Sends what is typed now and waits for it (before a render). */
  const saveNow = useCallback(async () => {
    clearTimeout(timer.current);
    for (let i = 0; i < 100 && (inFlight.current || draft.current.dirty); i++) {
      if (inFlight.current) await saving.current;
      else await flush();
    }
  }, [flush]);

  // Leaving the page or the project: what is typed is sent at once (kept alive past the page's end).
  useEffect(() => {
    const onHide = () => {
      if (draft.current.dirty) void flush(true);
    };
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      clearTimeout(timer.current);
      onHide();
    };
  }, [flush]);

  return { project, lines, style, setLines, setStyle, saveState, saveError, saveNow };
}
