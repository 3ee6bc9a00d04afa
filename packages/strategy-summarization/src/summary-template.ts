import { InvalidOptionsError } from '@compaction/core';

/** The sections of the default summary, in order. A summary without one of them is rejected as malformed. */
export const defaultSummarySections: readonly string[] = [
  'Goals and constraints',
  'Progress and current state',
  'Decisions and why',
  'Files and code',
  'Errors and resolutions',
  'Pending work',
  'Next step',
];

/** The placeholders a template may use. */
export const templatePlaceholders = [
  'conversation',
  'previousSummary',
  'artifactTrail',
  'instructions',
  'round',
] as const;

/** A placeholder name. */
export type TemplatePlaceholder = (typeof templatePlaceholders)[number];

/** The default summarizer prompt: a handover summary with fixed sections. */
export const defaultSummaryTemplate = `You are writing the working memory of an agent whose older messages are about to be removed from its context. The agent will continue the task from your summary, the artifact trail, the original task and its most recent messages only, so keep every fact it needs and nothing it does not.

Earlier summary (merge it with the new messages; keep what is still true, update what changed, drop what is obsolete):
<previous-summary>
{{previousSummary}}
</previous-summary>

New messages to fold into the summary:
<conversation>
{{conversation}}
</conversation>

Artifact trail recorded from the tool calls (files and commands are kept separately and verbatim; refer to them, do not copy the whole list):
<artifact-trail>
{{artifactTrail}}
</artifact-trail>

Additional instructions: {{instructions}}

Write the summary in Markdown with exactly these sections, as level-2 headings, in this order:
## Goals and constraints
What the user wants, requirements, preferences and limits they stated, in their words where it matters.
## Progress and current state
What has been done and where things stand now.
## Decisions and why
Choices made and the reasons for them, including approaches that were rejected.
## Files and code
Files read, created or changed, and what matters about each; exact names, signatures and values.
## Errors and resolutions
Errors met, their causes, and how they were resolved (or that they are still open).
## Pending work
What remains to be done.
## Next step
The very next action, specific enough to take without the removed messages.

Be specific: exact file paths, commands, identifiers, numbers and error messages. Write "none" under a section with nothing to say. Answer with the summary only.`;

/** Fills a template's `{{name}}` placeholders. */
export function renderTemplate(template: string, values: Record<TemplatePlaceholder, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
    (templatePlaceholders as readonly string[]).includes(name) ? values[name as TemplatePlaceholder] : match,
  );
}

/** Checks a user template: it must place `{{conversation}}` and use only known placeholders. */
export function checkTemplate(template: string): void {
  const issues: { path: string; message: string }[] = [];
  const used = [...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!);
  if (!used.includes('conversation')) {
    issues.push({ path: 'template', message: 'must contain the {{conversation}} placeholder' });
  }
  for (const name of used) {
    if (!(templatePlaceholders as readonly string[]).includes(name)) {
      issues.push({
        path: 'template',
        message: `unknown placeholder {{${name}}} (known: ${templatePlaceholders.join(', ')})`,
      });
    }
  }
  if (issues.length > 0) throw new InvalidOptionsError({ subject: 'strategy "summarization"', issues });
}
