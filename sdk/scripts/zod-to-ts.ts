/**
 * Writes zod (v3) schemas as plain TypeScript type text, so the published declarations of the SDK
 * are interfaces the compiler reads in milliseconds instead of zod and ts-rest generics it has to
 * instantiate. Two modes, as zod's own `z.input` / `z.output`:
 *
 * - `input`: what a caller may send (a field with a default is optional, a transform takes its
 *   input type);
 * - `output`: what the SDK answers, read leniently like `internal/lenient.ts` reads it at run
 *   time: an enum of two or more strings also admits new values (`'a' | 'b' | (string & {})`).
 *
 * Schemas registered under a name (the contract's `namedSchemas`) become named interfaces in
 * output mode; `.describe()` texts become JSDoc on the properties.
 */
import { z } from 'zod';

export type Mode = 'input' | 'output';

type Def = z.ZodTypeDef & { typeName?: z.ZodFirstPartyTypeKind; description?: string };
const K = z.ZodFirstPartyTypeKind;

export interface Emitter {
  /** The type text of `schema`, referring to named types where registered. */
  type(schema: z.ZodTypeAny, mode: Mode, indent?: string): string;
  /** Declarations of the named types referred to so far (and those they refer to), in order of first use. */
  declarations(): string[];
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function doc(text: string | undefined, indent: string): string {
  if (!text) return '';
  const lines = text.replaceAll('*/', '*\\/').split('\n');
  return lines.length === 1
    ? `${indent}/** ${lines[0]} */\n`
    : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

/** The description of a schema, looking through the wrappers zod puts around a described one. */
function descriptionOf(schema: z.ZodTypeAny): string | undefined {
  let s: z.ZodTypeAny | undefined = schema;
  for (let i = 0; s && i < 8; i++) {
    const def = s._def as Def & { innerType?: z.ZodTypeAny; schema?: z.ZodTypeAny };
    if (def.description) return def.description;
    s = def.innerType ?? (def.typeName === K.ZodEffects ? def.schema : undefined);
  }
  return undefined;
}

/** Whether an object's property may be left out in this mode. */
function optionalIn(schema: z.ZodTypeAny, mode: Mode): boolean {
  const def = schema._def as Def & { innerType?: z.ZodTypeAny; schema?: z.ZodTypeAny; in?: z.ZodTypeAny };
  switch (def.typeName) {
    // zod also leaves out a key whose type admits undefined (unknown, any).
    case K.ZodOptional:
    case K.ZodUnknown:
    case K.ZodAny:
      return true;
    case K.ZodDefault:
    case K.ZodCatch:
      return mode === 'input';
    case K.ZodNullable:
    case K.ZodReadonly:
    case K.ZodBranded:
      return optionalIn(def.innerType ?? (def as unknown as { type: z.ZodTypeAny }).type, mode);
    case K.ZodEffects:
      return mode === 'input' && optionalIn(def.schema!, mode);
    case K.ZodPipeline:
      return mode === 'input' && optionalIn(def.in!, mode);
    default:
      return false;
  }
}

function literal(value: unknown): string {
  return typeof value === 'bigint' ? `${value}n` : JSON.stringify(value);
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.join(' | ');
}

function arrayOf(item: string): string {
  return IDENT.test(item) || /^'[^']*'$|^"[^"]*"$/.test(item) ? `${item}[]` : `Array<${item}>`;
}

/** A type zod cannot describe (a `z.custom<T>()`), declared by hand under its name. */
export interface HandWritten {
  schema: z.ZodTypeAny;
  declaration: string;
}

export function createEmitter(
  named: Record<string, z.ZodTypeAny>,
  handWritten: Record<string, HandWritten> = {},
): Emitter {
  const nameOf = new Map<z.ZodTypeAny, string>();
  for (const [name, schema] of Object.entries(named)) nameOf.set(schema, name);
  const emitted = new Map<string, string>();
  const pending = new Set<string>();
  const byHand = new Map(Object.entries(handWritten).map(([name, h]) => [h.schema, { name, ...h }]));

  const isEnum = (schema: z.ZodTypeAny) => (schema._def as Def).typeName === K.ZodEnum;

  function declare(name: string, schema: z.ZodTypeAny): void {
    if (emitted.has(name) || pending.has(name)) return;
    pending.add(name);
    // A named enum is declared exact; where it is read from an answer it is widened at the use.
    const body = structural(schema, isEnum(schema) ? 'input' : 'output', '');
    const description = descriptionOf(schema);
    const text = body.startsWith('{')
      ? `${doc(description, '')}export interface ${name} ${body}`
      : `${doc(description, '')}export type ${name} = ${body};`;
    pending.delete(name);
    emitted.set(name, text);
  }

  function type(schema: z.ZodTypeAny, mode: Mode, indent = ''): string {
    const manual = byHand.get(schema);
    if (manual) {
      if (!emitted.has(manual.name)) emitted.set(manual.name, `${doc(descriptionOf(schema), '')}${manual.declaration}`);
      return manual.name;
    }
    const name = nameOf.get(schema);
    if (name && isEnum(schema)) {
      declare(name, schema);
      return mode === 'output' ? `${name} | (string & {})` : name;
    }
    // In input mode a named type is used where it reads the same as sent (no defaults, no enums).
    if (name && (mode === 'output' || structural(schema, 'input', '') === structural(schema, 'output', ''))) {
      declare(name, schema);
      return name;
    }
    return structural(schema, mode, indent);
  }

  function objectType(shape: z.ZodRawShape, mode: Mode, indent: string, discriminator?: string): string {
    const inner = `${indent}  `;
    const lines = Object.entries(shape).map(([key, value]) => {
      const prop = IDENT.test(key) ? key : JSON.stringify(key);
      const opt = optionalIn(value, mode);
      const t =
        key === discriminator
          ? structural(value, 'input', inner)
          : type(value, mode, inner).replace(/ \| undefined$/, '');
      const orUndefined = opt && t !== 'unknown' ? ' | undefined' : '';
      return `${doc(descriptionOf(value), inner)}${inner}${prop}${opt ? '?' : ''}: ${t}${orUndefined};`;
    });
    if (lines.length > 0) return `{\n${lines.join('\n')}\n${indent}}`;
    // No fields: nothing to send; an answer may still carry fields added later.
    return mode === 'input' ? 'Record<string, never>' : 'Record<string, unknown>';
  }

  function structural(schema: z.ZodTypeAny, mode: Mode, indent: string): string {
    const def = schema._def as Def;
    switch (def.typeName) {
      case K.ZodString:
        return 'string';
      case K.ZodNumber:
      case K.ZodNaN:
        return 'number';
      case K.ZodBoolean:
        return 'boolean';
      case K.ZodBigInt:
        return 'bigint';
      case K.ZodDate:
        return 'Date';
      case K.ZodNull:
        return 'null';
      case K.ZodUndefined:
      case K.ZodVoid:
        return 'undefined';
      case K.ZodAny:
      case K.ZodUnknown:
        return 'unknown';
      case K.ZodNever:
        return 'never';
      case K.ZodLiteral:
        return literal((def as z.ZodLiteralDef).value);
      case K.ZodEnum: {
        const values = (def as z.ZodEnumDef).values as readonly string[];
        const parts = values.map((v) => literal(v));
        return union(mode === 'output' && values.length > 1 ? [...parts, '(string & {})'] : parts);
      }
      case K.ZodNativeEnum: {
        const values = Object.values((def as z.ZodNativeEnumDef).values as Record<string, string | number>);
        return union(values.map((v) => literal(v)));
      }
      case K.ZodObject:
        return objectType((schema as z.AnyZodObject).shape as z.ZodRawShape, mode, indent);
      case K.ZodArray:
        return arrayOf(type((def as z.ZodArrayDef).type, mode, indent));
      case K.ZodTuple: {
        const d = def as z.ZodTupleDef;
        const items = d.items.map((i) => type(i, mode, indent));
        if (d.rest) items.push(`...${arrayOf(type(d.rest, mode, indent))}`);
        return `[${items.join(', ')}]`;
      }
      case K.ZodRecord: {
        const d = def as z.ZodRecordDef;
        return `Record<${type(d.keyType, 'input', indent)}, ${type(d.valueType, mode, indent)}>`;
      }
      case K.ZodUnion: {
        const options = (def as z.ZodUnionDef).options as readonly z.ZodTypeAny[];
        const parts = options.map((o) => type(o, mode, indent));
        const strings = options.every((o) => {
          const od = o._def as Def & { value?: unknown };
          return od.typeName === K.ZodLiteral && typeof od.value === 'string';
        });
        return union(mode === 'output' && strings && parts.length > 1 ? [...parts, '(string & {})'] : parts);
      }
      case K.ZodDiscriminatedUnion: {
        const d = def as z.ZodDiscriminatedUnionDef<string>;
        return union(
          d.options.map((o) =>
            mode === 'output' && nameOf.has(o)
              ? type(o, mode, indent)
              : objectType(o.shape, mode, indent, d.discriminator),
          ),
        );
      }
      case K.ZodIntersection: {
        const d = def as z.ZodIntersectionDef;
        return `(${type(d.left, mode, indent)}) & (${type(d.right, mode, indent)})`;
      }
      case K.ZodOptional:
        return union([type((def as z.ZodOptionalDef).innerType, mode, indent), 'undefined']);
      case K.ZodNullable:
        return union([type((def as z.ZodNullableDef).innerType, mode, indent), 'null']);
      case K.ZodDefault:
      case K.ZodCatch:
      case K.ZodReadonly:
        return type((def as unknown as { innerType: z.ZodTypeAny }).innerType, mode, indent);
      case K.ZodBranded:
        return type((def as z.ZodBrandedDef<z.ZodTypeAny>).type, mode, indent);
      case K.ZodLazy:
        return type((def as z.ZodLazyDef).getter(), mode, indent);
      case K.ZodPipeline: {
        const d = def as z.ZodPipelineDef<z.ZodTypeAny, z.ZodTypeAny>;
        return mode === 'input' ? type(d.in, mode, indent) : type(d.out, mode, indent);
      }
      case K.ZodEffects: {
        const d = def as z.ZodEffectsDef;
        if (mode === 'output' && d.effect.type === 'transform') {
          // The type a transform produces is only known to the compiler; none is read from an answer today.
          throw new Error('zod-to-ts: a transform in a response schema has no type to write');
        }
        return type(d.schema, mode, indent);
      }
      default:
        // z.instanceof / z.custom and kinds not used by the contract: nothing to check statically.
        return 'unknown';
    }
  }

  return {
    type,
    declarations: () => [...emitted.values()],
  };
}
