import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * wrk (Debian's `wrk` package), a load generator written in C: where the server under test and the
 * load generator share two cores, autocannon (JavaScript, one thread) spends about as much CPU per
 * request as a cached list answer costs the server, so it, not the server, sets the ceiling.
 */
export const WRK = '/usr/bin/wrk';

export function wrkInstalled(): boolean {
  return existsSync(WRK);
}

export interface WrkOptions {
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  method?: string;
  body?: string;
  /** Paths of the URL's origin, cycled through in order. */
  paths?: readonly string[];
}

export interface WrkResult {
  requests: number;
  seconds: number;
  /** Microseconds. */
  p99: number;
  /** Answers with a status ≥ 400 (wrk does not count 3xx). */
  non2xx: number;
  errors: number;
}

const lua = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Lua string literal for ASCII

/** The script: headers, method, body and the path cycle set up front; the summary printed as JSON. */
function script(options: WrkOptions): string {
  const lines = [`wrk.method = ${lua(options.method ?? 'GET')}`];
  if (options.body !== undefined) lines.push(`wrk.body = ${lua(options.body)}`);
  for (const [name, value] of Object.entries(options.headers)) lines.push(`wrk.headers[${lua(name)}] = ${lua(value)}`);
  if (options.paths && options.paths.length > 0) {
    lines.push(
      `local paths = { ${options.paths.map(lua).join(', ')} }`,
      'local requests = {}',
      'local i = 0',
      'init = function() for k, p in ipairs(paths) do requests[k] = wrk.format(nil, p) end end',
      'request = function() i = i % #requests + 1; return requests[i] end',
    );
  }
  lines.push(
    'done = function(s, latency, r)',
    '  local e = s.errors',
    '  io.write(string.format(\'{"requests":%d,"us":%d,"p99":%d,"status":%d,"errors":%d}\\n\',',
    '    s.requests, s.duration, latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))',
    'end',
  );
  return lines.join('\n');
}

/** One wrk run against `url` (one thread: at these rates a second would only compete for the cores). */
export async function wrk(url: string, options: WrkOptions): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'duelkit-bench-wrk-'));
  try {
    const file = join(dir, 'script.lua');
    writeFileSync(file, script(options));
    const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '-s', file, url];
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(WRK, args, { encoding: 'utf8' }, (error, out, err) =>
        error ? reject(new Error(`wrk failed: ${err || error.message}`)) : resolve(out),
      ),
    );
    const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
    if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
    const r = JSON.parse(line) as { requests: number; us: number; p99: number; status: number; errors: number };
    return { requests: r.requests, seconds: r.us / 1e6, p99: r.p99, non2xx: r.status, errors: r.errors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
