// The contracts module: every request and response schema, imported by server and client alike.
export * from './common.js';
export * from './auth.js';
export * from './subscription.js';
export * from './blog.js';
export * from './trending-videos.js';
export * from './audio.js';
export * from './transcription.js';
export * from './trends.js';
export * from './video.js';
export * from './hashtags.js';
export * from './content.js';
export * from './batch.js';
export * from './media-jobs.js';
export * from './caption-studio.js';
export * from './platforms.js';
export * from './site-pages.js';
export * from './profiles.js';
