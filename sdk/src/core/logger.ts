export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Anything with these methods (console, pino, winston) can log for the SDK. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };
const SECRET = /^(authorization|x-builder-api-key|token|signature|x-wallet-signature|cookie)$/i;

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET.test(k) ? '[REDACTED]' : redact(v)]));
  }
  return value;
}

/** Filters by level and removes credentials before anything reaches the injected logger. */
export function leveled(logger: Logger | undefined, level: LogLevel): Logger {
  const emit = (at: Exclude<LogLevel, 'off'>) => (message: string, data?: Record<string, unknown>) => {
    if (!logger || ORDER[at] < ORDER[level]) return;
    logger[at](`[duelkit] ${message}`, data ? (redact(data) as Record<string, unknown>) : undefined);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
