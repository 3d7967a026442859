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

// ---- Repost kit targets (issue 47): the places a repost kit is made for. Like the text tools'
// platforms above, they are destinations to post to, not video sources. Every number below and its
// source is listed in docs/repost-targets.md; change both together.

export const REPOST_TARGETS = ['reels', 'shorts', 'tiktok', 'bluesky'] as const;
export type RepostTarget = (typeof REPOST_TARGETS)[number];

export interface RepostCaptionRules {
  /** The most the post's text may hold, counted as `count` says. */
  characterLimit: number;
  /** How the target counts: UTF-16 units (the strictest count of the others) or graphemes. */
  count: 'utf16' | 'graphemes';
  /** A second ceiling in UTF-8 bytes, when the target has one. */
  byteLimit?: number;
  /** Characters shown before "more": the hook is kept in front of it. */
  visibleFold: number;
  /** Hashtags placed in the text, at its end. */
  hashtagLimit: number;
  /** Blank lines between paragraphs; false: one line break (room is short). */
  blankLines: boolean;
  /** A separate title field (its first line), at most this long and on one line. */
  titleLimit?: number;
}

export interface RepostVideoRules {
  /** ffprobe format names accepted as they are. */
  containers: string[];
  videoCodecs: string[];
  audioCodecs: string[];
  /** The index (moov) must come before the media data. */
  indexFirst: boolean;
  maxWidth: number;
  maxHeight: number;
  minSeconds: number;
  maxSeconds: number;
  maxBytes: number;
}

export interface RepostTargetLimits {
  label: string;
  caption: RepostCaptionRules;
  video: RepostVideoRules;
  /** The cover picture made from the chosen frame (JPEG). */
  cover: { width: number; height: number };
  sources: string[];
}

const MB = 1_000_000;
const MP4_FAMILY = ['mov,mp4,m4a,3gp,3g2,mj2'];

export const REPOST_TARGET_LIMITS: Record<RepostTarget, RepostTargetLimits> = {
  reels: {
    label: 'Instagram Reels',
    caption: { characterLimit: 2200, count: 'utf16', visibleFold: 125, hashtagLimit: 5, blankLines: true },
    video: {
      containers: MP4_FAMILY,
      videoCodecs: ['h264', 'hevc'],
      audioCodecs: ['aac'],
      indexFirst: true,
      maxWidth: 1920,
      maxHeight: 3600,
      minSeconds: 3,
      maxSeconds: 15 * 60,
      maxBytes: 300 * MB,
    },
    cover: { width: 1080, height: 1920 },
    sources: ['ayrshare.com/docs/media-guidelines/instagram (Reels video)', 'text limits: PLATFORM_LIMITS.instagram'],
  },
  shorts: {
    label: 'YouTube Shorts',
    caption: {
      characterLimit: 5000,
      count: 'utf16',
      visibleFold: 100,
      hashtagLimit: 3,
      blankLines: true,
      titleLimit: 100,
    },
    video: {
      containers: MP4_FAMILY,
      videoCodecs: ['h264', 'hevc', 'vp9', 'av1'],
      audioCodecs: ['aac', 'opus', 'mp3'],
      indexFirst: false,
      maxWidth: 4096,
      maxHeight: 4096,
      minSeconds: 1,
      maxSeconds: 3 * 60,
      maxBytes: 4000 * MB,
    },
    cover: { width: 1080, height: 1920 },
    sources: [
      'ayrshare.com/docs/media-guidelines/youtube (Shorts: 3 minutes, 9:16; 4 GB by API)',
      'YouTube Shorts blog, 2024-10-15 (3 minutes for square or taller videos)',
      'text limits: PLATFORM_LIMITS.youtube',
    ],
  },
  tiktok: {
    label: 'TikTok',
    caption: { characterLimit: 2200, count: 'utf16', visibleFold: 55, hashtagLimit: 5, blankLines: true },
    video: {
      containers: [...MP4_FAMILY, 'matroska,webm'],
      videoCodecs: ['h264', 'hevc', 'vp8', 'vp9'],
      audioCodecs: ['aac', 'mp3', 'opus', 'vorbis'],
      indexFirst: false,
      maxWidth: 4096,
      maxHeight: 4096,
      minSeconds: 3,
      maxSeconds: 10 * 60,
      maxBytes: 4000 * MB,
    },
    cover: { width: 1080, height: 1920 },
    sources: [
      'developers.tiktok.com Content Posting API (media transfer, video restrictions)',
      'ayrshare.com/docs/media-guidelines/tiktok, docs.getlate.dev (3 s to 10 min, 360-4096 px)',
      'text limits: PLATFORM_LIMITS.tiktok',
    ],
  },
  bluesky: {
    label: 'Bluesky',
    caption: {
      characterLimit: 300,
      count: 'graphemes',
      byteLimit: 3000,
      visibleFold: 300,
      hashtagLimit: 3,
      blankLines: false,
    },
    video: {
      containers: MP4_FAMILY,
      videoCodecs: ['h264'],
      audioCodecs: ['aac'],
      indexFirst: false,
      maxWidth: 4096,
      maxHeight: 4096,
      minSeconds: 0,
      maxSeconds: 3 * 60,
      maxBytes: 300 * MB,
    },
    cover: { width: 1080, height: 1920 },
    sources: [
      'atproto lexicons app.bsky.feed.post (text: 300 graphemes, 3,000 bytes) and app.bsky.embed.video (mp4, 300 MB)',
      'schedulethreads.com, 2025-08 (3 minutes)',
    ],
  },
};
