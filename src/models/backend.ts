/**
 * The model seam. Every backend (dummy, gguf, HTTP) implements `ModelBackend`; the evaluator never
 * knows what a task is past this point, and a backend never knows what a task is either.
 */
export interface LoglikelihoodRequest {
  context: string;
  continuation: string;
}

export interface LoglikelihoodResult {
  logprob: number;
  isGreedy: boolean;
}

export interface RollingRequest {
  text: string;
}

export interface GenerateRequest {
  context: string;
  /** Stop strings; the returned text is cut at the first occurrence of each, in order. */
  until: string[];
  maxGenToks: number;
  temperature: number;
  doSample: boolean;
  /** Remaining generation kwargs, passed through untouched (seed, top_p, …). */
  extra: Record<string, unknown>;
}

export interface BackendCapabilities {
  loglikelihood: boolean;
  loglikelihoodRolling: boolean;
  generate: boolean;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the backend knows about itself, for the manifest. */
export interface ModelInfo {
  name: string;
  revision?: string;
  sha256?: string;
  numericFormat?: string;
  [key: string]: unknown;
}

export interface ProgressSink {
  /** Called after each finished request with the count done so far in this call. */
  (done: number): void;
}

export interface ModelBackend {
  readonly name: string;
  readonly capabilities: BackendCapabilities;
  loglikelihood(requests: LoglikelihoodRequest[], progress?: ProgressSink): Promise<LoglikelihoodResult[]>;
  loglikelihoodRolling(requests: RollingRequest[], progress?: ProgressSink): Promise<number[]>;
  generate(requests: GenerateRequest[], progress?: ProgressSink): Promise<string[]>;
  /** Renders chat messages into one prompt string; undefined when the backend has no template. */
  applyChatTemplate?(messages: ChatMessage[], options: { addGenerationPrompt: boolean; templateName?: string }): string;
  /** The raw Jinja chat template, recorded in results. */
  chatTemplate?(templateName?: string): string | undefined;
  info(): ModelInfo;
  close?(): Promise<void>;
}
