// What each Pro tool does and a static sample of its result, for the Pro upsell (pro-upsell.tsx).
import type { UpsellInfo } from './pro-upsell';

const chip = 'mr-1.5 inline-block rounded-full bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-800';

export const HASHTAGS_UPSELL: UpsellInfo = {
  what: 'Give it your video title (and niche) and get trending, niche and mixed hashtag sets, ready to copy.',
  sample: (
    <p>
      <span className="mb-1 block text-xs text-slate-600">For "Easy 15-minute garlic butter pasta":</span>
      {['#pastarecipe', '#easydinner', '#foodtok', '#15minutemeals', '#garlicbutter'].map((t) => (
        <span key={t} className={chip}>
          {t}
        </span>
      ))}
    </p>
  ),
};

export const AUDIO_UPSELL: UpsellInfo = {
  what: "Paste a video link and get the video's sound as an MP3 file (192 kbps) for remixes and edits.",
  sample: <p>garlic-butter-pasta.mp3 · MP3 Format · 0:42 · 1.0 MB</p>,
};

export const BATCH_UPSELL: UpsellInfo = {
  what: 'Paste up to 50 video links at once, watch each one download, and save them all as one ZIP.',
  sample: <p>batch.zip · 12 videos · no watermark</p>,
};

export const CAPTIONS_UPSELL: UpsellInfo = {
  what: 'Paste a video link and get its speech as timestamped captions and a full transcript to copy or download.',
  sample: (
    <p className="whitespace-pre-line font-mono text-xs">
      {"0:00  Today we're making garlic butter pasta\n0:04  and it only takes fifteen minutes."}
    </p>
  ),
};

export const TRENDS_UPSELL: UpsellInfo = {
  what: 'See which hashtags, songs, creators and videos are rising, with news from dated sources, refreshed every few minutes.',
  sample: (
    <p>
      <span className={chip}>#booktok</span> Educational · 2.1M views · +38% this week
    </p>
  ),
};

export const TRENDING_VIDEOS_UPSELL: UpsellInfo = {
  what: 'A shared list of trending videos curated by Pro creators: save what inspires you, boost what works.',
  sample: <p>"5 hooks that stop the scroll" · @creator · 1.2M views · trending score 14</p>,
};
