// The media tests need Debian's ffmpeg (its flite voice makes speech with known words, its libass
// burns captions in), the offline recogniser pocketsphinx with its English model, the caption
// studio's fonts (issue 29: Inter, Bebas Neue, League Spartan, Roboto, colour emoji, and Noto CJK
// so Chinese and Japanese captions render) and tesseract-ocr (the end-to-end test reads a rendered
// frame). Installed with apt when missing and
// running as root; otherwise the run fails with the exact command. The product itself runs without
// them (npm ships an ffmpeg; captions then need the video's own captions or a transcription API).
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

const needs = [
  { pkg: 'ffmpeg', present: () => fs.existsSync('/usr/bin/ffmpeg') && fs.existsSync('/usr/bin/ffprobe') },
  { pkg: 'pocketsphinx', present: () => fs.existsSync('/usr/bin/pocketsphinx_batch') },
  // LibriVox recordings with their transcript: the word error rate of bench/caption-studio.bench.ts.
  {
    pkg: 'pocketsphinx-testdata',
    present: () => fs.existsSync('/usr/share/pocketsphinx/test/data/librivox/transcription'),
  },
  { pkg: 'tesseract-ocr', present: () => fs.existsSync('/usr/bin/tesseract') },
  { pkg: 'pocketsphinx-en-us', present: () => fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin') },
  { pkg: 'fonts-inter', present: () => fs.existsSync('/usr/share/fonts/opentype/inter/Inter-Regular.otf') },
  {
    pkg: 'fonts-bebas-neue',
    present: () => fs.existsSync('/usr/share/fonts/opentype/bebas-neue/BebasNeue-Regular.otf'),
  },
  {
    pkg: 'fonts-league-spartan',
    present: () => fs.existsSync('/usr/share/fonts/opentype/league-spartan/LeagueSpartan-Bold.otf'),
  },
  {
    pkg: 'fonts-roboto-unhinted',
    present: () => fs.existsSync('/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf'),
  },
  { pkg: 'fonts-noto-color-emoji', present: () => fs.existsSync('/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf') },
  { pkg: 'fonts-noto-cjk', present: () => fs.existsSync('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc') },
  // LibriVox recordings with their transcript: the word error rate of bench/caption-studio.bench.ts.
  {
    pkg: 'pocketsphinx-testdata',
    present: () => fs.existsSync('/usr/share/pocketsphinx/test/data/librivox/transcription'),
  },
  { pkg: 'tesseract-ocr', present: () => fs.existsSync('/usr/bin/tesseract') },
  { pkg: 'tesseract-ocr-eng', present: () => fs.existsSync('/usr/share/tesseract-ocr/5/tessdata/eng.traineddata') },
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
