import type { Stats } from 'node:fs';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { OutputFileError } from '@compaction/server';

/**
 * What an output path names, after following symbolic links:
 * - `new`: nothing yet (also the missing file a dangling link points to), created as a new regular file;
 * - `regular`: an existing regular file, replaced atomically and keeping its owner and permissions;
 * - `special`: a character or block device, a FIFO or a socket, written in place as the shell's `>` writes.
 * `path` is the file to write: the link's final target for a regular or new file, so the link stays a link;
 * the path as given for a special file (opening it follows the links, as `>` does, including the links of
 * `/proc` such as `/dev/stdout` that name no path).
 */
export type OutputTarget =
  | { kind: 'new'; path: string }
  | { kind: 'regular'; path: string; stats: Stats }
  | { kind: 'special'; path: string; stats: Stats };

/** How many links a path may go through, as Linux allows (`ELOOP` beyond). */
const maximumLinks = 40;

/** Looks at what `path` names, without changing anything; a folder is refused. */
export async function inspectOutputTarget(path: string): Promise<OutputTarget> {
  let stats: Stats;
  try {
    stats = await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return { kind: 'new', path: await finalLinkTarget(path) };
  }
  if (stats.isDirectory()) {
    throw new OutputFileError({
      path,
      problem: 'not-a-file',
      message: `cannot write ${path}: it is a folder`,
    });
  }
  if (stats.isFile()) return { kind: 'regular', path: await realpath(path), stats };
  return { kind: 'special', path, stats };
}

/**
 * The path a chain of links ends at, for a path that names no existing file: the path itself, or the missing
 * file a dangling link points to (created there, as `>` would create it, so the link is kept).
 */
async function finalLinkTarget(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops < maximumLinks; hops++) {
    let isLink: boolean;
    try {
      isLink = (await lstat(current)).isSymbolicLink();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return current;
      throw error;
    }
    if (!isLink) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw new OutputFileError({
    path,
    problem: 'not-a-file',
    message: `cannot write ${path}: more than ${maximumLinks} symbolic links in a row`,
  });
}

/** Who is writing: the process's user and groups. */
export interface WritingUser {
  uid: number;
  gid: number;
  groups: readonly number[];
}

/** The user this process runs as, or `undefined` where the platform has no POSIX users (Windows). */
export function currentUser(): WritingUser | undefined {
  if (process.getuid === undefined || process.getgid === undefined) return undefined;
  return { uid: process.getuid(), gid: process.getgid(), groups: process.getgroups?.() ?? [] };
}

/**
 * Why `user` may not write an existing file, or `undefined` when they may. The permission bits that apply, as
 * the kernel picks them for `>`: the owner's when the user owns the file, else the group's when the user is in
 * its group, else everyone else's. Root passes every such check in the kernel, so `>` as root overwrites even a
 * read-only file; here root is refused a file with no write bit at all (mode 0444), because such a mode says the
 * file is not to be changed, and replacing it (a rename needs only the folder's permission) would silently undo
 * that. Root may write a file of another user that has a write bit.
 */
export function writeRefusal(
  file: Pick<Stats, 'mode' | 'uid' | 'gid'>,
  user: WritingUser,
): string | undefined {
  const mode = `mode ${(file.mode & 0o7777).toString(8).padStart(4, '0')}`;
  if (user.uid === 0) {
    return (file.mode & 0o222) === 0 ? `it is read-only (${mode}), even for root` : undefined;
  }
  if (file.uid === user.uid) return (file.mode & 0o200) === 0 ? `it is read-only (${mode})` : undefined;
  const inGroup = file.gid === user.gid || user.groups.includes(file.gid);
  if (inGroup) {
    return (file.mode & 0o020) === 0
      ? `its group (${file.gid}) may not write it (${mode}, owned by user ${file.uid})`
      : undefined;
  }
  return (file.mode & 0o002) === 0
    ? `it belongs to user ${file.uid} and group ${file.gid}, and others may not write it (${mode})`
    : undefined;
}

/** Throws {@link OutputFileError} when `user` may not write the existing file `target` names. */
export function assertWritable(path: string, target: OutputTarget, user = currentUser()): void {
  if (target.kind === 'new' || user === undefined) return;
  const refusal = writeRefusal(target.stats, user);
  if (refusal !== undefined) {
    throw new OutputFileError({ path, problem: 'not-writable', message: `cannot write ${path}: ${refusal}` });
  }
}
