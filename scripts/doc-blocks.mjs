// Reads the fenced blocks of the documentation pages, with the `<!-- doc-check: ... -->` marks written on the
// lines just above each block. Shared by check-doc-commands.mjs and check-doc-configs.mjs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

/** The pages users read: the guides, every package's and example's README, and the repository's. */
export function documentationPages() {
  const readmes = (folder) =>
    readdirSync(join(root, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(folder, entry.name, 'README.md'))
      .filter((path) => existsSync(join(root, path)));
  const guides = (folder) =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      if (entry.isDirectory())
        return entry.name === 'api' || entry.name === 'node_modules' ? [] : guides(join(folder, entry.name));
      return entry.name.endsWith('.md') ? [join(folder, entry.name)] : [];
    });
  return [...guides('docs'), ...readmes('packages'), ...readmes('examples'), 'README.md'];
}

/**
 * The fenced blocks of a page: `{ language, indent, start, end, lines, marks, line }`, where `start` and `end`
 * are the indexes of the fence lines in `pageLines`, `lines` the content without the fence's indentation, and
 * `marks` the texts of the `<!-- doc-check: ... -->` comments right above the block.
 */
export function fencedBlocks(pageLines) {
  const blocks = [];
  for (let index = 0; index < pageLines.length; index++) {
    const opening = /^(\s*)(`{3,})([\w-]*)\s*$/.exec(pageLines[index]);
    if (opening === null) continue;
    const [, indent, fence, language] = opening;
    let end = index + 1;
    while (end < pageLines.length && pageLines[end].trim() !== fence) end++;
    const lines = pageLines
      .slice(index + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    blocks.push({
      language,
      indent,
      start: index,
      end,
      lines,
      marks: marksAbove(pageLines, index),
      line: index + 1,
    });
    index = end;
  }
  return blocks;
}

function marksAbove(pageLines, index) {
  const marks = [];
  for (let above = index - 1; above >= 0; above--) {
    const text = pageLines[above].trim();
    if (text === '') continue;
    const mark = /^<!--\s*doc-check:\s*([\s\S]*?)\s*-->$/.exec(text);
    if (mark === null) break;
    marks.unshift(mark[1]);
  }
  return marks;
}

/** Reads a page as lines. */
export function readPage(path) {
  return readFileSync(join(root, path), 'utf8').split('\n');
}
