/**
 * The version of the JSON documents the CLI prints with `--json` (the reports of `compact`, `count` and
 * `simulate`, and the error document): every document carries it as `version`. It changes when a field is
 * removed or changes meaning; fields added stay within a version only when the published schemas allow them.
 */
export const jsonDocumentVersion = 1;
