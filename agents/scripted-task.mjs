import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFileOutput } from '../packages/testing/dist/loopback-server.js';

/** The words the task starts with: the checks look for the whole task text in every forwarded request. */
export const taskText = (fileCount) =>
  `Audit the folder files/: read each of its ${fileCount} files with your file-reading tool, one file per ` +
  'turn, in order from the first, and answer DONE when you have read them all.';

export const fileName = (number) => `file-${String(number).padStart(2, '0')}.txt`;

/** A file of about `bytes` bytes, different for every file, in lines of the scripted `read_file` output. */
export const fileContent = (number, bytes) => {
  const path = `files/${fileName(number)}`;
  const lineBytes = readFileOutput(path, 1).length + 1;
  return `${readFileOutput(path, Math.max(1, Math.round(bytes / lineBytes)))}\n`;
};

/** Writes the files the agent reads into `folder/files`. */
export function writeTaskFiles(folder, fileCount, bytes) {
  mkdirSync(join(folder, 'files'), { recursive: true });
  for (let number = 1; number <= fileCount; number++) {
    writeFileSync(join(folder, 'files', fileName(number)), fileContent(number, bytes));
  }
}
