// One target's card as it will look (issue 47): its text, editable, with the target's own counter
// and hashtag count (the rules of shared/repost-texts.ts, the same the server holds the text to),
// the title field where the target has one, what happens to the video, and once the kit is made
// the target's files, each on its own, with a Share button on a phone.
import { REPOST_TARGET_LIMITS, type RepostTarget } from '@shared/platform-limits';
import { fitsRules, hashtagsIn, lengthFor, titleFor } from '@shared/repost-texts';
import type { RepostCard } from '@shared/contracts/repost-kits';
import type { MediaJob } from '../../lib/api';
import { formatFileSize } from '../../lib/format';
import { ShareButton } from './share-button';

type Part = NonNullable<MediaJob['parts']>[number];

const VIDEO_NOTE: Record<RepostCard['video'], string> = {
  keep: 'The video as it is.',
  remux: 'The same video, its index moved first.',
  encode: 'Re-encoded to what this target takes.',
  refuse: '',
  unknown: 'The video as it is where this target takes it; re-encoded only if it must be.',
};

export function TargetCard(props: { card: RepostCard; text: string; onText: (text: string) => void; part?: Part }) {
  const { card, text, part } = props;
  const target = card.target as RepostTarget;
  const limits = REPOST_TARGET_LIMITS[target];
  const rules = limits.caption;
  const used = lengthFor(rules, text);
  const tags = hashtagsIn(text).length;
  const over = !fitsRules(rules, text) || tags > rules.hashtagLimit;
  const title = titleFor(target, text);
  return (
    <article
      data-testid={`card-${target}`}
      className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow ring-1 ring-slate-200"
    >
      <h3 className="text-base font-semibold text-slate-900">{limits.label}</h3>
      {title !== null && (
        <p className="rounded bg-slate-50 px-2 py-1 text-sm text-slate-800">
          <span className="font-medium">Title: </span>
          <span data-testid={`title-${target}`}>{title}</span>
        </p>
      )}
      <label className="text-sm font-medium text-slate-700" htmlFor={`text-${target}`}>
        Text
      </label>
      <textarea
        id={`text-${target}`}
        dir="auto"
        rows={6}
        value={text}
        onChange={(e) => props.onText(e.target.value)}
        className="rounded-lg border border-slate-300 p-2 text-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-200"
      />
      <p className={`text-xs ${over ? 'text-red-700' : 'text-slate-600'}`} data-testid={`count-${target}`}>
        {used.toLocaleString('en-US')} / {rules.characterLimit.toLocaleString('en-US')}{' '}
        {rules.count === 'graphemes' ? `characters (as ${limits.label} counts them)` : 'characters'} · {tags} /{' '}
        {rules.hashtagLimit} hashtags{over ? ' · the kit will shorten it to fit' : ''}
      </p>
      {card.video === 'refuse' ? (
        <p role="alert" className="rounded bg-amber-50 p-2 text-sm text-amber-900">
          {card.note}
        </p>
      ) : (
        <p className="text-xs text-slate-600">{VIDEO_NOTE[card.video]}</p>
      )}
      {part && (
        <div className="border-t border-slate-100 pt-2" data-testid={`files-${target}`}>
          {part.error && (
            <p role="alert" className="mb-2 rounded bg-amber-50 p-2 text-sm text-amber-900">
              {part.error.message}
            </p>
          )}
          <ul className="space-y-1 text-sm">
            {part.files.map((f) => (
              <li key={f.name}>
                <a className="text-violet-700 underline" href={f.url} download>
                  {f.name}
                </a>{' '}
                <span className="text-slate-500">({formatFileSize(f.size)})</span>
              </li>
            ))}
          </ul>
          <ShareButton part={part} label={limits.label} />
        </div>
      )}
    </article>
  );
}
