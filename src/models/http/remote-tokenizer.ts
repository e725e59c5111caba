import { z } from 'zod';
import { AssayError } from '../../errors.js';
import type { Tokenizer, TokenizerIdentity } from '../tokenizers/tokenizer.js';
import type { HttpClient } from './http-client.js';
import { ResponseShapeError } from './http-client.js';

const tokenizeSchema = z.object({ tokens: z.array(z.number().int()) });
const detokenizeSchema = z.object({ prompt: z.string() });
/**
 * vLLM's `GET /tokenizer_info` (served with --enable-tokenizer-info-endpoint) is the tokenizer_config.json:
 * `tokenizer_class` and special tokens, no vocabulary. `assay serve` adds `vocab_size` and `vocab_sha256`.
 */
const tokenizerInfoSchema = z.object({
  tokenizer_class: z.string().optional(),
  /** Present (even null) in vLLM's answer; lm-eval's auto tokenizer backend requires the key. */
  eos_token: z.unknown().optional(),
  vocab_size: z.number().int().positive().optional(),
  vocab_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type ServerTokenizerInfo = z.output<typeof tokenizerInfoSchema>;

/** A route at the server root (vLLM, SGLang: `/tokenize`, `/detokenize`) for a `/v1/completions` base URL. */
export function serverUrl(baseUrl: string, route: string): string {
  const url = new URL(baseUrl);
  url.pathname = url.pathname.replace(/\/v1\/.*$/, '') + route;
  return url.toString();
}

export function tokenizeUrl(baseUrl: string): string {
  return serverUrl(baseUrl, '/tokenize');
}

/**
 * Tokenizes with the serving model's own tokenizer, so token counts and slices match what the server
 * scores (`tokenizer_backend=remote`). Answers are memoized: multiple-choice requests repeat the same
 * context for every choice.
 */
export class RemoteTokenizer implements Tokenizer {
  readonly backend = 'remote' as const;
  private readonly memo = new Map<string, Promise<number[]>>();
  private start?: Promise<number | null>;

  constructor(
    private readonly client: HttpClient,
    private readonly model: string,
    /** The same server's `/detokenize` (vLLM's `{tokens}` → `{prompt}`). */
    private readonly detokenizeClient: HttpClient,
    /** Where `/tokenizer_info` is read, for identity. */
    private readonly server: { baseUrl: string; headers: Record<string, string>; timeoutMs: number },
  ) {}

  /** What /tokenize adds with special tokens before a text: BOS for Llama, nothing for GPT-2. */
  bos(): Promise<number | null> {
    this.start ??= this.encode('', true).then((ids) => (ids.length ? ids[0] : null));
    return this.start;
  }

  /** The server's own start token; a server that adds none cannot condition an empty context. */
  async prefixToken(): Promise<number> {
    const bos = await this.bos();
    if (bos === null) {
      throw new AssayError(
        'backend_error',
        `the server's tokenizer (${this.model}) adds no start token, so an empty context cannot be scored; pass a local tokenizer (tokenizer_backend=huggingface, tokenizer=PATH), whose BOS or EOS is the prefix as in lm-eval`,
        { exitCode: 1 },
      );
    }
    return bos;
  }

  /**
   * The vocabulary's size and sha256 only when /tokenizer_info carries them (assay serve does; vLLM's
   * gives the tokenizer config without the vocabulary), else null with a note saying so.
   */
  async identity(): Promise<TokenizerIdentity> {
    const served = await fetchTokenizerInfo(this.server.baseUrl, this.server.headers, this.server.timeoutMs);
    const known = served?.vocab_size !== undefined && served.vocab_sha256 !== undefined;
    const note = known
      ? undefined
      : served
        ? `the server's /tokenizer_info${served.tokenizer_class ? ` (${served.tokenizer_class})` : ''} does not expose the vocabulary; token counts come from its /tokenize and cannot be matched to another run's tokenizer`
        : "the server has no /tokenizer_info; token counts come from its /tokenize and cannot be matched to another run's tokenizer";
    return {
      backend: 'remote',
      name: this.model,
      source: tokenizeUrl(this.server.baseUrl),
      sha256: null,
      vocabSize: known ? (served.vocab_size as number) : null,
      vocabSha256: known ? (served.vocab_sha256 as string) : null,
      ...(note ? { note } : {}),
    };
  }

  async decode(tokens: number[]): Promise<string> {
    const outcome = await this.detokenizeClient.post(
      { model: this.model, tokens },
      {
        cacheable: false,
        prompts: 0,
        describe: () => `detokenizing ${tokens.length} tokens`,
        parse: (json) => {
          const parsed = detokenizeSchema.safeParse(json);
          if (!parsed.success)
            throw new ResponseShapeError('malformed /detokenize response: expected {"prompt": text}');
          return parsed.data.prompt;
        },
        tokens: () => ({ in: 0, out: 0 }),
      },
    );
    if (!outcome.ok) {
      throw new AssayError(
        'backend_error',
        `counting the scored text of a perplexity window needs the server's /detokenize endpoint (vLLM has one): ${outcome.error}`,
        { exitCode: 1 },
      );
    }
    return outcome.value;
  }

  encode(text: string, addSpecialTokens = false): Promise<number[]> {
    const key = `${addSpecialTokens ? 1 : 0}${text}`;
    let pending = this.memo.get(key);
    if (!pending) {
      pending = this.fetch(text, addSpecialTokens);
      this.memo.set(key, pending);
      if (this.memo.size > 50_000) this.memo.delete(this.memo.keys().next().value as string);
    }
    return pending;
  }

  private async fetch(text: string, addSpecialTokens: boolean): Promise<number[]> {
    const outcome = await this.client.post(
      { model: this.model, prompt: text, add_special_tokens: addSpecialTokens },
      {
        cacheable: false,
        prompts: 0,
        describe: () => `tokenizing ${JSON.stringify(text.slice(0, 40))}`,
        parse: (json) => {
          const parsed = tokenizeSchema.safeParse(json);
          if (!parsed.success)
            throw new ResponseShapeError('malformed /tokenize response: expected {"tokens": [ids]}');
          return parsed.data.tokens;
        },
        tokens: () => ({ in: 0, out: 0 }),
      },
    );
    if (!outcome.ok) {
      throw new AssayError(
        'backend_error',
        `tokenized_requests=true needs the server's /tokenize endpoint (vLLM and SGLang have one): ${outcome.error}`,
        { exitCode: 1 },
      );
    }
    return outcome.value;
  }
}

/**
 * `GET /tokenizer_info` at the server root; undefined when the server has no such route (vLLM without
 * --enable-tokenizer-info-endpoint, SGLang) or answers with something else. Only identification rides on
 * it, so a failure is not an error.
 */
export async function fetchTokenizerInfo(
  baseUrl: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<ServerTokenizerInfo | undefined> {
  try {
    const response = await fetch(serverUrl(baseUrl, '/tokenizer_info'), {
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const parsed = tokenizerInfoSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
