// The shared curated trending-video list: Pro only (decision 0092 'The server decides', 'Ownership').
import { signedInUser } from '../plugins/guards.js';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import {
  boostRequest,
  createTrendingVideoRequest,
  deletedResponse,
  trendingListQuery,
  trendingVideo,
  trendingVideoIdParams,
  trendingVideoList,
} from '../../shared/contracts/index.js';

export function trendingVideosRoutes(app: ZApp, ctx: RouteContext) {
  const trending = ctx.services.trendingVideos;
  const pro = ctx.guards.pro;

  app.get(
    '/api/trending-videos',
    {
      preHandler: pro,
      config: { errors: [] },
      schema: { querystring: trendingListQuery, response: { 200: trendingVideoList } },
    },
    async (request) => trending.list(signedInUser(request), request.query.platform),
  );

  app.post(
    '/api/trending-videos',
    {
      preHandler: pro,
      config: { errors: [] },
      schema: { body: createTrendingVideoRequest, response: { 201: trendingVideo } },
    },
    async (request, reply) => reply.status(201).send(await trending.curate(signedInUser(request), request.body)),
  );

  app.patch(
    '/api/trending-videos/:id/score',
    {
      preHandler: pro,
      config: { errors: ['trending.not_found', 'trending.already_boosted'] },
      schema: { params: trendingVideoIdParams, body: boostRequest, response: { 200: trendingVideo } },
    },
    async (request) => trending.boost(signedInUser(request), request.params.id),
  );

  app.delete(
    '/api/trending-videos/:id',
    {
      preHandler: pro,
      config: { errors: ['trending.not_found', 'trending.not_curator'] },
      schema: { params: trendingVideoIdParams, response: { 200: deletedResponse } },
    },
    async (request) => {
      await trending.remove(signedInUser(request), request.params.id);
      return { success: true as const };
    },
  );
}
