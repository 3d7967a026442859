// npm ci, after the dependencies: builds whisper.cpp (npm smart-whisper) again with this CPU's
// SIMD (AVX2/FMA/F16C...). smart-whisper's own install compiles without any (-O3 only), which is
// several times slower. The build is for this machine (-march=native), as every `npm ci` compiles
// on the machine that runs it. A failure keeps the generic build (still correct, only slower).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve('node_modules', 'smart-whisper');
const nodeGyp = process.env.npm_config_node_gyp;
if (!fs.existsSync(path.join(dir, 'binding.gyp')) || !nodeGyp || process.arch !== 'x64') process.exit(0);
const flags = '-O3 -march=native';
const out = spawnSync(process.execPath, [nodeGyp, 'rebuild', '-j', '2'], {
  cwd: dir,
  env: { ...process.env, CFLAGS: flags, CXXFLAGS: flags },
  encoding: 'utf8',
});
if (out.status !== 0) {
  console.error(`whisper.cpp: the SIMD build failed, the generic build stays:\n${(out.stderr ?? '').slice(-2000)}`);
  // node-gyp removed the generic build before failing: build it again as smart-whisper does.
  spawnSync(process.execPath, [nodeGyp, 'rebuild'], { cwd: dir, stdio: 'ignore' });
}
