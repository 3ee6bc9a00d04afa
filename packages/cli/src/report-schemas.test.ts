import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect, it } from 'vitest';
import { describeOnFullRun } from './__fixtures__/full-run.js';
import {
  example,
  type LooseJson,
  packageDirectory,
  temporaryDirectory,
  temporaryFile,
} from './__fixtures__/run-binary.js';
import { runCommand } from './__fixtures__/run-command.js';

const schemaNames = ['compact-report', 'count-report', 'simulate-report', 'error'] as const;
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validators = Object.fromEntries(
  schemaNames.map((name) => [
    name,
    ajv.compile(JSON.parse(readFileSync(join(packageDirectory, 'schemas', `${name}.schema.json`), 'utf8'))),
  ]),
) as Record<(typeof schemaNames)[number], ReturnType<typeof ajv.compile>>;

/** Fails with the validator's errors, so a field the schema lacks is named in the failure. */
function expectValid(name: (typeof schemaNames)[number], document: unknown, what: string): void {
  const validate = validators[name];
  expect(validate(document) ? [] : validate.errors, `${what} against ${name}.schema.json`).toEqual([]);
}

/** Maps keyed by data (roles, part kinds, tool names), whose keys the schemas cannot list. */
const keyedByData = new Set(['byRole', 'byPartKind', 'byTool']);

/** Every object of a document that has fixed fields, so a field added to it can be tried. */
function objectsOf(value: unknown, key = ''): Array<Record<string, unknown>> {
  if (Array.isArray(value)) return value.flatMap((item) => objectsOf(item));
  if (typeof value !== 'object' || value === null) return [];
  const inner = Object.entries(value).flatMap(([name, item]) => objectsOf(item, name));
  return keyedByData.has(key) ? inner : [value as Record<string, unknown>, ...inner];
}

// Not on the Node 22 compatibility run: the documents are plain data the Node 20 run has validated.
describeOnFullRun('the JSON Schemas of --json documents', () => {
  it('describe what compact, count and simulate print, and refuse a field they do not name', async () => {
    const directory = temporaryDirectory();
    const oneMessage = temporaryFile('one.json', JSON.stringify([{ role: 'user', content: 'Hello.' }]));
    const runs: Array<[(typeof schemaNames)[number], string[]]> = [
      ['compact-report', ['compact', example, '--json', '-o', join(directory, 'out.json')]],
      ['compact-report', ['compact', example, '--json', '--store', join(directory, 'archive.sqlite')]],
      ['compact-report', ['compact', example, '--json', '--target', '150k']],
      ['compact-report', ['compact', oneMessage, '--json']],
      ['count-report', ['count', example, '--json']],
      ['count-report', ['count', example, '--json', '--compare']],
      ['simulate-report', ['simulate', example, '--json', '--context-window', '20k']],
    ];
    const documents: Array<[(typeof schemaNames)[number], LooseJson]> = [];
    for (const [name, args] of runs) {
      const run = await runCommand(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      const document = JSON.parse(run.stdout);
      expect(document.version).toBe(1);
      expectValid(name, document, args.join(' '));
      documents.push([name, document]);
    }
    const failed = await runCommand(['compact', '/nonexistent/conversation.json', '--json']);
    documents.push(['error', JSON.parse(failed.stderr)]);
    expectValid('error', documents.at(-1)![1], 'an error');
    // The runs above reach the optional parts: archived items, a skip, compared estimators, compactions.
    const [, archiving] = documents[1]!;
    expect(archiving.archived.length).toBeGreaterThan(0);
    expect(documents[3]![1].skipped).toBe('nothing-to-compact');
    expect(documents[5]![1].compare.length).toBeGreaterThan(1);
    expect(documents[6]![1].steps.some((step: LooseJson) => step.compaction !== undefined)).toBe(true);

    // A field the schema does not name, anywhere in a document, fails validation: the schemas say all there is.
    for (const [name, document] of documents) {
      const count = objectsOf(document).length;
      for (let index = 0; index < count; index++) {
        const grown = structuredClone(document);
        const object = objectsOf(grown)[index]!;
        object.unexpectedField = 1;
        expect(
          validators[name](grown),
          `${name}: a new field in ${JSON.stringify(object).slice(0, 80)}`,
        ).toBe(false);
      }
    }
  });

  it('are shipped in the package and exported', () => {
    const packageJson = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'));
    expect(packageJson.files).toContain('schemas');
    for (const name of schemaNames) {
      const exported = `./schemas/${name}.schema.json`;
      expect(packageJson.exports['./schemas/*'], name).toBe('./schemas/*');
      expect(readFileSync(join(packageDirectory, exported), 'utf8')).toContain('"$schema"');
    }
  });
});
