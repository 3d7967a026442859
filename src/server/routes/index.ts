// Every route module, registered in one place. A feature adds its module to this list.
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { healthRoutes } from './health.routes.js';
import { authRoutes } from './auth.routes.js';
import { subscriptionRoutes } from './subscription.routes.js';
import { paypalWebhookRoutes } from './paypal-webhook.routes.js';
import { blogRoutes } from './blog.routes.js';
import { trendingVideosRoutes } from './trending-videos.routes.js';
import { audioRoutes } from './audio.routes.js';
import { transcriptionRoutes } from './transcription.routes.js';
import { mediaRoutes } from './media.routes.js';
import { mediaJobsRoutes } from './media-jobs.routes.js';
import { trendsRoutes } from './trends.routes.js';
import { videoRoutes } from './video.routes.js';
import { downloadsRoutes } from './downloads.routes.js';
import { hashtagsRoutes } from './hashtags.routes.js';
import { contentRoutes } from './content.routes.js';
import { adminStatusRoutes } from './admin-status.routes.js';
import { batchRoutes } from './batch.routes.js';
import { platformsRoutes } from './platforms.routes.js';
import { profilesRoutes } from './profiles.routes.js';
import { imagesRoutes } from './images.routes.js';
import { sitePagesRoutes } from './site-pages.routes.js';
import { captionStudioRoutes } from './caption-studio.routes.js';
import { studioUploadsRoutes } from './studio-uploads.routes.js';
import { repostKitsRoutes } from './repost-kits.routes.js';

/** What routes need to know of the app around them: where the built client lives. */
export interface RouteOptions {
  clientDir: string;
}

const modules: Array<(app: ZApp, ctx: RouteContext, opts: RouteOptions) => Promise<void> | void> = [
  healthRoutes,
  authRoutes,
  subscriptionRoutes,
  paypalWebhookRoutes,
  blogRoutes,
  trendingVideosRoutes,
  audioRoutes,
  transcriptionRoutes,
  mediaRoutes,
  mediaJobsRoutes,
  trendsRoutes,
  videoRoutes,
  downloadsRoutes,
  hashtagsRoutes,
  contentRoutes,
  adminStatusRoutes,
  batchRoutes,
  platformsRoutes,
  imagesRoutes,
  sitePagesRoutes,
  captionStudioRoutes,
  studioUploadsRoutes,
  repostKitsRoutes, // issue 47
  profilesRoutes,
];

export async function registerRoutes(app: ZApp, ctx: RouteContext, opts: RouteOptions): Promise<void> {
  for (const register of modules) await register(app, ctx, opts);
}
