// What a client saw of a media job (its state, and progress or place in line): the long poll's
// `seen` (GET /api/media-jobs/:id?wait&seen). Without zod, so the client's first screens stay small.

export const mediaJobToken = (v: { state: string; progress?: number; position?: number }) =>
  `${v.state}:${v.progress ?? v.position ?? ''}`;
