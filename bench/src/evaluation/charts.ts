/** Hand-written SVG charts for the evaluation report: no dependency, stable output for the same numbers. */

const width = 1000;
const height = 520;
const margin = { top: 48, right: 350, bottom: 56, left: 72 };
const palette = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#637939',
  '#8c6d31',
  '#843c39',
  '#7b4173',
  '#e7969c',
  '#000000',
];

/** One point of the retention chart. */
export interface RetentionPoint {
  /** Series (policy) name, in the legend. */
  series: string;
  /** Marker group: circles for the first group, squares for the second. */
  group: 'coding' | 'tau-bench';
  /** Share of tokens removed, 0 to 1. */
  compression: number;
  /** Share of probes kept, 0 to 1. */
  retention: number;
}

/** Retention (y) against compression (x), one colour per policy, circles for coding and squares for tau-bench. */
export function retentionChart(
  points: readonly RetentionPoint[],
  title: string,
  xLabel = 'tokens removed from the final context (compression)',
): string {
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const x = (share: number) => margin.left + share * plotWidth;
  const y = (share: number) => margin.top + plotHeight - share * plotHeight;
  const series = [...new Set(points.map((point) => point.series))];
  const parts = header(title);
  for (let tick = 0; tick <= 10; tick++) {
    const share = tick / 10;
    parts.push(
      `<line x1="${x(share)}" x2="${x(share)}" y1="${margin.top}" y2="${margin.top + plotHeight}" stroke="#eef0f3"/>`,
      `<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${y(share)}" y2="${y(share)}" stroke="#eef0f3"/>`,
      `<text x="${x(share)}" y="${margin.top + plotHeight + 18}" text-anchor="middle" fill="#4b5563">${tick * 10}%</text>`,
      `<text x="${margin.left - 8}" y="${y(share) + 4}" text-anchor="end" fill="#4b5563">${tick * 10}%</text>`,
    );
  }
  parts.push(
    axes(plotWidth, plotHeight),
    `<text x="${margin.left + plotWidth / 2}" y="${height - 12}" text-anchor="middle">${escapeXml(xLabel)}</text>`,
    `<text transform="translate(18 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">probes kept (retention)</text>`,
  );
  for (const point of points) {
    const index = series.indexOf(point.series);
    const color = palette[index % palette.length]!;
    const cx = round(x(clamp(point.compression)));
    const cy = round(y(clamp(point.retention)));
    // Policies often land on the same spot: the number (as in the legend) tells them apart.
    parts.push(`<text x="${cx + 7}" y="${cy - 6}" font-size="10" fill="${color}">${index + 1}</text>`);
    parts.push(
      point.group === 'coding'
        ? `<circle cx="${cx}" cy="${cy}" r="6" fill="${color}" fill-opacity="0.85" stroke="#ffffff"><title>${escapeXml(point.series)} (coding): ${percent(point.retention)} kept, ${percent(point.compression)} removed</title></circle>`
        : `<rect x="${cx - 5}" y="${cy - 5}" width="10" height="10" fill="${color}" fill-opacity="0.85" stroke="#ffffff"><title>${escapeXml(point.series)} (tau-bench): ${percent(point.retention)} kept, ${percent(point.compression)} removed</title></rect>`,
    );
  }
  legend(
    parts,
    series.map((name, index) => `${index + 1}. ${name}`),
    (index) => `<circle cx="6" cy="-4" r="5" fill="${palette[index % palette.length]}"/>`,
  );
  parts.push(
    `<text x="${width - margin.right + 24}" y="${height - margin.bottom}" fill="#4b5563">● coding transcripts   ■ tau-bench</text>`,
    '</svg>',
  );
  return parts.join('\n');
}

/** One line of the context chart. */
export interface ContextSeries {
  name: string;
  /** Context tokens at each model call. */
  tokens: readonly number[];
  /** 1-based calls preceded by a compaction. */
  compactions: readonly number[];
  dashed?: boolean;
}

/** Context size over model calls, one line per policy, with the limit and a dot at each compaction. */
export function contextChart(series: readonly ContextSeries[], limit: number, title: string): string {
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const steps = Math.max(2, ...series.map((line) => line.tokens.length));
  const highest = Math.max(limit, ...series.flatMap((line) => line.tokens), 1) * 1.05;
  const yMax = niceCeiling(highest);
  const x = (step: number) => margin.left + ((step - 1) / (steps - 1)) * plotWidth;
  const y = (tokens: number) => margin.top + plotHeight - (tokens / yMax) * plotHeight;
  const parts = header(title);
  for (let tick = 0; tick <= 5; tick++) {
    const tokens = (yMax / 5) * tick;
    parts.push(
      `<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${round(y(tokens))}" y2="${round(y(tokens))}" stroke="#eef0f3"/>`,
      `<text x="${margin.left - 8}" y="${round(y(tokens)) + 4}" text-anchor="end" fill="#4b5563">${Math.round(tokens / 1000)}k</text>`,
    );
  }
  for (let tick = 0; tick <= 10; tick++) {
    const step = Math.round(1 + ((steps - 1) * tick) / 10);
    parts.push(
      `<text x="${round(x(step))}" y="${margin.top + plotHeight + 18}" text-anchor="middle" fill="#4b5563">${step}</text>`,
    );
  }
  parts.push(
    axes(plotWidth, plotHeight),
    `<text x="${margin.left + plotWidth / 2}" y="${height - 12}" text-anchor="middle">model call</text>`,
    `<text transform="translate(18 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">context tokens</text>`,
    `<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${round(y(limit))}" y2="${round(y(limit))}" stroke="#dc2626" stroke-dasharray="2 3"/>`,
    `<text x="${margin.left + plotWidth - 4}" y="${round(y(limit)) - 6}" text-anchor="end" fill="#dc2626">limit ${limit.toLocaleString('en-US')}</text>`,
  );
  series.forEach((line, index) => {
    const color = palette[index % palette.length]!;
    const path = line.tokens
      .map((tokens, step) => `${step === 0 ? 'M' : 'L'}${round(x(step + 1))},${round(y(tokens))}`)
      .join(' ');
    parts.push(
      `<path d="${path}" fill="none" stroke="${color}" stroke-width="1.6"${line.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
    );
    for (const step of line.compactions) {
      const tokens = line.tokens[step - 1];
      if (tokens !== undefined)
        parts.push(`<circle cx="${round(x(step))}" cy="${round(y(tokens))}" r="3" fill="${color}"/>`);
    }
  });
  legend(
    parts,
    series.map((line) => line.name),
    (index) =>
      `<line x1="0" x2="14" y1="-4" y2="-4" stroke="${palette[index % palette.length]}" stroke-width="2"${series[index]!.dashed ? ' stroke-dasharray="4 3"' : ''}/>`,
  );
  parts.push(
    `<text x="${width - margin.right + 24}" y="${height - margin.bottom}" fill="#4b5563">dots: compactions</text>`,
    '</svg>',
  );
  return parts.join('\n');
}

function header(title: string): string[] {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${margin.left}" y="28" font-size="15" font-weight="600">${escapeXml(title)}</text>`,
  ];
}

function axes(plotWidth: number, plotHeight: number): string {
  const bottom = margin.top + plotHeight;
  return [
    `<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${bottom}" stroke="#9ca3af"/>`,
    `<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${bottom}" y2="${bottom}" stroke="#9ca3af"/>`,
  ].join('\n');
}

function legend(parts: string[], names: readonly string[], marker: (index: number) => string) {
  names.forEach((name, index) => {
    parts.push(
      `<g transform="translate(${width - margin.right + 24} ${margin.top + 8 + index * 20})">${marker(index)}<text x="22" y="0">${escapeXml(name)}</text></g>`,
    );
  });
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

const clamp = (share: number) => Math.min(1, Math.max(0, share));
const round = (value: number) => Math.round(value * 10) / 10;
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
