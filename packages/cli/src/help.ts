const compactionFlags = `Compaction options (override compaction.config.json):
  -c, --config <path>         config file (default: the nearest compaction.config.json upward)
  -s, --strategy <a,b>        strategies by name, run in order as a pipeline
                              (default: tool-result-truncation,sliding-window, with
                              sliding-window alone as the fallback)
      --context-window <n>    the model's context window in tokens: 200000, 200k
                              (default: the provider model's window, else 200k)
      --trigger <n|off>       when automatic compaction fires: tokens (150k) or a fraction of the limit (0.85)
      --target <n>            what to compact down to: tokens (32000, 32k) or a fraction (0.25)
      --provider <name>       anthropic or openai (needs ANTHROPIC_API_KEY or OPENAI_API_KEY)
      --model <id>            the provider's model
      --base-url <url>        the provider API's base URL (a proxy or compatible server)`;

const formatFlags = `Formats (detected from the input unless given; rules in docs/cli.md, "Format detection"):
      --from <format>         core, anthropic, openai-chat, openai-responses, claude-code; needed when
                              an input has clues of two formats
      --to <format>           output format (default: the input's)`;

/** `compaction --help`. */
export const mainHelp = `compaction: keep long LLM-agent conversations inside the model's context window

Usage: compaction <command> [options]

Commands:
  compact <input>    compact a conversation and write it back in its format
  count <input>      count tokens by role, part kind and tool
  simulate <input>   replay a conversation as an agent loop: context size, billed tokens, compactions
  recall <handle>    print text a compaction archived (compact --store) under the handle its output names
  mcp                MCP server for agents: recall, search and compaction status over the store
  serve              HTTP API: stateless compaction and sessions with live events
  proxy              compacting proxy for the Anthropic and OpenAI APIs (set ANTHROPIC_BASE_URL)
  chat               terminal chat with a real provider that compacts automatically
  schema             print the JSON Schema of compaction.config.json
  migrate            apply the schema migrations of a PostgreSQL session store

<input> is a file path, or - (or nothing) for standard input. Formats: core JSON (a message list or
{messages}), Anthropic Messages requests, OpenAI Chat Completions and Responses requests (or bare lists of
their messages or items), Claude Code session logs (JSONL, written back into the same log).

Options:
  -h, --help         help for compaction or a command (compaction compact --help)
  -v, --version      print the version

Exit codes: 0 success (also when there is nothing to compact); 1 bad arguments, config or provider failure;
2 unreadable input (not JSON, not a conversation, nested more than 1,000 levels deep) or several inputs; 3 a
target given or the limit cannot be reached (nothing is written). recall has its own: 0 printed, 1 not found,
2 a wrong call. With --json, an error is one JSON object on standard error: {version, error: {code, message,
exitCode}}; the package's schemas/ folder has the JSON Schemas of every --json document.

Examples:
  compaction compact conversation.json -o compacted.json
  compaction simulate session.jsonl --context-window 200k --plot context.svg
  (a sample conversation ships with the package: examples/coding-session.json)
`;

/** `compaction compact --help`. */
export const compactHelp = `Usage: compaction compact [input] [options]

Compacts a conversation once and writes it in the input's format (or --to), to standard output or -o.
A short report goes to standard error: messages and tokens before and after, each stage that ran with
its tokens, and the duration. Without --target it compacts to half of the input (or the budget's target
if that is lower); a fractional --target is a share of the input, at most the limit.

With nothing to compact, the output is the input byte for byte and the exit code 0: already under the
target (skipped: under-target), or, with no target given, nothing the strategies may remove from a
conversation that fits the limit (skipped: nothing-to-compact). One input per run: several are refused
(exit code 2). When a fallback made the result (the config's fallback strategy, or an extractive digest
after summarization failed), a warning on standard error says what failed, and the report names the
fallback. A result under the limit but over the target is kept, with a warning. When no strategy gets
under the limit, or a --target given cannot be reached, the error names the target and the best
reached, nothing is written, and the exit code is 3.

  -o, --output <path>         write the compacted conversation here (default: standard output); the file
                              is replaced atomically: it is the old file or the complete new one, never
                              a partial one, with its owner and mode. A device or FIFO is written in
                              place, as > writes it; a file you may not write is refused. Naming the
                              input file is refused without --in-place
      --in-place              replace the input file (atomically; left untouched when nothing changes;
                              nothing is written if the file changed while it was being compacted)
      --json                  print one JSON object on standard output instead of the report:
                              {version, format, outputFormat, strategy, compacted, skipped?, before,
                              after, target, targetReached, limit, stages, usedFallback, fallback?,
                              failures?, durationMs, output} (the conversation is then written only
                              with -o or --in-place)
      --instructions <text>   extra instructions for strategies that use them (summarization)
      --force                 compact even a conversation already under the target: it then aims for half
                              of the input, and keeps the best the strategies reach above that (what they
                              may not remove); with nothing they may remove it is skipped
                              (nothing-to-compact), never an error while it fits the limit

Archiving, so nothing removed is out of reach ("compaction recall --help"):
      --store <path|url>      record the compaction in this store, a SQLite file (created when missing) or
                              postgres://user:password@host:port/database, with every text the strategies
                              remove or shorten archived under the handle its placeholder names
                              (recall "<handle>"). The report says how many, and --json adds
                              {store, session, archived: [{handle, label, characters}]}: each handle, what
                              it replaced, and its size
      --session <id>          the session to record under (default "default"); recall reads one session

${compactionFlags}

${formatFlags}

Examples:
  compaction compact session.json -o compacted.json
  compaction compact session.json --store archive.sqlite -o compacted.json
  compaction compact request.json --strategy pruning --target 32k --json
  compaction compact ~/.claude/projects/app/session.jsonl --in-place
  cat session.jsonl | compaction compact --from claude-code --to core
`;

/** `compaction recall --help`. */
export const recallHelp = `Usage: compaction recall --store <path|url> [--session <id>] <handle> [options]

Prints the text a compaction archived under <handle> (compaction compact --store, or compaction serve),
exactly as it was before it was removed or shortened: nothing added, not even a final newline. Handles are
the ones the compacted conversation names, as recall "<handle>", and the --json report of compact lists.

      --store <path|url>      the SQLite file or postgres://user:password@host:port/database archived into
      --session <id>          the session archived into (default "default"); handles of other sessions are
                              not found

Part of the text, as the recall tool answers a model (a first line says which lines of how many):
      --from-line <n>         first line, counting from 1
      --to-line <n>           last line, included
      --pattern <text>        only the lines containing the text (case-insensitive), each after its number

Exit codes (as grep): 0 printed; 1 no such handle in the session; 2 a wrong call (a bad or missing flag or
handle, no store at the path).

Examples:
  compaction recall --store archive.sqlite k3j9x0a2m1q
  compaction recall --store archive.sqlite --session build-7 k3j9x0a2m1q --pattern error
`;

/** `compaction mcp --help`. */
export const mcpHelp = `Usage: compaction mcp [--store <path|url>] [--session <id>] [--http [options]]

An MCP server for agents that load MCP servers (Claude Code, Codex, opencode; docs/mcp.md), over the
store that compaction proxy, serve or compact --store archived into. Its tools: recall (the text a
placeholder's handle names, whole, as a line range or the lines matching a pattern), search (archived text
by words or a phrase, best first, with the handles to recall), compaction_status (the rounds, tokens
and archived handles of a session, or the sessions) and compact (a compaction now, even under the target,
asked of --proxy or --serve). Serves standard input and output by default.

      --store <path|url>      a SQLite file (default .compaction/sessions.sqlite in the working folder,
                              the proxy's), postgres://user:password@host:port/database, or a store package
      --session <id>          the session the tools read when a call names none (default: every session;
                              recall takes the newest that archived the handle)
      --http                  serve Streamable HTTP at /mcp instead, until SIGINT or SIGTERM
      --host <address>        default 127.0.0.1; any other needs --token
      --port <n>              default 4321; 0 picks a free port
      --token <secret>        require "Authorization: Bearer <secret>" (or set COMPACTION_TOKEN)
      --proxy <url>           where the compact tool asks: the compaction proxy the agent goes through
                              (such as http://127.0.0.1:4320); the conversation's next request is compacted
      --serve <url>           or compaction serve: the session (--session, or the call's) is compacted at once
      --serve-token <secret>  the bearer token compaction serve requires

Examples:
  claude mcp add compaction -- compaction mcp --store .compaction/sessions.sqlite --proxy http://127.0.0.1:4320
  compaction mcp --http --port 4321 --token "$COMPACTION_TOKEN"
`;

/** `compaction count --help`. */
export const countHelp = `Usage: compaction count [input] [options]

Counts the tokens of a conversation, in total and by role, by part kind and by tool name.

  -e, --estimator <name>      fast (default, built in: exact o200k counts through the built-in vocabulary),
                              features (built in: the fitted features, no guarantee on unusual text),
                              tiktoken (needs @compaction/tokenizer-tiktoken) or provider (the provider's
                              exact count; needs --provider and its API key)
      --compare               count with every available estimator side by side, with the differences
      --json                  print one JSON object: {version, format, estimator, source, tokens, messages,
                              byRole, byPartKind, byTool}
  -c, --config <path>         config file whose "provider" entry is used (default: the nearest
                              compaction.config.json upward)
      --provider <name>       the provider for --estimator provider: anthropic or openai
      --model <id>            the provider's model
      --base-url <url>        the provider API's base URL

${formatFlags}
`;

/** `compaction simulate --help`. */
export const simulateHelp = `Usage: compaction simulate [input] [options]

Replays a conversation as an agent loop: messages arrive one by one; at each assistant turn the whole
context is sent to the model, after compacting when the trigger fires. Reports the context size at each
step and, in total, the input tokens billed, cache reads and writes, the number of compactions and their
cost, under a price model with prompt caching:

  each request's input = cached prefix (read at --cache-read-price) + new tokens (written to the cache at
  --cache-write-price, or billed at --input-price with --no-cache); the prefix stays cached while the
  history is only appended to, and is lost when a compaction rewrites it. A compaction made by a model
  (summarization) also bills its own input and output.

      --input-price <$>       dollars per million uncached input tokens (default 3)
      --output-price <$>      dollars per million output tokens (default 15)
      --cache-read-price <$>  dollars per million cache-read tokens (default 0.3)
      --cache-write-price <$> dollars per million cache-write tokens (default 3.75)
      --no-cache              bill every input token at the input price (no prompt caching)
      --plot <path.svg>       draw the context size over the steps, with compaction marks
      --json                  print the numbers as one JSON object (steps included)
      --steps                 print every step in the report, not only the compactions

${compactionFlags}

${formatFlags}
`;

/** `compaction serve --help`. */
export const serveHelp = `Usage: compaction serve [options]

Serves an HTTP API (JSON in and out; the OpenAPI document at GET /openapi.json; docs/serve.md):

  POST /v1/compact                      {conversation, format?, config?, instructions?}
                                        → {conversation, report}
  POST /v1/sessions                     {conversation?, format?, config?} → the session, 201
  GET  /v1/sessions?limit=&cursor=      the sessions, a page at a time → {sessions, nextCursor?}
  GET  /v1/sessions/:id                 the session with its conversation
  POST /v1/sessions/:id/messages        {messages} appends; compacts automatically when the trigger fires
  POST /v1/sessions/:id/compact         {instructions?} compacts now
  GET  /v1/sessions/:id/compactions     the newest 100 compaction events and the total
  GET  /v1/sessions/:id/events          server-sent events: session.compacted, then session.ended
  DELETE /v1/sessions/:id               deletes the session
  GET  /v1/health
  GET  /openapi.json

A conversation is what "compaction compact" reads: an Anthropic Messages, OpenAI Chat or OpenAI Responses
request, or core messages (format detected, or "format"); it is answered in its own format. A session keeps
its format, and its messages are appended in that format.

Errors are {"error": {"code", "message"}} with a 4xx or 5xx status.

Sessions, their messages and their compaction records are kept in a store, so a restarted server serves
them again:
      --store <path|memory>   a SQLite file (default .compaction/sessions.sqlite in the working folder,
                              created with a .gitignore); memory keeps sessions until the server stops;
                              or postgres://user:password@host:port/database: sessions shared by any
                              number of servers on that database (docs/deployment.md), migrated at start;
                              or a store package by name (docs/custom-store.md)
      --store-pool-size <n>   PostgreSQL connections of this server (default 10)
      --store-lock-timeout <t>
                              longest wait for a session that another server is changing (default 30s),
                              then 503 with Retry-After
      --retention <t>         delete sessions no request used for this long (30d, 12h), whole: messages,
                              compaction records, archived text (default: kept until deleted or idle)
      --retention-size <s>    beyond this much in the store (1gb), delete the least recently used sessions

What a request's "config" may choose: by default, among the strategies configured here (flags or
compaction.config.json), each with the options configured here, and the budget. The provider, its base
URL, its API key and its model come only from this configuration; a request that sets one, or anything
else not allowed, gets 403 naming the field.
      --allow-strategy <a,b>  strategies a request may name (default: the configured ones)
      --allow-option <s.o>    strategy options a request may set: summarization.instructions, or
                              sliding-window.* for all of one strategy's
      --allow-model <a,b>     models a request may pick ("provider": {"model"}, or a strategy's "model")

      --host <address>        default 127.0.0.1 (loopback only)
      --port <n>              default 4319; 0 picks a free port
      --token <secret>        require "Authorization: Bearer <secret>" (or set COMPACTION_TOKEN)

Limits (sizes accept 512kb, 10mb; durations 500ms, 10s, 5m, 1h):
      --max-body <size>       largest request body (default 10mb); larger ones get 413 and the connection
                              closes as soon as the body passes the limit
      --headers-timeout <t>   time for a request's headers to arrive (default 10s), then 408
      --request-timeout <t>   time for a whole request, body included, to arrive (default 60s), then 408;
                              the compaction itself is not timed
      --max-concurrent <n>    compactions running at once (default 8)
      --max-queue <n>         compactions waiting for a slot (default 64); beyond, 503 with Retry-After
      --compaction-threads <n>
                              worker threads that compact large conversations off the event loop
                              (default: the cores less one, at least 1, at most --max-concurrent);
                              0 compacts on the event loop
      --background-at <amount>
                              compact in the background from this point on (a fraction of the limit such
                              as 0.7, or tokens), above the target and below the trigger; the request at
                              the trigger uses the result (default off)
      --background-concurrency <n>
                              background compactions at once across sessions (default 4)
      --max-sessions <n>      sessions kept at once (default 1000); beyond, 429
      --max-session-size <s>  largest session, its messages as JSON (default 4mb); beyond, 413
      --session-idle <t>      a session unused this long expires (default 30m)
      --shutdown-timeout <t>  on SIGTERM or SIGINT, time for requests in flight to finish (default 30s);
                              exit 0 when they all did, 1 when some were cut off

${observabilityFlags('behind --token like every route')}
${compactionFlags}
`;

/** The metrics, traces and logs flags of `compaction serve` and `compaction proxy`. */
function observabilityFlags(metricsAccess: string): string {
  return `Metrics, traces and logs (docs/observability.md); every answer carries an x-request-id (the
request's own when it is a plain token):
      --no-metrics            no GET /metrics (Prometheus text: requests, latency, compactions, tokens
                              saved, sessions, store errors, background compactions; ${metricsAccess}),
                              404 instead
      --otel [endpoint]       export a span per request (continuing the caller's traceparent) and the
                              compaction metrics over OTLP/HTTP: to endpoint/v1/traces and /v1/metrics,
                              else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _METRICS_ENDPOINT, else
                              OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318
      --log-format <f>        text (default) or json: one JSON object per request and compaction on
                              standard error, without headers, keys or message text
`;
}

/** `compaction proxy --help`. */
export const proxyHelp = `Usage: compaction proxy [options]

Forwards Anthropic Messages (/v1/messages) and OpenAI Chat Completions (/v1/chat/completions) and Responses
(/v1/responses) requests to the provider, compacting each conversation on the way when it crosses the
trigger (docs/proxy.md). Point an agent at it with one variable:

  ANTHROPIC_BASE_URL=http://127.0.0.1:4320          (Anthropic SDK, coding agents)
  OPENAI_BASE_URL=http://127.0.0.1:4320/v1          (OpenAI SDK)

Requests under the trigger and every response, streams included, pass through unchanged; headers (API
keys, beta flags) pass through and are never logged or kept. Each conversation (a hash of its first
messages, or the x-compaction-conversation header) keeps its compacted prefix: later requests that start
with the same turns are sent with the same compacted turns, so the provider's prompt cache stays warm
until the next compaction. When the provider answers that a request is too long, the proxy compacts to the
size its answer states and retries, up to twice, else returns the provider's error. Summaries use the provider configured here, never one
a request names. One line per compaction goes to standard error, naming the store's session (proxy:...)
that archived what it removed: compaction recall --store <path> --session <id> <handle> prints it back.

  GET /compaction/status      {uptimeSeconds, requests, compactions, overflowRetries, conversations,
                              archive: {items, bytes, conversations}, storeErrors, upstreams}
  POST /compaction/conversations/{key}/compact
                              JSON {instructions?}: the conversation's next request is compacted even
                              under the target (key "next": whichever conversation sends the next
                              request); what compaction mcp --proxy's compact tool asks for

      --upstream <where>      anthropic (https://api.anthropic.com), openai (https://api.openai.com),
                              anthropic=<url>, openai=<url>, or a <url> for both; repeatable
                              (default: both providers). A request cannot choose it: a header, query
                              parameter or absolute URL naming one gets 400. Each request goes to
                              the provider whose API its path is, or for /v1/models, /v1/files and
                              /v1/skills, whose marks it carries (x-api-key or anthropic-* headers:
                              Anthropic; a bearer token: OpenAI). Refused, never forwarded: another
                              provider's credential, a path of neither API, a path not in normal form.
      --upstream-timeout <t>  how long the upstream may stay silent, before its answer and within a
                              stream (default 10m); then 504, or the stream is cut
      --store <path|memory>   where compacted prefixes and compactions are kept: a SQLite file (default
                              .compaction/sessions.sqlite in the working folder), memory, or any store
                              compaction serve takes
      --no-archive            keep nothing a compaction removes (default: archived in the store, each
                              item under the handle its placeholder names; not with --store memory)
      --retention <t>         delete conversations not compacted or used for this long (30d, 12h) from the
                              store and memory, removed messages and archived items included (default: kept)
      --retention-size <s>    beyond this much in the store (1gb), delete the least recently used
                              conversations
      --host <address>        default 127.0.0.1 (loopback only)
      --port <n>              default 4320; 0 picks a free port
      --max-body <size>       largest request body (default 32mb); larger ones get 413
      --max-concurrent <n>    compactions running at once (default 8)
      --max-queue <n>         compactions waiting for a slot (default 64); beyond, 503 with Retry-After
                              (requests that do not compact never wait)
      --compaction-threads <n>
                              worker threads that run large conversations' strategies off the event
                              loop (default: the cores less one, at least 1, at most --max-concurrent);
                              0 compacts on the event loop
      --background-at <amount>
                              compact in the background from this point on (a fraction of the limit such
                              as 0.7, or tokens), above the target and below the trigger; the request at
                              the trigger uses the result (default off)
      --background-concurrency <n>
                              background compactions at once across conversations (default 4)

${observabilityFlags('open like /compaction/status')}
${compactionFlags}

Default strategy in the proxy: tool-result-truncation,summarization with the summary the artifact trail
alone (maxOutputTokens 0: no provider), after the task, and sliding-window as the fallback.
`;

/** `compaction chat --help`. */
export const chatHelp = `Usage: compaction chat [options]

A terminal chat with a real model that compacts the conversation automatically when it nears the
context window. Needs a provider and its API key.

Commands in the chat:
  /compact [instructions]   compact now, optionally with instructions for the summary
  /tokens                   the context size against the budget
  /history                  the conversation so far, compacted parts marked
  /quit                     leave (also Ctrl-D)

      --system <text>         a system prompt
      --max-output <n>        output tokens per answer (default 1024)
${compactionFlags}

Default strategy in chat: tool-result-truncation,summarization with sliding-window as the fallback.

Example:
  ANTHROPIC_API_KEY=... compaction chat --provider anthropic --model claude-sonnet-4-5
`;

/** `compaction schema --help`. */
export const schemaHelp = `Usage: compaction schema [options]

Prints the JSON Schema of compaction.config.json, with the options of every installed strategy. Point the
config's "$schema" at it for editor completion; @compaction/cli ships it as compaction.schema.json.

  -o, --output <path>         write it to a file
`;

/** `compaction migrate --help`. */
export const migrateHelp = `Usage: compaction migrate --store postgres://user:password@host:port/database

Applies the schema migrations the PostgreSQL session store lacks, and says which. Safe to run again, and
while servers run: migrations are applied one at a time, under a lock. "compaction serve --store postgres://..."
applies them too when it starts; run this first to migrate once before starting many servers.

      --store <url>           the database's connection string
`;
