/**
 * One measured batch of loglikelihood requests through the local-completions backend, in its own process so
 * that CPU time and peak RSS are the harness's alone. Args: url requests numConcurrent batchSize. Prints JSON.
 */
import { createHttpBackend } from '../src/models/http/create.js';

const [url, requestsText, concurrentText, batchText] = process.argv.slice(2);
const count = Number(requestsText);
// Text prompts, as measured before local-completions defaulted to lm-eval's token ids.
const backend = createHttpBackend('local-completions', {
  tokenized_requests: false,
  model: 'bench',
  base_url: url,
  num_concurrent: Number(concurrentText),
  batch_size: Number(batchText),
});
// Distinct requests built up front, as the evaluator hands them over: the memory they take counts too.
const requests = Array.from({ length: count }, (_, i) => ({
  context: `Question ${i}: which option is right?\nAnswer:`,
  continuation: ` ${'ABCD'[i % 4]}`,
}));
const cpu = process.cpuUsage();
const started = performance.now();
const answers = await backend.loglikelihood({ requests });
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
const failed = answers.filter(
  (answer) => !(answer && typeof answer === 'object' && 'logprob' in answer),
).length;
await backend.close?.();
process.stdout.write(
  `${JSON.stringify({ requests: count, failed, seconds, requestsPerSecond: count / seconds, cpuMsPerRequest: (used.user + used.system) / 1000 / count, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
