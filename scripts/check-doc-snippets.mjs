#!/usr/bin/env node
// Type-checks every ```ts block of the guides (docs/**/*.md) and package READMEs against the built packages,
// so the documentation cannot drift from the code. Names a snippet uses without defining (a conversation, a
// strategy...) are declared once in docs/snippet-globals.d.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const output = join(root, 'docs', '.snippets');
rmSync(output, { recursive: true, force: true });
mkdirSync(output, { recursive: true });

const sources = [
  ...listMarkdown(join(root, 'docs')),
  ...readdirSync(join(root, 'packages'))
    .map((folder) => join(root, 'packages', folder, 'README.md'))
    .filter(existsSync),
  join(root, 'README.md'),
];

const origins = {};
let count = 0;
for (const source of sources) {
  const text = readFileSync(source, 'utf8');
  const blocks = [...text.matchAll(/^```(ts|typescript)\n([\s\S]*?)^```/gm)];
  blocks.forEach((block, index) => {
    const line = text.slice(0, block.index).split('\n').length + 1;
    const name = `${relative(root, source).replace(/[^a-zA-Z0-9]+/g, '-')}-${index + 1}.ts`;
    origins[name] = `${relative(root, source)}:${line}`;
    // Each block is a module of its own (top-level await allowed), with the shared declarations in scope.
    writeFileSync(
      join(output, name),
      `/// <reference path="../snippet-globals.d.ts" />\n${block[2]}\nexport {};\n`,
    );
    count++;
  });
}

writeFileSync(
  join(output, 'tsconfig.json'),
  JSON.stringify({
    extends: '../../config/tsconfig.base.json',
    compilerOptions: {
      noEmit: true,
      types: ['node'],
      noUnusedLocals: false,
      declaration: false,
      declarationMap: false,
      sourceMap: false,
    },
    include: ['./*.ts'],
  }),
);

try {
  execFileSync('pnpm', ['exec', 'tsc', '-p', join(output, 'tsconfig.json')], {
    cwd: join(root, 'docs'),
    stdio: 'pipe',
    encoding: 'utf8',
  });
  console.log(`${count} code blocks in ${sources.length} documents type-check`);
} catch (error) {
  const report = String(error.stdout).replace(
    /(?:docs\/)?\.snippets\/([^(]+)\((\d+),(\d+)\)/g,
    (_, file, line) => `${origins[file]} (line ${Number(line) - 1} of the block)`,
  );
  console.error(`Documentation code blocks do not type-check:\n${report}`);
  process.exit(1);
}

function listMarkdown(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory())
      return entry.name === 'api' || entry.name.startsWith('.') ? [] : listMarkdown(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
