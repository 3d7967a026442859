// The end-to-end tests drive Debian's Chromium. Install it with apt when missing and running as
// root; otherwise fail saying the exact command.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.error(`Chromium is missing. Install it with: sudo apt-get update && sudo apt-get install -y chromium`);
    process.exit(1);
  }
  console.log('Installing Debian chromium for the end-to-end tests...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  if (update.status !== 0 || install.status !== 0 || !fs.existsSync(CHROMIUM)) {
    console.error('Could not install Chromium. Run: apt-get update && apt-get install -y chromium');
    process.exit(1);
  }
}
