/** A metric's labels: names fixed at creation, values bounded sets (route templates, statuses), never raw input. */
export type MetricLabels = Record<string, string>;

/** A counter of labelled series; counts only go up. */
export interface Counter {
  increment(labels?: MetricLabels, amount?: number): void;
}

/** A histogram of labelled series, with the registry's cumulative buckets. */
export interface Histogram {
  observe(value: number, labels?: MetricLabels): void;
}

interface Series {
  labels: MetricLabels;
  value: number;
}

interface HistogramSeries {
  labels: MetricLabels;
  bucketCounts: number[];
  sum: number;
  count: number;
}

type Family =
  | { kind: 'counter'; name: string; help: string; series: Map<string, Series> }
  | { kind: 'gauge' | 'read-counter'; name: string; help: string; read: () => number }
  | {
      kind: 'histogram';
      name: string;
      help: string;
      buckets: readonly number[];
      series: Map<string, HistogramSeries>;
    };

/**
 * The few metric kinds the server needs, written in the Prometheus text exposition format (version 0.0.4).
 * Written here rather than taken from a client library: a counter, a gauge read at scrape time and a
 * histogram are all the server records, and the format is small.
 */
export class MetricRegistry {
  private readonly families: Family[] = [];

  /** The content type of {@link render}'s text. */
  static readonly contentType = 'text/plain; version=0.0.4; charset=utf-8';

  counter(name: string, help: string): Counter {
    const series = new Map<string, Series>();
    this.families.push({ kind: 'counter', name, help, series });
    return {
      increment: (labels = {}, amount = 1) => {
        const key = seriesKey(labels);
        const found = series.get(key);
        if (found === undefined) series.set(key, { labels: { ...labels }, value: amount });
        else found.value += amount;
      },
    };
  }

  /** A gauge whose value is read when the metrics are rendered, so it is never stale. */
  gauge(name: string, help: string, read: () => number): void {
    this.families.push({ kind: 'gauge', name, help, read });
  }

  /** A counter kept elsewhere (a running count of the service), read when the metrics are rendered. */
  readCounter(name: string, help: string, read: () => number): void {
    this.families.push({ kind: 'read-counter', name, help, read });
  }

  histogram(name: string, help: string, buckets: readonly number[]): Histogram {
    const series = new Map<string, HistogramSeries>();
    const sorted = [...buckets].sort((left, right) => left - right);
    this.families.push({ kind: 'histogram', name, help, buckets: sorted, series });
    return {
      observe: (value, labels = {}) => {
        const key = seriesKey(labels);
        let found = series.get(key);
        if (found === undefined) {
          found = { labels: { ...labels }, bucketCounts: sorted.map(() => 0), sum: 0, count: 0 };
          series.set(key, found);
        }
        for (const [index, bound] of sorted.entries()) if (value <= bound) found.bucketCounts[index]!++;
        found.sum += value;
        found.count++;
      },
    };
  }

  /** Every metric as Prometheus text. */
  render(): string {
    const lines: string[] = [];
    for (const family of this.families) {
      const type = family.kind === 'read-counter' ? 'counter' : family.kind;
      lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${type}`);
      if ('read' in family) {
        lines.push(`${family.name} ${formatNumber(family.read())}`);
      } else if (family.kind === 'counter') {
        for (const { labels, value } of family.series.values()) {
          lines.push(`${family.name}${formatLabels(labels)} ${formatNumber(value)}`);
        }
      } else {
        for (const series of family.series.values()) lines.push(...histogramLines(family, series));
      }
    }
    return `${lines.join('\n')}\n`;
  }
}

function histogramLines(family: { name: string; buckets: readonly number[] }, series: HistogramSeries) {
  const { name, buckets } = family;
  const lines = buckets.map(
    (bound, index) =>
      `${name}_bucket${formatLabels({ ...series.labels, le: formatNumber(bound) })} ${series.bucketCounts[index]}`,
  );
  lines.push(
    `${name}_bucket${formatLabels({ ...series.labels, le: '+Inf' })} ${series.count}`,
    `${name}_sum${formatLabels(series.labels)} ${formatNumber(series.sum)}`,
    `${name}_count${formatLabels(series.labels)} ${series.count}`,
  );
  return lines;
}

/** One key per label set, whatever the order its labels were given in. */
function seriesKey(labels: MetricLabels): string {
  return JSON.stringify(Object.entries(labels).sort(([left], [right]) => left.localeCompare(right)));
}

function formatLabels(labels: MetricLabels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',')}}`;
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}
