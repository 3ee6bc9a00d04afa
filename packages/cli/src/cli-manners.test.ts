import { describe, expect, it } from 'vitest';
import { describeOnFullRun } from './__fixtures__/full-run.js';
import { example, type LooseJson, runBinary, temporaryFile } from './__fixtures__/run-binary.js';
import { runCommand } from './__fixtures__/run-command.js';
import { closestName } from './did-you-mean.js';

// Not on the Node 22 compatibility run: the suggestions are plain code (the Node 20 run has run them). The JSON
// errors run on both: they are what a process prints and exits with.
describeOnFullRun('did you mean', () => {
  it('suggests the real command, flag, strategy and provider closest to a mistyped one', async () => {
    const command = await runCommand(['compcat', example]);
    expect(command.code).toBe(1);
    expect(command.stderr).toMatch(/^compaction: unknown command "compcat" \(did you mean "compact"\?\)/);
    const help = await runCommand(['help', 'simualte']);
    expect(help.code).toBe(1);
    expect(help.stdout).toBe('');
    expect(help.stderr).toMatch(/^compaction: unknown command "simualte" \(did you mean "simulate"\?\)/);

    const flag = await runCommand(['compact', example, '--jsn']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toBe(
      `compaction: compact: unknown option '--jsn' (did you mean "--json"?) (see compaction compact --help)\n`,
    );

    const strategy = await runCommand(['compact', example, '--strategy', 'prunin']);
    expect(strategy.code).toBe(1);
    expect(strategy.stderr).toMatch(
      /^compaction: no strategy named "prunin" \(did you mean "pruning"\?\); the strategies are pruning, sliding-window, summarization, tool-result-truncation \(several in order: --strategy a,b\), and no installed package @compaction\/strategy-prunin provides it/,
    );
    // No advice to install a package that does not exist, and no `pipeline` offered as a name to pick.
    expect(strategy.stderr).not.toMatch(/Install @compaction\/strategy-prunin/);
    expect(strategy.stderr).not.toMatch(/are [^.]*pipeline/);

    const provider = await runCommand([
      'count',
      example,
      '--estimator',
      'provider',
      '--provider',
      'antropic',
    ]);
    expect(provider.code).toBe(1);
    expect(provider.stderr).toMatch(
      /^compaction: no provider named "antropic" \(did you mean "anthropic"\?\); the providers are anthropic, openai, and no installed package @compaction\/provider-antropic provides it/,
    );
  });

  it('suggests the closest estimator and format names', async () => {
    const estimator = await runCommand(['count', example, '--estimator', 'tiktokn']);
    expect(estimator.code).toBe(1);
    expect(estimator.stderr).toMatch(/got "tiktokn" \(did you mean "tiktoken"\?\)/);
    const format = await runCommand(['compact', example, '--to', 'antropic']);
    expect(format.code).toBe(1);
    expect(format.stderr).toMatch(/got "antropic" \(did you mean "anthropic"\?\)/);
  });

  it('says what pipeline is when it is named alone', async () => {
    const run = await runCommand(['compact', example, '--strategy', 'pipeline']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^compaction: "pipeline" is not a strategy to name alone: name its stages in order/,
    );
  });

  it('suggests nothing when no real name is close', () => {
    const names = ['compact', 'count', 'simulate', 'serve'];
    expect(closestName('compress', names)).toBeUndefined();
    expect(closestName('xyz', names)).toBeUndefined();
    expect(closestName('simul', names)).toBe('simulate');
    expect(closestName('SERVE', names)).toBe('serve');
  });
});

describe('errors with --json', () => {
  it('are one JSON document on standard error with a stable code, the message and the exit code', async () => {
    const missing = await runBinary(['compact', '/nonexistent/conversation.json', '--json']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(JSON.parse(missing.stderr)).toEqual({
      version: 1,
      error: {
        code: 'cli/input',
        message: 'cannot read /nonexistent/conversation.json: no such file',
        exitCode: 2,
      },
    });

    const longTask = temporaryFile(
      'long-task.json',
      JSON.stringify([
        { role: 'user', content: `Please do this: ${'lorem ipsum dolor sit amet '.repeat(300)}` },
      ]),
    );
    const cases: Array<[string[], string, number]> = [
      [['compact', example, '--jsn', '--json'], 'cli/usage', 1],
      [['compcat', '--json'], 'cli/usage', 1],
      [['count', example, '--estimator', 'exact', '--json'], 'cli/usage', 1],
      [['simulate', example, '--strategy', 'prunin', '--json'], 'core/strategy-not-found', 1],
      [['compact', longTask, '--context-window', '2k', '--json'], 'core/budget-unreachable', 3],
    ];
    for (const [args, code, exitCode] of cases) {
      const run = await runCommand(args);
      expect(run.code, args.join(' ')).toBe(exitCode);
      const document: LooseJson = JSON.parse(run.stderr);
      expect(document, args.join(' ')).toMatchObject({ version: 1, error: { code, exitCode } });
      expect(document.error.message).not.toMatch(/^compaction: /);
    }
    // After `--`, `--json` is an input's name, not the flag.
    const plain = await runCommand(['compact', '--', '--json']);
    expect(plain.stderr).toMatch(/^compaction: /);
  });
});
