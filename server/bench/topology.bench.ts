import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildServer,
  CONNECTIONS,
  cpuMs,
  DURATION,
  measure,
  print,
  startTarget,
  type Measured,
  type Target,
} from './harness.js';
import { wrkInstalled } from './wrk.js';
import { freshDatabase, seedDuels } from './markets.bench.js';

const HAPROXY = '/usr/sbin/haproxy';
const HAPROXY_CFG = fileURLToPath(new URL('../../deploy/haproxy.cfg', import.meta.url));

/** CPU ms used so far by every process whose command name is `name` (Linux /proc). */
function cpuMsByName(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) total += cpuMs(Number(entry));
    } catch {
      // gone since the listing
    }
  }
  return total;
}

/** CPU ms of the load generator: wrk runs as this process's child and is counted once reaped. */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

/** All CPU time of the machine that was not idle, ms (/proc/stat). */
function busyMs(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  return ((cpu.reduce((a, b) => a + b, 0) - idle) * 1000) / 100;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis of the bench's own, so its command count is the replicas' alone. */
async function startRedis(): Promise<{ url: string; pid: number | undefined; commands(): number; stop(): void }> {
  const port = await freePort();
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const cli = ['-p', String(port)];
  for (let i = 0; ; i++) {
    try {
      execFileSync('redis-cli', [...cli, 'ping'], { stdio: 'ignore' });
      break;
    } catch {
      if (i > 100) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: proc.pid,
    commands() {
      const info = execFileSync('redis-cli', [...cli, 'info', 'stats'], { encoding: 'utf8' });
      return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
    },
    stop: () => proc.kill(),
  };
}

/**
 * HAProxy on deploy/haproxy.cfg, its markets backend's two servers replaced by `markets` (the same
 * address twice puts one replica behind it); the tournaments backend points at a closed port.
 */
async function startHaproxy(markets: [string, string]): Promise<{ url: string; stop(): void }> {
  if (!existsSync(HAPROXY)) throw new Error('haproxy is not installed: apt-get install -y haproxy');
  const [front, unused, closed] = [await freePort(), await freePort(), await freePort()];
  const replacements: [string, string][] = [
    ['bind :8080', `bind 127.0.0.1:${front}`],
    ['bind :8081', `bind 127.0.0.1:${unused}`],
    [' 127.0.0.1:3100 ', ` ${markets[0]} `],
    [' 127.0.0.1:3200 ', ` ${markets[1]} `],
    [' 127.0.0.1:3101 ', ` 127.0.0.1:${closed} `],
    [' 127.0.0.1:3201 ', ` 127.0.0.1:${closed} `],
  ];
  let config = readFileSync(HAPROXY_CFG, 'utf8');
  for (const [from, to] of replacements) {
    if (config.split(from).length !== 2) throw new Error(`deploy/haproxy.cfg: expected "${from}" once`);
    config = config.replace(from, to);
  }
  // Request logs to stdout would cost the proxy more than the routing itself.
  config = config.replace('    option httplog\n', '    option httplog\n    no log\n');
  const dir = mkdtempSync(join(tmpdir(), 'duelkit-bench-haproxy-'));
  writeFileSync(join(dir, 'haproxy.cfg'), config);
  const proc: ChildProcess = spawn(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${front}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 100) throw new Error('haproxy did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop() {
      proc.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `pnpm bench topology`: the public duel list through HAProxy (deploy/haproxy.cfg) to one API
 * replica, then to two, both on one database and one Redis, as deploy/ runs them.
 */
export interface TopologyResult {
  readonly single: Measured;
  readonly double: Measured;
}

/** Why the topology rows cannot run here (HAProxy or wrk missing), or null. */
export function topologyMissing(): string | null {
  if (!existsSync(HAPROXY)) return 'HAProxy is not installed (apt-get install -y haproxy)';
  if (!wrkInstalled()) return 'wrk is not installed (apt-get install -y wrk)';
  return null;
}

export async function topologyBench(): Promise<TopologyResult> {
  buildServer();
  const url = await freshDatabase('dk_bench_topology');
  await seedDuels(url, 10_000);
  const redis = await startRedis();
  const env = { DATABASE_URL: url, REDIS_URL: redis.url, JOBS_ENABLED: 'false', TRUST_PROXY: '1' };
  const replicas: Target[] = [];
  const proxies: { stop(): void }[] = [];
  try {
    // One after the other: the first creates the bench key on the empty database.
    replicas.push(await startTarget('./targets/markets-stack.ts', env));
    replicas.push(await startTarget('./targets/markets-stack.ts', env));
    const [a, b] = replicas.map((r) => new URL(r.info.url).host) as [string, string];
    const key = { 'x-builder-api-key': replicas[0]?.info.key ?? '' };
    const path = '/svc/public/duels/all?limit=20&page=3';
    const one = await startHaproxy([a, a]);
    proxies.push(one);
    const two = await startHaproxy([a, b]);
    proxies.push(two);
    if (!wrkInstalled()) throw new Error('wrk is not installed: apt-get install -y wrk');
    // Where the cores went during each row (warm-up included), so a ceiling can be told apart
    // from the replicas' own cost.
    const groups: [string, () => number][] = [
      ['replicas', () => replicas.reduce((sum, r) => sum + cpuMs(r.proc.pid), 0)],
      ['HAProxy', () => cpuMsByName('haproxy')],
      ['Redis', () => cpuMs(redis.pid)],
      ['PostgreSQL', () => cpuMsByName('postgres')],
      ['wrk', childrenCpuMs],
      ['machine', busyMs],
    ];
    const usage: string[] = [];
    const row = async (name: string, url: string): Promise<Measured> => {
      const before = groups.map(([, read]) => read());
      const started = performance.now();
      const m = await measure(name, url, key, { loadGenerator: 'wrk' });
      const wall = performance.now() - started;
      const cores = groups.map(([, read], i) => ((read() - (before[i] ?? 0)) / wall).toFixed(2));
      usage.push(`| ${name} | ${cores.join(' | ')} |`);
      return m;
    };
    const direct = await row(`one replica, no proxy: GET ${path}`, `${replicas[0]?.info.url}${path}`);
    const single = await row('HAProxy → one replica', `${one.url}${path}`);
    const double = await row('HAProxy → two replicas', `${two.url}${path}`);
    console.log(
      `\nTopology: public duel list over 10,000 duels through HAProxy (${CONNECTIONS} connections, ${DURATION} s)`,
    );
    print([direct, single, double], single);
    console.log(`\nratio two/one replicas = ${(double.rps / single.rps).toFixed(2)} (target ≥ 1.4)`);
    console.log(`\n| cores used during the row | ${groups.map(([label]) => label).join(' | ')} |`);
    console.log(`|---|${groups.map(() => '---:').join('|')}|`);
    for (const line of usage) console.log(line);
    // What one request costs Redis (rate limit, caches), counted one request at a time.
    const sample = 500;
    const before = redis.commands();
    for (let i = 0; i < sample; i++) await (await fetch(`${two.url}${path}`, { headers: key })).arrayBuffer();
    const perRequest = (redis.commands() - before - 1) / sample;
    console.log(`Redis commands per list request: ${perRequest.toFixed(2)} (${sample} requests)`);
    const cores = execFileSync('nproc', { encoding: 'utf8' }).trim();
    console.log(`(${cores} cores: the replicas, HAProxy, PostgreSQL, Redis and the load generator share them)`);
    return { single, double };
  } finally {
    for (const p of proxies) p.stop();
    for (const r of replicas) r.proc.kill();
    redis.stop();
  }
}
