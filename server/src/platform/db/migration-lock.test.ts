import { describe, expect, it } from 'vitest';
import { isCreateRace } from './migration-lock.js';

describe('isCreateRace', () => {
  it('recognises every error PostgreSQL raises when two processes create the lock table at once', () => {
    // 23505: duplicate key in pg_type; 42P07: duplicate relation; 42710: `type "…" already exists`.
    for (const code of ['23505', '42P07', '42710']) expect(isCreateRace({ code })).toBe(true);
  });

  it('lets every other failure through', () => {
    for (const err of [{ code: '42501' }, { code: '08006' }, new Error('connection refused'), null]) {
      expect(isCreateRace(err)).toBe(false);
    }
  });
});
