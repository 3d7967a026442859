import type { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

/**
 * Structured logs; cookies, authorization headers and passwords never reach them.
 * Readable lines when a person watches a terminal (stdout is a TTY), one JSON object per line
 * otherwise (log collectors, files, pipes). Pretty printing runs in-process (a stream, not a
 * worker transport): `npm start` in a terminal is one person's server, not a hot path.
 */
export function createLogger(level: string, opts: { pretty?: boolean; destination?: Writable } = {}): Logger {
  const options = {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.passwordHash',
        '*.accessToken',
        '*.refreshToken',
        '*.access_token',
        '*.client_secret',
      ],
      censor: '***',
    },
  };
  const usePretty = opts.pretty ?? process.stdout.isTTY === true;
  if (usePretty) {
    return pino(
      options,
      pretty({
        colorize: !opts.destination,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname',
        sync: true,
        destination: opts.destination ?? 1,
      }),
    );
  }
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
