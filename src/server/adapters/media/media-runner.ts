// The one place that spawns media processes: a time limit, SIGTERM then SIGKILL, cancellation
// by AbortSignal (client disconnects), bounded stderr, and output checks after the run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { fail } from '../../errors.js';
import { probeArgs } from './ffmpeg-args.js';

export interface RunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Grace period between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** Sees stdout as it arrives (ffmpeg's `-progress pipe:1` lines for a progress percent). */
  onStdout?: (text: string) => void;
  /**
   * Fed to file descriptors 3, 4, … (ffmpeg's `pipe:3` inputs) as they arrive. Each is ended only
   * when its stream ends; a stream that fails must abort the run (the process would wait for it).
   */
  inputs?: Readable[];
  /** Where stdout goes as raw bytes (a fragmented MP4), instead of being captured as text. */
  output?: Writable;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class ProcessError extends Error {
  constructor(
    message: string,
    readonly reason: 'exit' | 'killed' | 'timeout' | 'aborted' | 'spawn',
    readonly stderr = '',
  ) {
    super(message);
  }
}

const MAX_CAPTURE = 512 * 1024;

/** Runs a binary to completion; rejects on non-zero exit, time-out or abort. */
export function runProcess(bin: string, args: string[], opts: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new ProcessError('aborted before start', 'aborted'));
    const inputs = opts.inputs ?? [];
    const pipes = ['ignore', 'pipe', 'pipe', ...inputs.map(() => 'pipe')] as ['ignore', 'pipe', 'pipe'];
    const child = spawn(bin, args, { stdio: pipes });
    const inputPipes = inputs.map((input, i) => {
      const pipe = child.stdio[3 + i] as Writable;
      pipe.on('error', () => undefined); // EPIPE: the process stopped reading; its exit tells why
      input.pipe(pipe);
      return pipe;
    });
    // An input that never ended (it failed) would keep 'close' from ever coming: let go at exit.
    child.once('exit', () => {
      for (const [i, input] of inputs.entries()) input.unpipe(inputPipes[i]);
      for (const pipe of inputPipes) pipe.destroy();
    });
    let stdout = '';
    let stderr = '';
    let ended: ProcessError['reason'] | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    if (opts.output) child.stdout.pipe(opts.output);
    else
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout = (stdout + d).slice(-MAX_CAPTURE);
        opts.onStdout?.(d);
      });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      // Keep the tail: ffmpeg prints its real error last.
      stderr = (stderr + d).slice(-MAX_CAPTURE);
    });
    const stop = (reason: 'timeout' | 'aborted') => {
      if (ended || child.exitCode !== null) return;
      ended = reason;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), opts.killGraceMs ?? 2000);
      killTimer.unref();
    };
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    const onAbort = () => stop('aborted');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      reject(new ProcessError(`could not start ${bin}: ${err.message}`, 'spawn'));
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (ended)
        return reject(new ProcessError(`${bin} ${ended === 'timeout' ? 'timed out' : 'was cancelled'}`, ended, stderr));
      // Killed by a signal we did not send (OOM killer, an operator): our fault, not the input's.
      if (code === null && sig) return reject(new ProcessError(`${bin} was killed by ${sig}`, 'killed', stderr));
      if (code !== 0)
        return reject(new ProcessError(`${bin} exited with ${code}: ${lastLine(stderr)}`, 'exit', stderr));
      resolve({ code: 0, stdout, stderr });
    });
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

export interface ProbeResult {
  duration: number;
  formatName: string;
  bitRate: number;
  audio: { codec: string; sampleRate: number; channels: number; bitRate: number } | null;
  hasVideo: boolean;
}

/** ffprobe as JSON; a file it cannot read is a ProcessError. */
export async function probe(ffprobe: string, file: string, opts: RunOptions): Promise<ProbeResult> {
  const { stdout } = await runProcess(ffprobe, probeArgs(file), opts);
  const json = JSON.parse(stdout) as {
    format?: { duration?: string; format_name?: string; bit_rate?: string };
    streams?: Array<{
      codec_type?: string;
      codec_name?: string;
      sample_rate?: string;
      channels?: number;
      bit_rate?: string;
      duration?: string;
    }>;
  };
  const streams = json.streams ?? [];
  const a = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(json.format?.duration ?? a?.duration ?? 0);
  return {
    duration: Number.isFinite(duration) ? duration : 0,
    formatName: json.format?.format_name ?? '',
    bitRate: Number(json.format?.bit_rate ?? 0),
    audio: a
      ? {
          codec: a.codec_name ?? '',
          sampleRate: Number(a.sample_rate ?? 0),
          channels: a.channels ?? 0,
          bitRate: Number(a.bit_rate ?? 0),
        }
      : null,
    hasVideo: streams.some((s) => s.codec_type === 'video'),
  };
}

/** Output checks: the file exists, is not empty and is under the size limit. */
export function checkOutputFile(file: string, maxBytes: number): number {
  let size = 0;
  try {
    size = fs.statSync(file).size;
  } catch {
    size = 0;
  }
  if (size <= 0) throw fail('media.unreadable', { variant: 'sound' });
  if (size > maxBytes) throw fail('media.too_large', { variant: 'result' });
  return size;
}
