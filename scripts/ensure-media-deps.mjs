// The media tests need Debian's ffmpeg (its flite voice makes speech with known words) and the
// offline recogniser pocketsphinx with its English model. Installed with apt when missing and
// running as root; otherwise the run fails with the exact command. The product itself runs without
// them (npm ships an ffmpeg; captions then need the video's own captions or a transcription API).
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

const needs = [
  { pkg: 'ffmpeg', present: () => fs.existsSync('/usr/bin/ffmpeg') && fs.existsSync('/usr/bin/ffprobe') },
  { pkg: 'pocketsphinx', present: () => fs.existsSync('/usr/bin/pocketsphinx_batch') },
  { pkg: 'tesseract-ocr', present: () => fs.existsSync('/usr/bin/tesseract') },
  { pkg: 'pocketsphinx-en-us', present: () => fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin') },
];
const missing = needs.filter((n) => !n.present()).map((n) => n.pkg);
if (missing.length) {
  const cmd = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.error(`Missing Debian packages for the media tests: ${missing.join(', ')}. Install them with: sudo ${cmd}`);
    process.exit(1);
  }
  console.log(`Installing ${missing.join(' ')} for the media tests...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
  if (update.status !== 0 || install.status !== 0 || needs.some((n) => !n.present())) {
    console.error(`Could not install them. Run: ${cmd}`);
    process.exit(1);
  }
}
