import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { repositoryRoot } from './publish-workspace.js';

/** A fenced code block of a page: its language tag, the rest of its info string, and its text. */
export interface CodeBlock {
  language: string;
  info: string;
  text: string;
}

/** The fenced code blocks of a Markdown file of the repository, in order. */
export function codeBlocks(file: string): CodeBlock[] {
  const text = readFileSync(join(repositoryRoot, file), 'utf8');
  return [...text.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```/gm)].map((match) => ({
    language: match[1]!,
    info: match[2]!.trim(),
    text: match[3]!,
  }));
}

/**
 * The one block of `file` in `language` that contains `marker`, as the page shows it: the scenarios run what a
 * reader copies, so a page that changes its snippet changes what they run.
 */
export function documentedBlock(file: string, language: string, marker: string): string {
  const found = codeBlocks(file).filter(
    (block) => block.language === language && block.text.includes(marker),
  );
  if (found.length !== 1) {
    throw new Error(
      `${file} has ${found.length} ${language} blocks containing ${JSON.stringify(marker)}, not one`,
    );
  }
  return found[0]!.text;
}

/** A TypeScript block as the JavaScript module Node runs: types and `declare`d names removed, nothing else. */
export function toJavaScript(typescript: string): string {
  return ts.transpileModule(typescript, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
    },
  }).outputText;
}

/**
 * A script of a documented TypeScript block: `import './prelude.mjs'` first (the values a reader already has:
 * the conversation, the parsed config...), the block unchanged, then `epilogue`, what the scenario checks.
 */
export function snippetScript(typescript: string, epilogue = ''): string {
  return `import './prelude.mjs';\n${toJavaScript(typescript)}\n${epilogue}\n`;
}
