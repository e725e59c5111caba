import { createHash } from 'node:crypto';
import { z } from 'zod';
import type {
  BackendCapabilities,
  ChatMessage,
  ChatTemplating,
  GenerateCallOptions,
  LoglikelihoodCallOptions,
  LoglikelihoodResult,
  ModelBackend,
  ModelInfo,
  RollingCallOptions,
} from '../backend.js';
import { ChatTemplates } from '../chat-template/chat-templates.js';
import { integerArg, parseModelArgs } from '../model-arg-values.js';
import { cutAtStops } from '../stop-strings.js';

export interface DummyOptions {
  seed?: number;
}

/** `--model dummy`'s model args: the seed of its answers. */
const schema = z.object({ seed: integerArg().optional() }).strict();

export function parseDummyModelArgs(raw: Record<string, unknown>): DummyOptions {
  return parseModelArgs('dummy', schema, raw);
}

/** ChatML, the template most instruction-tuned models ship; used to wire `--apply_chat_template`. */
const DUMMY_CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const DUMMY_TEMPLATES = new ChatTemplates(
  { origin: 'the dummy backend', templates: { default: DUMMY_CHAT_TEMPLATE }, specialTokens: {} },
  { variables: {}, retryWithoutSystem: true, backend: 'hf' },
);

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const WORDS = [
  'the',
  'answer',
  'is',
  '42',
  'yes',
  'no',
  'A',
  'B',
  'C',
  'D',
  'maybe',
  'true',
  'false',
  '7',
  'cat',
];

/**
 * Deterministic pseudo-random answers derived from a seed and the request alone, so results never depend
 * on batch composition or order. It is for wiring tests and quickstarts: its scores mean nothing.
 */
export class DummyBackend implements ModelBackend, ChatTemplating {
  readonly specificationVersion = 'v2';
  readonly name = 'dummy';
  readonly capabilities: BackendCapabilities = {
    loglikelihood: true,
    loglikelihoodRolling: true,
    generate: true,
    tokenScoring: false,
    generationLogprobs: false,
    chatTemplate: true,
    usage: false,
  };
  private readonly seed: number;
  /** The last context scored and the state after it (score). */
  private lastContext: string | undefined;
  private lastState = 0;

  constructor(options: DummyOptions = {}) {
    this.seed = options.seed ?? 1234;
  }

  private digest(kind: string, ...parts: string[]): Buffer {
    const hash = createHash('sha256');
    hash.update(`${this.seed}\0${kind}`);
    for (const part of parts) hash.update(`\0${part}`);
    return hash.digest();
  }

  /** FNV-1a state after the seed and the given text: the "model state" after reading that text. */
  private stateAfter(text: string, from = FNV_OFFSET ^ this.seed): number {
    let hash = from >>> 0;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME) >>> 0;
    return hash;
  }

  /**
   * A character-level pseudo-model: each character costs between 0.2 and 2.2 nats, depending on
   * everything read before it. Log-likelihoods therefore add up like a real model's (a longer
   * continuation is never more likely than its prefix, and rolling equals the sum of its pieces).
   */
  private score(context: string, continuation: string): LoglikelihoodResult {
    // The choices of a question arrive together with one context: its state is read once for them.
    if (context !== this.lastContext) {
      this.lastContext = context;
      this.lastState = this.stateAfter(context);
    }
    let hash = this.lastState;
    let logprob = 0;
    let greedy = true;
    for (let i = 0; i < continuation.length; i++) {
      const mixed = Math.imul(hash ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
      logprob -= 0.2 + (mixed % 1000) / 500;
      if ((mixed >>> 12) % 3 !== 0) greedy = false;
      hash = Math.imul(hash ^ continuation.charCodeAt(i), FNV_PRIME) >>> 0;
    }
    return { logprob, isGreedy: greedy };
  }

  async loglikelihood({ requests, onProgress }: LoglikelihoodCallOptions): Promise<LoglikelihoodResult[]> {
    return requests.map((request, index) => {
      const result = this.score(request.context, request.continuation);
      onProgress?.(index + 1);
      return result;
    });
  }

  async loglikelihoodRolling({ requests, onProgress }: RollingCallOptions): Promise<number[]> {
    return requests.map((request, index) => {
      onProgress?.(index + 1);
      return this.score('', request.text).logprob;
    });
  }

  async generate({ requests, onProgress }: GenerateCallOptions): Promise<string[]> {
    return requests.map((request, index) => {
      const extraSeed = request.doSample ? String(request.extra.seed ?? '') : '';
      const bytes = this.digest('gen', request.context, extraSeed);
      const count = 1 + (bytes[0] % Math.max(1, Math.min(8, request.maxGenToks)));
      const words: string[] = [];
      for (let i = 0; i < count; i++) words.push(WORDS[bytes[1 + i] % WORDS.length]);
      let text = ` ${words.join(' ')}`;
      if (bytes[10] < 128) text += '\n\nQuestion: more';
      onProgress?.(index + 1);
      return cutAtStops(text, request.until);
    });
  }

  applyChatTemplate(
    messages: ChatMessage[],
    options: { addGenerationPrompt: boolean; templateName?: string; warn?: (message: string) => void },
  ): string {
    return DUMMY_TEMPLATES.applyChatTemplate(messages, options);
  }

  chatTemplate(): string {
    return DUMMY_CHAT_TEMPLATE;
  }

  info(): ModelInfo {
    return { name: 'dummy', revision: `seed-${this.seed}`, numericFormat: 'none' };
  }
}
