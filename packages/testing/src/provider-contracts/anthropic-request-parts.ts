import type { IdSource } from './id-source.js';
import type { JSONRecord } from './json-record.js';

/** What a user message can carry besides text (each a Messages API block type). */
export type AnthropicAttachment =
  | 'none'
  | 'image-base64'
  | 'image-url'
  | 'image-file'
  | 'document-text'
  | 'document-pdf-url'
  | 'document-file'
  | 'document-content'
  | 'search-result'
  | 'container-upload';

/** The attachment block of a user message. */
export function anthropicAttachment(kind: AnthropicAttachment, text: string, ids: IdSource): JSONRecord[] {
  switch (kind) {
    case 'none':
      return [];
    case 'image-base64':
      return [
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAE=' },
        },
      ];
    case 'image-url':
      return [{ type: 'image', source: { type: 'url', url: 'https://example.com/screenshot.png' } }];
    case 'image-file':
      return [{ type: 'image', source: { type: 'file', file_id: ids.next('file') } }];
    case 'document-text':
      return [
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: text },
          title: 'notes.txt',
          context: 'Notes the user attached',
          citations: { enabled: true },
        },
      ];
    case 'document-pdf-url':
      return [
        { type: 'document', source: { type: 'url', url: 'https://example.com/spec.pdf' }, title: 'spec.pdf' },
      ];
    case 'document-file':
      return [{ type: 'document', source: { type: 'file', file_id: ids.next('file') } }];
    case 'document-content':
      return [
        {
          type: 'document',
          source: { type: 'content', content: [{ type: 'text', text }] },
          citations: { enabled: true },
        },
      ];
    case 'search-result':
      return [searchResult(text)];
    case 'container-upload':
      return [{ type: 'container_upload', file_id: ids.next('file') }];
  }
}

/** A search result block, as a user or a client tool hands it over for Claude to cite. */
export function searchResult(text: string): JSONRecord {
  return {
    type: 'search_result',
    source: 'https://docs.example.com/guide',
    title: 'Guide',
    content: [{ type: 'text', text }],
    citations: { enabled: true },
  };
}

/** Citation kinds a text block of an answer can carry. */
export type AnthropicCitation = 'none' | 'char' | 'page' | 'content-block' | 'search-result' | 'web-search';

/** An answer text block, with one citation of the given kind. */
export function anthropicAnswer(text: string, citation: AnthropicCitation): JSONRecord {
  const cited = text.slice(0, 20);
  const citations: Record<Exclude<AnthropicCitation, 'none'>, JSONRecord> = {
    char: {
      type: 'char_location',
      cited_text: cited,
      document_index: 0,
      document_title: 'notes.txt',
      start_char_index: 0,
      end_char_index: cited.length,
    },
    page: {
      type: 'page_location',
      cited_text: cited,
      document_index: 0,
      document_title: 'spec.pdf',
      start_page_number: 1,
      end_page_number: 2,
    },
    'content-block': {
      type: 'content_block_location',
      cited_text: cited,
      document_index: 0,
      document_title: null,
      start_block_index: 0,
      end_block_index: 1,
    },
    'search-result': {
      type: 'search_result_location',
      cited_text: cited,
      search_result_index: 0,
      source: 'https://docs.example.com/guide',
      title: 'Guide',
      start_block_index: 0,
      end_block_index: 1,
    },
    'web-search': {
      type: 'web_search_result_location',
      cited_text: cited,
      encrypted_index: 'Eo8BCioIAhgBIiQ=',
      title: 'Release notes',
      url: 'https://example.com/releases',
    },
  };
  return citation === 'none'
    ? { type: 'text', text }
    : { type: 'text', text, citations: [citations[citation]] };
}

/** Shapes a client tool result's content can take. */
export type AnthropicResultContent =
  | 'string'
  | 'text'
  | 'text-and-image'
  | 'search-result'
  | 'document'
  | 'tool-reference'
  | 'browser-state';

/** The content of a client `tool_result`. */
export function anthropicResultContent(kind: AnthropicResultContent, text: string): string | JSONRecord[] {
  switch (kind) {
    case 'string':
      return text;
    case 'text':
      return [{ type: 'text', text }];
    case 'text-and-image':
      return [
        { type: 'text', text },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ];
    case 'search-result':
      return [searchResult(text)];
    case 'document':
      return [
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: text },
          title: 'output.log',
        },
      ];
    case 'tool-reference':
      return [
        { type: 'tool_reference', tool_name: 'read_file' },
        { type: 'text', text },
      ];
    case 'browser-state':
      return [
        {
          type: 'browser_state',
          tabs: [{ tab_id: 'tab-1', title: 'Docs', url: 'https://example.com/docs', active: true }],
        },
        { type: 'text', text },
      ];
  }
}

/** The server tools Claude runs itself, each with its result block type. */
export type AnthropicServerTool =
  | 'web_search'
  | 'web_fetch'
  | 'code_execution'
  | 'bash_code_execution'
  | 'text_editor_code_execution'
  | 'tool_search_tool_regex';

/** The input Claude gives each server tool. */
const serverToolInputs: Record<AnthropicServerTool, (text: string) => JSONRecord> = {
  web_search: (text) => ({ query: text.slice(0, 40) }),
  web_fetch: () => ({ url: 'https://example.com/docs' }),
  code_execution: () => ({ code: 'print(sum(range(10)))' }),
  bash_code_execution: () => ({ command: 'ls -la' }),
  text_editor_code_execution: () => ({ command: 'view', path: '/tmp/notes.md' }),
  tool_search_tool_regex: () => ({ pattern: 'read_.*' }),
};

/** The result block type of each server tool; its error content is of that type with `_error` added. */
const serverToolResultTypes: Record<AnthropicServerTool, string> = {
  web_search: 'web_search_tool_result',
  web_fetch: 'web_fetch_tool_result',
  code_execution: 'code_execution_tool_result',
  bash_code_execution: 'bash_code_execution_tool_result',
  text_editor_code_execution: 'text_editor_code_execution_tool_result',
  tool_search_tool_regex: 'tool_search_tool_result',
};

/** The error content of each server tool's failed result, besides its type. */
const serverToolErrors: Record<AnthropicServerTool, JSONRecord> = {
  web_search: { error_code: 'max_uses_exceeded' },
  web_fetch: { error_code: 'url_not_accessible' },
  code_execution: { error_code: 'execution_time_exceeded' },
  bash_code_execution: { error_code: 'unavailable' },
  text_editor_code_execution: { error_code: 'file_not_found', error_message: 'no such file' },
  tool_search_tool_regex: { error_code: 'unavailable' },
};

/** The content of each server tool's successful result; the text's length picks among a tool's shapes. */
const serverToolContents: Record<AnthropicServerTool, (text: string, ids: IdSource) => unknown> = {
  web_search: (_text, ids) => [
    {
      type: 'web_search_result',
      url: 'https://example.com/releases',
      title: 'Release notes',
      encrypted_content: ids.token(),
      page_age: '2 days ago',
    },
  ],
  web_fetch: (text) => ({
    type: 'web_fetch_result',
    url: 'https://example.com/docs',
    retrieved_at: '2025-01-01T00:00:00Z',
    content: {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: text },
      title: 'Docs',
      citations: { enabled: true },
    },
  }),
  code_execution: (text, ids) =>
    text.length % 2 === 0
      ? {
          type: 'code_execution_result',
          stdout: text,
          stderr: '',
          return_code: 0,
          content: [{ type: 'code_execution_output', file_id: ids.next('file') }],
        }
      : {
          type: 'encrypted_code_execution_result',
          encrypted_stdout: ids.token(),
          stderr: '',
          return_code: 0,
          content: [],
        },
  bash_code_execution: (text, ids) => ({
    type: 'bash_code_execution_result',
    stdout: text,
    stderr: '',
    return_code: 0,
    content: [{ type: 'bash_code_execution_output', file_id: ids.next('file') }],
  }),
  text_editor_code_execution: (text) => {
    const results = [
      {
        type: 'text_editor_code_execution_view_result',
        content: text,
        file_type: 'text',
        num_lines: 3,
        start_line: 1,
        total_lines: 3,
      },
      { type: 'text_editor_code_execution_create_result', is_file_update: false },
      {
        type: 'text_editor_code_execution_str_replace_result',
        lines: ['- old', '+ new'],
        new_lines: 1,
        new_start: 4,
        old_lines: 1,
        old_start: 4,
      },
    ];
    return results[text.length % results.length];
  },
  tool_search_tool_regex: () => ({
    type: 'tool_search_tool_search_result',
    tool_references: [{ type: 'tool_reference', tool_name: 'read_file' }],
  }),
};

/** A `server_tool_use` block and the result block answering it (an error result when `failed`). */
export function anthropicServerPair(
  tool: AnthropicServerTool,
  text: string,
  failed: boolean,
  ids: IdSource,
): JSONRecord[] {
  const id = ids.next('srvtoolu');
  const type = serverToolResultTypes[tool];
  const content = failed
    ? { type: `${type}_error`, ...serverToolErrors[tool] }
    : serverToolContents[tool](text, ids);
  return [
    { type: 'server_tool_use', id, name: tool, input: serverToolInputs[tool](text) },
    { type, tool_use_id: id, content },
  ];
}
