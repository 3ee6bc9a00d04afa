import { agentLaunchers } from './agent-launchers.mjs';
import { billWithCache, checkForwarded } from './request-checks.mjs';

const paths = {
  anthropic: '/v1/messages',
  'openai-responses': '/v1/responses',
  'openai-chat': '/v1/chat/completions',
};

/** The requests of the agent's main conversation: on its API's path, holding the task. */
export function mainRequests(run) {
  const { format } = agentLaunchers[run.agent];
  const needle = JSON.stringify(run.task).slice(1, -1);
  return run.sent.filter(
    (record) => record.path === paths[format] && JSON.stringify(record.body ?? '').includes(needle),
  );
}

/** What the checks found in one run: the row of the results table. */
export function evaluateRun(run) {
  const { format } = agentLaunchers[run.agent];
  const main = mainRequests(run);
  const byId = new Map(main.map((record) => [record.id, record]));
  const forwarded = run.exchanges.filter((exchange) => byId.has(exchange.requestId));
  const checks = forwarded.map((exchange) =>
    checkForwarded({
      format,
      task: run.task,
      original: byId.get(exchange.requestId).body,
      forwarded: exchange.body,
    }),
  );
  // The requests the provider answered, in order: each agent request's last attempt.
  const accepted = forwarded.filter((exchange) => !exchange.refused);
  const proxied = billWithCache(
    format,
    accepted.map((exchange) => exchange.body),
  );
  const direct = billWithCache(
    format,
    main.map((record) => record.body),
  );
  const finished =
    run.ended.code === 0 &&
    !run.ended.timedOut &&
    run.exchanges.some((exchange) => exchange.kind === 'done' && !exchange.refused);
  const violations = checks.flatMap((check) => check.violations);
  return {
    agent: run.agent,
    mode: run.mode,
    providerLimit: run.providerLimit,
    finished,
    exitCode: run.ended.output.endsWith('[stopped after too many requests]')
      ? 'stopped looping'
      : run.ended.timedOut
        ? 'timed out'
        : run.ended.code,
    seconds: run.seconds,
    requests: main.length,
    upstreamRequests: run.exchanges.length,
    refused: run.exchanges.filter((exchange) => exchange.refused).length,
    compacted: checks.filter((check) => check.compacted).length,
    violations: violations.length,
    violatedRules: [...new Set(violations.map((violation) => violation.rule))],
    taskMissing: checks.filter((check) => !check.taskKept).length,
    newestLost: checks.filter((check) => !check.newestKept).length,
    notesPiledUp: checks.filter((check) => check.notesPileUp).length,
    mostNotes: Math.max(0, ...checks.map((check) => check.notes)),
    prefixHeld: proxied.held.filter(Boolean).length,
    prefixChances: proxied.held.length,
    billRatio: direct.total === 0 ? undefined : proxied.total / direct.total,
    filesRead: Math.max(
      0,
      ...accepted.map((exchange) => Number(/file-(\d{2})/.exec(exchange.answer?.text ?? '')?.[1] ?? 0)),
    ),
    compactions: run.status?.compactions,
    overflowRetries: run.status?.overflowRetries,
    tail: run.ended.output.slice(-600),
  };
}
