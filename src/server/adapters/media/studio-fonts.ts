// The caption studio's fonts (issue 29): Debian's fonts-inter, fonts-bebas-neue, fonts-league-spartan,
// fonts-roboto and fonts-noto-color-emoji, found where Debian installs them. The same files go to the
// browser preview (JASSUB) and, through a directory of links, to libass's `fontsdir` for the render.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { CAPTION_FONT_FILES } from '../../../shared/contracts/caption-studio.js';

const DEBIAN_DIRS = [
  '/usr/share/fonts/opentype/inter',
  '/usr/share/fonts/opentype/bebas-neue',
  '/usr/share/fonts/opentype/league-spartan',
  '/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF',
  '/usr/share/fonts/truetype/noto',
];

export const FONT_PACKAGES = [
  'fonts-inter',
  'fonts-bebas-neue',
  'fonts-league-spartan',
  'fonts-roboto-unhinted',
  'fonts-noto-color-emoji',
  'fonts-noto-cjk',
];

const ALL_FILES: string[] = Object.values(CAPTION_FONT_FILES).flat();

/** Where a font file of the list is on this machine, or null (not installed; the render falls back to fontconfig). */
export function fontPath(file: string, dirs = DEBIAN_DIRS): string | null {
  if (!ALL_FILES.includes(file)) return null;
  for (const dir of dirs) {
    const p = path.join(dir, file);
    if (fs.existsSync(p)) return p;
  }
  return null;
}

/** A directory holding links to every installed font of the list (made once per process). */
export async function fontsDir(root: string, dirs = DEBIAN_DIRS): Promise<string> {
  const dir = path.join(root, 'studio-fonts');
  await fsp.mkdir(dir, { recursive: true });
  for (const file of ALL_FILES) {
    const target = fontPath(file, dirs);
    const link = path.join(dir, file);
    if (target && !fs.existsSync(link)) await fsp.symlink(target, link).catch(() => undefined);
  }
  return dir;
}
