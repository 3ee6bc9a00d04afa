import { expect } from 'vitest';
import { describeOnFullRun, itOnFullRun } from '../__fixtures__/full-run.js';
import { temporaryDirectory } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

// The background and compact-target flags of `compaction serve`, `compaction proxy` and `compaction mcp`,
// refused before anything listens, each with one line that says what is wrong. In the test process: plain flag
// checks, which the Node 22 run would not change.

const directory = temporaryDirectory();

describeOnFullRun('background and compact-target flags', () => {
  itOnFullRun(
    'refuses a --background-at outside the target and the trigger, saying where both are',
    async () => {
      const cases: Array<[string[], string]> = [
        [
          ['serve', '--context-window', '10000', '--background-at', '0.9', '--port', '0'],
          '--background-at: background compaction would start at 6300 tokens: it must be above the target (4200) ' +
            'and below the trigger (5950) of a 10000-token window',
        ],
        [
          ['proxy', '--context-window', '10000', '--background-at', '0.5', '--port', '0'],
          'it must be above the target (4200) and below the trigger (5950)',
        ],
        [
          ['serve', '--background-at', '0.7', '--trigger', 'off', '--port', '0'],
          'background compaction needs an automatic trigger (--trigger is off)',
        ],
        [
          ['proxy', '--background-concurrency', '2', '--port', '0'],
          '--background-concurrency needs --background-at',
        ],
        [
          ['serve', '--background-at', '0.7', '--background-concurrency', '0', '--port', '0'],
          '--background-concurrency must be an integer of at least 1, got "0"',
        ],
        [['proxy', '--background-at', 'soon', '--port', '0'], '--background-at must be a token count'],
      ];
      for (const [args, message] of cases) {
        const run = await runCommand(args, { cwd: directory, env: {} });
        expect(run.code, args.join(' ')).not.toBe(0);
        expect(run.stderr, args.join(' ')).toContain(message);
      }
    },
  );

  itOnFullRun('refuses --proxy with --serve, a URL that is not http, and --serve-token alone', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['--proxy', 'http://127.0.0.1:4320', '--serve', 'http://127.0.0.1:4319'],
        'give --proxy or --serve, not both',
      ],
      [['--proxy', 'ftp://127.0.0.1'], "--proxy must be the service's http:// URL"],
      [['--serve-token', 'secret'], '--serve-token needs --serve'],
    ];
    for (const [args, message] of cases) {
      const run = await runCommand(['mcp', ...args], { cwd: directory });
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stderr, args.join(' ')).toContain(message);
    }
  });

  itOnFullRun('documents the flags in the commands’ help', async () => {
    for (const command of ['serve', 'proxy']) {
      const help = await runCommand([command, '--help']);
      expect(help.stdout).toContain('--background-at <amount>');
      expect(help.stdout).toContain('--background-concurrency <n>');
    }
    expect((await runCommand(['mcp', '--help'])).stdout).toContain('--proxy <url>');
  });
});
