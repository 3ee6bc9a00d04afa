#!/usr/bin/env node
// Fails when a non-test function is over 100 lines. A function that long does several things at once: a reader
// has to hold all of them to change one, and its tests can only reach the steps through the whole. Split it by
// meaning, into named steps. Closures count inside the function that holds them (they share its state, so they
// are read with it); a long closure is also listed on its own. Tests, test helpers (`__fixtures__`), builds and
// installed packages are not looked at.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const maximumLines = 100;
const folders = ['packages', 'bench', 'agents', 'contracts', 'runtimes', 'scripts', 'examples'];
const skippedFolders = new Set(['node_modules', 'dist', '__fixtures__', '__snapshots__', 'coverage']);
const sourceFile = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/;
const notSource = /\.test(-d)?\.[cm]?[jt]sx?$|\.d\.[cm]?ts$/;

const root = resolve(new URL('..', import.meta.url).pathname);
const files = folders.flatMap((folder) => listSources(join(root, folder)));
const long = files.flatMap(longFunctions).sort((left, right) => right.lines - left.lines);

if (long.length > 0) {
  console.error(`${long.length} function(s) over ${maximumLines} lines (split each into named steps):`);
  for (const { path, line, name, lines } of long) console.error(`- ${path}:${line} ${name}: ${lines} lines`);
  process.exit(1);
}
console.log(`no function over ${maximumLines} lines in ${files.length} source files`);

/** Source files under a folder, without tests, declarations, hidden folders (installed agents) and builds. */
function listSources(directory) {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      return skippedFolders.has(entry.name) || entry.name.startsWith('.') ? [] : listSources(path);
    }
    return entry.isFile() && sourceFile.test(entry.name) && !notSource.test(entry.name) ? [path] : [];
  });
}

/** The functions of a file over the limit, counted from their first token to their last (comments before are not). */
function longFunctions(file) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > maximumLines) {
        found.push({ path: relative(root, file), line: first + 1, name: functionName(node), lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function scriptKind(file) {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  return /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
}

/** A function's name, or for an anonymous one what it is assigned to, or the named function it is inside. */
function functionName(node) {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.initializer === node
  ) {
    return parent.name.getText();
  }
  for (let outer = parent; outer !== undefined; outer = outer.parent) {
    if (ts.isFunctionLike(outer) && outer.body !== undefined) return `a function in ${functionName(outer)}`;
  }
  return 'an anonymous function';
}
