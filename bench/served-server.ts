/**
 * The served bench's stand-in for a vLLM OpenAI-compatible server (`served-server.ts <serviceMs>`), in a
 * process of its own so that its CPU is not the harness's. Every POST /v1/completions is answered after
 * `serviceMs` with one fixed GSM8K-style completion (`choices[0].text`, finish_reason "stop"), any number
 * at once, as a batching server would. It keeps its busy time: the wall time during which at least one
 * request was in service. GET /stats answers `{ busyMs, requests, firstMs, lastMs }` (first arrival and
 * last answer, ms since the last reset); POST /reset clears them. Prints its URL.
 */
import { createServer } from 'node:http';

const serviceMs = Number(process.argv[2] ?? 10);
const ANSWER = ' Natalia sold 48/2 = 24 clips in May.\nShe sold 48+24 = 72 clips altogether.\n#### 72';

let epoch = performance.now();
let inFlight = 0;
let busySince = 0;
let busyMs = 0;
let requests = 0;
let firstMs: number | undefined;
let lastMs: number | undefined;

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/stats') {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ busyMs, requests, firstMs, lastMs }));
    return;
  }
  if (request.method === 'POST' && request.url === '/reset') {
    epoch = performance.now();
    busyMs = 0;
    requests = 0;
    firstMs = undefined;
    lastMs = undefined;
    request.resume();
    response.end('{}');
    return;
  }
  if (request.method !== 'POST' || request.url !== '/v1/completions') {
    response.statusCode = 404;
    request.resume();
    response.end('{"error":"not found"}');
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { prompt?: unknown };
    const prompts = Array.isArray(body.prompt) ? body.prompt : [body.prompt];
    const arrived = performance.now();
    firstMs ??= arrived - epoch;
    if (inFlight++ === 0) busySince = arrived;
    setTimeout(() => {
      const text = JSON.stringify({
        id: 'cmpl-bench',
        object: 'text_completion',
        model: 'bench',
        choices: prompts.map((_, index) => ({ index, text: ANSWER, logprobs: null, finish_reason: 'stop' })),
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      });
      const now = performance.now();
      if (--inFlight === 0) busyMs += now - busySince;
      requests += prompts.length;
      lastMs = now - epoch;
      response.setHeader('content-type', 'application/json');
      response.end(text);
    }, serviceMs);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
