import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { inputGuard, MAX_BODY_DEPTH } from './input-guard.js';

/** Runs the guard on a fake request; the error it passes on, or null. */
function guard(req: { path?: string; query?: unknown; body?: unknown }): DomainError | null {
  let passed: unknown = 'not called';
  inputGuard()({ path: '/x', query: {}, body: {}, ...req } as Request, {} as Response, (err?: unknown) => {
    passed = err ?? null;
  });
  if (passed === 'not called') throw new Error('the guard did not call next');
  return passed as DomainError | null;
}

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nested(depth - 1) });

describe('inputGuard', () => {
  it('lets ordinary requests through, newlines in body text included', () => {
    expect(guard({ path: '/svc/user/duels/by-league/premier%20league', query: { page: '2' } })).toBeNull();
    expect(guard({ body: { description: 'line one\nline two\ttabbed' } })).toBeNull();
    expect(guard({ body: nested(MAX_BODY_DEPTH - 1) })).toBeNull();
  });

  it('refuses control characters in the path and in query names and values, nested too', () => {
    expect(guard({ path: '/svc/user/duels/by-league/a%00b' })?.fieldErrors).toEqual({
      params: ['must not contain control characters'],
    });
    expect(guard({ path: '/a%E0%A4%A' })?.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(guard({ query: { category: 'a\u001fb' } })?.fieldErrors ?? {})).toEqual(['query.category']);
    expect(guard({ query: { ['x\u0000']: '1' } })?.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(guard({ query: { f: { g: ['ok', 'b\u007f'] } } })?.fieldErrors ?? {})).toEqual(['query.f.g.1']);
  });

  it('refuses NUL in JSON values and keys, and nesting past the limit', () => {
    expect(guard({ body: { list: ['ok', 'a\u0000'] } })?.fieldErrors).toEqual({
      'body.list.1': ['must not contain NUL characters'],
    });
    expect(guard({ body: { ['k\u0000']: 1 } })?.code).toBe('VALIDATION_FAILED');
    expect(guard({ body: nested(MAX_BODY_DEPTH + 1) })?.message).toContain('body.a');
  });

  it('walks a very deep body without recursion', () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(guard({ body: deep })?.code).toBe('VALIDATION_FAILED');
  });
});
