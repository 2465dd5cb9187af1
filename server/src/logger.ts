import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** Headers and fields whose values never reach a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-builder-api-key"]',
  'req.headers["x-wallet-signature"]',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  '*.api_token',
  '*.apiToken',
  '*.password',
  '*.token',
  '*.privateKey',
];

const SECRET_QUERY = /([?&](?:api_token|token|apikey|api_key|access_token|id_token)=)[^&#]*/gi;

/** Removes secret-looking query parameter values from a URL before it is logged. */
export function redactUrl(url: string): string {
  // Every secret parameter has a value: a URL without '=' has nothing to redact.
  return url.includes('=') ? url.replace(SECRET_QUERY, '$1[REDACTED]') : url;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      base: { service: 'duelkit' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
