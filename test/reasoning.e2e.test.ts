/**
 * A reasoning model, end to end through the CLI (its main() in this process; the real CLI in processes
 * of its own for the shards and the merge), on a GSM8K-like task (strict-match regex filter,
 * exact_match) against loopback stand-ins: a chat server whose answers carry `<think>…</think>` (with
 * think_end_token), one whose reasoning parser returns `reasoning_content`, and `--model vllm` attached to
 * a completions server. Each reasoning holds a decoy "#### 99" that the regex would take if it leaked
 * into the answer; one generation runs out of tokens while thinking.
 *
 * Expected values follow lm-eval's rules: lm_eval/models/utils.py `postprocess_generated_text` (through
 * the last think_end_token, left-stripped, then cut at the stop strings; a generation without the token
 * kept), lm_eval/models/api_models.py (a null `content` becomes LMEVAL_MODEL_NONE_ANSWER_PLACEHOLDER,
 * "" by default), and GSM8K's strict-match (`#### (\-?[0-9\.\,]+)`, take_first) with exact_match.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readResultsFile, readSamples } from 'assay/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsFileSchema, sampleLineSchema } from '../src/results/schema.js';
import { type ReasoningServer, startReasoningServer } from './fakes/reasoning-server.js';
import { runCliAsync } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, tempDir } from './support/helpers.js';

type Json = Record<string, any>;

/** question → the model's whole output (before max_gen_toks = 40 of the stand-in's tokens) and the gold. */
const DOCS = [
  {
    question: 'Ann has 40 apples and gets 2 more. How many?',
    output: '<think>Maybe #### 99? No: 40 plus 2.</think> The total is 42.\n#### 42',
    answer: '42',
  },
  {
    question: 'What is half of 10?',
    output: '<think>I first wrote #### 99 by mistake; half of 10 is 5.</think>\n#### 5',
    answer: '5',
  },
  {
    question: 'Count the sheep.',
    output: `<think>Start: #### 77 is a guess. ${'one more sheep, '.repeat(30)}</think> #### 7`,
    answer: '7',
  },
  { question: 'What is 6 + 6?', output: '<think>Six and six is 12.</think> #### 12', answer: '13' },
  { question: 'What is 4 + 4?', output: '<think>Easy.</think> #### 8', answer: '8' },
];

let dir: string;
let taskFile: string;
beforeAll(() => {
  dir = tempDir('assay-reasoning-');
  mkdirSync(path.join(dir, 'data'));
  writeFileSync(
    path.join(dir, 'data', 'test.jsonl'),
    `${DOCS.map(({ question, answer }) => JSON.stringify({ question, answer })).join('\n')}\n`,
  );
  taskFile = path.join(dir, 'gsm_think.yaml');
  writeFileSync(
    taskFile,
    [
      'task: gsm_think',
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: data/test.jsonl',
      'test_split: test',
      'output_type: generate_until',
      'doc_to_text: "Question: {{question}}\\nAnswer:"',
      'doc_to_target: "{{answer}}"',
      'generation_kwargs:',
      '  until: ["Question:", "</s>", "<|im_end|>"]',
      '  do_sample: false',
      '  max_gen_toks: 40',
      'filter_list:',
      '  - name: strict-match',
      '    filter:',
      '      - function: regex',
      '        regex_pattern: "#### (\\\\-?[0-9\\\\.\\\\,]+)"',
      '      - function: take_first',
      'metric_list:',
      '  - metric: exact_match',
      '    aggregation: mean',
      '    higher_is_better: true',
      '',
    ].join('\n'),
  );
});

const outputOf = (prompt: string) => {
  const doc = DOCS.find((candidate) => prompt.includes(candidate.question));
  if (!doc) throw new Error(`unexpected prompt ${prompt}`);
  return doc.output;
};

/** The stand-in's tokens: runs of spaces or of other characters; the first 40 of doc 2's output. */
const TRUNCATED = (DOCS[2].output.match(/\s+|\S+/g) ?? []).slice(0, 40).join('');

/**
 * `assay run` of the task. `child`: the real CLI in a process of its own (the shards, which run at the
 * same time); otherwise the CLI's main() in this process (test/cli-in-process.ts), the same command
 * without a Node start and the CLI's imports for each run.
 */
async function run(
  model: string,
  modelArgs: string,
  extra: string[] = [],
  out = tempDir('assay-reasoning-out-'),
  child = false,
): Promise<{ results: Json; lines: Json[]; stderr: string }> {
  const result = await (child ? runCliAsync : runCliInProcess)([
    'run',
    '--model',
    model,
    '--model_args',
    modelArgs,
    '--tasks',
    taskFile,
    '--output_path',
    out,
    '--log_samples',
    ...extra,
  ]);
  expect(result.stderr).not.toMatch(/error/);
  expect(result.status).toBe(0);
  const folder = path.join(out, 'reasoner');
  const results = readResultsFile(findOne(folder, /^results_.*\.json$/));
  const lines = readSamples(findOne(folder, /^samples_gsm_think_.*\.jsonl$/));
  // The files keep to the results contract every reader parses through, the additions included.
  expect(resultsFileSchema.parse(results).reasoning).toEqual(results.reasoning);
  for (const line of lines) expect(sampleLineSchema.parse(line).reasoning).toEqual(line.reasoning);
  return { results, lines, stderr: result.stderr };
}

describe('reasoning models end to end', () => {
  let thinkTags: ReasoningServer;
  let parser: ReasoningServer;
  beforeAll(async () => {
    thinkTags = await startReasoningServer({ generate: outputOf, mode: 'think-tags' });
    parser = await startReasoningServer({
      generate: outputOf,
      mode: 'reasoning-parser',
      reasoningField: 'reasoning_content',
      reasoningUsage: 'top-level',
    });
  });
  afterAll(async () => {
    await thinkTags.close();
    await parser.close();
  });

  const expectTruncationReported = (results: Json, stderr: string) => {
    expect(results.reasoning).toEqual({
      generations: 5,
      truncated_in_thinking: 1,
      by_task: { gsm_think: { generations: 5, truncated_in_thinking: 1 } },
    });
    expect(stderr).toContain(
      'assay: warning: gsm_think: 1 of 5 generations hit max_gen_toks (40) inside the thinking section, so their answers are empty or thinking text; raise max_gen_toks in --gen_kwargs to let the model finish thinking\n',
    );
  };

  it('without think_end_token the thinking reaches the regex, which takes the decoys', async () => {
    const { results, lines } = await run(
      'local-chat-completions',
      `model=reasoner,base_url=${thinkTags.chatUrl}`,
    );
    expect(lines.map((line) => line.filtered_resps[0])).toEqual(['99', '99', '77', '12', '8']);
    expect(results.results.gsm_think['exact_match,strict-match']).toBe(1 / 5);
    expect(lines[0].reasoning).toBeUndefined();
    expect(results.reasoning).toBeUndefined();
  });

  it('<think> tags with think_end_token: the regex sees only the answers, the sample log keeps the raw generations', async () => {
    const { results, lines, stderr } = await run(
      'local-chat-completions',
      `model=reasoner,base_url=${thinkTags.chatUrl},think_end_token=</think>`,
    );
    // postprocess_generated_text: docs 0, 1 and 4 answer right after the thinking; doc 2 ran out of tokens
    // inside it, so it is kept whole and its decoy "#### 77" is taken; doc 3 answers 12 for 13.
    expect(lines.map((line) => line.filtered_resps[0])).toEqual(['42', '5', '77', '12', '8']);
    expect(results.results.gsm_think['exact_match,strict-match']).toBe(3 / 5);
    expect(lines.map((line) => line.resps[0][0])).toEqual([
      'The total is 42.\n#### 42',
      '#### 5',
      TRUNCATED,
      '#### 12',
      '#### 8',
    ]);
    expect(lines.map((line) => line.reasoning)).toEqual([
      [[{ raw: DOCS[0].output, truncated: false }]],
      [[{ raw: DOCS[1].output, truncated: false }]],
      [[{ raw: TRUNCATED, truncated: true }]],
      [[{ raw: DOCS[3].output, truncated: false }]],
      [[{ raw: DOCS[4].output, truncated: false }]],
    ]);
    expectTruncationReported(results, stderr);
  });

  it('reasoning_content: the answer is content, the reasoning sits beside it in the sample log', async () => {
    const { results, lines, stderr } = await run(
      'local-chat-completions',
      `model=reasoner,base_url=${parser.chatUrl}`,
    );
    // Doc 2's content is null (all 40 tokens were reasoning): the answer is "", which the regex misses.
    expect(lines.map((line) => line.resps[0][0])).toEqual([
      ' The total is 42.\n#### 42',
      '\n#### 5',
      '',
      ' #### 12',
      ' #### 8',
    ]);
    expect(lines.map((line) => line.filtered_resps[0])).toEqual(['42', '5', '[invalid]', '12', '8']);
    expect(results.results.gsm_think['exact_match,strict-match']).toBe(3 / 5);
    const reasoning = (output: string) => output.slice('<think>'.length, output.indexOf('</think>'));
    expect(lines.map((line) => line.reasoning)).toEqual([
      [[{ reasoning: reasoning(DOCS[0].output), truncated: false }]],
      [[{ reasoning: reasoning(DOCS[1].output), truncated: false }]],
      [[{ reasoning: TRUNCATED.slice('<think>'.length), truncated: true }]],
      [[{ reasoning: reasoning(DOCS[3].output), truncated: false }]],
      [[{ reasoning: reasoning(DOCS[4].output), truncated: false }]],
    ]);
    expectTruncationReported(results, stderr);
    // Usage: every reasoning token the server reported (its `usage.reasoning_tokens`).
    const reported = DOCS.map((doc, index) =>
      index === 2 ? TRUNCATED.slice('<think>'.length) : reasoning(doc.output),
    ).reduce((sum, text) => sum + (text.match(/\s+|\S+/g) ?? []).length, 0);
    expect(results.request_stats.usage.reasoningTokens).toBe(reported);
  });

  it('assay merge sums the shards’ counts of truncated thinking', async () => {
    const out = tempDir('assay-reasoning-shards-');
    const modelArgs = `model=reasoner,base_url=${thinkTags.chatUrl},think_end_token=</think>`;
    const shards = await Promise.all(
      [0, 1].map((index) =>
        run('local-chat-completions', modelArgs, ['--shard', `${index}/2`], path.join(out, `${index}`), true),
      ),
    );
    // Docs 0, 2, 4 in shard 0 (doc 2 cut off while thinking), docs 1, 3 in shard 1.
    expect(shards.map(({ results }) => results.reasoning.by_task.gsm_think)).toEqual([
      { generations: 3, truncated_in_thinking: 1 },
      { generations: 2, truncated_in_thinking: 0 },
    ]);
    const merge = await runCliAsync([
      'merge',
      path.join(out, '0'),
      path.join(out, '1'),
      '--output_path',
      path.join(out, 'merged'),
    ]);
    expect(merge.stderr).toContain('assay: merged 2 shards into');
    expect(merge.status).toBe(0);
    const merged = readResultsFile(findOne(path.join(out, 'merged', 'reasoner'), /^results_.*\.json$/));
    expect(merged.reasoning).toEqual({
      generations: 5,
      truncated_in_thinking: 1,
      by_task: { gsm_think: { generations: 5, truncated_in_thinking: 1 } },
    });
    expect(merged.results.gsm_think['exact_match,strict-match']).toBe(3 / 5);
    // Three CLI processes: room for a loaded machine.
  }, 180_000);

  it('--model vllm attached to a server: no stop strings sent, the answer after the thinking', async () => {
    const before = thinkTags.bodies.length;
    const { results, lines, stderr } = await run(
      'vllm',
      `base_url=${thinkTags.url},pretrained=reasoner,think_end_token=</think>,tokenizer_backend=None`,
    );
    const bodies = thinkTags.bodies.slice(before);
    expect(bodies).toHaveLength(5);
    expect(bodies.every((body) => body.stop === undefined && body.prompt !== undefined)).toBe(true);
    expect(lines.map((line) => line.filtered_resps[0])).toEqual(['42', '5', '77', '12', '8']);
    expect(results.results.gsm_think['exact_match,strict-match']).toBe(3 / 5);
    expectTruncationReported(results, stderr);
  });
});
