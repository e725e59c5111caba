/**
 * examples/judge/judged_qa_chat.yaml runs as written, with its judge pointed at a loopback OpenAI-compatible server: the 30
 * docs are judged, the labelled slice is read, and with every doc labelled the PPI++ estimate is the
 * labels' own mean (λ = 0: there are no unlabelled docs to borrow precision from).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { simpleEvaluate } from '../src/run/evaluate.js';
import { startTestServer } from './fakes/openai-server.js';
import { repoRoot, tempDir } from './support/helpers.js';

describe('examples/judge', () => {
  it('judges the 30 answers and reports the judge against the 30 human labels', async () => {
    const judge = await startTestServer({
      chatReply: (messages) => {
        const text = messages[messages.length - 1].content;
        const reference = /Reference answer: (.*)/.exec(text)?.[1] ?? '';
        const answer = /Answer to grade: (.*)/.exec(text)?.[1] ?? '';
        return `Compared with the reference. Score: ${answer.toLowerCase().includes(reference.toLowerCase()) ? 5 : 1}`;
      },
    });
    try {
      const folder = tempDir('assay-judge-example-');
      cpSync(path.join(repoRoot, 'examples', 'judge'), folder, { recursive: true });
      const task = path.join(folder, 'judged_qa_chat.yaml');
      writeFileSync(
        task,
        readFileSync(task, 'utf8').replace('http://127.0.0.1:8000/v1/chat/completions', judge.chatUrl),
      );
      const result = await simpleEvaluate({
        model: new DummyBackend(),
        modelName: 'dummy',
        tasks: [task],
        bootstrapIters: 0,
      });
      const [report] = result.results.judges?.judged_qa_chat ?? [];
      expect(report).toMatchObject({ requests: 30, errored: 0 });
      const labels = readFileSync(path.join(folder, 'labels.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { label: number }).label);
      expect(labels).toHaveLength(30);
      const labelsMean = labels.reduce((sum, label) => sum + label, 0) / labels.length;
      expect(report.statistics).toMatchObject({ labelled: 30, unlabelled: 0 });
      expect(report.statistics?.ppi.lambda).toBe(0);
      expect(report.statistics?.ppi.estimate).toBeCloseTo(labelsMean, 12);
      expect(report.statistics?.labels_mean.estimate).toBeCloseTo(labelsMean, 12);
      // The dummy model's answers never contain the reference: the judge gives every one a 1.
      expect(result.results.results.judged_qa_chat['llm_judge,none']).toBe(1);
    } finally {
      await judge.close();
    }
  });
});
