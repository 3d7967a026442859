// The registered video platforms as the client's link fields and texts need them (GET /api/platforms,
// issue 30): fixed for the life of the process, so made once.
import type { PlatformRegistry } from '../platforms/registry.js';

export interface PlatformSummary {
  id: string;
  name: string;
  example: string;
  linkPattern: string;
  separateSound: boolean;
  profilePattern?: string;
  replies: boolean;
}

export function createPlatformListService(registry: Pick<PlatformRegistry, 'all'>) {
  const list: PlatformSummary[] = registry.all.map((p) => ({
    id: p.id,
    name: p.name,
    example: p.exampleUrl,
    linkPattern: p.linkPattern.source,
    separateSound: p.separateSound !== false,
    ...(p.profilePattern ? { profilePattern: p.profilePattern.source } : {}),
    replies: !!p.listReplies,
  }));
  return { list: () => list };
}
export type PlatformListService = ReturnType<typeof createPlatformListService>;
