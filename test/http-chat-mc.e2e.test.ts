import path from 'node:path';
import { type ReadSampleLine, readResultsFile, readSamples, type SampleLine } from 'assay/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { startTestServer, type TestServer } from './fakes/openai-server.js';
import { writeChoiceTask } from './support/choice-task.js';
import { runCliAsync } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, tempDir } from './support/helpers.js';

/** The generated tokens of one request and repeat (`gen_logprobs`), as the contract types them. */
type Generated = NonNullable<NonNullable<ReadSampleLine['gen_logprobs']>[number][number]>;

/** A generate_until line's prompt text: arguments are open in the contract, keyed by request as written. */
function promptOf(line: ReadSampleLine): string {
  return (line.arguments as SampleLine['arguments']).gen_args_0.arg_0 as string;
}

/** A generate_until line's replies per request and repeat (resps are open in the contract). */
function repliesOf(line: ReadSampleLine): string[][] {
  return line.resps as string[][];
}

/** The line's gen_logprobs, read as present: a line without them fails where they are used, as before. */
function generatedOf(line: ReadSampleLine): Generated[][] {
  return line.gen_logprobs as Generated[][];
}

const LETTERS = 'ABCD';
let taskFile: string;
let server: TestServer;
beforeAll(async () => {
  const docs = Array.from({ length: 24 }, (_, i) => ({
    question: `Item ${i}: pick one.`,
    choices: ['red', 'green', 'blue', `word ${i}`],
    answer: i % 4,
  }));
  taskFile = writeChoiceTask(tempDir('assay-chat-mc-'), 'chat_mc', docs, {
    train: docs.slice(0, 4),
    numFewshot: 1,
  });
  // A model that answers item i: the right letter as "(X)" when i % 3 = 0, a wrong letter "Y." when
  // i % 3 = 1, and no option at all otherwise. Few-shot turns hold other items, so read the last user turn.
  server = await startTestServer({
    chatReply: (messages) => {
      const last = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
      const match = /Item (\d+): pick one\.\s*$/m.exec(last.split('\nA. ')[0]);
      if (!match) return 'no idea';
      const item = Number(match[1]);
      const gold = item % 4;
      if (item % 3 === 0) return `(${LETTERS[gold]})`;
      if (item % 3 === 1) return `${LETTERS[(gold + 1) % 4]}. that one`;
      return 'I cannot tell';
    },
  });
});
afterAll(async () => {
  await server.close();
});

describe('--mc_mode generate on local-chat-completions', () => {
  it('asks with lettered options, extracts the letter, scores acc, and records the tokens’ log-probabilities', async () => {
    const out = tempDir('assay-chat-mc-out-');
    const result = await runCliAsync([
      'run',
      '--model',
      'local-chat-completions',
      '--model_args',
      `model=test,base_url=${server.chatUrl},num_concurrent=4`,
      '--tasks',
      taskFile,
      '--apply_chat_template',
      '--mc_mode',
      'generate',
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(result.stderr).not.toMatch(/error/);
    expect(result.status).toBe(0);
    const dir = path.join(out, 'test');
    const results = readResultsFile(findOne(dir, /^results_.*\.json$/));
    // Items 0, 3, …, 21 are right: 8 of 24. Wrong letters and non-answers score 0, never chance.
    expect(results.results.chat_mc['acc,none']).toBe(8 / 24);
    expect(Object.keys(results.results.chat_mc).filter((key) => key.startsWith('acc_norm'))).toEqual([]);
    expect(results.config.mc_mode).toBe('generate');
    const lines = readSamples(findOne(dir, /^samples_chat_mc_.*\.jsonl$/));
    expect(lines.map((line) => line.acc)).toEqual(lines.map((line) => (line.doc_id % 3 === 0 ? 1 : 0)));
    // The prompt: one lettered few-shot turn answered with its letter, then the question.
    const messages = JSON.parse(promptOf(lines[4]));
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content:
        'Item 4: pick one.\nA. red\nB. green\nC. blue\nD. word 4\nAnswer with the letter of the correct option.\nAnswer:',
    });
    expect(messages[1].role).toBe('assistant');
    expect(messages[1].content).toMatch(/^[ABCD]$/);
    expect(lines[4].resps).toEqual([['B. that one']]);

    // gen_logprobs: the reply's tokens, each scored by the server model (the dummy character model with
    // seed 7 reading the rendered chat prompt), so their sum is that model's log-likelihood of the reply.
    const reference = new DummyBackend({ seed: 7 });
    for (const line of lines.slice(0, 6)) {
      const [[generated]] = generatedOf(line);
      const reply = repliesOf(line)[0][0];
      expect(generated.tokens.join('')).toBe(reply);
      const chat = JSON.parse(promptOf(line)) as Array<{ role: string; content: string }>;
      const prompt = `${chat.map((message) => `${message.role}: ${message.content}\n`).join('')}assistant:`;
      const [expected] = await reference.loglikelihood({
        requests: [{ context: prompt, continuation: reply }],
      });
      const sum = generated.logprobs.reduce((a: number, b: number) => a + b, 0);
      expect(sum).toBeCloseTo((expected as { logprob: number }).logprob, 9);
    }
  });

  // This and the gen_logprobs runs: the CLI's main() in this process (test/cli-in-process.ts); the real
  // CLI runs in the test above.
  it('without --mc_mode generate a chat backend stops at planning, naming the option', async () => {
    const result = await runCliInProcess([
      'run',
      '--model',
      'local-chat-completions',
      '--model_args',
      `model=test,base_url=${server.chatUrl}`,
      '--tasks',
      taskFile,
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/cannot serve loglikelihood requests/);
  });
});

describe('gen_logprobs from local-completions', () => {
  it('records the generated tokens with their log-probabilities; gen_logprobs=false records none', async () => {
    const runs: ReadSampleLine[][] = [];
    for (const extra of ['', ',gen_logprobs=false']) {
      const out = tempDir('assay-gen-logprobs-');
      const result = await runCliInProcess([
        'run',
        '--model',
        'local-completions',
        '--model_args',
        // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
        `model=test,base_url=${server.completionsUrl},tokenized_requests=false${extra}`,
        '--tasks',
        'examples/tasks/arithmetic.jsonl',
        '--limit',
        '5',
        '--output_path',
        out,
        '--log_samples',
      ]);
      expect(result.status).toBe(0);
      runs.push(readSamples(findOne(path.join(out, 'test'), /^samples_arithmetic_.*\.jsonl$/)));
    }
    const reference = new DummyBackend({ seed: 7 });
    for (const line of runs[0]) {
      const [[generated]] = generatedOf(line);
      expect(generated.tokens.join('')).toBe(repliesOf(line)[0][0]);
      const [expected] = await reference.loglikelihood({
        requests: [{ context: promptOf(line), continuation: repliesOf(line)[0][0] }],
      });
      const sum = generated.logprobs.reduce((a: number, b: number) => a + b, 0);
      expect(sum).toBeCloseTo((expected as { logprob: number }).logprob, 9);
    }
    expect(runs[1].every((line) => line.gen_logprobs === undefined)).toBe(true);
    expect(runs[1].map((line) => line.resps)).toEqual(runs[0].map((line) => line.resps));
  });
});
