/**
 * `assay run`'s progress as a user sees it: the real CLI against a slow loopback server, once on a
 * pseudo-terminal (`script` from util-linux, in Debian's essential bsdutils package: it gives the child a
 * TTY and records what it draws) and once with stderr piped, as in a CI log. On the terminal the batch is drawn in place as tqdm draws it
 * (done/total, percentage, `[elapsed<remaining, rate]`) and its final line stays; piped, stderr gets plain
 * lines and no escape code; --quiet and --verbosity WARNING draw nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './fakes/openai-server.js';
import { repoRoot } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';

const bin = path.join(repoRoot, 'bin', 'assay.js');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const present = requireComponent('script (bsdutils)', hasScript);

const ESC = '\x1b';
// medqa_mini: 8 questions × 4 choices, 32 loglikelihood requests.
const REQUESTS = 32;

function runArgs(url: string, extra: string[] = []): string[] {
  return [
    'run',
    '--model',
    'local-completions',
    '--model_args',
    `model=test,base_url=${url},num_concurrent=1,tokenized_requests=false`,
    '--tasks',
    'examples/tasks/medqa/medqa_mini.yaml',
    ...extra,
  ];
}

/** A child run to its end without blocking this process, whose loopback server must keep answering. */
function run(
  command: string,
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The CLI on a 120-column pseudo-terminal: everything it wrote, stdout and stderr as the terminal got them. */
async function onTerminal(args: string[]): Promise<string> {
  const quoted = [process.execPath, bin, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const result = await run('script', ['-qec', `stty cols 120 rows 40; ${quoted}`, '/dev/null']);
  expect(result.status, result.stdout + result.stderr).toBe(0);
  return result.stdout.replaceAll('\r\n', '\n');
}

describe.skipIf(!present)('progress of assay run, as drawn', () => {
  let server: TestServer;
  beforeAll(async () => {
    // 60 ms per request, one at a time: about 2 s of requests, several redraws at ten a second.
    server = await startTestServer({ latencyMs: 60, maxConcurrent: 1 });
  });
  afterAll(() => server?.close());

  it('on a terminal: tqdm’s line redrawn in place with done/total, percentage, elapsed<ETA and rate; the final line stays', async () => {
    const output = await onTerminal(runArgs(server.completionsUrl));
    expect(output).toContain(`${ESC}[`);
    const frame =
      /loglikelihood \(medqa_mini\): +(\d+)%\|[█▏▎▍▌▋▊▉ ]{30}\| (\d+)\/32 \[(\d\d):(\d\d)<(\d\d):(\d\d), ([\d.]+) req\/s\]/g;
    const frames = [...output.matchAll(frame)].map((match) => match.slice(1).map(Number));
    const running = frames.filter(([, done]) => done > 0 && done < REQUESTS);
    expect(running.length).toBeGreaterThan(0);
    for (const [percent, done, , , etaMinutes, etaSeconds, rate] of running) {
      expect(percent).toBe(Math.floor((100 * done) / REQUESTS));
      // The ETA is what is left at the rate shown (floored to a second as tqdm's format_interval does;
      // the rate is rounded to 2 decimals).
      const eta = etaMinutes * 60 + etaSeconds;
      expect(Math.abs(eta - (REQUESTS - done) / rate)).toBeLessThanOrEqual(1.01);
    }
    // The finished batch: elapsed and mean rate, no ETA; printed above, not redrawn after.
    const final = /loglikelihood \(medqa_mini\): 100%\|█{30}\| 32\/32 \[\d\d:\d\d, [\d.]+ req\/s\]\n/;
    const kept = output.match(final);
    expect(kept).not.toBeNull();
    const after = output.slice((kept?.index ?? 0) + (kept?.[0].length ?? 0));
    expect(after).not.toContain('32/32 [');
    // Then the table, with the interval and n.
    expect(output).toMatch(/\|medqa_mini\|.*\|\[\d\.\d{3}, \d\.\d{3}\]\| {2}8\|\n/);
  });

  it('piped (a CI log): one plain line for the batch, no escape code', async () => {
    const result = await run(process.execPath, [bin, ...runArgs(server.completionsUrl)]);
    expect(result.status, result.stderr).toBe(0);
    // The batch's closing line; a machine slow enough to take over 10 s adds periodic lines before it.
    const lines = result.stderr.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.pop()).toMatch(
      /^assay: loglikelihood \(medqa_mini\): 32\/32 \(100%\) \[\d\d:\d\d, [\d.]+ req\/s\]$/,
    );
    for (const line of lines)
      expect(line).toMatch(
        /^assay: loglikelihood \(medqa_mini\): \d+\/32 \(\d+%\) \[\d\d:\d\d<\d\d:\d\d, [\d.]+ req\/s\]$/,
      );
    expect(result.stderr + result.stdout).not.toContain(ESC);
  });

  it('--quiet and --verbosity WARNING draw nothing on a terminal', async () => {
    for (const flags of [['--quiet'], ['--verbosity', 'WARNING']]) {
      const output = await onTerminal(runArgs(server.completionsUrl, flags));
      expect(output).not.toContain(ESC);
      expect(output).not.toContain('req/s');
      expect(output).toContain('|medqa_mini|');
    }
  });
});
