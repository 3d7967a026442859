// GET /api/platforms: the video platforms this server has and the shape of their links, so the
// client's link fields and texts follow the server's registry (platforms/registry.ts) instead of
// carrying a platform's rule of their own (issue 30).
import { z } from 'zod';

export const platformInfo = z.object({
  id: z.string(), // the registry id, sent back as ?platform= on by-id links
  name: z.string(), // for texts: 'Please enter a valid <name> video URL'
  example: z.string(), // a link of its shape, for placeholders
  /** A RegExp source matched against a link reduced by `linkShape` (shared/platform-links.ts). */
  linkPattern: z.string(),
  /** Whether its posts' own sound comes as a file of its own (the downloads' `sound` option). */
  separateSound: z.boolean(),
  /** Its profile links' shape (as linkPattern), when a pasted profile lists its posts (issue 45). */
  profilePattern: z.string().optional(),
  /** Whether a post's replies can be exported as a file. */
  replies: z.boolean().optional(),
});
export type PlatformInfo = z.infer<typeof platformInfo>;

export const platformsResponse = z.array(platformInfo);
