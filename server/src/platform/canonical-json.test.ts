import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('gives equal data the same string whatever the key order, at every depth', () => {
    const a = { b: 1, a: { y: [1, { q: 'x', p: null }], x: true } };
    const b = { a: { x: true, y: [1, { p: null, q: 'x' }] }, b: 1 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":{"x":true,"y":[1,{"p":null,"q":"x"}]},"b":1}');
  });

  it('leaves out undefined members like JSON.stringify, and keeps array order', () => {
    expect(canonicalJson({ a: undefined, b: [2, 1] })).toBe('{"b":[2,1]}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('a"b')).toBe(JSON.stringify('a"b'));
  });
});
