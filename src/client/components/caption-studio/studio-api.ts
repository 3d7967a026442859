// The caption studio's links to the API that are not calls (the calls are in lib/api.ts): the
// project's video for the preview and the text exports.
export const mediaUrl = (id: string) => `/api/caption-projects/${encodeURIComponent(id)}/media`;
export const exportUrl = (id: string, format: string) =>
  `/api/caption-projects/${encodeURIComponent(id)}/export/${format}`;
