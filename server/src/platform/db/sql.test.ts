import { describe, expect, it } from 'vitest';
import { numberedPlaceholders, pgArray } from './sql.js';

describe('numberedPlaceholders', () => {
  it('numbers ? placeholders in order', () => {
    expect(numberedPlaceholders('select * from t where a = ? and b in (?, ?) limit ?')).toBe(
      'select * from t where a = $1 and b in ($2, $3) limit $4',
    );
  });

  it('leaves question marks inside quoted text, quoted identifiers and comments alone', () => {
    expect(
      numberedPlaceholders(`select '?' as "what?", ? -- is it? yes
 from t where note = 'it''s ?' and id = ?`),
    ).toBe(`select '?' as "what?", $1 -- is it? yes
 from t where note = 'it''s ?' and id = $2`);
  });

  it('refuses identifier bindings and unterminated quotes instead of guessing', () => {
    expect(() => numberedPlaceholders('select ?? from t')).toThrow(/identifier bindings/);
    expect(() => numberedPlaceholders("select 'open")).toThrow(/unterminated/);
  });
});

describe('pgArray', () => {
  it('quotes every element so commas, braces and quotes stay inside it', () => {
    expect(pgArray(['a,b', '{c}', 'd"e', 'f\\g', 7, 8n])).toBe('{"a,b","{c}","d\\"e","f\\\\g","7","8"}');
  });
});
