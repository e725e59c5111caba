import { describe, expect, it } from 'vitest';
import { type GenerateRequest, RequestError } from '../backend.js';
import {
  completionAnswer,
  completionsGeneration,
  parseScoringResponse,
  readLoglikelihood,
  readWindow,
  type ScoredPrompt,
  scoringPayload,
} from './completions-endpoint.js';
import { NoPromptLogprobs, parseCompletionsResponse } from './completions-response.js';
import { ResponseShapeError } from './http-client.js';

/**
 * The /v1/completions strategy against the shapes OpenAI documents for its legacy completions API
 * (`choices[].text`, `index`, `finish_reason`, `logprobs.{tokens, token_logprobs, top_logprobs,
 * text_offset}`, `usage`) and vLLM's `prompt_logprobs` extension (per prompt token, token id →
 * `{logprob, rank, decoded_token}`, null for the first).
 */
function request(context: string, extra: Partial<GenerateRequest> = {}): GenerateRequest {
  return { context, until: ['\n\n'], maxGenToks: 32, temperature: 0, doSample: false, extra: {}, ...extra };
}

const settings = {
  model: 'meta-llama/Llama-3.1-8B',
  seed: 1234,
  batchSize: 4,
  logprobs: true,
  serverStops: true,
  prompt: (r: GenerateRequest) => r.context,
};

/** An OpenAI legacy completions body, as the API reference shows it. */
function completionsBody(choices: unknown[], usage?: unknown) {
  return {
    id: 'cmpl-uqkvlQyYK7bGYrRHQ0eXlWi7',
    object: 'text_completion',
    created: 1589478378,
    model: 'meta-llama/Llama-3.1-8B',
    choices,
    ...(usage === undefined ? {} : { usage }),
  };
}

describe('completions generation: payload', () => {
  it('sends one prompt as a string, with lm-eval’s generation fields and the task’s other kwargs', async () => {
    const endpoint = completionsGeneration(settings);
    const payload = await endpoint.payload([
      request('Q: capital of France?\nA:', { extra: { do_sample: false, top_p: 0.9 } }),
    ]);
    expect(payload).toEqual({
      model: 'meta-llama/Llama-3.1-8B',
      prompt: 'Q: capital of France?\nA:',
      max_tokens: 32,
      temperature: 0,
      stop: ['\n\n'],
      seed: 1234,
      logprobs: 1,
      top_p: 0.9,
    });
  });

  it('sends a batch as a list of prompts (text or token ids), in order', async () => {
    const endpoint = completionsGeneration({ ...settings, prompt: (r) => [1, r.context.length] });
    const payload = await endpoint.payload([request('ab'), request('abcd')]);
    expect(payload.prompt).toEqual([
      [1, 2],
      [1, 4],
    ]);
  });

  it('leaves out stop strings when they apply after the thinking, and logprobs when not wanted', async () => {
    const endpoint = completionsGeneration({ ...settings, serverStops: false, logprobs: false });
    const payload = await endpoint.payload([request('x')]);
    expect(payload).not.toHaveProperty('stop');
    expect(payload).not.toHaveProperty('logprobs');
    // No stop strings at all: no `stop` field (OpenAI's default, none).
    const none = await completionsGeneration(settings).payload([request('x', { until: [] })]);
    expect(none).not.toHaveProperty('stop');
  });

  it('batches consecutive requests with the same kwargs, up to batch_size', () => {
    const endpoint = completionsGeneration({ ...settings, batchSize: 2 });
    const requests = [
      request('a'),
      request('b'),
      request('c'),
      request('d', { maxGenToks: 8 }),
      request('e', { maxGenToks: 8 }),
    ];
    expect([...{ [Symbol.iterator]: () => endpoint.batches(requests) }]).toEqual([[0, 1], [2], [3, 4]]);
  });
});

describe('completions generation: parse and answer', () => {
  const json = completionsBody(
    [
      {
        text: ' Paris.\n\nQ: and',
        index: 1,
        logprobs: {
          tokens: [' Paris', '.', '\n\n', 'Q', ':', ' and'],
          token_logprobs: [-0.1, -0.2, -0.3, -0.4, -0.5, -0.6],
          top_logprobs: null,
          text_offset: [0, 6, 7, 9, 10, 11],
        },
        finish_reason: 'length',
      },
      { text: ' Rome', index: 0, logprobs: null, finish_reason: 'stop' },
    ],
    { prompt_tokens: 18, completion_tokens: 7, total_tokens: 25 },
  );

  it('sorts choices by index and cuts each answer at the stop strings, keeping the tokens of the kept text', () => {
    const endpoint = completionsGeneration(settings);
    const response = endpoint.parse(json, 2);
    expect(response.choices.map((choice) => choice.index)).toEqual([0, 1]);
    expect(endpoint.answer(response, 0, request('Italy?'), () => 'request #0')).toEqual({
      text: ' Rome',
      logprobs: null,
    });
    expect(endpoint.answer(response, 1, request('France?'), () => 'request #1')).toEqual({
      text: ' Paris.',
      logprobs: { tokens: [' Paris', '.'], logprobs: [-0.1, -0.2] },
    });
    expect(endpoint.tokens(response)).toEqual({ in: 18, out: 7 });
  });

  it('counts reasoning tokens where the server reports them (completion_tokens_details)', () => {
    const endpoint = completionsGeneration(settings);
    const response = endpoint.parse(
      completionsBody([{ text: 'x', index: 0 }], {
        prompt_tokens: 3,
        completion_tokens: 40,
        completion_tokens_details: { reasoning_tokens: 32 },
      }),
      1,
    );
    expect(endpoint.tokens(response)).toEqual({ in: 3, out: 40, reasoning: 32 });
  });

  it('refuses a response with another number of choices than prompts sent', () => {
    expect(() => parseCompletionsResponse(json, 3)).toThrow(
      new ResponseShapeError('the response has 2 choices (indices 0, 1) for 3 prompts'),
    );
    expect(() => parseCompletionsResponse({ choices: 'none' }, 1)).toThrow(ResponseShapeError);
  });

  it('makes a null text an errored sample, not an empty answer', () => {
    const response = parseCompletionsResponse(completionsBody([{ text: null, index: 0 }]), 1);
    const answer = completionAnswer(response, 0, request('Q'), undefined, () => 'generate_until request #7');
    expect(answer).toBeInstanceOf(RequestError);
    expect((answer as RequestError).message).toBe(
      "generate_until request #7: the choice's text is null, not a string",
    );
    expect((answer as RequestError).cause).toBe('bad answer');
  });

  it('with think_end_token answers what follows the thinking and keeps the generation beside it', () => {
    const raw = 'Let me think.\n\nIt is 4.</think> 4\n\nQ: next';
    const response = parseCompletionsResponse(
      completionsBody([{ text: raw, index: 0, finish_reason: 'stop' }]),
      1,
    );
    expect(completionAnswer(response, 0, request('2+2='), '</think>', () => '')).toEqual({
      text: '4',
      logprobs: null,
      thinking: { raw, truncated: false },
    });
  });
});

describe('completions scoring: payload and parse', () => {
  const text: ScoredPrompt = { prompt: 'The cat sat', contextLength: 3 };

  it('asks for echo and vLLM’s prompt_logprobs until the server shows which it has', () => {
    const base = { model: 'm', prompt: 'The cat sat', max_tokens: 1, temperature: 0, seed: 1 };
    expect(scoringPayload({ model: 'm', seed: 1 }, [text], undefined)).toEqual({
      ...base,
      logprobs: 1,
      echo: true,
      prompt_logprobs: 1,
    });
    expect(scoringPayload({ model: 'm', seed: 1 }, [text], true)).toEqual({ ...base, prompt_logprobs: 1 });
    expect(scoringPayload({ model: 'm', seed: 1 }, [text], false)).toEqual({
      ...base,
      logprobs: 1,
      echo: true,
    });
    expect(scoringPayload({ model: 'm', seed: 1 }, [text, text], false).prompt).toEqual([
      'The cat sat',
      'The cat sat',
    ]);
  });

  it('sums the continuation from an echoed prompt (text mode) and bills the echoed tokens without usage', () => {
    // max_tokens 1: the echo is the prompt's tokens then the one generated token.
    const json = completionsBody([
      {
        text: 'The cat sat on',
        index: 0,
        logprobs: {
          tokens: ['The', ' cat', ' sat', ' on'],
          token_logprobs: [null, -2.5, -0.5, -1.5],
          top_logprobs: [null, { ' cat': -2.5, ' dog': -1.0 }, { ' sat': -0.5 }, { ' on': -1.5 }],
          text_offset: [0, 3, 7, 11],
        },
        finish_reason: 'length',
      },
    ]);
    // Context "The" (3 code points): the continuation " cat sat" is tokens 1 and 2; " dog" was likelier.
    expect(parseScoringResponse(json, [text], false, readLoglikelihood)).toEqual({
      values: [{ logprob: -3, isGreedy: false }],
      tokensIn: 3,
      tokensOut: 1,
      promptLogprobs: false,
    });
  });

  it('reads vLLM’s prompt_logprobs for token-id prompts by id, greedy by rank', () => {
    const tokens: ScoredPrompt = { prompt: [1, 450, 6635], contextLength: 2 };
    const json = completionsBody(
      [
        {
          text: ' sat',
          index: 0,
          logprobs: null,
          prompt_logprobs: [
            null,
            {
              '450': { logprob: -3.1, rank: 5, decoded_token: 'The' },
              '1576': { logprob: -1.2, rank: 1, decoded_token: 'A' },
            },
            { '6635': { logprob: -1.25, rank: 1, decoded_token: ' cat' } },
          ],
        },
      ],
      { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    );
    expect(parseScoringResponse(json, [tokens], true, readLoglikelihood)).toEqual({
      values: [{ logprob: -1.25, isGreedy: true }],
      tokensIn: 3,
      tokensOut: 1,
      promptLogprobs: true,
    });
    // A token window from position 1: every scored position in order.
    expect(
      parseScoringResponse(json, [{ prompt: [1, 450, 6635], contextLength: 1 }], true, readWindow).values,
    ).toEqual([[-3.1, -1.25]]);
  });

  it('asked for prompt_logprobs only, an answer without them cannot be scored', () => {
    const json = completionsBody([{ text: ' sat', index: 0, logprobs: null }]);
    expect(() => parseScoringResponse(json, [text], true, readLoglikelihood)).toThrow(NoPromptLogprobs);
  });

  it('refuses a positive log-probability as a bad answer', () => {
    const json = completionsBody([
      {
        text: 'The cat sat on',
        index: 0,
        logprobs: { tokens: ['The', ' cat', ' sat', ' on'], token_logprobs: [null, 0.5, -0.5, -1.5] },
      },
    ]);
    expect(() => parseScoringResponse(json, [text], false, readLoglikelihood)).toThrow(
      /token 1 " cat" has log-probability 0.5, above 0/,
    );
  });
});
