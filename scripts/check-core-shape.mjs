#!/usr/bin/env node
// Keeps @compaction/core the contract it is meant to be: its non-test source under 3,000 lines, and at most
// 40 runtime exports from its main entry (types do not count: they cost a plugin nothing at run time).
// Over either limit it warns; with --strict or CORE_SHAPE_STRICT=1 it fails instead, and with --strict-exports
// it fails over the export limit and warns over the line limit (the export bar is met; the line bar not yet).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const maximumLines = 2999;
const maximumRuntimeExports = 40;
// biome-ignore lint/suspicious/noUndeclaredEnvVars: run by check:packages, not by a turbo task; nothing is cached.
const strict = process.argv.includes('--strict') || process.env.CORE_SHAPE_STRICT === '1';
const strictExports = strict || process.argv.includes('--strict-exports');

const root = resolve(new URL('..', import.meta.url).pathname);
const sourceDirectory = join(root, 'packages/core/src');
const sources = listSources(sourceDirectory);
const lines = sources.reduce((total, file) => total + lineCount(readFileSync(file, 'utf8')), 0);
const runtimeExports = runtimeExportsOf(join(sourceDirectory, 'index.ts'));

console.log(`core: ${lines} non-test source lines in ${sources.length} files (limit ${maximumLines})`);
console.log(
  `core: ${runtimeExports.length} runtime exports from its main entry (limit ${maximumRuntimeExports})`,
);
const problems = [];
if (lines > maximumLines) {
  problems.push({ fails: strict, text: `${lines} non-test source lines is over ${maximumLines}` });
}
if (runtimeExports.length > maximumRuntimeExports) {
  const text = `${runtimeExports.length} runtime exports is over ${maximumRuntimeExports}: ${runtimeExports.join(', ')}`;
  problems.push({ fails: strictExports, text });
}
for (const { fails, text } of problems) console.error(`core shape ${fails ? 'error' : 'warning'}: ${text}`);
if (problems.some((problem) => problem.fails)) process.exit(1);

/** Non-test TypeScript: neither `*.test.ts` files nor the test-only helpers in `__fixtures__`. */
function listSources(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : listSources(path);
    return entry.name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

function lineCount(text) {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The names the entry exports that exist at run time (values, functions, classes), sorted. */
function runtimeExportsOf(entry) {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry));
  return checker
    .getExportsOfModule(module)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) !== 0 && !isTypeOnlyExport(symbol);
    })
    .map((symbol) => symbol.name)
    .sort();
}

/** Whether an export is written `export type` or `type X` in an export list: it has no value to export. */
function isTypeOnlyExport(symbol) {
  return (symbol.declarations ?? []).every(
    (declaration) =>
      (ts.isExportSpecifier(declaration) &&
        (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly)) ||
      ts.isTypeAliasDeclaration(declaration) ||
      ts.isInterfaceDeclaration(declaration),
  );
}
