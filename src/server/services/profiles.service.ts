// Whole profiles and a post's replies (issue 45), for any platform that offers them through the
// optional Platform methods `listProfile` and `listReplies` (platforms/platform.ts). One page of a
// profile is asked for at a time with the platform's own cursor: the server never holds the whole
// list. Pictures reach the page only through the image relay (decision 0906).
import type { ProfilePostsRequest, ProfilePostsResponse } from '../../shared/contracts/profiles.js';
import { repliesFileName } from '../../shared/file-names.js';
import { fail } from '../errors.js';
import { toCsv } from '../lib/csv.js';
import type { ReplyRow } from '../platforms/platform.js';
import type { PlatformRegistry } from '../platforms/registry.js';
import type { ImageRelay } from './image-relay.js';
import type { VideoService } from './video.service.js';

const COLUMNS: Array<{ title: string; value: (r: ReplyRow) => string | number | null }> = [
  { title: 'state', value: (r) => r.state },
  { title: 'author_handle', value: (r) => r.authorHandle },
  { title: 'author_id', value: (r) => r.authorId },
  { title: 'display_name', value: (r) => r.authorName },
  { title: 'text', value: (r) => r.text },
  { title: 'created_at', value: (r) => r.createdAt },
  { title: 'likes', value: (r) => r.likes },
  { title: 'reposts', value: (r) => r.reposts },
  { title: 'quotes', value: (r) => r.quotes },
  { title: 'parent', value: (r) => r.parentUrl },
  { title: 'depth', value: (r) => r.depth },
  { title: 'link', value: (r) => r.url },
];

export interface RepliesFile {
  fileName: string;
  contentType: string;
  body: Buffer;
  count: number;
}

export function createProfilesService(deps: {
  platforms: PlatformRegistry;
  video: Pick<VideoService, 'resolve' | 'match'>;
  images: Pick<ImageRelay, 'link'>;
}) {
  const names = () =>
    deps.platforms.all
      .filter((p) => p.listProfile)
      .map((p) => p.name)
      .join(' or ');

  return {
    /** One page of a profile's posts with media (newest first). */
    async page(input: ProfilePostsRequest, signal?: AbortSignal): Promise<ProfilePostsResponse> {
      const found = deps.platforms.matchProfile(input.url);
      const list = found?.platform.listProfile;
      if (!found || !list)
        throw fail('link.unsupported', { variant: 'provide', platforms: `${names() || 'a'} profile` });
      const { platform, profile } = found;
      const page = await list(profile, { cursor: input.cursor, reposts: !!input.reposts, signal });
      return {
        platform: platform.id,
        profileUrl: profile.url,
        author: { handle: page.author.handle, name: page.author.name, avatar: deps.images.link(page.author.avatarUrl) },
        posts: page.posts.map((p) => ({
          id: p.id,
          url: p.url,
          text: p.text,
          createdAt: p.createdAt,
          kind: p.kind,
          thumbnail: deps.images.link(p.thumbnailUrl),
          repost: p.repost,
        })),
        cursor: page.cursor,
      };
    },

    /** A post's replies as a CSV (spreadsheet-safe) or JSON file. */
    async replies(url: string, format: 'csv' | 'json', signal?: AbortSignal): Promise<RepliesFile> {
      const listReplies = deps.video.match(url)?.platform.listReplies;
      if (!listReplies)
        throw fail('link.unsupported', {
          variant: 'provide',
          platforms:
            deps.platforms.all
              .filter((p) => p.listReplies)
              .map((p) => p.name)
              .join(' or ') || 'post',
        });
      const ref = await deps.video.resolve(url, signal);
      const rows = await listReplies(ref, signal);
      const fileName = repliesFileName(ref.platform, ref.id, format);
      if (format === 'json') {
        const body = Buffer.from(JSON.stringify({ post: ref.url, replies: rows }, null, 2));
        return { fileName, contentType: 'application/json; charset=utf-8', body, count: rows.length };
      }
      return {
        fileName,
        contentType: 'text/csv; charset=utf-8',
        body: Buffer.from(toCsv(COLUMNS, rows)),
        count: rows.length,
      };
    },
  };
}
export type ProfilesService = ReturnType<typeof createProfilesService>;
