// Caption and hashtag limits per platform, in one table with their sources (named in each entry).
// The content optimiser and the hashtag tips read
// only this table, so a platform change is a one-line edit here.
import type { ContentPlatform } from './contracts/content.js';

export interface PlatformLimits {
  label: string;
  /** Hard caption limit we never exceed (counted in UTF-16 code units, the strictest count). */
  characterLimit: number;
  /** Characters visible before "more": the hook must fit in front of it. */
  visibleFold: number;
  /** Hashtags we place in the caption (never more than the platform's own cap). */
  hashtagLimit: number;
  sources: string[];
}

export const PLATFORM_LIMITS: Record<ContentPlatform, PlatformLimits> = {
  tiktok: {
    label: 'TikTok',
    // 2,200 is what the Content Posting API enforces; the app allows ~4,000 for some accounts.
    characterLimit: 2200,
    // About 55-150 characters show before "more"; we aim at the low end.
    visibleFold: 55,
    // 5 hashtags per post since Aug-Sep 2025.
    hashtagLimit: 5,
    sources: [
      'theleap.co (2,200 since Sep 2022)',
      'socialk.it, napoleoncat (API enforces 2,200)',
      'netinfluencer citing Social Media Today; heylist 2025-09-11 (5 hashtags)',
    ],
  },
  instagram: {
    label: 'Instagram',
    characterLimit: 2200,
    visibleFold: 125,
    // Was 30; 5 per post/Reel since Mosseri's announcement (19 Dec).
    hashtagLimit: 5,
    sources: ['bulkpublish, Ayrshare (2,200, ~125 visible)', 'shiftdelete.net, vgosocial, Ayrshare docs (5 hashtags)'],
  },
  youtube: {
    label: 'YouTube Shorts',
    // The Shorts description; the first line doubles as the title (100 max, ~40 visible in the feed).
    characterLimit: 5000,
    visibleFold: 100,
    // The first 3 show above the title; sources disagree whether >15 or >60 get ignored.
    hashtagLimit: 3,
    sources: [
      'lettercounter.org (title 100, description 5,000)',
      'hollyland, socialbarrel, blogdigger (first 3 shown; >15 or >60 ignored)',
    ],
  },
  linkedin: {
    label: 'LinkedIn',
    // Not covered by the research note: LinkedIn's own published post limit and common guidance.
    characterLimit: 3000,
    visibleFold: 140,
    hashtagLimit: 3,
    sources: ['LinkedIn Help (posts up to 3,000 characters)'],
  },
};

/** Hashtags per post on TikTok and Instagram since 2025: the size of the 'Mixed Strategy' set. */
export const MIXED_HASHTAG_COUNT = 5;
