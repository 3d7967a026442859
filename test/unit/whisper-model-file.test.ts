// The whisper.cpp side that needs no native code (issue 36): the ggml model file check that stands
// between a damaged or foreign file and whisper.cpp's loader (which would end the process), the
// words built from whisper.cpp's tokens, and the choice of model file in DATA_DIR/models.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectWhisperModel } from '../../src/server/adapters/asr/ggml-model.js';
import { segmentsToCues } from '../../src/server/adapters/asr/whisper-engine.js';
import { findModelFile } from '../../src/server/adapters/asr/whisper-models.js';
import { writeFakeWhisperModel } from '../fakes/ggml-whisper-model.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-ggml-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const model = path.join(dir, 'good.bin');
const size = writeFakeWhisperModel(model, { weights: 'scripted' });

/** A copy of the good model changed by `edit`. */
function damaged(name: string, edit: (b: Buffer) => Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, edit(fs.readFileSync(model)));
  return file;
}

describe('ggml model file check', () => {
  it('accepts a whole model and says what it is', async () => {
    const info = await inspectWhisperModel(model);
    expect(info.multilingual).toBe(false);
    expect(info.hparams).toMatchObject({ nVocab: 51864, nAudioState: 64, nMels: 80, ftype: 1 });
    const multi = path.join(dir, 'multi.bin');
    writeFakeWhisperModel(multi, { weights: 'scripted', multilingual: true });
    expect((await inspectWhisperModel(multi)).multilingual).toBe(true);
  });

  it('refuses a foreign file, a damaged header, a cut file and a wrong tensor', async () => {
    const foreign = damaged('foreign.bin', (b) => Buffer.concat([Buffer.from('PK\x03\x04'), b.subarray(4)]));
    await expect(inspectWhisperModel(foreign)).rejects.toThrow(/bad magic/);
    // n_audio_ctx (the second number of the header) made absurd.
    const header = damaged('header.bin', (b) => {
      b.writeInt32LE(7, 8);
      return b;
    });
    await expect(inspectWhisperModel(header)).rejects.toThrow(/not a whisper model \(audio context 7\)/);
    const cut = damaged('cut.bin', (b) => b.subarray(0, Math.floor(size * 0.6)));
    await expect(inspectWhisperModel(cut)).rejects.toThrow(/cut short/);
    const tail = damaged('tail.bin', (b) => b.subarray(0, size - 10));
    await expect(inspectWhisperModel(tail)).rejects.toThrow(/cut short/);
    // The first tensor's name is the first "encoder.positional_embedding" after the vocabulary.
    const renamed = damaged('renamed.bin', (b) => {
      const at = b.indexOf('encoder.positional_embedding');
      b.write('encoder.positional_embeddinX', at);
      return b;
    });
    await expect(inspectWhisperModel(renamed)).rejects.toThrow(/unexpected tensor "encoder.positional_embeddinX"/);
    const empty = damaged('empty.bin', () => Buffer.alloc(0));
    await expect(inspectWhisperModel(empty)).rejects.toThrow(/bad magic/);
  });
});

describe('words from whisper.cpp tokens', () => {
  it('joins word pieces and punctuation, drops special tokens, keeps times and confidence', () => {
    const cues = segmentsToCues([
      {
        from: 0,
        to: 1500,
        text: ' Hello worldwide.',
        lang: 'en',
        tokens: [
          { text: '[_BEG_]', p: 1, from: 0, to: 0 },
          { text: ' Hello', p: 0.9, from: 120, to: 440 },
          { text: ' world', p: 0.8, from: 440, to: 880 },
          { text: 'wide', p: 0.6, from: 880, to: 1230 },
          { text: '.', p: 1, from: 1230, to: 1470 },
          { text: '[_TT_75]', p: 1, from: 1500, to: 1500 },
        ],
      },
    ]);
    expect(cues).toEqual([
      {
        start: 0,
        end: 1.5,
        text: 'Hello worldwide.',
        words: [
          { text: 'Hello', start: 0.12, end: 0.44, confidence: 0.9 },
          { text: 'worldwide.', start: 0.44, end: 1.47, confidence: 0.8 },
        ],
      },
    ]);
  });

  it('keeps a segment whose tokens split characters (CJK) without word times; drops empty ones', () => {
    const cues = segmentsToCues([
      { from: 0, to: 2000, text: ' 你好', tokens: [{ text: ' \uFFFD', p: 1, from: 0, to: 900 }] },
      { from: 2000, to: 2500, text: '  ', tokens: [] },
    ]);
    expect(cues).toEqual([{ start: 0, end: 2, text: '你好' }]);
  });
});

describe('which model file is used', () => {
  it('the configured one, else the best catalogue model present, else any ggml file; none without', () => {
    const models = path.join(dir, 'models');
    expect(findModelFile(models)).toBeNull();
    fs.mkdirSync(models);
    fs.writeFileSync(path.join(models, 'ggml-custom.bin'), 'x');
    expect(findModelFile(models)).toBe(path.join(models, 'ggml-custom.bin'));
    fs.writeFileSync(path.join(models, 'ggml-tiny.en.bin'), 'x');
    fs.writeFileSync(path.join(models, 'ggml-base.en.bin.part'), 'x');
    expect(findModelFile(models)).toBe(path.join(models, 'ggml-tiny.en.bin'));
    fs.writeFileSync(path.join(models, 'ggml-base.en.bin'), 'x');
    expect(findModelFile(models)).toBe(path.join(models, 'ggml-base.en.bin'));
    expect(findModelFile(models, 'tiny.en')).toBe(path.join(models, 'ggml-tiny.en.bin'));
    expect(findModelFile(models, 'ggml-custom.bin')).toBe(path.join(models, 'ggml-custom.bin'));
    expect(findModelFile(models, 'small')).toBeNull();
  });
});
