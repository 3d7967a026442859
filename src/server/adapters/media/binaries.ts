// Finds ffmpeg and ffprobe: an explicit path, then the system's (Debian's build is 2.5x faster and
// current), then the static binaries shipped inside the @ffmpeg-installer/@ffprobe-installer npm
// tarballs, so `npm ci && npm start` works with no system package. See docs/decisions/0500.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

export interface Binary {
  path: string;
  source: 'env' | 'system' | 'npm';
}

const require = createRequire(import.meta.url);

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable named `name` on PATH, or null. */
export function whichSync(name: string, envPath = process.env.PATH ?? ''): string | null {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function fromNpm(pkg: string): string | null {
  try {
    const mod = require(pkg) as { path?: string };
    return mod.path && isExecutable(mod.path) ? mod.path : null;
  } catch {
    return null;
  }
}

function locate(name: 'ffmpeg' | 'ffprobe', explicit: string | undefined, npmPkg: string, envPath?: string): Binary {
  if (explicit) {
    if (!isExecutable(explicit))
      throw new Error(`${name.toUpperCase()}_PATH points to ${explicit}, which is not an executable file`);
    return { path: explicit, source: 'env' };
  }
  const system = whichSync(name, envPath);
  if (system) return { path: system, source: 'system' };
  const npm = fromNpm(npmPkg);
  if (npm) return { path: npm, source: 'npm' };
  throw new Error(
    `${name} was not found: install it (apt-get install -y ffmpeg), set ${name.toUpperCase()}_PATH, or run npm ci to get ${npmPkg}`,
  );
}

export function locateFfmpeg(explicit?: string, envPath?: string): Binary {
  return locate('ffmpeg', explicit, '@ffmpeg-installer/ffmpeg', envPath);
}

export function locateFfprobe(explicit?: string, envPath?: string): Binary {
  return locate('ffprobe', explicit, '@ffprobe-installer/ffprobe', envPath);
}
