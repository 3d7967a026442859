// Failures every platform shares, in neutral codes (issue 19); each platform maps its own states to
// these (TikTok: tiktok/errors.ts) and names itself in the message.
import { AppError } from '../errors.js';

export const platformErrors = {
  unsupportedLink: (names: string[]) =>
    new AppError(400, 'link.unsupported', names.length === 1 ? `Please provide a valid ${names[0]} URL` : `Please provide a valid video link (${names.join(', ')}).`),
  noVideo: (name: string) => new AppError(400, 'link.unsupported', `This ${name} post is a photo slideshow and has no video file to download.`),
  unavailable: (name: string) => new AppError(424, 'upstream.unavailable', `${name} is not answering right now. Please try again in a few minutes.`),
};

/** Sites people paste that no platform module handles yet, named so the message can say so. */
const NOT_YET: Array<[RegExp, string]> = [
  [/(^|\.)instagram\.com$/i, 'Instagram'],
  [/(^|\.)(facebook\.com|fb\.watch|fb\.com)$/i, 'Facebook'],
  [/(^|\.)(youtube\.com|youtu\.be)$/i, 'YouTube'],
];

/** The name of a site we do not support yet, for a friendlier refusal; null when unknown. */
export function notYetSupported(url: string): string | null {
  try {
    const host = new URL(url.trim()).hostname.toLowerCase();
    return NOT_YET.find(([re]) => re.test(host))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** `TikTok`, `TikTok or Clips`: the platforms in a sentence. */
export const platformList = (names: string[]) => names.join(' or ');
