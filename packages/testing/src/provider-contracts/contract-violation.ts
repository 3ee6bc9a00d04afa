/** One rule of a provider's documented request contract that a request breaks. */
export interface ContractViolation {
  /** The rule's id, as listed in `docs/provider-contracts.md` (`anthropic.tool-use-answered`, ...). */
  rule: string;
  /** Where in the request, such as `messages[3].content[0]` or `input[7]`; empty for the whole request. */
  path: string;
  /** What is wrong, naming the ids involved. */
  message: string;
}
