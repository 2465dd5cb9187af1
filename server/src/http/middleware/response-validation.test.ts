import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shapesAnswers } from './response-validation.js';

describe('shapesAnswers', () => {
  it('finds schemas whose parse of a valid answer returns it unchanged', () => {
    const strict = z
      .object({
        id: z.string().uuid(),
        amount: z.string().regex(/^\d+$/),
        at: z.string().datetime(),
        tags: z.array(z.enum(['a', 'b'])).max(3),
        nested: z.object({ n: z.number().int().nullable().optional() }).strict(),
        either: z.union([z.literal('x'), z.object({ y: z.boolean() }).strict()]),
        map: z.record(z.string(), z.number()),
        checked: z.string().refine((v) => v.length > 0),
      })
      .strict();
    expect(shapesAnswers(strict)).toBe(false);
    expect(shapesAnswers(z.object({ open: z.string() }).passthrough())).toBe(false);
  });

  it('finds every way a schema can change an answer, however deep', () => {
    const inside = (s: z.ZodTypeAny) => z.object({ list: z.array(z.object({ v: s }).strict()) }).strict();
    expect(shapesAnswers(z.object({ a: z.string() }))).toBe(true); // strips unknown keys
    expect(shapesAnswers(inside(z.string().default('x')))).toBe(true);
    expect(shapesAnswers(inside(z.string().transform((v) => v.trim())))).toBe(true);
    expect(shapesAnswers(inside(z.coerce.number()))).toBe(true);
    expect(shapesAnswers(inside(z.number().catch(0)))).toBe(true);
    expect(shapesAnswers(inside(z.string().pipe(z.string())))).toBe(true);
    expect(shapesAnswers(inside(z.preprocess((v) => v, z.string())))).toBe(true);
  });

  it('walks recursive schemas without looping', () => {
    interface Node {
      children: Node[];
    }
    const node: z.ZodType<Node> = z.lazy(() => z.object({ children: z.array(node) }).strict());
    expect(shapesAnswers(node)).toBe(false);
  });
});
