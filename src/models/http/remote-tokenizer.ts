import { z } from 'zod';
import { AssayError } from '../../errors.js';
import type { HttpClient } from './http-client.js';
import { ResponseShapeError } from './http-client.js';

const tokenizeSchema = z.object({ tokens: z.array(z.number().int()) });

/** The server root's `/tokenize` (vLLM, SGLang) for a `/v1/completions` base URL. */
export function tokenizeUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = url.pathname.replace(/\/v1\/.*$/, '') + '/tokenize';
  return url.toString();
}

/**
 * Tokenizes with the serving model's own tokenizer, so token counts and slices match what the server
 * scores. Answers are memoized: multiple-choice requests repeat the same context for every choice.
 */
export class RemoteTokenizer {
  private readonly memo = new Map<string, Promise<number[]>>();

  constructor(
    private readonly client: HttpClient,
    private readonly model: string,
  ) {}

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
