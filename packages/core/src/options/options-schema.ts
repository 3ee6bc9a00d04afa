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
  const add = (message: string) => issues.push({ path, message });
  if (schema.anyOf !== undefined) {
    for (const option of schema.anyOf) {
      const optionIssues: OptionsIssue[] = [];
      const result = check(option, value, path, optionIssues);
      if (optionIssues.length === 0) return result;
    }
    add(`does not match any allowed form${schema.description ? ` (${schema.description})` : ''}`);
    return value;
  }
  if (schema.const !== undefined && value !== schema.const) add(`must be ${JSON.stringify(schema.const)}`);
  if (schema.enum !== undefined && !schema.enum.includes(value as JSONValue)) {
    add(`must be one of ${schema.enum.map((item) => JSON.stringify(item)).join(', ')}`);
    return value;
  }
  switch (schema.type) {
    case undefined:
      return value;
    case 'null':
      if (value !== null) add('must be null');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') add(`must be a boolean, got ${describeType(value)}`);
      return value;
    case 'string':
      if (typeof value !== 'string') add(`must be a string, got ${describeType(value)}`);
      else if (schema.minLength !== undefined && value.length < schema.minLength) {
        add(`must have at least ${schema.minLength} characters`);
      }
      return value;
    case 'number':
    case 'integer':
      checkNumber(schema, value, add);
      return value;
    case 'array': {
      if (!Array.isArray(value)) {
        add(`must be an array, got ${describeType(value)}`);
        return value;
      }
      if (schema.minItems !== undefined && value.length < schema.minItems) {
        add(`must have at least ${schema.minItems} items`);
      }
      const items = schema.items;
      return items === undefined
        ? [...value]
        : value.map((item, index) => check(items, item, `${path}[${index}]`, issues));
    }
    case 'object':
      return checkObject(schema, value, path, issues);
  }
}

function checkNumber(schema: OptionsSchema, value: unknown, add: (message: string) => void) {
  if (typeof value !== 'number' || !Number.isFinite(value))
    return add(`must be a number, got ${describeType(value)}`);
  if (schema.type === 'integer' && !Number.isInteger(value)) add('must be an integer');
  if (schema.minimum !== undefined && value < schema.minimum) add(`must be at least ${schema.minimum}`);
  if (schema.maximum !== undefined && value > schema.maximum) add(`must be at most ${schema.maximum}`);
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
    add(`must be greater than ${schema.exclusiveMinimum}`);
  }
}

function checkObject(schema: OptionsSchema, value: unknown, path: string, issues: OptionsIssue[]): unknown {
  if (!isRecord(value)) {
    issues.push({ path, message: `must be an object, got ${describeType(value)}` });
    return value;
  }
  const properties = schema.properties ?? {};
  const result: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    if (value[name] === undefined) issues.push({ path: join(path, name), message: 'is required' });
  }
  for (const [name, propertySchema] of Object.entries(properties)) {
    const propertyValue = value[name];
    if (propertyValue !== undefined)
      result[name] = check(propertySchema, propertyValue, join(path, name), issues);
    else if (propertySchema.default !== undefined) result[name] = structuredClone(propertySchema.default);
  }
  for (const [name, propertyValue] of Object.entries(value)) {
    if (name in properties || propertyValue === undefined) continue;
    const extra = schema.additionalProperties;
    if (extra === false) {
      const known = Object.keys(properties);
      issues.push({
        path: join(path, name),
        message: `is not a known option${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}`,
      });
    } else if (typeof extra === 'object') {
      result[name] = check(extra, propertyValue, join(path, name), issues);
    } else {
      result[name] = propertyValue;
    }
  }
  return result;
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}
