import { type ExecFileSyncOptions, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A throwaway PostgreSQL server for tests, on loopback, with trust authentication for local connections only. */
export interface TestPostgres {
  /** Connection string of the `postgres` database as the `postgres` superuser, without a password. */
  readonly url: string;
  /** Creates an empty database and returns its connection string. */
  createDatabase(): string;
  /** Stops the server at once and removes its folder. Safe to call more than once. */
  stop(): void;
}

/**
 * Starts a PostgreSQL server in a new temporary folder on a free loopback port, with the binaries found on
 * `PATH` or in `/usr/lib/postgresql/<version>/bin` (Debian's `postgresql` package). As root, the server runs
 * as the `postgres` user, since PostgreSQL refuses to run as root.
 *
 * When no server can be started: with `CI` set this throws (the tests must run in CI); otherwise it prints
 * one line saying why the PostgreSQL tests are skipped and resolves with `undefined`.
 */
export async function startTestPostgres(): Promise<TestPostgres | undefined> {
  try {
    return await startServer();
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    if (process.env.CI) throw new Error(`PostgreSQL tests cannot run in CI: ${reason}`, { cause: error });
    console.warn(
      `PostgreSQL tests skipped: no server could be started (${reason}). Install Debian's postgresql package, or set CI=1 to fail instead.`,
    );
    return undefined;
  }
}

async function startServer(): Promise<TestPostgres> {
  const binaries = findBinaries();
  const folder = mkdtempSync(join(tmpdir(), 'compaction-postgres-'));
  const data = join(folder, 'data');
  const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
  const run = (program: string, args: string[], options: ExecFileSyncOptions = {}) =>
    execFileSync(binaries(program), args, {
      stdio: 'pipe',
      cwd: folder,
      ...(owner === undefined
        ? {}
        : { uid: owner.uid, gid: owner.gid, env: { ...process.env, HOME: folder } }),
      ...options,
    });
  let started = false;
  const stop = () => {
    process.removeListener('exit', stop);
    if (started) {
      started = false;
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
      } catch {
        // Already stopped: nothing to do but remove the folder.
      }
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    if (owner !== undefined) chownSync(folder, owner.uid, owner.gid);
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const port = await freePort();
    // Loopback only, and a Unix socket in the throwaway folder; no fsync, since the data is thrown away.
    const settings = `-h 127.0.0.1 -p ${port} -k ${folder} -F -c max_connections=200`;
    run('pg_ctl', ['start', '-D', data, '-l', join(folder, 'server.log'), '-o', settings, '-w', '-t', '60']);
    started = true;
    // A test run that ends without calling stop() must not leave a server behind.
    process.on('exit', stop);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    let databases = 0;
    return {
      url,
      createDatabase: () => {
        const name = `test_${process.pid}_${++databases}`;
        run('psql', [
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'postgres',
          '-c',
          `CREATE DATABASE ${name}`,
        ]);
        return `postgres://postgres@127.0.0.1:${port}/${name}`;
      },
      stop,
    };
  } catch (error) {
    stop();
    const output = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(output ? `${(error as Error).message}: ${output}` : (error as Error).message, {
      cause: error,
    });
  }
}

/** Where each of initdb, pg_ctl and psql is (they may be in different folders); throws when one is missing. */
function findBinaries(): (program: string) => string {
  const folders = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((left, right) => Number(right) - Number(left));
    folders.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  const found = new Map<string, string>();
  for (const program of ['initdb', 'pg_ctl', 'psql']) {
    const folder = folders.find((candidate) => existsSync(join(candidate, program)));
    if (folder === undefined) throw new Error(`${program} was not found on PATH or in /usr/lib/postgresql`);
    found.set(program, join(folder, program));
  }
  return (program) => found.get(program)!;
}

function postgresUser(): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('running as root, and there is no postgres user to run the server as');
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
