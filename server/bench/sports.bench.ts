import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeSportmonks } from '../src/adapters/sports-provider/fake-sportmonks.server.js';
import { buildServer, measure, print, startTarget } from './harness.js';

/** Fresh-cache hits through the full stack vs bare bytes; 1,000 concurrent cold requests → upstream calls. */
export async function sportsBench(): Promise<void> {
  buildServer();
  const fake = await startFakeSportmonks();
  const stack = await startTarget('./targets/stack.ts', {
    SPORTS_PROVIDER: 'sportmonks',
    SPORTMONKS_API_TOKEN: fake.token,
    SPORTMONKS_V3_BASE_URL: fake.v3BaseUrl,
    SPORTMONKS_CRICKET_V2_BASE_URL: fake.cricketV2BaseUrl,
    SPORTS_PROXY_IP_LIMIT_PER_MIN: '100000000',
  });
  const headers = { 'x-builder-api-key': stack.info.key ?? '', 'content-type': 'application/json' };
  const url = `${stack.info.url}/svc/sports/proxy`;
  const body = JSON.stringify({ path: 'football/fixtures/18535517', params: { include: 'participants' } });
  try {
    const warm = await fetch(url, { method: 'POST', headers, body });
    const bytes = Buffer.from(await warm.arrayBuffer());
    const file = join(tmpdir(), `duelkit-bench-${process.pid}.json`);
    writeFileSync(file, bytes);
    const bare = await startTarget('./targets/bare-bytes.ts', { BENCH_BODY_FILE: file });
    try {
      const baseline = await measure('bare node:http, same bytes', bare.info.url);
      const hit = await measure('POST /svc/sports/proxy, fresh cache hit', url, headers, { method: 'POST', body });
      console.log(`\nSports: fresh-cache hits (${bytes.length} bytes) vs bare node:http`);
      print([baseline, hit], baseline);
    } finally {
      bare.proc.kill();
    }

    fake.setMode({ delayMs: 300, pathPrefix: 'football/teams/777' });
    const before = fake.callCount();
    const cold = JSON.stringify({ path: 'football/teams/777' });
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, () => fetch(url, { method: 'POST', headers, body: cold }).then((r) => r.status)),
    );
    const upstream = fake.callCount() - before;
    const count = (s: number) => statuses.filter((x) => x === s).length;
    console.log(
      `\nSports: 1,000 concurrent identical cold requests → ${upstream} upstream call(s); ${count(200)} answered 200, ${count(503)} answered 503 (per-key concurrency 8), ${statuses.length - count(200) - count(503)} other`,
    );
  } finally {
    stack.proc.kill();
    await fake.close();
  }
}
