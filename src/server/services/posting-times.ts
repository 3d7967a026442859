// Best posting times: general guidance from the published studies in docs/sources.md
// 'Caption limits and posting times', never per-account data. Where our sources give no hours, we say so instead.
import type { ContentPlatform } from '../../shared/contracts/content.js';

export interface PostingGuidance {
  times: string[];
  source: string | null;
}

export const POSTING_TIMES: Record<ContentPlatform, PostingGuidance> = {
  tiktok: {
    // Sprout Social 2024: >2B engagements across ~400k profiles; Wed and Thu best, Sunday worst.
    times: ['Tuesday 4–6 pm', 'Wednesday 9–11 am, 12 pm and 2–6 pm', 'Thursday 9–11 am and 2–6 pm', 'Friday 4–6 pm'],
    source:
      "Sprout Social's 2024 study (over 2 billion engagements, about 400k profiles; Wednesday and Thursday best, Sunday worst)",
  },
  instagram: {
    times: ['No study hours on file: check Insights for when your followers are most active'],
    source: null,
  },
  youtube: {
    times: ['No study hours on file: check YouTube Studio for when your viewers are on YouTube'],
    source: null,
  },
  linkedin: {
    times: ['No study hours on file: check your post analytics for when your network engages'],
    source: null,
  },
};

export function postingTimesTip(platform: ContentPlatform, label: string): string {
  const g = POSTING_TIMES[platform];
  return g.source
    ? `Posting times are general guidance from ${g.source}, in your audience's local time; your own analytics beat any global table.`
    : `Posting times: the studies we rely on give no reliable hours for ${label}, so use your own analytics.`;
}
