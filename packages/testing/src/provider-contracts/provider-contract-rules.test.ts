import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The documented rules, the rules the code reports and the rules the tests break must be the same list.
const folder = new URL('./', import.meta.url);
const documentation = readFileSync(
  new URL('../../../../docs/provider-contracts.md', import.meta.url),
  'utf8',
);
const files = readdirSync(folder).filter((name) => name.endsWith('.ts'));
const read = (name: string) => readFileSync(new URL(name, folder), 'utf8');
const ruleId = /'((?:anthropic|openai-chat|openai-responses|compacted)\.[a-z-]+)'/g;

const documented = new Set(
  [...documentation.matchAll(/^\| `([a-z-]+\.[a-z-]+)` \|/gm)].map((match) => match[1]!),
);
const reported = new Set(
  files
    .filter((name) => !name.endsWith('.test.ts'))
    .flatMap((name) => [...read(name).matchAll(ruleId)].map((match) => match[1])),
);
const broken = new Set(
  files
    .filter((name) => name.endsWith('-violations.test.ts'))
    .flatMap((name) =>
      [...read(name).matchAll(/rule: ('[a-z.-]+')/g)].map((match) => match[1]!.slice(1, -1)),
    ),
);

describe('the provider contract rules', () => {
  it('are documented exactly as the validators report them', () => {
    expect([...documented].sort()).toEqual([...reported].sort());
  });

  it('each have a test that breaks them', () => {
    expect([...documented].filter((rule) => !broken.has(rule))).toEqual([]);
  });
});
