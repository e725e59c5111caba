import { z } from 'zod';
import type { ChatMessage, GenerateRequest, Generation, GenerationThinking } from '../backend.js';
import { postprocessGeneratedText } from '../stop-strings.js';
import { endsInThinking } from '../thinking.js';
import { badAnswer } from './answer-checks.js';
import { usageSchema, usageTokens } from './completions-response.js';
import type { GenerationEndpoint } from './endpoint.js';
import { fromChatLogprobs, trimToText } from './generated-logprobs.js';
import { ResponseShapeError } from './http-client.js';

const chatResponseSchema = z.object({
  choices: z
    .array(
      z.object({
        index: z.number().int().optional(),
        message: z.object({
          content: z.string().nullable().optional(),
          // A reasoning parser's output (vLLM, SGLang): `reasoning_content` as DeepSeek named it, `reasoning`
          // as OpenAI's guidance and newer vLLM do.
          reasoning_content: z.string().nullable().optional(),
          reasoning: z.string().nullable().optional(),
        }),
        finish_reason: z.string().nullable().optional(),
        logprobs: z
          .object({
            content: z
              .array(z.object({ token: z.string(), logprob: z.number() }))
              .nullable()
              .optional(),
          })
          .nullable()
          .optional(),
      }),
    )
    .length(1, 'expected exactly 1 choice'),
  usage: usageSchema,
});

export type ChatResponse = z.output<typeof chatResponseSchema>;
type ChatChoice = ChatResponse['choices'][number];

const messagesSchema = z.array(
  z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() }),
);

/** How a chat backend generates: settled once from its model args. */
export interface ChatGenerationSettings {
  model: string;
  seed: number;
  /** Ask for the generated tokens' log-probabilities (`logprobs: true`). */
  logprobs: boolean;
  /** OpenAI's own API names the length cap `max_completion_tokens`; local servers `max_tokens`. */
  openai: boolean;
  /** `think_end_token`'s text: the answer is what follows it. */
  thinkEnd?: string;
}

/**
 * /v1/chat/completions generation: one request per HTTP request (a chat payload holds one conversation),
 * `messages` from the context, the length cap, `temperature`, at most 4 `stop` strings (OpenAI's limit;
 * the rest are applied here), `seed` and the task's other generation kwargs; exactly one choice back.
 */
export function chatGeneration(settings: ChatGenerationSettings): GenerationEndpoint<ChatResponse> {
  return {
    label: 'generate_until (chat)',
    batches: (requests) => singles(requests.length),
    payload: async ([request]) => {
      const { do_sample: _doSample, ...extra } = request.extra;
      return {
        model: settings.model,
        messages: toMessages(request.context),
        [settings.openai ? 'max_completion_tokens' : 'max_tokens']: request.maxGenToks,
        temperature: request.temperature,
        ...(request.until.length ? { stop: request.until.slice(0, 4) } : {}),
        seed: settings.seed,
        ...(settings.logprobs ? { logprobs: true } : {}),
        ...extra,
      };
    },
    parse: parseChatResponse,
    tokens: usageTokens,
    answer: (response, _position, request) => chatAnswer(response, request, settings.thinkEnd),
  };
}

function* singles(count: number): Generator<number[]> {
  for (let index = 0; index < count; index++) yield [index];
}

/** Validates a chat answer: one choice, with text content or a reasoning field. */
export function parseChatResponse(json: unknown): ChatResponse {
  const parsed = chatResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ResponseShapeError(
      `malformed chat response: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
  }
  const choice = parsed.data.choices[0];
  // Null content beside reasoning: the thinking used every token (lm-eval answers "" then).
  if (typeof choice.message.content !== 'string' && reasoningOf(choice) === undefined) {
    throw badAnswer(
      `message.content is ${JSON.stringify(choice.message.content ?? null)}, not a string: the server generated no text`,
    );
  }
  return parsed.data;
}

/** The reasoning a server returned beside the answer; an empty or null field is none. */
function reasoningOf(choice: ChatChoice): string | undefined {
  const { reasoning, reasoning_content: reasoningContent } = choice.message;
  return reasoning || reasoningContent || undefined;
}

/**
 * The answer is `content`, past `think_end_token` when given, cut at the stop strings (the server was
 * sent at most 4); a reasoning field goes to the sample log beside it, never into the answer.
 */
export function chatAnswer(
  response: ChatResponse,
  request: GenerateRequest,
  thinkEnd: string | undefined,
): Generation {
  const choice = response.choices[0];
  const content = choice.message.content ?? '';
  const reasoning = reasoningOf(choice);
  // A server that hides the reasoning (OpenAI's o-series) still counts its tokens.
  const hidden = reasoning === undefined && (usageTokens(response).reasoning ?? 0) > 0;
  const text = postprocessGeneratedText(content, request.until, thinkEnd);
  const logprobs = fromChatLogprobs(choice.logprobs?.content);
  if (reasoning === undefined && !hidden && thinkEnd === undefined)
    return { text, logprobs: trimToText(logprobs, text) };
  const length = choice.finish_reason === 'length';
  // The reasoning was apart from the answer (a reasoning field): it ended inside it when no answer
  // followed. Inline thinking (think_end_token given, whether or not the server also counts reasoning
  // tokens): the end token tells; the prompt the server rendered is not seen here. Hidden reasoning
  // alone: no answer followed.
  const truncated =
    length &&
    (reasoning !== undefined
      ? content.trim() === ''
      : thinkEnd !== undefined
        ? endsInThinking(content, thinkEnd, undefined)
        : content.trim() === '');
  const thinking: GenerationThinking = {
    ...(thinkEnd === undefined ? {} : { raw: content }),
    ...(reasoning === undefined ? {} : { reasoning }),
    truncated,
  };
  return { text, logprobs, thinking };
}

/** A context rendered by `applyChatTemplate` is a JSON message list; any other context is one user turn. */
export function toMessages(context: string): ChatMessage[] {
  if (context.startsWith('[')) {
    try {
      const parsed = messagesSchema.safeParse(JSON.parse(context));
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: a plain prompt that happens to start with "["
    }
  }
  return [{ role: 'user', content: context }];
}
