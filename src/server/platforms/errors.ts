// Link refusals every platform shares; their failures are the catalogue's neutral codes
// (shared/error-messages.ts, issue 19), each naming the registered platforms, never a list of its own.
import { fail } from '../errors.js';

/** Longer than this is no link any platform takes (checked by the registry before any platform). */
export const LINK_MAX = 2048;

/** `A`, `A or B`: the platforms' names in a sentence. */
export const platformList = (names: string[]) => names.join(' or ');

/** A link missing, malformed or known to no platform: one wording on every tool (issue 31). */
export const unsupportedLink = (names: string[]) =>
  fail('link.unsupported', { variant: 'provide', platforms: platformList(names) });
