import { z } from 'zod';

/**
 * Request bodies of `assay serve`, validated once at the edge. Fields follow OpenAI's legacy
 * completions and chat APIs as vLLM accepts them; unknown fields (e.g. vLLM's prompt_logprobs, which
 * clients probe for) are ignored, as those servers ignore what they do not know.
 */
const stop = z
  .union([z.string(), z.array(z.string())])
  .nullable()
  .optional()
  .transform((value) => (value == null ? [] : Array.isArray(value) ? value : [value]));

const sampling = {
  model: z.string().optional(),
  max_tokens: z.number().int().nonnegative().nullable().optional(),
  temperature: z.number().nonnegative().nullable().optional(),
  top_p: z.number().positive().max(1).nullable().optional(),
  seed: z.number().int().nullable().optional(),
  stop,
  n: z.literal(1).nullable().optional(),
  stream: z.literal(false).nullable().optional(),
};

const tokenIds = z.array(z.number().int().nonnegative());

export const completionsBody = z.object({
  ...sampling,
  prompt: z.union([z.string(), z.array(z.string()).min(1), tokenIds.min(1), z.array(tokenIds.min(1)).min(1)]),
  echo: z.boolean().nullable().optional(),
  /** Alternatives per token (OpenAI allows up to 5, vLLM up to 20); null: no log-probabilities. */
  logprobs: z.number().int().min(0).max(20).nullable().optional(),
});
export type CompletionsBody = z.output<typeof completionsBody>;

export const chatBody = z.object({
  ...sampling,
  messages: z
    .array(
      z.object({
        role: z.enum(['system', 'user', 'assistant']),
        content: z.string(),
      }),
    )
    .min(1),
  max_completion_tokens: z.number().int().nonnegative().nullable().optional(),
});
export type ChatBody = z.output<typeof chatBody>;

export const tokenizeBody = z.object({
  model: z.string().optional(),
  prompt: z.string(),
  add_special_tokens: z.boolean().optional(),
});

export const detokenizeBody = z.object({
  model: z.string().optional(),
  tokens: tokenIds,
});
