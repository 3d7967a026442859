// The caption studio's font files for the browser preview (GET /api/caption-studio/fonts/:file): the
// same files the render hands to libass (adapters/media/studio-fonts.ts finds them).
import { fontPath } from '../../adapters/media/studio-fonts.js';

export function createStudioFonts(find: (file: string) => string | null = fontPath) {
  return {
    /** Where a listed font file is on this machine, or null (unknown name, or not installed). */
    path: (file: string) => find(file),
  };
}
export type StudioFonts = ReturnType<typeof createStudioFonts>;
