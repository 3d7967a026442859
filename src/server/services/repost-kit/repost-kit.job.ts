// The repost kit as a media job (kind `repost-kit`, issue 47), on whichever node works jobs: the
// source video fetched once (a link through the platform registry, or a caption project's stored
// video), burned with the project's captions when asked, then for each target the video it accepts
// (the file as it is where it can be; one remux or one re-encode shared by the targets that need the
// same), its cover at the target's size from the chosen frame, and its texts. Every file is kept on
// its own and the whole kit as one ZIP with a folder per target; a target that cannot take the
// clip says why in its part and the others are still made.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { buildAss } from '../../../shared/caption-ass.js';
import { REPOST_TARGET_LIMITS, type RepostTarget } from '../../../shared/platform-limits.js';
import { fileStem } from '../../../shared/file-names.js';
import { burnCaptions } from '../../adapters/media/caption-burn.js';
import type { MediaProcessor } from '../../adapters/media/media-processor.js';
import { cutCover, encodeForTarget, indexComesFirst, moveIndexFirst } from '../../adapters/media/repost-video.js';
import { fontsDir } from '../../adapters/media/studio-fonts.js';
import { writeZipAsReady } from '../../adapters/media/zip-archive.js';
import type { MediaResult } from '../../db/repositories/media-results.repository.js';
import { fail } from '../../errors.js';
import { projectView } from '../caption-studio/caption-projects.service.js';
import { probeVideo } from '../caption-studio/studio-source.js';
import { defineMediaJob, type MediaJobWork } from '../media-job.js';
import type { RepostKitJob } from '../../../shared/contracts/repost-kits.js';
import type { MediaJobs, StoredPart } from '../media-jobs.service.js';
import type { MediaResultsService } from '../media-results.service.js';
import type { QuotaService } from '../quota.service.js';
import type { KitSource, KitSources } from './kit-source.js';
import { planVideo, type ProbedClip, type VideoPlan } from './video-plan.js';

export interface RepostKitJobDeps {
  jobs: MediaJobs;
  media: MediaProcessor;
  results: MediaResultsService;
  quota: QuotaService;
  sources: KitSources;
}

type Made = { file: string; name: string };

export function defineRepostKitJob(deps: RepostKitJobDeps) {
  const { media, results } = deps;
  return defineMediaJob(deps, {
    kind: 'repost-kit',
    key: ({ kitId }) => `repost-kit:${kitId}`,
    load: (data, signal) => deps.sources.resolve({ id: data.userId }, data, signal),
    async produce({ data, source, dir, signal, progress, save }) {
      const slot = data.reservation ? deps.quota.resume(data.userId, data.reservation) : null;
      try {
        const row = await make(data, source, dir, signal, progress, save);
        await slot?.commit(row.size);
        return row;
      } catch (err) {
        await slot?.release(0).catch(() => undefined);
        throw err;
      }
    },
  });

  async function make(
    data: RepostKitJob,
    source: KitSource,
    dir: string,
    signal: AbortSignal,
    progress: (p: number) => void,
    save: MediaJobWork<'repost-kit', KitSource>['save'],
  ): Promise<MediaResult> {
    progress(0);
    let input = await deps.sources.fetchVideo(source, path.join(dir, 'source.mp4'), signal);
    progress(40);
    if (data.burnCaptions) input = await burn(source, input, dir, signal);
    // Everything after the download runs at once (ffprobe, covers, a remux: short runs, mostly
    // waiting on the disk), and all of it settles before the temporary directory goes.
    const started: Array<Promise<unknown>> = [];
    const begin = <T>(p: Promise<T>) => {
      started.push(p.catch(() => undefined));
      return p;
    };
    try {
      return await makeFrom(input);
    } finally {
      await Promise.allSettled(started);
    }

    async function makeFrom(input: string): Promise<MediaResult> {
      const covers = new Map<string, Promise<string>>();
      const coverFor = (size: { width: number; height: number }, duration: number) => {
        const key = `${size.width}x${size.height}`;
        let made = covers.get(key);
        if (!made) {
          const out = path.join(dir, `cover-${key}.jpg`);
          const seconds = Math.max(0, Math.min(data.coverAt, duration - 0.1));
          made = begin(cutCover(media, input, out, { seconds, ...size }, signal).then(() => out));
          covers.set(key, made);
        }
        return made;
      };
      // The covers need only the frame's time: started with the platform's length, before the probe.
      const known = source.duration > 0 && !data.burnCaptions ? source.duration : null;
      if (known) for (const t of data.targets) coverFor(REPOST_TARGET_LIMITS[t].cover, known);
      const [probed, stat, indexFirst] = await Promise.all([
        begin(probeVideo(media, input, signal)),
        fsp.stat(input),
        indexComesFirst(input).catch(() => false),
      ]);
      if (!probed) throw fail('media.unreadable');
      const clip: ProbedClip = { ...probed, size: stat.size, indexFirst };
      const stem = fileStem(source.platform, source.author, source.id);
      const outputs = new Map<string, Promise<string>>(); // one remux or encode per distinct need
      const videoFor = (plan: Exclude<VideoPlan, { action: 'refuse' }>): Promise<string> => {
        if (plan.action === 'keep') return Promise.resolve(input);
        const key = plan.action === 'remux' ? 'remux' : `encode-${plan.width}x${plan.height}`;
        let made = outputs.get(key);
        if (!made) {
          const out = path.join(dir, `${key}.mp4`);
          made = begin(
            (plan.action === 'remux'
              ? moveIndexFirst(media, input, out, signal)
              : encodeForTarget(media, input, out, plan, signal)
            ).then(() => out),
          );
          outputs.set(key, made);
        }
        return made;
      };

      // Each target's files as they will be (promises), planned at once; the ZIP is written as they come.
      type Planned = { target: RepostTarget; files: Array<{ name: string; file: Promise<string>; ready: number }> };
      const planned: Array<Planned & { error?: StoredPart['error'] }> = data.targets.map((target) => {
        const limits = REPOST_TARGET_LIMITS[target];
        const plan = planVideo(limits.video, clip);
        const texts = data.texts[target] ?? { text: '', title: null };
        const files: Planned['files'] = [
          { name: 'caption.txt', file: textFile(dir, target, 'caption.txt', texts.text), ready: 0 },
        ];
        if (texts.title !== null)
          files.push({ name: 'title.txt', file: textFile(dir, target, 'title.txt', texts.title), ready: 0 });
        if (plan.action === 'refuse') {
          const [label, limit, seconds] = [limits.label, plan.limit, Math.round(clip.duration)];
          const e =
            plan.reason === 'too_short'
              ? fail('repost.target_refused', { target: label, limit, seconds, variant: 'too_short' })
              : fail('repost.target_refused', { target: label, limit, seconds });
          return { target, files, error: { code: e.code, message: e.message } };
        }
        files.push(
          { name: `${stem}.mp4`, file: videoFor(plan), ready: plan.action === 'keep' ? 1 : 3 },
          { name: 'cover.jpg', file: coverFor(limits.cover, clip.duration), ready: 2 },
        );
        return { target, files };
      });
      if (planned.every((p) => p.error))
        throw fail('repost.nothing_made', { reasons: planned.map((p) => p.error?.message).join(' ') });
      for (const p of planned) for (const f of p.files) begin(f.file);
      const zip = path.join(dir, 'kit.zip');
      const zipEntries = planned
        .flatMap((p) => p.files.map((f) => ({ ...f, name: `${p.target}/${f.name}` })))
        .sort((a, b) => a.ready - b.ready);
      const size = await writeZipAsReady(zipEntries, zip, signal);
      progress(85);
      const made = await Promise.all(
        planned.map(async (p) => ({
          ...p,
          files: await Promise.all(p.files.map(async (f): Promise<Made> => ({ name: f.name, file: await f.file }))),
        })),
      );
      // Then each file on its own (the store takes the file, so after the ZIP; one copy of a file shared by targets).
      const kept = new Map<string, Promise<string>>();
      const parts: StoredPart[] = await Promise.all(
        made.map(async (p) => {
          const files = await Promise.all(
            p.files.map(async (f) => {
              const key = kept.get(f.file) ?? keep(data.kitId, p.target, f);
              kept.set(f.file, key);
              return { name: f.name, key: await key };
            }),
          );
          return { name: p.target, files, ...(p.error ? { error: p.error } : {}) };
        }),
      );
      progress(95);
      return save({
        platform: source.platform,
        videoId: source.platform === 'studio' ? null : source.id,
        file: zip,
        ext: 'zip',
        contentType: 'application/zip',
        size,
        meta: { parts, fileName: `${stem}-repost-kit.zip`, targets: data.targets },
      });
    }
  }

  /** One file of the kit kept on its own (its own signed link in the job view). */
  async function keep(kitId: string, target: RepostTarget, f: Made) {
    const key = `repost-kit:${kitId}:${target}/${f.name}`;
    const ext = path.extname(f.name).slice(1);
    const type = ext === 'mp4' ? 'video/mp4' : ext === 'jpg' ? 'image/jpeg' : 'text/plain; charset=utf-8';
    const { size } = await fsp.stat(f.file);
    await results.save({
      key,
      kind: 'repost-file',
      videoId: null,
      file: f.file,
      ext,
      contentType: type,
      size,
      meta: { fileName: `${target}-${f.name}` },
    });
    return key;
  }

  async function burn(source: KitSource, input: string, dir: string, signal: AbortSignal) {
    if (!source.project) throw fail('repost.burn_needs_project');
    const probed = await probeVideo(media, input, signal);
    if (!probed) throw fail('media.unreadable');
    const ass = path.join(dir, 'captions.ass');
    await fsp.writeFile(ass, buildAss({ ...projectView(source.project), width: probed.width, height: probed.height }));
    const output = path.join(dir, 'captioned.mp4');
    await burnCaptions(
      media.config.ffmpeg,
      {
        input,
        ass,
        fontsDir: await fontsDir(media.config.tmpRoot),
        output,
        width: probed.width,
        height: probed.height,
        audioCodec: probed.audioCodec,
        duration: probed.duration,
        timeoutMs: media.config.timeoutMs,
        maxBytes: media.config.maxInputBytes * 4,
        signal,
      },
      () => undefined,
    );
    return output;
  }
}
export type RepostKitJobRunner = ReturnType<typeof defineRepostKitJob>;

async function textFile(dir: string, target: RepostTarget, name: string, text: string): Promise<string> {
  const file = path.join(dir, `${target}-${name}`);
  await fsp.writeFile(file, `${text}\n`, 'utf8');
  return file;
}
