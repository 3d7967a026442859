// Every service the routes may call, by name: the composition root (wiring/) builds an object of this
// shape and the routes see only it (routes/route-context.ts), so a route never reaches a repository
// or an adapter, and no route imports the composition root.
import type { AuthService } from './auth.service.js';
import type { OidcLoginService } from './oidc-login.service.js';
import type { createAdminService } from './admin.service.js';
import type { VideoService } from './video.service.js';
import type { QuotaService } from './quota.service.js';
import type { DownloadService } from './download.service.js';
import type { BatchService } from './batch.service.js';
import type { MediaResultsService } from './media-results.service.js';
import type { MediaJobs } from './media-jobs.service.js';
import type { PreviewService } from './preview.service.js';
import type { AudioService } from './audio.service.js';
import type { TranscriptionService } from './transcription.service.js';
import type { WhisperModelService } from './whisper-model.service.js';
import type { CaptionProjectsService } from './caption-studio/caption-projects.service.js';
import type { StudioUploads } from './caption-studio/studio-uploads.service.js';
import type { StudioFonts } from './caption-studio/studio-fonts.service.js';
import type { BillingService } from './billing.service.js';
import type { BlogService } from './blog.service.js';
import type { TrendingVideosService } from './trending-videos.service.js';
import type { ImageRelay } from './image-relay.js';
import type { SitePages } from './site-pages.service.js';
import type { TrendsAnalysisService } from './trends-analysis.service.js';
import type { TrendsCollectors } from './trends-collectors.service.js';
import type { ObservationRecorder } from './trends-observations.service.js';
import type { HashtagService } from './hashtag.service.js';
import type { ContentService } from './content.service.js';
import type { HealthService } from './health.service.js';
import type { PlatformListService } from './platform-list.service.js';
import type { RepostKitService } from './repost-kit/repost-kit.service.js';
import type { ProfilesService } from './profiles.service.js';

export interface Services {
  health: HealthService;
  platforms: PlatformListService;
  auth: AuthService;
  /** Null without an OpenID Connect provider (built-in sign-in). */
  oidcLogin: OidcLoginService | null;
  admin: ReturnType<typeof createAdminService>;
  video: VideoService;
  quota: QuotaService;
  downloads: DownloadService;
  batch: BatchService;
  mediaResults: MediaResultsService;
  mediaJobs: MediaJobs;
  preview: PreviewService;
  audio: AudioService;
  transcription: TranscriptionService;
  whisperModel: WhisperModelService;
  captionProjects: CaptionProjectsService;
  studioUploads: StudioUploads;
  studioFonts: StudioFonts;
  billing: BillingService;
  blog: BlogService;
  trendingVideos: TrendingVideosService;
  imageRelay: ImageRelay;
  sitePages: SitePages;
  trendsAnalysis: TrendsAnalysisService;
  trendsCollectors: TrendsCollectors;
  trendsObservations: ObservationRecorder;
  hashtags: HashtagService;
  content: ContentService;
  /** Repost kits (issue 47). */
  repostKits: RepostKitService;
  /** Whole profiles and a post's replies (issue 45). */
  profiles: ProfilesService;
}
