import { readFileSync } from 'node:fs';
import { type CliIO, processIO } from './cli-io.js';
import { chatCommand } from './commands/chat-command.js';
import { compactCommand } from './commands/compact-command.js';
import { countCommand } from './commands/count-command.js';
import { migrateCommand } from './commands/migrate-command.js';
import { proxyCommand } from './commands/proxy-command.js';
import { recallCommand } from './commands/recall-command.js';
import { schemaCommand } from './commands/schema-command.js';
import { serveCommand } from './commands/serve-command.js';
import { simulateCommand } from './commands/simulate-command.js';
import { mainHelp } from './help.js';
import { reportError } from './report-error.js';

type Command = (args: string[], io: CliIO) => Promise<number>;

const commands: Record<string, Command> = {
  compact: compactCommand,
  count: countCommand,
  simulate: simulateCommand,
  recall: recallCommand,
  serve: serveCommand,
  proxy: proxyCommand,
  chat: chatCommand,
  schema: schemaCommand,
  migrate: migrateCommand,
};

/** The CLI's version, from its package.json. */
export function cliVersion(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return packageJson.version;
}

/**
 * Runs the `compaction` command line and returns the exit code. Errors the user can fix (bad flags, bad
 * input, invalid configs, Compaction errors) print one line on standard error, without a stack trace;
 * anything else is a bug and prints its stack.
 */
export async function runCli(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...args] = argv;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      const topic = name === 'help' ? args[0] : undefined;
      if (topic !== undefined && commands[topic] !== undefined) return await commands[topic]!(['--help'], io);
      io.stdout.write(mainHelp);
      return name === undefined ? 1 : 0;
    }
    if (name === '--version' || name === '-v') {
      io.stdout.write(`${cliVersion()}\n`);
      return 0;
    }
    const command = commands[name];
    if (command === undefined) {
      io.stderr.write(
        `compaction: unknown command "${name}" (commands: ${Object.keys(commands).join(', ')}; see compaction --help)\n`,
      );
      return 1;
    }
    return await command(args, io);
  } catch (error) {
    return reportError(error, io);
  }
}
