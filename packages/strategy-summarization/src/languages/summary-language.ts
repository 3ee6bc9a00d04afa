/** The state a file of the artifact trail was last left in by the agent. */
export type FileState = 'created' | 'edited' | 'deleted' | 'read' | 'named';

/** One section of the summary: its heading and what the summarizer is asked to put under it. */
export interface SummarySection {
  /** The heading, written as a level-2 Markdown heading; the checker looks for it. */
  heading: string;
  /** What goes under it, as the summarizer is asked. */
  description: string;
}

/**
 * Everything the summarization strategy writes in one language: the summarizer's prompt and the summary's
 * sections, the artifact trail's headings and the extractive digest's headings. Data only: the template, the
 * trail and the digest are built from it the same way in every language. Each section keeps the same meaning
 * in every language, in the same order.
 */
export interface SummaryLanguage {
  /** BCP-47 primary language subtag, such as `en` or `zh`. */
  code: string;
  /** The language's name in English. */
  name: string;
  /** The seven sections of the default summary, in order. */
  sections: readonly SummarySection[];
  /** The texts of the summarizer's prompt. */
  prompt: {
    /** The opening paragraph: what the summary is for. */
    purpose: string;
    /** Introduces `{{previousSummary}}`. */
    previousSummary: string;
    /** Introduces `{{conversation}}`. */
    conversation: string;
    /** Introduces `{{artifactTrail}}`. */
    artifactTrail: string;
    /** The line that holds `{{instructions}}`. */
    instructions: string;
    /** Introduces the list of sections. */
    format: string;
    /** The closing paragraph; outside English it also says to write in the language. */
    closing: string;
    /** What `{{previousSummary}}` reads when there is none. */
    noPreviousSummary: string;
    /** What `{{artifactTrail}}` reads when nothing was recorded. */
    noArtifactTrail: string;
    /** What `{{instructions}}` reads when there are none. */
    noInstructions: string;
  };
  /** The texts of the artifact trail. */
  trail: {
    /** The trail's heading, a level-2 Markdown heading on a line of its own. */
    heading: string;
    /** What opens the line of the files in each state, separator included (`Edited: `). */
    states: Readonly<Record<FileState, string>>;
    /** The line above the commands. */
    commands: string;
    /** The line above the errors. */
    errors: string;
    /** What opens the line counting folded items, separator included. */
    folded: string;
    /** How a count of folded items reads, `{n}` the count: the singular, then the plural. */
    foldedUnits: Readonly<Record<'files' | 'commands' | 'errors', readonly [string, string]>>;
  };
  /** The headings of the digest written without the summarizer when it fails. */
  digest: {
    /** The digest's first line: the summarizer was not available. */
    unavailable: string;
    /** The heading above the original task. */
    task: string;
    /** The heading above the newest request. */
    latestRequest: string;
    /** The heading above the earlier summary. */
    previousSummary: string;
    /** The heading above the assistant's last notes in the removed span. */
    assistantNotes: string;
    /** What a part with nothing to quote reads. */
    none: string;
    /** What a quoted message without text reads. */
    noText: string;
  };
}
