// Composition of repost kits (issue 47), called by context.ts once the media feature and the text
// tools exist: the kit's sources, its media job and the service the routes call.
import type { CaptionProjectsRepository } from '../../db/repositories/caption-projects.repository.js';
import type { ContentService } from '../content.service.js';
import type { HashtagService } from '../hashtag.service.js';
import type { createMediaFeature } from '../media-feature.js';
import type { QuotaService } from '../quota.service.js';
import type { VideoService } from '../video.service.js';
import { createKitSources } from './kit-source.js';
import { defineRepostKitJob } from './repost-kit.job.js';
import { createRepostKitService } from './repost-kit.service.js';

export function createRepostKitFeature(deps: {
  media: ReturnType<typeof createMediaFeature>;
  video: VideoService;
  quota: QuotaService;
  projects: CaptionProjectsRepository;
  content: ContentService;
  hashtags: HashtagService;
}) {
  const { media, results, jobs } = deps.media;
  const sources = createKitSources({ video: deps.video, projects: deps.projects, results, media });
  const job = defineRepostKitJob({ jobs, media, results, quota: deps.quota, sources });
  return createRepostKitService({
    sources,
    job,
    jobs,
    quota: deps.quota,
    content: deps.content,
    hashtags: deps.hashtags,
  });
}
