import type { SummaryLanguage } from './summary-language.js';

/** English, the default and the fallback when the conversation's language is not recognised. */
export const english: SummaryLanguage = {
  code: 'en',
  name: 'English',
  sections: [
    {
      heading: 'Goals and constraints',
      description:
        'What the user wants, requirements, preferences and limits they stated, in their words where it matters.',
    },
    { heading: 'Progress and current state', description: 'What has been done and where things stand now.' },
    {
      heading: 'Decisions and why',
      description: 'Choices made and the reasons for them, including approaches that were rejected.',
    },
    {
      heading: 'Files and code',
      description:
        'Files read, created or changed, and what matters about each; exact names, signatures and values.',
    },
    {
      heading: 'Errors and resolutions',
      description: 'Errors met, their causes, and how they were resolved (or that they are still open).',
    },
    { heading: 'Pending work', description: 'What remains to be done.' },
    {
      heading: 'Next step',
      description: 'The very next action, specific enough to take without the removed messages.',
    },
  ],
  prompt: {
    purpose:
      'You are writing the working memory of an agent whose older messages are about to be removed from its context. The agent will continue the task from your summary, the artifact trail, the original task and its most recent messages only, so keep every fact it needs and nothing it does not.',
    previousSummary:
      'Earlier summary (merge it with the new messages; keep what is still true, update what changed, drop what is obsolete):',
    conversation: 'New messages to fold into the summary:',
    artifactTrail:
      'Artifact trail recorded from the tool calls (files and commands are kept separately and verbatim; refer to them, do not copy the whole list):',
    instructions: 'Additional instructions: {{instructions}}',
    format: 'Write the summary in Markdown with exactly these sections, as level-2 headings, in this order:',
    closing:
      'Be specific: exact file paths, commands, identifiers, numbers and error messages. Write "none" under a section with nothing to say. Answer with the summary only.',
    noPreviousSummary: '(none: this is the first summary)',
    noArtifactTrail: '(none recorded)',
    noInstructions: 'none',
  },
  trail: {
    heading: '## Artifact trail',
    states: {
      created: 'Created: ',
      edited: 'Edited: ',
      deleted: 'Deleted: ',
      read: 'Read: ',
      named: 'Named: ',
    },
    commands: 'Commands, oldest first (succeeded unless marked):',
    errors: 'Errors:',
    folded: 'Oldest detail folded: ',
    foldedUnits: {
      files: ['{n} file', '{n} files'],
      commands: ['{n} command', '{n} commands'],
      errors: ['{n} error', '{n} errors'],
    },
  },
  digest: {
    unavailable: '(The summarizer was not available; this digest was extracted without it.)',
    task: '## Original task',
    latestRequest: '## Newest request',
    previousSummary: '## Earlier summary',
    assistantNotes: '## Last assistant notes in the removed span',
    none: 'none',
    noText: '(no text)',
  },
};
