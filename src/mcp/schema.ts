// The tools' JSON Schemas, made from the contract's (src/contract/schemas.ts) rather than written again: a tool's input is
// the fields of an operation's params, query or body (some made optional, where the server fills them in: the
// profile's own service profile), plus the tool's own switches; its output is the operation's response, or an
// object around contract schemas. The contract's schemas are TypeBox objects when run from source and plain JSON in
// the built bundle, so only what both carry is read: `properties` and `required`.
import type { TSchema } from '@sinclair/typebox';

/** A JSON Schema of an object, as a tool's input or output. */
export interface ObjectSchema {
  type: 'object';
  properties: Record<string, TSchema | ObjectSchema>;
  required?: string[];
  additionalProperties?: boolean;
  description?: string;
  [k: string]: unknown;
}

/** A field of a tool's schema: its schema, whether it is required, and what an agent should know of it. */
export interface Field {
  schema: TSchema | ObjectSchema;
  required?: boolean;
}

/** The fields of a contract object schema, less `omit`, with `optional` ones no longer required. */
export function fieldsOf(
  schema: TSchema,
  options: { omit?: string[]; optional?: string[]; describe?: Record<string, string> } = {},
): Record<string, Field> {
  const props = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  const required = new Set<string>((schema as { required?: string[] }).required ?? []);
  const out: Record<string, Field> = {};
  for (const [k, s] of Object.entries(props)) {
    if (options.omit?.includes(k)) continue;
    const description = options.describe?.[k];
    out[k] = {
      schema: description ? ({ ...s, description } as TSchema) : s,
      required: required.has(k) && !options.optional?.includes(k),
    };
  }
  return out;
}

/** An object schema of these fields; a tool's input refuses unknown fields (`strict`), an output is open. */
export function objectOf(fields: Record<string, Field>, strict: boolean, description?: string): ObjectSchema {
  const required = Object.entries(fields)
    .filter(([, f]) => f.required)
    .map(([k]) => k);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.schema])),
    ...(required.length ? { required } : {}),
    additionalProperties: !strict,
    ...(description ? { description } : {}),
  };
}

/** A contract response schema with further fields (all optional) the tool adds to the service's answer. */
export function extended(schema: TSchema, extra: Record<string, TSchema>): ObjectSchema {
  const s = schema as unknown as ObjectSchema;
  return { ...s, type: 'object', properties: { ...s.properties, ...extra } };
}

/** Plain schema pieces the tools' own fields use. */
export const plain = {
  string: (description: string, extra: Record<string, unknown> = {}): TSchema =>
    ({ type: 'string', description, ...extra }) as unknown as TSchema,
  boolean: (description: string): TSchema => ({ type: 'boolean', description }) as unknown as TSchema,
  integer: (description: string, minimum: number, maximum: number): TSchema =>
    ({ type: 'integer', minimum, maximum, description }) as unknown as TSchema,
  enum: (values: readonly string[], description: string): TSchema =>
    ({ type: 'string', enum: [...values], description }) as unknown as TSchema,
  array: (items: TSchema | ObjectSchema, description: string, extra: Record<string, unknown> = {}): TSchema =>
    ({ type: 'array', items, description, ...extra }) as unknown as TSchema,
  object: (fields: Record<string, Field>, description?: string): TSchema =>
    objectOf(fields, false, description) as unknown as TSchema,
};

/** A contract object schema (a response) as a tool's output schema, as it is. */
export const asObject = (schema: TSchema): ObjectSchema => schema as unknown as ObjectSchema;
