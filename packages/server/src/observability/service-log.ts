import { currentRequestScope } from './request-scope.js';
import type { ObservedCompaction } from './service-metrics.js';

/** `text`: the service's lines as they always were; `json`: one JSON object per line. */
export type LogFormat = 'text' | 'json';

/** The log formats, as `--log-format` takes them. */
export const logFormats: readonly LogFormat[] = ['text', 'json'];

/** One answered request as a log line has it: no header, key or message text. */
export interface RequestLogFields {
  requestId: string;
  method: string;
  route: string;
  status: string;
  durationMs: number;
  sessionId?: string;
}

/** Where a service's lines go, in its format. */
export interface ServiceLog {
  readonly format: LogFormat;
  /** A request answered: a JSON line; the text format has no line per request. */
  request(fields: RequestLogFields): void;
  /** A compaction: a JSON line with its request's id; in text, `textLine` when the service has one. */
  compaction(compaction: ObservedCompaction, textLine?: string): void;
  /** One of the service's own lines: as it is in text, as a JSON `message` in json. */
  line(text: string, level?: 'info' | 'warn' | 'error'): void;
}

/** A log in `format` that writes each line (without its newline) with `write`. */
export function createServiceLog(format: LogFormat, write: (line: string) => void): ServiceLog {
  const json = (level: string, fields: Record<string, unknown>) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, ...fields }));
  return {
    format,
    request: (fields) => {
      if (format !== 'json') return;
      const level = fields.status.startsWith('5') ? 'error' : 'info';
      json(level, { event: 'request', ...fields });
    },
    compaction: (compaction, textLine) => {
      if (format === 'text') {
        if (textLine !== undefined) write(textLine);
        return;
      }
      const scope = currentRequestScope();
      json(compaction.outcome === 'failed' ? 'error' : 'info', {
        event: 'compaction',
        ...(scope === undefined ? {} : { requestId: scope.requestId, route: scope.route }),
        ...compaction,
      });
    },
    line: (text, level = 'info') => {
      if (format === 'text') write(text);
      else json(level, { event: 'message', message: text });
    },
  };
}
