import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { routeLedger } from './route-ledger.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ledgerDir(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'route-ledger-')), 'ledger');
  dirs.push(dir);
  return dir;
}

/** Runs the middleware on a request ts-rest matched to `route` (or none); whether next was called. */
function hit(handler: ReturnType<typeof routeLedger>, route?: { method: string; path: string }): boolean {
  let called = false;
  handler({ tsRestRoute: route } as unknown as Request, {} as Response, () => {
    called = true;
  });
  return called;
}

describe('routeLedger', () => {
  it('records each matched contract route once per process, as host, method and contract path', () => {
    const dir = ledgerDir();
    const markets = routeLedger(dir, 'markets');
    const route = { method: 'GET', path: '/svc/user/duels/get-duel-by-id/:duelId' };
    expect(hit(markets, route)).toBe(true);
    expect(hit(markets, route)).toBe(true);
    expect(hit(markets, { method: 'POST', path: '/svc/user/duels/create' })).toBe(true);
    expect(hit(markets)).toBe(true); // a request no contract route matched
    const [file, ...others] = readdirSync(dir);
    expect(others).toEqual([]);
    expect(file).toBe(`${process.pid}.log`);
    expect(readFileSync(join(dir, file as string), 'utf8')).toBe(
      'markets GET /svc/user/duels/get-duel-by-id/:duelId\nmarkets POST /svc/user/duels/create\n',
    );
  });
});
