import pino, { type Logger } from 'pino';

/** Structured logs; cookies, authorization headers and passwords never reach them. */
export function createLogger(level: string): Logger {
  return pino({
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
  });
}
