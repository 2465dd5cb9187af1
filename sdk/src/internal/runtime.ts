import { VERSION } from '../version.js';

interface RuntimeGlobals {
  process?: { env?: Record<string, string | undefined>; versions?: Record<string, string | undefined> };
  Deno?: { version?: { deno?: string } };
  document?: unknown;
}

const globals = globalThis as RuntimeGlobals;

/** An environment variable where the runtime has them (Node, Bun, Deno's Node compatibility); blank reads as unset. */
export function readEnv(name: string): string | undefined {
  const value = globals.process?.env?.[name]?.trim();
  return value ? value : undefined;
}

/**
 * `duelkit-sdk/<version> <runtime>/<version>`, prefixed with the application's own product token.
 * Undefined in browsers, which send their own User-Agent and ignore or preflight a scripted one.
 */
export function userAgent(appToken: string | undefined): string | undefined {
  if (globals.document !== undefined) return undefined;
  const versions = globals.process?.versions;
  const runtime = versions?.['bun']
    ? `bun/${versions['bun']}`
    : globals.Deno?.version?.deno
      ? `deno/${globals.Deno.version.deno}`
      : versions?.['node']
        ? `node/${versions['node']}`
        : undefined;
  return [appToken, `duelkit-sdk/${VERSION}`, runtime].filter(Boolean).join(' ');
}
