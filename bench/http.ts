/**
 * HTTP backend figures (issue 9): throughput against a server with 200 ms latency admitting 64 at once,
 * speed-up over num_concurrent=1 (lm-eval's default), harness CPU time per request, and peak RSS for
 * 100,000 loglikelihood requests. Server and client each run in their own process.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function serve(
  latencyMs: number,
  maxConcurrent?: number,
): Promise<{ url: string; child: ChildProcess }> {
  const args = ['--import', 'tsx', path.join(root, 'test/fakes/serve-openai.ts'), String(latencyMs)];
  if (maxConcurrent) args.push(String(maxConcurrent));
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) =>
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
  return { url: `${url}/v1/completions`, child };
}

interface Figures {
  requests: number;
  failed: number;
  seconds: number;
  requestsPerSecond: number;
  cpuMsPerRequest: number;
  maxRssMb: number;
}

function client(url: string, requests: number, concurrent: number, batch: number): Figures {
  const output = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'bench/http-client-run.ts'),
      url,
      String(requests),
      String(concurrent),
      String(batch),
    ],
    { cwd: root, maxBuffer: 1 << 20 },
  ).toString();
  return JSON.parse(output.trim().split('\n').pop() ?? '{}') as Figures;
}

export async function httpFigures(report: (line: string) => void): Promise<void> {
  const slow = await serve(200, 64);
  try {
    const one = client(slow.url, 20, 1, 1);
    const wide = client(slow.url, 3200, 64, 1);
    report(
      `HTTP throughput, server 200 ms latency admitting 64: num_concurrent=64 ${wide.requestsPerSecond.toFixed(0)} req/s = ${((wide.requestsPerSecond / 320) * 100).toFixed(0)}% of the ideal 320 (target ≥ 90%); num_concurrent=1 ${one.requestsPerSecond.toFixed(1)} req/s; speed-up ${(wide.requestsPerSecond / one.requestsPerSecond).toFixed(1)}×`,
    );
  } finally {
    slow.child.kill('SIGTERM');
  }
  const fast = await serve(0);
  try {
    const cpu = client(fast.url, 5000, 16, 1);
    report(
      `HTTP harness CPU per request (5,000 requests, num_concurrent=16, no server latency): ${cpu.cpuMsPerRequest.toFixed(3)} ms (target < 0.3 ms); ${cpu.requestsPerSecond.toFixed(0)} req/s with client and server sharing the CPU`,
    );
    const big = client(fast.url, 100_000, 16, 50);
    report(
      `HTTP 100,000 loglikelihood requests (batch_size=50, num_concurrent=16): ${big.seconds.toFixed(1)} s, ${big.failed} failed, peak RSS ${big.maxRssMb.toFixed(0)} MB (target < 1024 MB); CPU ${big.cpuMsPerRequest.toFixed(3)} ms per request`,
    );
  } finally {
    fast.child.kill('SIGTERM');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await httpFigures((line) => process.stdout.write(`${line}\n`));
}
