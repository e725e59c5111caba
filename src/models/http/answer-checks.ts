import { ResponseShapeError } from './http-client.js';
import { preview } from './request-batches.js';

/**
 * Checks of a server's answer against the request it answers, made before anything is scored. A server
 * that drops a token, shifts a list or sends a positive log-probability would otherwise produce a
 * plausible, wrong number; here it produces an errored sample saying what was wrong.
 */

/** Rounding slack: a log-probability printed from float32 may sit a hair above 0. */
export const LOGPROB_TOLERANCE = 1e-6;

export function badAnswer(message: string): ResponseShapeError {
  return new ResponseShapeError(message, 'bad answer');
}

/** A log-probability is a finite number ≤ 0 (within the tolerance). */
export function checkLogprob(value: number, where: string): void {
  if (!Number.isFinite(value)) throw badAnswer(`${where} has log-probability ${value}, not a finite number`);
  if (value > LOGPROB_TOLERANCE)
    throw badAnswer(`${where} has log-probability ${value}, above 0: a log-probability is at most 0`);
}

interface EchoLogprobs {
  tokens: string[];
  token_logprobs: Array<number | null>;
  top_logprobs?: Array<Record<string, number> | null> | null;
  text_offset?: number[];
}

/** The legacy logprobs lists describe the same tokens, so they have one length; every value is a log-probability. */
export function checkEchoLogprobs(logprobs: EchoLogprobs): void {
  const { tokens, token_logprobs: values, top_logprobs: tops, text_offset: offsets } = logprobs;
  const lengths = [
    `tokens ${tokens.length}`,
    `token_logprobs ${values.length}`,
    ...(offsets ? [`text_offset ${offsets.length}`] : []),
    ...(tops ? [`top_logprobs ${tops.length}`] : []),
  ];
  if (
    values.length !== tokens.length ||
    (offsets && offsets.length !== tokens.length) ||
    (tops && tops.length !== tokens.length)
  ) {
    throw badAnswer(`the logprobs lists differ in length (${lengths.join(', ')})`);
  }
  values.forEach((value, i) => {
    if (value !== null) checkLogprob(value, `token ${i} ${JSON.stringify(tokens[i])}`);
  });
  tops?.forEach((top, i) => {
    if (top)
      for (const value of Object.values(top)) checkLogprob(value, `a top_logprobs entry of token ${i}`);
  });
}

/** U+FFFD or half a surrogate pair: how some servers spell a token that ends inside a character. */
const PART_OF_CHARACTER = /\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/**
 * Echo in text mode: the tokens before the generated one must spell the prompt, after at most one
 * leading token (the BOS a server adds, as vLLM does for Llama) and whitespace that the first prompt
 * token carries before the prompt (SentencePiece's dummy prefix: "Once" is echoed as " Once"). Returns the
 * index of the prompt's first token and the code points of it that precede the prompt. Anything else
 * means the server scored a different text than the one sent.
 */
export function echoedPromptStart(
  tokens: string[],
  count: number,
  prompt: string,
): { start: number; skip: number } {
  const spelled = tokens.slice(0, count).join('');
  if (spelled.endsWith(prompt)) {
    const lead = spelled.length - prompt.length;
    let at = 0;
    let start = 0;
    let whole = 0;
    while (start < count && at + tokens[start].length <= lead) {
      if (tokens[start].length > 0) whole++;
      at += tokens[start].length;
      start++;
    }
    const carried = spelled.slice(at, lead);
    if (whole <= 1 && (whole === 0 || tokens[0].length > 0) && carried.trim() === '') {
      return { start, skip: [...carried].length };
    }
  }
  // vLLM spells a token that ends inside a character as "" until the character is complete; a server
  // that spells it as U+FFFD or half a surrogate pair gives tokens that cannot be checked against text.
  const partial = PART_OF_CHARACTER.test(spelled);
  throw badAnswer(
    `the echoed tokens do not spell the prompt: ${count} prompt tokens spell ${preview(spelled)} for the prompt ${preview(prompt)}${partial ? '; the server spells some tokens as parts of characters, so use tokenized_requests=true' : ''}`,
  );
}

/** The decoded tokens' text may carry leading whitespace before the prompt (SentencePiece's dummy prefix). */
export function spellsPrompt(spelled: string, prompt: string): boolean {
  if (prompt.endsWith(spelled)) return true;
  const extra = spelled.length - prompt.length;
  return extra > 0 && spelled.endsWith(prompt) && spelled.slice(0, extra).trim() === '';
}

/**
 * Echo with token ids: one log-probability per prompt token sent plus the one generated. A server that
 * returns token ids as tokens (vLLM's `return_tokens_as_token_ids`, `token_id:N`) is checked id by id.
 */
export function checkEchoedTokenIds(logprobs: EchoLogprobs, prompt: number[]): void {
  const echoed = logprobs.tokens.length - 1;
  if (echoed !== prompt.length) {
    throw badAnswer(
      `the echo covers ${echoed} prompt tokens (${logprobs.tokens.length} tokens with the generated one) for a prompt of ${prompt.length} tokens sent`,
    );
  }
  const ids = logprobs.tokens.slice(0, echoed).map((token) => /^token_id:(\d+)$/.exec(token)?.[1]);
  if (ids.every((id) => id !== undefined)) {
    const at = ids.findIndex((id, i) => Number(id) !== prompt[i]);
    if (at >= 0)
      throw badAnswer(`echoed token ${at} is ${logprobs.tokens[at]}, but the prompt sent has ${prompt[at]}`);
  }
}
