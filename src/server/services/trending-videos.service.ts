// The shared curated trending list (decision 0092 'Ownership'): Pro users view, curate and boost; a boost adds 1
// once per user per video, counted by the server; the curator or an admin removes an entry.
import type { z } from 'zod';
import { fail } from '../errors.js';
import type { User } from '../db/repositories/users.repository.js';
import type { TrendingVideoRow, TrendingVideosRepository } from '../db/repositories/trending-videos.repository.js';
import type { TrendingVideo, createTrendingVideoRequest } from '../../shared/contracts/trending-videos.js';
import { isAdmin } from './entitlements.service.js';
import type { ImageRelay } from './image-relay.js';

export type CreateTrendingVideoInput = z.output<typeof createTrendingVideoRequest>;

/** `images` gives the thumbnail's display link (through this site); without it, as stored. */
export function toTrendingVideo(row: TrendingVideoRow, boosted: boolean, images?: ImageRelay): TrendingVideo {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    videoUrl: row.videoUrl,
    platform: row.platform,
    thumbnailUrl: row.thumbnailUrl,
    thumbnailSrc: images ? images.link(row.thumbnailUrl) : row.thumbnailUrl,
    author: row.author,
    tags: row.tags,
    viewCount: Number(row.viewCount),
    likeCount: Number(row.likeCount),
    trendingScore: row.trendingScore,
    curatedBy: row.curatedBy,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    boosted,
  };
}

export function createTrendingVideosService(deps: {
  videos: TrendingVideosRepository;
  adminEmails: readonly string[];
  images?: ImageRelay;
}) {
  return {
    async list(viewer: User, platform?: string): Promise<TrendingVideo[]> {
      const rows = await deps.videos.list({ platform, viewerId: viewer.id });
      return rows.map((r) => toTrendingVideo(r, r.boosted, deps.images));
    },

    async curate(curator: User, input: CreateTrendingVideoInput): Promise<TrendingVideo> {
      // The score always starts at 0: only boosts move it.
      const row = await deps.videos.insert({ ...input, curatedBy: curator.id, trendingScore: 0 });
      return toTrendingVideo(row, false, deps.images);
    },

    async boost(user: User, id: number): Promise<TrendingVideo> {
      const outcome = await deps.videos.boost(id, user.id);
      if (outcome.kind === 'missing') throw fail('trending.not_found');
      if (outcome.kind === 'already') throw fail('trending.already_boosted');
      return toTrendingVideo(outcome.video, true, deps.images);
    },

    async remove(user: User, id: number): Promise<void> {
      const video = await deps.videos.findById(id);
      if (!video) throw fail('trending.not_found');
      if (video.curatedBy !== user.id && !isAdmin(user, deps.adminEmails)) {
        throw fail('trending.not_curator');
      }
      await deps.videos.delete(id);
    },
  };
}
export type TrendingVideosService = ReturnType<typeof createTrendingVideosService>;
