// Runs whisper.cpp (smart-whisper) on one sound file in a process of its own, so the media job can
// end it at MEDIA_TIMEOUT_SECONDS or on cancel (the native call cannot be interrupted) and a fault
// in native code ends this process, not the server. Plain JavaScript: it runs as it is, from the
// source tree and beside the built server alike (whisper-engine.ts starts it).
//   node whisper-child.mjs <model.bin> <sound.f32> <language|auto> <threads> [transcribe|translate]
// <sound.f32>: 16 kHz mono 32-bit float samples (ffmpeg -f f32le). Prints the segments as JSON.
import fs from 'node:fs';
import { Whisper } from 'smart-whisper';

const [model, sound, language, threads, mode] = process.argv.slice(2);
const bytes = fs.readFileSync(sound);
// A copy of whole samples: a small file's Buffer may sit at an offset a Float32Array cannot start at.
const pcm = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~3)));
const whisper = new Whisper(model, { gpu: false });
try {
  const task = await whisper.transcribe(pcm, {
    language,
    n_threads: Number(threads) || 1,
    format: 'detail',
    // Whisper's translate task: English text for speech in another language.
    translate: mode === 'translate',
    token_timestamps: true,
    // Each 30-second window on its own: no earlier text as a prompt, so a mistake does not repeat.
    no_context: true,
  });
  const result = await task.result;
  if (result instanceof Error) throw result;
  process.stdout.write(JSON.stringify(result));
} finally {
  await whisper.free();
}
