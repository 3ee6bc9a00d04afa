#!/usr/bin/env node
// Type-checks every ```ts block of the guides (docs/**/*.md) and package READMEs against the built packages,
// so the documentation cannot drift from the code. Names a snippet uses without defining (a conversation, a
// strategy...) are declared once in docs/snippet-globals.d.ts.
//
// With `--run <folder>` it also runs them, in an application folder that installed the packages by name (the
// registry check's, from the local registry): each block as a module of its own, after docs/snippet-prelude.mjs,
// which gives the declared names real values. A block that cannot run offline says why in its info string,
// ```ts no-run: <reason>, and the reason is printed. `--imports` prints the packages the runnable blocks import,
// which is what such a folder installs.
import { execFile, execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const sources = [
  ...listMarkdown(join(root, 'docs')),
  ...readdirSync(join(root, 'packages'))
    .map((folder) => join(root, 'packages', folder, 'README.md'))
    .filter(existsSync),
  join(root, 'README.md'),
];
const blocks = sources.flatMap(blocksOf);

const runFolder = process.argv.includes('--run')
  ? process.argv[process.argv.indexOf('--run') + 1]
  : undefined;
if (process.argv.includes('--imports')) {
  console.log(JSON.stringify(importedPackages(blocks.filter((block) => block.noRun === undefined))));
} else if (runFolder !== undefined) {
  await runBlocks(resolve(runFolder));
} else {
  typeCheck();
}

/** The ```ts blocks of a Markdown file, each with where it is, its file name and why it does not run, if so. */
function blocksOf(source) {
  const text = readFileSync(source, 'utf8');
  return [...text.matchAll(/^```(?:ts|typescript)([^\n]*)\n([\s\S]*?)^```/gm)].map((block, index) => {
    const info = block[1].trim();
    const noRun = /^no-run\b:?\s*(.*)$/.exec(info);
    if (info !== '' && noRun === null) {
      throw new Error(`${relative(root, source)}: unknown info string "${info}" (only "no-run: <reason>")`);
    }
    if (noRun !== null && noRun[1] === '') {
      throw new Error(`${relative(root, source)}: a "no-run" block says why it does not run`);
    }
    return {
      origin: `${relative(root, source)}:${text.slice(0, block.index).split('\n').length + 1}`,
      name: `${relative(root, source).replace(/[^a-zA-Z0-9]+/g, '-')}-${index + 1}`,
      code: block[2],
      noRun: noRun === null ? undefined : noRun[1],
    };
  });
}

function typeCheck() {
  const output = join(root, 'docs', '.snippets');
  rmSync(output, { recursive: true, force: true });
  mkdirSync(output, { recursive: true });
  const origins = {};
  for (const block of blocks) {
    origins[`${block.name}.ts`] = block.origin;
    // Each block is a module of its own (top-level await allowed), with the shared declarations in scope.
    writeFileSync(
      join(output, `${block.name}.ts`),
      `/// <reference path="../snippet-globals.d.ts" />\n${block.code}\nexport {};\n`,
    );
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
    console.log(`${blocks.length} code blocks in ${sources.length} documents type-check`);
  } catch (error) {
    const report = String(error.stdout).replace(
      /(?:docs\/)?\.snippets\/([^(]+)\.ts\((\d+),(\d+)\)/g,
      (_, file, line) => `${origins[file]} (line ${Number(line) - 1} of the block)`,
    );
    console.error(`Documentation code blocks do not type-check:\n${report}`);
    process.exit(1);
  }
}

/** The packages the blocks import (`@scope/name` or `name`), less Node's built-ins: what an application installs. */
function importedPackages(selected) {
  const names = new Set();
  for (const block of selected) {
    for (const [, specifier] of block.code.matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm)) {
      if (specifier.startsWith('node:') || specifier.startsWith('.')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  }
  return [...names].sort();
}

/**
 * Runs every block not marked `no-run` in `application` (a folder whose node_modules has the packages), each as
 * a module of its own after the prelude, two at a time; prints what did not run and why, and fails on an error.
 */
async function runBlocks(application) {
  const folder = join(application, 'doc-snippets');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  copyFileSync(join(root, 'docs', 'snippet-prelude.mjs'), join(folder, 'snippet-prelude.mjs'));
  copyFileSync(
    join(root, 'packages', 'cli', 'examples', 'coding-session.json'),
    join(folder, 'conversation.json'),
  );
  const runnable = blocks.filter((block) => block.noRun === undefined);
  for (const block of runnable) {
    const javascript = ts.transpileModule(block.code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(folder, `${block.name}.mjs`), `import './snippet-prelude.mjs';\n${javascript}`);
  }
  const failures = [];
  const queue = [...runnable];
  const worker = async () => {
    for (let block = queue.shift(); block !== undefined; block = queue.shift()) {
      // Each block in a folder of its own, so the files one writes (a database, an output) meet no other's.
      const workingFolder = join(folder, block.name);
      mkdirSync(workingFolder, { recursive: true });
      const error = await runNode(join(folder, `${block.name}.mjs`), workingFolder);
      if (error !== undefined) failures.push(`${block.origin}: ${error}`);
    }
  };
  await Promise.all([worker(), worker()]);
  const skipped = blocks.filter((block) => block.noRun !== undefined);
  for (const block of skipped) console.log(`not run: ${block.origin}: ${block.noRun}`);
  if (failures.length > 0) {
    console.error(`Documentation code blocks fail when run:\n${failures.join('\n\n')}`);
    process.exit(1);
  }
  console.log(
    `${runnable.length} code blocks ran in ${application}; ${skipped.length} do not run offline (above)`,
  );
}

/** Runs a module with Node; resolves with nothing, or with what it printed when it failed. */
function runNode(file, cwd) {
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      [file],
      { cwd, timeout: 60_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolvePromise(
          error === null ? undefined : `${error.code ?? error.signal}\n${stdout}${stderr}`.trim(),
        );
      },
    );
  });
}

function listMarkdown(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory())
      return entry.name === 'api' || entry.name === 'node_modules' || entry.name.startsWith('.')
        ? []
        : listMarkdown(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
