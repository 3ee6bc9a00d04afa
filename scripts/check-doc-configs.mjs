#!/usr/bin/env node
// Validates every config the pages show (a ```json block with a "strategy", or a "$schema" naming
// compaction.schema.json) and every compaction.config.json of examples/ against the published JSON Schema,
// packages/cli/compaction.schema.json (what `compaction schema` prints), so no page shows a config the CLI
// and the library refuse. A block marked <!-- doc-check: not a config --> is left out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentationPages, fencedBlocks, readPage, root } from './doc-blocks.mjs';

const schema = JSON.parse(readFileSync(join(root, 'packages/cli/compaction.schema.json'), 'utf8'));
// Keywords that only describe; the others are checked, and one this script does not know stops the check.
const descriptive = new Set(['$schema', 'title', 'description', 'default', 'examples']);
const checked = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
  'const',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'items',
]);

const configs = [];
for (const page of documentationPages()) {
  for (const block of fencedBlocks(readPage(page))) {
    if (!['json', 'jsonc'].includes(block.language) || block.marks.includes('not a config')) continue;
    let value;
    try {
      value = JSON.parse(block.lines.join('\n'));
    } catch {
      continue;
    }
    if (isConfig(value)) configs.push({ where: `${page}:${block.line}`, value });
  }
}
for (const example of readdirSync(join(root, 'examples'))) {
  const path = join('examples', example, 'compaction.config.json');
  if (existsSync(join(root, path)))
    configs.push({ where: path, value: JSON.parse(readFileSync(join(root, path), 'utf8')) });
}

const failures = configs.flatMap(({ where, value }) =>
  validate(schema, value, '').map((issue) => `${where}: ${issue}`),
);
if (failures.length > 0) {
  console.error(
    `${failures.length} problem(s) in the documented configs (against packages/cli/compaction.schema.json):`,
  );
  for (const failure of failures) console.error(`  ${failure}`);
  process.exit(1);
}
console.log(`${configs.length} documented configs are valid against packages/cli/compaction.schema.json`);

function isConfig(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const namesSchema = typeof value.$schema === 'string' && value.$schema.endsWith('compaction.schema.json');
  return namesSchema || 'strategy' in value;
}

/** The problems of `value` against `schema`, each with its path; for `anyOf`, those of the closest form. */
function validate(schema, value, path) {
  const at = path === '' ? '(the config)' : path;
  for (const keyword of Object.keys(schema)) {
    if (!descriptive.has(keyword) && !checked.has(keyword)) {
      throw new Error(`${at}: the schema uses "${keyword}", which this check does not know; teach it`);
    }
  }
  if (schema.anyOf !== undefined) {
    const attempts = formsFor(schema.anyOf, value).map((option) => validate(option, value, path));
    if (attempts.some((issues) => issues.length === 0)) return [];
    // The closest form is the one the value got furthest into: its problems have the longest paths.
    const depth = (issues) => Math.max(...issues.map((issue) => issue.indexOf(': ')));
    return attempts.reduce((closest, issues) => (depth(issues) > depth(closest) ? issues : closest));
  }
  const issues = [];
  if (schema.const !== undefined && JSON.stringify(value) !== JSON.stringify(schema.const)) {
    return [`${at}: must be ${JSON.stringify(schema.const)}, not ${JSON.stringify(value)}`];
  }
  if (
    schema.enum !== undefined &&
    !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))
  ) {
    return [`${at}: must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`];
  }
  if (schema.type !== undefined && !hasType(value, schema.type))
    return [
      `${at}: must be ${schema.type === 'integer' ? 'an integer' : `of type ${schema.type}`}, not ${JSON.stringify(value)}`,
    ];
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum)
      issues.push(`${at}: must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum)
      issues.push(`${at}: must be at most ${schema.maximum}`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
      issues.push(`${at}: must be greater than ${schema.exclusiveMinimum}`);
    }
  }
  if (typeof value === 'string' && schema.minLength !== undefined && value.length < schema.minLength) {
    issues.push(`${at}: must have at least ${schema.minLength} characters`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      issues.push(`${at}: must have at least ${schema.minItems} items`);
    if (schema.items !== undefined) {
      for (const [index, item] of value.entries())
        issues.push(...validate(schema.items, item, `${path}[${index}]`));
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const properties = schema.properties ?? {};
    const join = (name) => (path === '' ? name : `${path}.${name}`);
    for (const name of schema.required ?? []) if (!(name in value)) issues.push(`${join(name)}: is required`);
    for (const [name, item] of Object.entries(value)) {
      if (name in properties) issues.push(...validate(properties[name], item, join(name)));
      else if (schema.additionalProperties === false) {
        issues.push(`${join(name)}: is not allowed here (allowed: ${Object.keys(properties).join(', ')})`);
      } else if (typeof schema.additionalProperties === 'object') {
        issues.push(...validate(schema.additionalProperties, item, join(name)));
      }
    }
  }
  return issues;
}

/**
 * The forms of an `anyOf` a value is held to. A strategy, fallback or policy the schema knows by name is held
 * to its own form: the open form `{name, options}` is there for names it does not know (a package of one's own),
 * and would otherwise accept any options for a known name.
 */
function formsFor(forms, value) {
  const flat = forms.flatMap((form) =>
    form.anyOf !== undefined && Object.keys(form).every((key) => key === 'anyOf' || descriptive.has(key))
      ? formsFor(form.anyOf, value)
      : [form],
  );
  const name = typeof value === 'object' && value !== null ? value.name : undefined;
  const named = flat.filter(
    (form) => form.properties?.name?.const !== undefined && form.properties.name.const === name,
  );
  return named.length > 0 ? named : flat;
}

function hasType(value, type) {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  if (type === 'null') return value === null;
  return typeof value === type;
}
