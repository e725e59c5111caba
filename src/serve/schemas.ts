import { z } from 'zod';

/**
 * Request bodies of `assay serve`, validated once at the edge. Fields follow OpenAI's legacy
 * completions and chat APIs and vLLM's extensions to them (`prompt_logprobs`, `add_special_tokens`,
 * the chat template's options, `/tokenize` of text or of messages), with vLLM's defaults; unknown fields
 * are ignored, as vLLM ignores them.
 */
const stop = z
  .union([z.string(), z.array(z.string())])
  .nullable()
  .optional()
  .transform((value) => (value == null ? [] : Array.isArray(value) ? value : [value]));

/** vLLM's default --max-logprobs: more alternatives than this are refused. */
export const MAX_LOGPROBS = 20;

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

const topCount = z.number().int().min(0).max(MAX_LOGPROBS).nullable().optional();

export const completionsBody = z.object({
  ...sampling,
  prompt: z.union([z.string(), z.array(z.string()).min(1), tokenIds.min(1), z.array(tokenIds.min(1)).min(1)]),
  echo: z.boolean().nullable().optional(),
  /** Alternatives per token (OpenAI allows up to 5, vLLM up to 20); null: no log-probabilities. */
  logprobs: topCount,
  /** vLLM: the prompt's own log-probabilities with this many alternatives per position. */
  prompt_logprobs: topCount,
  /** vLLM: text prompts get the tokenizer's special tokens (BOS) unless false. */
  add_special_tokens: z.boolean().optional(),
});
export type CompletionsBody = z.output<typeof completionsBody>;

const messages = z
  .array(
    z.object({
      role: z.enum(['system', 'user', 'assistant']),
      content: z.string(),
    }),
  )
  .min(1);

/** vLLM's chat-template fields (chat completions and /tokenize of messages) and its defaults. */
const chatTemplateFields = {
  messages,
  add_generation_prompt: z.boolean().optional(),
  continue_final_message: z.boolean().optional(),
  chat_template_kwargs: z.record(z.string(), z.unknown()).nullable().optional(),
  /** False by default for chats: the template writes the special tokens it wants. */
  add_special_tokens: z.boolean().optional(),
};

export const chatBody = z.object({
  ...sampling,
  ...chatTemplateFields,
  max_completion_tokens: z.number().int().nonnegative().nullable().optional(),
});
export type ChatBody = z.output<typeof chatBody>;

/** vLLM's /tokenize: a text (`prompt`) or a chat (`messages`, rendered with the model's template). */
export const tokenizeBody = z
  .object({
    model: z.string().optional(),
    prompt: z.string().optional(),
    ...chatTemplateFields,
    messages: messages.optional(),
    return_token_strs: z.boolean().nullable().optional(),
  })
  .refine((body) => (body.prompt === undefined) !== (body.messages === undefined), {
    message: 'give either prompt (a text) or messages (a chat), not both',
    path: ['prompt'],
  });
export type TokenizeBody = z.output<typeof tokenizeBody>;

export const detokenizeBody = z.object({
  model: z.string().optional(),
  tokens: tokenIds,
});
