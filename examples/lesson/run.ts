/**
 * The lesson's harness on assay: its five JSONL tasks, unchanged, against the two scripted adapters,
 * printing each task's score and the mean over the tasks.
 *
 *   npm run build && npx tsx examples/lesson/run.ts
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleEvaluate } from 'assay';
import { ScriptedAdapter, SilentAdapter } from './adapters.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tasks = readdirSync(here)
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .map((name) => path.join(here, name));

for (const model of [new ScriptedAdapter(), new SilentAdapter()]) {
  // code-exec.jsonl runs the answers in the code sandbox.
  const { results, taskResults } = await simpleEvaluate({ model, tasks, confirmRunUnsafeCode: true });
  const scores = taskResults.map((task) => [task.name, task.metrics[0]] as const);
  process.stdout.write(`${model.name}:\n`);
  for (const [name, primary] of scores) {
    process.stdout.write(`  ${name.padEnd(16)} ${primary.metric.padEnd(18)} ${primary.value.toFixed(4)}\n`);
  }
  const overall = scores.reduce((sum, [, primary]) => sum + primary.value, 0) / scores.length;
  process.stdout.write(
    `  overall          ${overall.toFixed(4)} (${Object.keys(results.results).length} tasks)\n`,
  );
}
