// The transcript as editable lines. Each word is a text field (Tab walks through them); words the
// recogniser was unsure of are marked. Keyboard: Alt+S splits the line before the word, Alt+M merges
// the line with the next, Alt+← / Alt+→ move the line 0.1 s, Alt+P plays from the line.
import { memo, useEffect, useState } from 'react';
import type { CaptionLine, CaptionWord } from '@shared/contracts/caption-studio';
import { STUDIO_LIMITS } from '@shared/contracts/caption-studio';
import { isUnsure, lineEnd, lineStart, mergeWithNext, nudgeLine, setWordText, splitLine } from './line-edits';

const NUDGE = 0.1;
const WORD =
  'min-w-0 rounded border px-1 py-0.5 text-slate-900 outline-none focus:border-violet-500 focus:ring-2 focus:ring-violet-200';

export const clock = (s: number) => {
  const t = Math.max(0, s);
  return `${Math.floor(t / 60)}:${(t % 60).toFixed(1).padStart(4, '0')}`;
};

type Edit = (update: (prev: CaptionLine[]) => CaptionLine[]) => void;

function WordField(props: {
  word: CaptionWord;
  label: string;
  onText: (text: string) => void;
  onKey: (e: React.KeyboardEvent<HTMLInputElement>) => void;
}) {
  const [value, setValue] = useState(props.word.text);
  useEffect(() => setValue(props.word.text), [props.word.text]);
  const unsure = isUnsure(props.word);
  return (
    <input
      value={value}
      aria-label={props.label}
      aria-describedby={unsure ? 'studio-unsure-note' : undefined}
      data-unsure={unsure || undefined}
      maxLength={STUDIO_LIMITS.wordChars * 2}
      style={{ width: `calc(${Math.max(2, Array.from(value).length)}ch + 0.75rem)` }}
      onChange={(e) => {
        const v = e.target.value;
        setValue(v);
        // A plain word is saved as it is typed; spaces (a split) and an empty field wait for the blur.
        if (v.trim() && !/\s/.test(v.trim())) props.onText(v.trim());
      }}
      onBlur={() => {
        if (value !== props.word.text) props.onText(value);
      }}
      onKeyDown={props.onKey}
      className={`${WORD} ${
        unsure
          ? 'border-dashed border-amber-500 bg-amber-50'
          : 'border-transparent bg-transparent hover:border-slate-300'
      }`}
    />
  );
}

const LineRow = memo(function LineRow(props: {
  line: CaptionLine;
  index: number;
  active: boolean;
  isLast: boolean;
  edit: Edit;
  seek: (t: number) => void;
}) {
  const { line, index, edit } = props;
  function onKey(e: React.KeyboardEvent<HTMLInputElement>, wordIndex: number) {
    if (!e.altKey) return;
    const key = e.key.toLowerCase();
    const act: Record<string, () => void> = {
      s: () => edit((ls) => splitLine(ls, ls.indexOf(line), wordIndex)),
      m: () => edit((ls) => mergeWithNext(ls, ls.indexOf(line))),
      arrowleft: () => edit((ls) => nudgeLine(ls, ls.indexOf(line), -NUDGE)),
      arrowright: () => edit((ls) => nudgeLine(ls, ls.indexOf(line), NUDGE)),
      p: () => props.seek(lineStart(line)),
    };
    if (act[key]) {
      e.preventDefault();
      act[key]();
    }
  }
  const btn =
    'rounded px-1.5 py-0.5 text-xs text-slate-600 hover:bg-slate-100 focus:outline-none focus:ring-2 focus:ring-violet-300';
  return (
    <li
      data-testid="studio-line"
      aria-current={props.active || undefined}
      className={`rounded-lg px-2 py-1.5 ${props.active ? 'bg-violet-50 ring-1 ring-violet-200' : ''}`}
    >
      <div className="flex flex-wrap items-center gap-1">
        <button
          type="button"
          className={`${btn} font-mono text-violet-700`}
          onClick={() => props.seek(lineStart(line))}
        >
          <span className="sr-only">Play line {index + 1} from </span>
          {clock(lineStart(line))}–{clock(lineEnd(line))}
        </button>
        {line.words.map((w, wi) => (
          <WordField
            // biome-ignore lint/suspicious/noArrayIndexKey: a word's place in its line is its identity here
            key={wi}
            word={w}
            label={`Line ${index + 1}, word ${wi + 1}`}
            onText={(text) => edit((ls) => setWordText(ls, ls.indexOf(line), wi, text))}
            onKey={(e) => onKey(e, wi)}
          />
        ))}
      </div>
      <div className="mt-1 flex flex-wrap gap-1">
        <button type="button" className={btn} onClick={() => edit((ls) => nudgeLine(ls, ls.indexOf(line), -NUDGE))}>
          −0.1 s<span className="sr-only"> (line {index + 1} earlier)</span>
        </button>
        <button type="button" className={btn} onClick={() => edit((ls) => nudgeLine(ls, ls.indexOf(line), NUDGE))}>
          +0.1 s<span className="sr-only"> (line {index + 1} later)</span>
        </button>
        {line.words.length > 1 && (
          <button
            type="button"
            className={btn}
            onClick={() => edit((ls) => splitLine(ls, ls.indexOf(line), Math.ceil(line.words.length / 2)))}
          >
            Split<span className="sr-only"> line {index + 1}</span>
          </button>
        )}
        {!props.isLast && (
          <button type="button" className={btn} onClick={() => edit((ls) => mergeWithNext(ls, ls.indexOf(line)))}>
            Merge with next<span className="sr-only"> (line {index + 1})</span>
          </button>
        )}
      </div>
    </li>
  );
});

export function TranscriptEditor(props: { lines: CaptionLine[]; edit: Edit; time: number; seek: (t: number) => void }) {
  const unsure = props.lines.reduce((n, l) => n + l.words.filter(isUnsure).length, 0);
  return (
    <section aria-labelledby="studio-transcript-heading" className="space-y-2">
      <h3 id="studio-transcript-heading" className="text-sm font-semibold text-slate-700">
        Transcript
      </h3>
      <p id="studio-unsure-note" className="text-xs text-slate-500">
        {unsure > 0
          ? `${unsure === 1 ? '1 word' : `${unsure} words`} the recogniser was unsure of: dashed outline.`
          : 'Click a word to fix it.'}{' '}
        Keys in a word: Alt+S split here, Alt+M merge with next line, Alt+←/→ move the line 0.1 s, Alt+P play it.
      </p>
      {props.lines.length === 0 ? (
        <p className="text-sm text-slate-600">No speech was found in this video.</p>
      ) : (
        <ol
          data-testid="studio-lines"
          className="max-h-[28rem] space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-1"
        >
          {props.lines.map((line, i) => (
            <LineRow
              key={line.id}
              line={line}
              index={i}
              isLast={i === props.lines.length - 1}
              active={props.time >= lineStart(line) && props.time < lineEnd(line)}
              edit={props.edit}
              seek={props.seek}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
