import { realpath, stat } from 'node:fs/promises';
import { OutputFileError, usageError } from '@compaction/server';
import { assertWritable, inspectOutputTarget } from './output-target.js';

/** Where a command that rewrites its input writes: `-o`, or the input itself with `--in-place`. */
export interface OutputRequest {
  /** The input path; `undefined` or `-` for standard input. */
  input: string | undefined;
  /** The `-o` path, if given. */
  output: string | undefined;
  inPlace: boolean;
}

/**
 * The path to write to (`undefined` for standard output). Refuses `-o` naming the input file (the same file
 * after following symbolic links, or a hard link to it) unless `--in-place` is given, so an input is never
 * replaced by accident; `--in-place` alone writes back to the input, which must be a regular file. An
 * existing output the user may not write, or a folder, is refused here, before any work. The write itself is
 * atomic for a regular file, so the original stays whole until the new file is complete.
 */
export async function resolveOutputPath(request: OutputRequest): Promise<string | undefined> {
  const { input, output, inPlace } = request;
  const fromStdin = input === undefined || input === '-';
  const toStdout = output === undefined || output === '-';
  if (inPlace) {
    if (fromStdin) throw usageError('--in-place needs an input file, not standard input');
    if (output === '-') throw usageError('--in-place writes to the input file; drop -o -');
    if (!toStdout && !(await isSameFile(input, output))) {
      throw usageError(`--in-place writes to the input file ${input}; -o names another file (${output})`);
    }
    await checkTarget(input, true);
    return input;
  }
  if (!fromStdin && !toStdout && (await isSameFile(input, output))) {
    throw usageError(
      `-o ${output} is the input file${output === input ? '' : ` (${input})`}; pass --in-place to replace it`,
    );
  }
  if (toStdout) return undefined;
  await checkTarget(output, false);
  return output;
}

/** Refuses, before any work, what the write would refuse: a folder, a file the user may not write. */
async function checkTarget(path: string, inPlace: boolean): Promise<void> {
  let target: Awaited<ReturnType<typeof inspectOutputTarget>>;
  try {
    target = await inspectOutputTarget(path);
  } catch (error) {
    if (OutputFileError.isInstance(error)) throw error;
    // Unreadable for another reason (a folder on the way that is not one): the write says why.
    return;
  }
  assertWritable(path, target);
  // A missing input is for the read to report (exit code 2), as without --in-place.
  if (inPlace && target.kind === 'special') {
    throw new OutputFileError({
      path,
      problem: 'not-a-file',
      message: `--in-place needs a regular file; ${path} is a device, FIFO or socket`,
    });
  }
}

/** Whether two paths name one existing file: same device and inode (links followed), or the same real path. */
export async function isSameFile(first: string, second: string): Promise<boolean> {
  try {
    const [left, right] = await Promise.all([stat(first, { bigint: true }), stat(second, { bigint: true })]);
    if (left.ino !== 0n && right.ino !== 0n) return left.dev === right.dev && left.ino === right.ino;
    return (await realpath(first)) === (await realpath(second));
  } catch {
    // One of them does not exist (a new output file), so they cannot be the same file.
    return false;
  }
}
