// One typed function per API endpoint the client calls. Request and response types are inferred
// from the zod schemas of src/shared/contracts (type-only imports: no zod in the client bundle);
// failures throw ApiError (api-error.ts). Components call these, never fetch.
import type { z } from 'zod';
import { API_PATHS } from '@shared/api-paths';
import type { audioExtractRequest, audioResultSchema } from '@shared/contracts/audio';
import type { authProviders, authSession, authUser, loginRequest, registerRequest } from '@shared/contracts/auth';
import type { batchCreateRequest, batchCreated, batchView } from '@shared/contracts/batch';
import type { blogPost, blogPostList, createBlogPostRequest, publicBlogPost } from '@shared/contracts/blog';
import type {
  captionProjectSchema,
  captionProjectSummarySchema,
  captionRenderResultSchema,
  createCaptionProjectRequest,
  saveCaptionProjectRequest,
  whisperModelStatusSchema,
} from '@shared/contracts/caption-studio';
import type { deletedResponse } from '@shared/contracts/common';
import type { optimizeRequest, optimizeResponse } from '@shared/contracts/content';
import type { hashtagRequest, hashtagResponse } from '@shared/contracts/hashtags';
import type { mediaJobSchema } from '@shared/contracts/media-jobs';
import { RESPOND_ASYNC } from '@shared/respond-async';
import type { platformsResponse } from '@shared/contracts/platforms';
import type { profilePostsRequest, profilePostsResponse, repliesExportRequest } from '@shared/contracts/profiles';
import type { sitePage } from '@shared/contracts/site-pages';
import type {
  subscriptionCancelResponse,
  subscriptionConfirmRequest,
  subscriptionConfirmResponse,
  subscriptionCreateResponse,
  subscriptionStatusResponse,
} from '@shared/contracts/subscription';
import type { transcriptionRequest, transcriptionResultSchema } from '@shared/contracts/transcription';
import type {
  boostRequest,
  createTrendingVideoRequest,
  TrendingPlatform,
  trendingVideo,
  trendingVideoList,
} from '@shared/contracts/trending-videos';
import type { trendsAnalysisResponse } from '@shared/contracts/trends';
import type {
  clearDownloadsResponse,
  recentDownloadsResponse,
  videoDownloadRequest,
  videoInfo,
  videoInfoRequest,
  videoLinkResponse,
} from '@shared/contracts/video';
import type { repostKitRequest, repostPreview, repostPreviewRequest } from '@shared/contracts/repost-kits';
import { type CallOptions, send, sendAsync, sendJson } from './http';

type In<S extends z.ZodType> = z.input<S>;
type Out<S extends z.ZodType> = z.output<S>;
export type MediaJob = Out<typeof mediaJobSchema>;
/** A tool's answer when it was asked not to wait: its result, or the job making it. */
export type AsyncAnswer<T> = { done: true; result: T } | { done: false; job: MediaJob };

const id = (s: string | number) => encodeURIComponent(String(s));
const async = <T>(method: string, url: string, body: unknown, opts: CallOptions = {}) =>
  sendAsync<T, MediaJob>(method, url, body, { ...opts, prefer: RESPOND_ASYNC });

// Accounts
export const authProvidersGet = () => sendJson<Out<typeof authProviders>>('GET', '/api/auth/providers');
export const authSessionGet = () => sendJson<Out<typeof authSession>>('GET', '/api/auth/session');
export const authRegister = (body: In<typeof registerRequest>) =>
  sendJson<Out<typeof authUser>>('POST', '/api/auth/register', body);
export const authLogin = (body: In<typeof loginRequest>) =>
  sendJson<Out<typeof authUser>>('POST', '/api/auth/login', body);

// Videos and downloads
export const videoInfoFetch = (body: In<typeof videoInfoRequest>) =>
  sendJson<Out<typeof videoInfo>>('POST', API_PATHS.videoInfo, body);
/** The file itself, streamed: the caller reads the body for its progress. */
export const videoDownload = (body: In<typeof videoDownloadRequest>) => send('POST', API_PATHS.videoDownload, body);
/** A `GET /api/video/download` link keyed for the signed-in person (an <a download> that spends). */
export const videoLinkGet = (body: In<typeof videoDownloadRequest>) =>
  sendJson<Out<typeof videoLinkResponse>>('POST', API_PATHS.videoLink, body);
export const recentDownloadsGet = () => sendJson<Out<typeof recentDownloadsResponse>>('GET', '/api/downloads/recent');
export const downloadsClear = () => sendJson<Out<typeof clearDownloadsResponse>>('DELETE', '/api/downloads');
/** One page of a profile's posts with media (issue 45). */
export const profilePostsFetch = (body: In<typeof profilePostsRequest>) =>
  sendJson<Out<typeof profilePostsResponse>>('POST', API_PATHS.profilePosts, body);
/** A post's replies as a file (Pro): the answer's body is the CSV or JSON. */
export const repliesExport = (body: In<typeof repliesExportRequest>) => send('POST', API_PATHS.repliesExport, body);
export const platformsGet = () => sendJson<Out<typeof platformsResponse>>('GET', '/api/platforms');

// Media tools (a media job when the result takes a while)
export const audioExtract = (body: In<typeof audioExtractRequest>) =>
  async<Out<typeof audioResultSchema>>('POST', '/api/audio/extract', body);
export const transcriptionGenerate = (body: In<typeof transcriptionRequest>) =>
  async<Out<typeof transcriptionResultSchema>>('POST', '/api/transcription/generate', body);
/** `wait`: a long poll answering once the job differs from `seen` (mediaJobToken), at most that many ms. */
export const mediaJobGet = (jobId: string, signal?: AbortSignal, wait?: { ms: number; seen: string }) =>
  sendJson<MediaJob>(
    'GET',
    `/api/media-jobs/${id(jobId)}${wait ? `?wait=${wait.ms}&seen=${encodeURIComponent(wait.seen)}` : ''}`,
    undefined,
    { signal },
  );
export const mediaJobCancel = (jobId: string) => sendJson<MediaJob>('DELETE', `/api/media-jobs/${id(jobId)}`);

// Repost kits (issue 47): the preview of each target's card, then the kit (a media job; its done view lists the files)
export const repostKitPreview = (body: In<typeof repostPreviewRequest>) =>
  sendJson<Out<typeof repostPreview>>('POST', API_PATHS.repostKitPreview, body);
export const repostKitCreate = (body: In<typeof repostKitRequest>) =>
  async<MediaJob>('POST', API_PATHS.repostKits, body);

// Caption studio
export const captionProjectCreate = (body: In<typeof createCaptionProjectRequest>) =>
  async<Out<typeof captionProjectSchema>>('POST', '/api/caption-projects', body);
export const whisperModelStatus = () =>
  sendJson<Out<typeof whisperModelStatusSchema>>('GET', '/api/caption-studio/whisper');
export const captionProjectsList = () =>
  sendJson<Out<typeof captionProjectSummarySchema>[]>('GET', '/api/caption-projects');
export const captionProjectGet = (projectId: string) =>
  sendJson<Out<typeof captionProjectSchema>>('GET', `/api/caption-projects/${id(projectId)}`);
export const captionProjectSave = (projectId: string, body: In<typeof saveCaptionProjectRequest>, keepalive = false) =>
  // Browsers refuse keepalive bodies over 64 KB; a long project's last save then goes as usual.
  sendJson<Out<typeof captionProjectSchema>>('PUT', `/api/caption-projects/${id(projectId)}`, body, {
    keepalive: keepalive && JSON.stringify(body).length < 60_000,
  });
export const captionProjectRender = (projectId: string) =>
  async<Out<typeof captionRenderResultSchema>>('POST', `/api/caption-projects/${id(projectId)}/render`, undefined);

// Text tools
export const hashtagsGenerate = (body: In<typeof hashtagRequest>) =>
  sendJson<Out<typeof hashtagResponse>>('POST', '/api/ai/hashtags', body);
export const contentOptimize = (body: In<typeof optimizeRequest>) =>
  sendJson<Out<typeof optimizeResponse>>('POST', '/api/content/optimize', body);

// Batch
export const batchCreate = (body: In<typeof batchCreateRequest>) =>
  sendJson<Out<typeof batchCreated>>('POST', '/api/batch', body);
export const batchGet = (batchId: string) => sendJson<Out<typeof batchView>>('GET', `/api/batch/${id(batchId)}`);
export const batchRetry = (batchId: string) =>
  sendJson<Out<typeof batchView>>('POST', `/api/batch/${id(batchId)}/retry`, {});

// Subscription
export const subscriptionStatusGet = () =>
  sendJson<Out<typeof subscriptionStatusResponse>>('GET', '/api/subscription/status');
export const subscriptionCreate = () =>
  sendJson<Out<typeof subscriptionCreateResponse>>('POST', '/api/subscription/create');
export const subscriptionConfirm = (body: In<typeof subscriptionConfirmRequest>) =>
  sendJson<Out<typeof subscriptionConfirmResponse>>('POST', '/api/subscription/confirm', body);
export const subscriptionCancel = () =>
  sendJson<Out<typeof subscriptionCancelResponse>>('POST', '/api/subscription/cancel');

// Blog
export const blogPostsList = () => sendJson<Out<typeof blogPostList>>('GET', '/api/blog/posts');
export const blogPostCreate = (body: In<typeof createBlogPostRequest>) =>
  sendJson<Out<typeof blogPost>>('POST', '/api/blog/posts', body);
export const blogPostUpdate = (postId: number, body: In<typeof createBlogPostRequest>) =>
  sendJson<Out<typeof blogPost>>('PUT', `/api/blog/posts/${id(postId)}`, body);
export const blogPostDelete = (postId: number) =>
  sendJson<Out<typeof deletedResponse>>('DELETE', `/api/blog/posts/${id(postId)}`);
export const blogPublicGet = (slug: string) =>
  sendJson<Out<typeof publicBlogPost>>('GET', `/api/blog/public/${id(slug)}`);

// Curated trending videos and trends
export const trendingVideosList = (platform?: TrendingPlatform) =>
  sendJson<Out<typeof trendingVideoList>>('GET', `/api/trending-videos${platform ? `?platform=${platform}` : ''}`);
export const trendingVideoCreate = (body: In<typeof createTrendingVideoRequest>) =>
  sendJson<Out<typeof trendingVideo>>('POST', '/api/trending-videos', body);
export const trendingVideoBoost = (videoId: number, body: In<typeof boostRequest>) =>
  sendJson<Out<typeof trendingVideo>>('PATCH', `/api/trending-videos/${id(videoId)}/score`, body);
export const trendsAnalysisGet = () => sendJson<Out<typeof trendsAnalysisResponse>>('GET', '/api/trends/analysis');

// Site pages
export const sitePageGet = (name: string) => sendJson<Out<typeof sitePage>>('GET', `/api/pages/${id(name)}`);
