import type { SimulationResult } from './simulate.js';

const width = 900;
const height = 420;
const margin = { top: 40, right: 24, bottom: 48, left: 72 };

/**
 * Draws the context size at each step of a simulation as an SVG line chart: the context with compaction,
 * the context it would have been without (dashed), the limit and the trigger, and a mark at each compaction.
 * Hand-written SVG, no dependency.
 */
export function plotSimulation(result: SimulationResult, title = 'Context size per step'): string {
  const steps = result.steps;
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const highest = Math.max(
    result.limit,
    ...steps.map((step) => Math.max(step.contextTokens, step.uncompactedTokens)),
    1,
  );
  const yMax = niceCeiling(highest * 1.05);
  const count = Math.max(steps.length, 2);
  const x = (step: number) => margin.left + ((step - 1) / (count - 1)) * plotWidth;
  const y = (tokens: number) => margin.top + plotHeight - (tokens / yMax) * plotHeight;
  const line = (values: number[]) =>
    values
      .map((value, index) => `${index === 0 ? 'M' : 'L'}${round(x(index + 1))},${round(y(value))}`)
      .join(' ');

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${margin.left}" y="24" font-size="15" font-weight="600">${escapeXml(title)}</text>`,
  );
  for (let index = 0; index <= 5; index++) {
    const tokens = (yMax / 5) * index;
    const position = round(y(tokens));
    parts.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${position}" y2="${position}" stroke="#e5e7eb"/>`,
      `<text x="${margin.left - 8}" y="${position + 4}" text-anchor="end" fill="#4b5563">${shortTokens(tokens)}</text>`,
    );
  }
  const xTicks = Math.min(10, steps.length);
  for (let index = 0; index <= xTicks && steps.length > 0; index++) {
    const step = Math.max(1, Math.round(1 + ((steps.length - 1) * index) / Math.max(xTicks, 1)));
    parts.push(
      `<text x="${round(x(step))}" y="${height - margin.bottom + 18}" text-anchor="middle" fill="#4b5563">${step}</text>`,
    );
  }
  parts.push(
    `<text x="${margin.left + plotWidth / 2}" y="${height - 10}" text-anchor="middle" fill="#111827">model call (step)</text>`,
    `<text transform="translate(16 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle" fill="#111827">context tokens</text>`,
    `<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${margin.top + plotHeight}" stroke="#9ca3af"/>`,
    `<line x1="${margin.left}" x2="${width - margin.right}" y1="${margin.top + plotHeight}" y2="${margin.top + plotHeight}" stroke="#9ca3af"/>`,
  );
  const threshold = (tokens: number, label: string, color: string) => {
    const position = round(y(tokens));
    parts.push(
      `<line class="${label}" x1="${margin.left}" x2="${width - margin.right}" y1="${position}" y2="${position}" stroke="${color}" stroke-dasharray="6 4"/>`,
      `<text x="${width - margin.right - 4}" y="${position - 4}" text-anchor="end" fill="${color}">${label} ${shortTokens(tokens)}</text>`,
    );
  };
  threshold(result.limit, 'limit', '#dc2626');
  if (result.trigger !== null) threshold(result.trigger, 'trigger', '#d97706');
  if (steps.length > 0) {
    parts.push(
      `<path class="uncompacted" d="${line(steps.map((step) => step.uncompactedTokens))}" fill="none" stroke="#9ca3af" stroke-width="1.5" stroke-dasharray="4 3"/>`,
      `<path class="context" d="${line(steps.map((step) => step.contextTokens))}" fill="none" stroke="#2563eb" stroke-width="2"/>`,
    );
  }
  for (const step of steps) {
    if (step.compaction === undefined) continue;
    const cx = round(x(step.step));
    parts.push(
      `<g class="compaction"><title>step ${step.step}: ${step.compaction.strategy} ${step.compaction.tokensBefore} → ${step.compaction.tokensAfter} tokens</title>` +
        `<line x1="${cx}" x2="${cx}" y1="${round(y(step.compaction.tokensBefore))}" y2="${round(y(step.compaction.tokensAfter))}" stroke="#16a34a" stroke-width="2"/>` +
        `<circle cx="${cx}" cy="${round(y(step.compaction.tokensAfter))}" r="4" fill="#16a34a"/></g>`,
    );
  }
  const legend = [
    ['#2563eb', 'with compaction', ''],
    ['#9ca3af', 'without compaction', '4 3'],
    ['#16a34a', 'compaction', ''],
  ];
  legend.forEach(([color, label, dash], index) => {
    const left = margin.left + 240 + index * 170;
    parts.push(
      `<line x1="${left}" x2="${left + 24}" y1="20" y2="20" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
      `<text x="${left + 30}" y="24" fill="#111827">${label}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function shortTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${+(tokens / 1_000_000).toFixed(2)}M`;
  if (tokens >= 1000) return `${+(tokens / 1000).toFixed(1)}k`;
  return String(Math.round(tokens));
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (character) => `&#${character.charCodeAt(0)};`);
}
