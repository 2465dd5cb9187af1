import { z } from 'zod';

const cache = new WeakMap<z.ZodTypeAny, z.ZodTypeAny>();

/**
 * The response side of a contract schema as an older SDK should read it: objects let unknown
 * fields through, enums accept values added after this SDK was built. Everything else (required
 * fields, types, formats) is still checked. Memoised per schema.
 */
export function lenient<T extends z.ZodTypeAny>(schema: T): z.ZodTypeAny {
  let out = cache.get(schema);
  if (!out) {
    out = widen(schema);
    cache.set(schema, out);
  }
  return out;
}

function lenientObject(schema: z.AnyZodObject, keep?: string): z.AnyZodObject {
  const def = schema._def;
  const shape = def.shape() as z.ZodRawShape;
  const next: z.ZodRawShape = {};
  // A discriminator stays exact: the union picks its branch by it.
  for (const [key, value] of Object.entries(shape)) next[key] = key === keep ? value : lenient(value);
  return new z.ZodObject({ ...def, shape: () => next, unknownKeys: 'passthrough', catchall: lenient(def.catchall) });
}

function widen(schema: z.ZodTypeAny): z.ZodTypeAny {
  const def = schema._def as z.ZodTypeDef & { typeName?: z.ZodFirstPartyTypeKind };
  const K = z.ZodFirstPartyTypeKind;
  switch (def.typeName) {
    case K.ZodEnum:
    case K.ZodNativeEnum:
      return z.union([schema, z.string()]);
    case K.ZodObject:
      return lenientObject(schema as z.AnyZodObject);
    case K.ZodArray: {
      const d = schema._def as z.ZodArrayDef;
      return new z.ZodArray({ ...d, type: lenient(d.type) });
    }
    case K.ZodOptional:
    case K.ZodNullable:
    case K.ZodDefault:
    case K.ZodCatch:
    case K.ZodReadonly: {
      const d = schema._def as { innerType: z.ZodTypeAny };
      const Ctor = schema.constructor as new (def: unknown) => z.ZodTypeAny;
      return new Ctor({ ...d, innerType: lenient(d.innerType) });
    }
    case K.ZodBranded: {
      const d = schema._def as z.ZodBrandedDef<z.ZodTypeAny>;
      return new z.ZodBranded({ ...d, type: lenient(d.type) });
    }
    case K.ZodEffects: {
      const d = schema._def as z.ZodEffectsDef;
      return new z.ZodEffects({ ...d, schema: lenient(d.schema) });
    }
    case K.ZodPipeline: {
      const d = schema._def as z.ZodPipelineDef<z.ZodTypeAny, z.ZodTypeAny>;
      return new z.ZodPipeline({ ...d, in: lenient(d.in), out: lenient(d.out) });
    }
    case K.ZodLazy: {
      const d = schema._def as z.ZodLazyDef;
      return z.lazy(() => lenient(d.getter()));
    }
    case K.ZodUnion: {
      const d = schema._def as z.ZodUnionDef;
      return new z.ZodUnion({ ...d, options: d.options.map((o) => lenient(o)) as unknown as z.ZodUnionOptions });
    }
    case K.ZodDiscriminatedUnion: {
      const d = schema._def as z.ZodDiscriminatedUnionDef<string>;
      const options = d.options.map((o) => lenientObject(o, d.discriminator));
      return z.discriminatedUnion(d.discriminator, options as [z.AnyZodObject, ...z.AnyZodObject[]]);
    }
    case K.ZodIntersection: {
      const d = schema._def as z.ZodIntersectionDef;
      return new z.ZodIntersection({ ...d, left: lenient(d.left), right: lenient(d.right) });
    }
    case K.ZodRecord: {
      const d = schema._def as z.ZodRecordDef;
      return new z.ZodRecord({ ...d, keyType: lenient(d.keyType), valueType: lenient(d.valueType) });
    }
    case K.ZodTuple: {
      const d = schema._def as z.ZodTupleDef;
      return new z.ZodTuple({
        ...d,
        items: d.items.map((i) => lenient(i)) as unknown as z.ZodTupleItems,
        rest: d.rest ? lenient(d.rest) : null,
      });
    }
    default:
      return schema;
  }
}
