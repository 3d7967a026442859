// The video platforms this server has and their link shapes (GET /api/platforms), for link fields
// and the texts that name the platforms: the client carries no platform's rule of its own (issue 30).
import { useQuery } from '@tanstack/react-query';
import { platformsGet } from '../lib/api';
import { platformNames } from '@shared/platform-links';

export function usePlatforms() {
  const { data } = useQuery({ queryKey: ['/api/platforms'], queryFn: platformsGet });
  const platforms = data ?? [];
  return {
    platforms,
    /** False until the list arrived: nothing is recognised yet. */
    ready: data !== undefined,
    /** 'A', 'A or B': the names, for the founding texts that name the platform. */
    names: platformNames(platforms),
    /** A link of the first platform's shape, for placeholders. */
    example: platforms[0]?.example ?? 'https://',
  };
}
