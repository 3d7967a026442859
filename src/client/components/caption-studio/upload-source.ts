// A video file sent to /api/uploads with the tus protocol (tus-js-client): sent in a stream, with
// progress; a dropped connection retries and resumes from the server's offset, and a reload resumes
// the same file from where it stopped (tus-js-client remembers the upload URL in localStorage).
import { Upload } from 'tus-js-client';
import { ApiError } from '../../lib/api-error';

export const UPLOAD_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
export const UPLOAD_ACCEPT = '.mp4,.mov,.webm,video/mp4,video/quicktime,video/webm';

export interface UploadHandle {
  done: Promise<string>;
  abort: () => void;
}

/** Starts (or resumes) the upload; `done` gives the upload id for a caption project's source. */
export function uploadVideo(file: File, onProgress: (sent: number, total: number) => void): UploadHandle {
  let upload: Upload;
  const done = new Promise<string>((resolve, reject) => {
    upload = new Upload(file, {
      endpoint: '/api/uploads',
      retryDelays: [0, 1000, 3000, 5000, 10000],
      // Each request must arrive whole within the server's 20 s: 4 MiB pieces suit slow links too.
      chunkSize: 4 * 1024 * 1024,
      metadata: { filename: file.name, filetype: file.type || 'application/octet-stream' },
      removeFingerprintOnSuccess: true,
      onProgress,
      onError: (err) => {
        const res = (err as { originalResponse?: { getStatus(): number; getBody(): string } }).originalResponse;
        reject(res ? ApiError.fromBody(res.getStatus(), res.getBody()) : err);
      },
      onSuccess: () => {
        const id = upload.url?.split('/').pop();
        if (id) resolve(decodeURIComponent(id));
        else reject(new Error('The upload finished without an address.'));
      },
    });
    upload.findPreviousUploads().then(
      (previous) => {
        if (previous.length > 0) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      },
      () => upload.start(),
    );
  });
  return { done, abort: () => void upload?.abort(true) };
}
