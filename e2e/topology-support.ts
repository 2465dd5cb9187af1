/**
 * The processes of deploy/ started on one machine the way its README runs them: API replicas and a
 * worker (the server from source, with the settings of deploy/env/*.env), and HAProxy from the
 * system's packages with deploy/haproxy.cfg, only its addresses and ports replaced. Nothing here
 * imports the server.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectLines, exitOf, freePort, freshDatabase, ROOT, SERVER_DIR, SERVER_ENTRY } from './support.js';

export const DEPLOY_DIR = join(ROOT, 'deploy');

/** `KEY=value` lines of a systemd environment file (comments and blank lines skipped). */
export function readEnvFile(name: string): Record<string, string> {
  const entries = readFileSync(join(DEPLOY_DIR, 'env', name), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const at = line.indexOf('=');
      return [line.slice(0, at), line.slice(at + 1).replace(/^'(.*)'$/, '$1')] as const;
    });
  return Object.fromEntries(entries);
}

/** Debian's HAProxy, installed from the system's packages when it is missing (as `.ci/run` does). */
export function ensureHaproxy(): string {
  const binary = '/usr/sbin/haproxy';
  if (!existsSync(binary)) {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'haproxy'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  return binary;
}

/** A database the processes share: a clone of the run's migrated template, dropped at the end. */
export const sharedDatabase = () => freshDatabase('topo');

/** The log entries of one process with message `msg`. */
export function logEntries(lines: readonly string[], msg: string): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      return entry['msg'] === msg ? [entry] : [];
    } catch {
      return [];
    }
  });
}

export interface Instance {
  readonly name: string;
  readonly marketsUrl: string;
  readonly tournamentsUrl: string;
  readonly lines: string[];
  readonly child: ChildProcess;
  /** Calls the operator surface (worker only), as the operator commands do. */
  operator<T>(path: string, body: unknown): Promise<T>;
  /** Signals the process and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts one server process (the tests' build, in the server package) and waits until it listens. */
export async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const runtimeDir = mkdtempSync(join(tmpdir(), `duelkit-${name}-`));
  const keep = ['PATH', 'HOME', 'LANG', 'DUELKIT_ROUTE_LEDGER'];
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: SERVER_DIR,
    env: {
      ...Object.fromEntries(keep.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : []))),
      DUELKIT_DATA_DIR: ':memory:',
      DUELKIT_RUNTIME_DIR: runtimeDir,
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  const lines = collectLines(child);
  const exited = exitOf(child);
  const deadline = Date.now() + 120_000;
  while (logEntries(lines, 'duelkit listening').length === 0) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start (exit ${child.exitCode}):\n${lines.slice(-30).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const listening = logEntries(lines, 'duelkit listening')[0] as { marketsUrl: string; tournamentsUrl: string };
  return {
    name,
    marketsUrl: listening.marketsUrl,
    tournamentsUrl: listening.tournamentsUrl,
    lines,
    child,
    async operator<T>(path: string, body: unknown): Promise<T> {
      const surface = logEntries(lines, 'operator surface on loopback')[0] as { credentialFile?: string } | undefined;
      if (!surface?.credentialFile) throw new Error(`${name} serves no operator surface`);
      const credential = JSON.parse(readFileSync(surface.credentialFile, 'utf8')) as { url: string; token: string };
      const res = await fetch(`${credential.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${credential.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as T & { code?: string; message?: string };
      if (!res.ok) throw new Error(`operator ${path}: ${res.status} ${answer.code}: ${answer.message}`);
      return answer;
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      rmSync(runtimeDir, { recursive: true, force: true });
    },
  };
}

export interface Proxy {
  readonly marketsUrl: string;
  readonly tournamentsUrl: string;
  readonly lines: string[];
  stop(): Promise<void>;
}

/**
 * Runs HAProxy in the foreground on deploy/haproxy.cfg with its public ports and the replicas'
 * addresses replaced (each exactly once, so a change of the shipped file's shape fails here).
 *
 * The public ports are free when chosen, but another process of the run may take one before HAProxy
 * binds it: HAProxy then exits, and that process would answer on the port. So the proxy is ready
 * only once HAProxy itself holds both listening sockets, and it is started again on new ports when
 * it could not bind.
 */
export async function startProxy(replicas: readonly Instance[]): Promise<Proxy> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startProxyOnce(replicas);
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt >= 3) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startProxyOnce(replicas: readonly Instance[]): Promise<Proxy> {
  const binary = ensureHaproxy();
  const [markets, tournaments] = [await freePort(), await freePort()];
  const hostPort = (url: string) => new URL(url).host;
  const replacements: [string, string][] = [
    ['bind :8080', `bind 127.0.0.1:${markets}`],
    ['bind :8081', `bind 127.0.0.1:${tournaments}`],
  ];
  replicas.forEach((replica, i) => {
    const n = i + 1;
    replacements.push([` 127.0.0.1:3${n}00 `, ` ${hostPort(replica.marketsUrl)} `]);
    replacements.push([` 127.0.0.1:3${n}01 `, ` ${hostPort(replica.tournamentsUrl)} `]);
  });
  let config = readFileSync(join(DEPLOY_DIR, 'haproxy.cfg'), 'utf8');
  for (const [from, to] of replacements) {
    const count = config.split(from).length - 1;
    if (count !== 1) throw new Error(`deploy/haproxy.cfg: expected "${from}" once, found it ${count} times`);
    config = config.replace(from, to);
  }
  const dir = mkdtempSync(join(tmpdir(), 'duelkit-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const child = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = collectLines(child);
  const exited = exitOf(child);
  const proxy = {
    marketsUrl: `http://127.0.0.1:${markets}`,
    tournamentsUrl: `http://127.0.0.1:${tournaments}`,
    lines,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      await proxy.stop();
      const message = `haproxy did not start (exit ${child.exitCode}):\n${lines.join('\n')}`;
      throw lines.some((l) => l.includes('cannot bind socket')) ? new PortTaken(message) : new Error(message);
    }
    if (child.pid !== undefined && listensOn(child.pid, [markets, tournaments])) {
      const ready = await Promise.all(
        [proxy.marketsUrl, proxy.tournamentsUrl].map((u) =>
          fetch(`${u}/ready`).then(
            (r) => r.status === 200,
            () => false,
          ),
        ),
      );
      if (ready.every(Boolean)) return proxy;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * True when process `pid` holds a listening TCP socket on each of `ports`, read from Linux's /proc
 * (the test runs as root, as HAProxy's `user` setting needs). Where /proc cannot be read, HAProxy
 * having neither exited nor failed to bind is taken as the answer.
 */
function listensOn(pid: number, ports: readonly number[]): boolean {
  const LISTEN = '0A';
  const listening = new Map<number, string[]>();
  let fds: string[];
  try {
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!existsSync(table)) continue;
      for (const row of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const cols = row.trim().split(/\s+/);
        const [local, state, inode] = [cols[1], cols[3], cols[9]];
        if (!local || state !== LISTEN || !inode) continue;
        const port = parseInt(local.slice(local.lastIndexOf(':') + 1), 16);
        listening.set(port, [...(listening.get(port) ?? []), `socket:[${inode}]`]);
      }
    }
    fds = readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    });
  } catch {
    return true;
  }
  return ports.every((port) => (listening.get(port) ?? []).some((socket) => fds.includes(socket)));
}

/** Deletes every Redis key under `prefix` (the job queues of a test's database) with redis-cli. */
export function deleteRedisKeys(redisUrl: string, prefix: string): void {
  const url = new URL(redisUrl);
  const cli = ['-h', url.hostname, '-p', url.port || '6379'];
  const keys = execFileSync('redis-cli', [...cli, '--scan', '--pattern', `${prefix}*`], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  for (let i = 0; i < keys.length; i += 500) {
    execFileSync('redis-cli', [...cli, 'del', ...keys.slice(i, i + 500)], { stdio: 'ignore' });
  }
}
