#!/usr/bin/env node
// Fails when source files import each other in a circle. A circle makes the order modules load in matter
// (a value read before its module ran is undefined) and keeps the files in it from being understood, moved
// or split apart one at a time. Every relative import and re-export counts, type-only ones included, in the
// non-test TypeScript of packages/*/src, bench/src, contracts/src and examples/*/src.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(new URL('..', import.meta.url).pathname);
const sourceFolders = [
  ...childFolders('packages').map((folder) => join(folder, 'src')),
  'bench/src',
  'contracts/src',
  ...childFolders('examples').map((folder) => join(folder, 'src')),
];
const files = sourceFolders.flatMap((folder) => listSources(join(root, folder)));
const known = new Set(files);
const imports = new Map(files.map((file) => [file, relativeImports(file)]));

const circles = stronglyConnected(files, imports).filter(
  (group) => group.length > 1 || imports.get(group[0]).includes(group[0]),
);
if (circles.length > 0) {
  console.error(`${circles.length} import circle(s):`);
  for (const group of circles) {
    const path = circleThrough(group, imports);
    console.error(`\n- ${group.length} file(s): ${path.map(shown).join(' -> ')}`);
    for (const file of [...group].sort()) console.error(`    ${shown(file)}`);
  }
  process.exit(1);
}
console.log(`no import circles in ${files.length} source files`);

function childFolders(folder) {
  const directory = join(root, folder);
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => join(folder, entry.name));
}

function listSources(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listSources(path);
    const isSource = /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts');
    return isSource && !/\.test(-d)?\.[mc]?tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The files of the set that `file` imports with a relative specifier. */
function relativeImports(file) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolveSpecifier(dirname(file), specifier))
    .filter((target) => target !== undefined);
}

/** The source file a relative specifier names: `./x.js` is `./x.ts`, a folder is its `index.ts`. */
function resolveSpecifier(directory, specifier) {
  const base = resolve(directory, specifier);
  const candidates = [
    base.replace(/\.(m|c)?js$/, '.$1ts'),
    base.replace(/\.jsx$/, '.tsx'),
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
  ];
  return candidates.find((candidate) => known.has(candidate) && statSync(candidate).isFile());
}

/** Tarjan's algorithm, iterative: the groups of files that all reach each other. */
function stronglyConnected(nodes, edges) {
  const index = new Map();
  const lowest = new Map();
  const onStack = new Set();
  const stack = [];
  const groups = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work = [{ node: start, next: 0 }];
    index.set(start, counter);
    lowest.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = edges.get(frame.node);
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          lowest.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          lowest.set(frame.node, Math.min(lowest.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        lowest.set(parent, Math.min(lowest.get(parent), lowest.get(frame.node)));
      }
      if (lowest.get(frame.node) === index.get(frame.node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group);
      }
    }
  }
  return groups;
}

/** One circle inside a group, as the files in import order, back to the first. */
function circleThrough(group, edges) {
  const members = new Set(group);
  const start = [...group].sort()[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of edges.get(node)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let step = node; step !== start; step = previous.get(step)) path.splice(1, 0, step);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

function shown(file) {
  return relative(root, file);
}
