import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Strings at least this long that hold a scripted file's lines are stored as a placeholder. */
const generatedAbove = 1000;

/** Replaces each long string holding a scripted file's lines with `{ $generated: path, length }`. */
function compactValue(value) {
  if (typeof value === 'string') {
    const file = /files\/file-\d{2}\.txt/.exec(value);
    return value.length >= generatedAbove && file !== null
      ? { $generated: file[0], length: value.length }
      : value;
  }
  if (Array.isArray(value)) return value.map(compactValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, compactValue(entry)]));
  }
  return value;
}

/**
 * Encodes an agent's request sequence compactly: each request as the top-level fields that changed since the
 * one before, how many conversation items it keeps from the one before, and the items it appends; the
 * scripted files' contents as placeholders that the replay fills with generated text of the same length.
 */
export function encodeRequests(bodies, listKey, folder) {
  const requests = [];
  let previous = { fields: {}, items: [] };
  for (const body of bodies) {
    const normalized = compactValue(JSON.parse(JSON.stringify(body).replaceAll(folder, '/tmp/agents-work')));
    const { [listKey]: list = [], ...fields } = normalized;
    const items = typeof list === 'string' ? [list] : list;
    const texts = items.map((item) => JSON.stringify(item));
    const previousTexts = previous.items.map((item) => JSON.stringify(item));
    let keep = 0;
    while (keep < texts.length && keep < previousTexts.length && texts[keep] === previousTexts[keep]) keep++;
    const changed = Object.fromEntries(
      Object.entries(fields).filter(
        ([key, value]) => JSON.stringify(previous.fields[key]) !== JSON.stringify(value),
      ),
    );
    const removed = Object.keys(previous.fields).filter((key) => !(key in fields));
    requests.push({
      ...(Object.keys(changed).length === 0 ? {} : { fields: changed }),
      ...(removed.length === 0 ? {} : { removed }),
      keep,
      append: items.slice(keep),
    });
    previous = { fields, items };
  }
  return requests;
}

const biome = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url));

/** Writes a fixture atomically, formatted as Biome formats the repository's JSON (so its lint passes). */
export function writeFixture(path, fixture) {
  mkdirSync(dirname(path), { recursive: true });
  const formatted = spawnSync(biome, ['format', `--stdin-file-path=${path}`], {
    input: `${JSON.stringify(fixture)}\n`,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (formatted.status !== 0) throw new Error(`biome could not format ${path}: ${formatted.stderr}`);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, formatted.stdout);
  renameSync(temporary, path);
}
