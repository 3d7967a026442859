// Caption look: preset, position, font, size, colours and words per line. Every control is a
// labelled native field, so it works from the keyboard and with a screen reader as it is.
import { CAPTION_FONTS, CAPTION_POSITIONS, CAPTION_PRESETS, type CaptionStyle } from '@shared/contracts/caption-studio';
import { FIELD } from './ui';

const PRESET_LABEL: Record<CaptionStyle['preset'], string> = {
  clean: 'Clean (white, outline)',
  karaoke: 'Karaoke (active word highlighted)',
  pop: 'Pop (1–3 words at a time)',
  boxed: 'Boxed (background box)',
  bold: 'Bold (large capitals)',
};
const POSITION_LABEL: Record<CaptionStyle['position'], string> = {
  top: 'Top',
  middle: 'Middle',
  bottom: 'Bottom (above the description)',
};
const COLORS: { key: 'textColor' | 'highlightColor' | 'outlineColor' | 'boxColor'; label: string }[] = [
  { key: 'textColor', label: 'Text' },
  { key: 'highlightColor', label: 'Highlight' },
  { key: 'outlineColor', label: 'Outline' },
  { key: 'boxColor', label: 'Box' },
];

const field = `${FIELD} w-full`;
const label = 'mb-1 block text-xs font-semibold text-slate-700';

export function StyleControls({
  style,
  onChange,
}: {
  style: CaptionStyle;
  onChange: (p: Partial<CaptionStyle>) => void;
}) {
  return (
    <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      <legend className="mb-2 text-sm font-semibold text-slate-700">Style</legend>
      <div className="col-span-2 sm:col-span-1">
        <label htmlFor="studio-preset" className={label}>
          Preset
        </label>
        <select
          id="studio-preset"
          className={field}
          value={style.preset}
          onChange={(e) => onChange({ preset: e.target.value as CaptionStyle['preset'] })}
        >
          {CAPTION_PRESETS.map((p) => (
            <option key={p} value={p}>
              {PRESET_LABEL[p]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="studio-position" className={label}>
          Position
        </label>
        <select
          id="studio-position"
          className={field}
          value={style.position}
          onChange={(e) => onChange({ position: e.target.value as CaptionStyle['position'] })}
        >
          {CAPTION_POSITIONS.map((p) => (
            <option key={p} value={p}>
              {POSITION_LABEL[p]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="studio-font" className={label}>
          Font
        </label>
        <select
          id="studio-font"
          className={field}
          value={style.font}
          onChange={(e) => onChange({ font: e.target.value as CaptionStyle['font'] })}
        >
          {CAPTION_FONTS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="studio-size" className={label}>
          Size: {style.size}
        </label>
        <input
          id="studio-size"
          type="range"
          min={24}
          max={160}
          step={2}
          value={style.size}
          onChange={(e) => onChange({ size: Number(e.target.value) })}
          className="w-full accent-violet-600"
        />
      </div>
      <div>
        <label htmlFor="studio-words" className={label}>
          Words per line
        </label>
        <input
          id="studio-words"
          type="number"
          min={1}
          max={12}
          value={style.wordsPerLine}
          onChange={(e) => {
            const n = Math.round(Number(e.target.value));
            if (n >= 1 && n <= 12) onChange({ wordsPerLine: n });
          }}
          className={field}
        />
      </div>
      <div className="col-span-2 flex flex-wrap gap-3 sm:col-span-3">
        {COLORS.map((c) => (
          <label key={c.key} className="flex items-center gap-1.5 text-xs font-semibold text-slate-700">
            <input
              type="color"
              value={style[c.key]}
              onChange={(e) => onChange({ [c.key]: e.target.value })}
              className="h-8 w-10 cursor-pointer rounded border border-slate-300"
            />
            {c.label} colour
          </label>
        ))}
      </div>
    </fieldset>
  );
}
