import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export const startMarker = '<!-- agents-results:start (written by `pnpm agents`; do not edit by hand) -->';
export const endMarker = '<!-- agents-results:end -->';

const modeTitles = {
  alone: 'alone',
  proxy: 'through the proxy',
  'proxy-half-limit': 'proxy, provider limit ½ window',
};

const yesNo = (value) => (value ? 'yes' : 'no');

/** The results as a Markdown table, one row per run, with the agents' versions and the bills. */
export function resultsTable(rows, versions, settings, date) {
  const lines = [
    `Run on ${date} with ${Object.entries(versions)
      .map(([name, version]) => `\`${name}@${version}\``)
      .join(
        ', ',
      )}, Node ${process.versions.node}. Bill: input billed with a prompt cache (the longest prefix shared with the previous request read at 0.1× the base price, the rest written at 1.25×), through the proxy ÷ the same requests without compaction.`,
    '',
    'Alone: the agent against the provider directly; window: the proxy’s `--context-window`. Requests: what the ' +
      'agent sent (what the provider received, retries included); refused: answered with the provider’s overflow ' +
      'error; compacted: forwarded requests the proxy changed; new rule broken: rules of `compactedRequestViolations` ' +
      'that a forwarded request breaks and the agent’s request kept; task missing, newest turn lost (the tool result ' +
      'or message the agent just added), notes piled up (more removal notes than removed spans, or two in one ' +
      'message): forwarded requests; prefix held: requests that start with the whole request before them; stopped ' +
      'looping: more than three requests per file.',
    '',
    '| agent | API | run | window | provider limit | finished | requests (upstream) | refused | compacted | new rule broken | task missing | newest turn lost | notes piled up | prefix held | bill |',
    '|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const agent = settings[row.agent];
    const proxied = row.mode !== 'alone';
    lines.push(
      `| ${agent.title} | ${agent.api} | ${modeTitles[row.mode]} | ${agent.window} | ${row.providerLimit} | ` +
        `${yesNo(row.finished)}${row.finished ? '' : ` (${typeof row.exitCode === 'number' ? `exit ${row.exitCode}` : row.exitCode})`} | ` +
        `${row.requests} (${row.upstreamRequests}) | ` +
        `${row.refused} | ${proxied ? row.compacted : '–'} | ${proxied ? row.violations : '–'} | ${row.taskMissing} | ${proxied ? row.newestLost : '–'} | ` +
        `${proxied ? row.notesPiledUp : '–'} | ${proxied ? `${row.prefixHeld}/${row.prefixChances}` : '–'} | ` +
        // A bill compares whole tasks: a run that did not finish has none.
        `${proxied && row.finished && row.billRatio !== undefined ? `${row.billRatio.toFixed(2)}×` : '–'} |`,
    );
  }
  return lines.join('\n');
}

/** Replaces what is between the markers of `path` with `table` (adding the section at the end if absent). */
export function writeResultsSection(path, table, section) {
  const text = readFileSync(path, 'utf8');
  const block = `${startMarker}\n${table}\n${endMarker}`;
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  const updated =
    start !== -1 && end > start
      ? `${text.slice(0, start)}${block}${text.slice(end + endMarker.length)}`
      : `${text.trimEnd()}\n\n${section}\n\n${block}\n`;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, updated);
  renameSync(temporary, path);
}
