import { InvalidOptionsError, type OptionsIssue } from '../errors/invalid-options-error.js';
import { describeType, isRecord, type JSONValue } from '../json.js';

/**
 * The subset of JSON Schema that option schemas use. Being plain JSON Schema, a strategy's options schema
 * is published as is (editors complete config files from it) and validated at construction by
 * {@link validateOptions}, with no schema library at run time.
 */
export interface OptionsSchema {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  description?: string;
  default?: JSONValue;
  enum?: readonly JSONValue[];
  const?: JSONValue;
  properties?: Readonly<Record<string, OptionsSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean | OptionsSchema;
  items?: OptionsSchema;
  minItems?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  anyOf?: readonly OptionsSchema[];
  title?: string;
  $schema?: string;
}

/**
 * Validates `value` against `schema` and returns a copy with the schema's defaults filled in.
 * Throws {@link InvalidOptionsError} listing every problem, each with its path.
 */
export function validateOptions<T>(schema: OptionsSchema, value: unknown, subject: string): T {
  const issues: OptionsIssue[] = [];
  const result = check(schema, value === undefined ? {} : value, '', issues);
  if (issues.length > 0) throw new InvalidOptionsError({ subject, issues });
  return result as T;
}

function check(schema: OptionsSchema, value: unknown, path: string, issues: OptionsIssue[]): unknown {
  const add = (message: string, at = path) => issues.push({ path: at, message });
  const got = `, got ${describeType(value)}`;
  const fail = (message: string) => {
    add(message);
    return value;
  };
  if (schema.anyOf !== undefined) {
    for (const option of schema.anyOf) {
      const optionIssues: OptionsIssue[] = [];
      const result = check(option, value, path, optionIssues);
      if (optionIssues.length === 0) return result;
    }
    return fail(`does not match any allowed form${schema.description ? ` (${schema.description})` : ''}`);
  }
  if (schema.const !== undefined && value !== schema.const) add(`must be ${JSON.stringify(schema.const)}`);
  if (schema.enum !== undefined && !schema.enum.includes(value as JSONValue)) {
    return fail(`must be one of ${schema.enum.map((item) => JSON.stringify(item)).join(', ')}`);
  }
  const { type, minLength, minItems, minimum, maximum, exclusiveMinimum } = schema;
  if (type === 'null' && value !== null) add('must be null');
  if (type === 'boolean' && typeof value !== 'boolean') add(`must be a boolean${got}`);
  if (type === 'string' && typeof value !== 'string') add(`must be a string${got}`);
  else if (type === 'string' && (value as string).length < (minLength ?? 0)) {
    add(`must have at least ${minLength} characters`);
  }
  if (type === 'number' || type === 'integer') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`must be a number${got}`);
    if (type === 'integer' && !Number.isInteger(value)) add('must be an integer');
    if (minimum !== undefined && value < minimum) add(`must be at least ${minimum}`);
    if (maximum !== undefined && value > maximum) add(`must be at most ${maximum}`);
    if (exclusiveMinimum !== undefined && value <= exclusiveMinimum)
      add(`must be greater than ${exclusiveMinimum}`);
  }
  if (type === 'array') {
    if (!Array.isArray(value)) return fail(`must be an array${got}`);
    if (minItems !== undefined && value.length < minItems) add(`must have at least ${minItems} items`);
    const { items } = schema;
    return items === undefined
      ? [...value]
      : value.map((item, index) => check(items, item, `${path}[${index}]`, issues));
  }
  if (type !== 'object') return value;
  if (!isRecord(value)) return fail(`must be an object${got}`);
  const properties = schema.properties ?? {};
  const known = Object.keys(properties);
  const result: Record<string, unknown> = {};
  const join = (name: string) => (path === '' ? name : `${path}.${name}`);
  for (const name of schema.required ?? []) if (value[name] === undefined) add('is required', join(name));
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (value[name] !== undefined) result[name] = check(propertySchema, value[name], join(name), issues);
    else if (propertySchema.default !== undefined) result[name] = structuredClone(propertySchema.default);
  }
  for (const [name, propertyValue] of Object.entries(value)) {
    if (name in properties || propertyValue === undefined) continue;
    const extra = schema.additionalProperties;
    if (typeof extra === 'object') result[name] = check(extra, propertyValue, join(name), issues);
    else if (extra !== false) result[name] = propertyValue;
    else add(`is not a known option${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}`, join(name));
  }
  return result;
}
