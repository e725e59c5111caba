/**
 * llm_judge lines in a JSONL task: one judge per file (its block under `extras.judge`), judged by a
 * loopback OpenAI-compatible server over local-chat-completions; and the files the loader refuses, each
 * at its line.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { simpleEvaluate } from '../src/run/evaluate.js';
import { loadJsonlTask } from '../src/tasks/jsonl-task.js';
import { startTestServer, type TestServer } from './fakes/openai-server.js';
import { tempDir } from './support/helpers.js';

/** The judge's score for question n (1 to 5); question 4's answer holds no verdict. */
const score = (n: number) => (n % 5) + 1;
const UNPARSEABLE = 4;

let server: TestServer;
const root = tempDir('assay-llm-judge-jsonl-');

beforeAll(async () => {
  server = await startTestServer({
    chatReply: (messages) => {
      const n = Number(/question (\d+)/.exec(messages[messages.length - 1].content)?.[1]);
      return n === UNPARSEABLE ? 'No opinion.' : `Fine.\nScore: ${score(n)}`;
    },
  });
});
afterAll(async () => {
  await server.close();
});

function judgeBlock(prompt = 'question {{doc.id}}: "{{response}}" against {{target}}. Score: N') {
  return {
    model: 'local-chat-completions',
    model_args: { model: 'judge', base_url: server.chatUrl },
    prompt,
    verdict: { type: 'score', min: 1, max: 5 },
  };
}

function line(n: number, extras?: Record<string, unknown>, metric = 'llm_judge'): string {
  return JSON.stringify({
    id: n,
    prompt: `What is ${n} + 1?`,
    targets: [String(n + 1)],
    metric,
    ...(extras ? { extras } : {}),
  });
}

function writeTask(name: string, lines: string[]): string {
  const file = path.join(root, `${name}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('llm_judge lines in a JSONL task', () => {
  it('are scored by the file’s judge; an answer without a verdict is an errored sample keeping the raw answer', async () => {
    const file = writeTask('judged_lines', [
      line(0, { judge: judgeBlock() }),
      ...[1, 2, 3, 4, 5].map((n) => line(n)),
    ]);
    const result = await simpleEvaluate({
      model: new DummyBackend(),
      modelName: 'dummy',
      tasks: [file],
      bootstrapIters: 0,
    });
    const judged = [0, 1, 2, 3, 5];
    const mean = judged.reduce((sum, n) => sum + score(n), 0) / judged.length;
    expect(result.results.results.judged_lines['llm_judge,none']).toBeCloseTo(mean, 12);
    const samples = result.samples.judged_lines;
    expect(samples).toHaveLength(6);
    const three = samples.find((sample) => sample.doc_id === 3);
    expect(three?.llm_judge).toBe(score(3));
    expect(three?.judge?.[0]).toMatchObject({ metric: 'llm_judge', score: score(3) });
    expect(three?.judge?.[0]?.prompt).toContain('question 3:');
    expect(three?.judge?.[0]?.prompt).toContain('against 4.');
    const four = samples.find((sample) => sample.doc_id === UNPARSEABLE);
    expect(four?.judge?.[0]).toMatchObject({ raw: 'No opinion.' });
    expect(four?.judge?.[0]?.error).toBeTruthy();
    expect(result.results.judges?.judged_lines[0]).toMatchObject({ metric: 'llm_judge' });
  });

  it('refuses a file without a judge block, with two different blocks, a bad block, or other metrics beside them', async () => {
    const cases: Array<[string, string[], RegExp]> = [
      ['no_block', [line(0), line(1)], /"extras\.judge"/],
      [
        'two_blocks',
        [
          line(0, { judge: judgeBlock() }),
          line(1),
          line(2, { judge: judgeBlock('question {{doc.id}} again') }),
        ],
        /differs from the one on line 1/,
      ],
      [
        'bad_block',
        [line(0, { judge: { ...judgeBlock(), verdict: { type: 'stars' } } })],
        /extras\.judge\.verdict/,
      ],
      [
        'mixed',
        [line(0, { judge: judgeBlock() }), line(1, undefined, 'exact_match')],
        /exact_match in a file of llm_judge lines \(first on line 1\)/,
      ],
    ];
    for (const [name, lines, message] of cases) {
      const file = writeTask(name, lines);
      const error = await loadJsonlTask(file).then(
        () => undefined,
        (caught: unknown) =>
          caught as { code?: string; message: string; location?: { file?: string; line?: number } },
      );
      expect(error?.code, name).toBe('bad_jsonl_line');
      expect(error?.message, name).toMatch(message);
      expect(error?.location?.file, name).toBe(file);
    }
    const missing = await loadJsonlTask(writeTask('no_block2', [line(0), line(1)])).catch(
      (caught: { message: string; location?: { line?: number } }) => caught,
    );
    expect(missing).toMatchObject({ location: { line: 1 } });
    expect((missing as { message: string }).message).toContain('"extras.judge"');
  });
});
