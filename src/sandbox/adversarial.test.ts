/**
 * Hostile programs, each scored as a HumanEval sample would be (a checked program with an empty test):
 * every attempt must end as a sample that did not pass, with the reason, and the host must be unchanged
 * afterwards (checked from outside). What a program printed comes from a plain run of the same source.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireComponent } from '../../test/support/require-component.js';
import { probeSandbox } from './bubblewrap.js';
import { runCodeRequest } from './code-score.js';
import { passAtKRequest } from './code-score-request.js';
import { CodeSandbox, sandboxOptions } from './sandbox.js';
import type { CodeOutcome, RunResult } from './types.js';

const probe = probeSandbox(sandboxOptions());
const bubblewrap = requireComponent('bubblewrap', probe);
const describeSandbox = describe.skipIf(!bubblewrap);

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// A 1 s wall clock ahead of a 2 s CPU limit: a spinning program is stopped by the wall clock, whatever the
// load, and the file's three timed-out programs take 1 s each, not 2 (the file runs in the timed project).
const LIMITS = { timeoutMs: 1000, cpuSeconds: 2, outputBytes: 1024 ** 2 };

let sandbox: CodeSandbox;
let hostDir: string;
let canary: string;
const CANARY_TEXT = 'SECRET-CANARY-do-not-leak';
const SECRET = 'sk-assay-adversarial-0123456789';

beforeAll(() => {
  if (!probe.available) return;
  sandbox = CodeSandbox.create({ limits: LIMITS });
  hostDir = mkdtempSync(path.join(os.tmpdir(), 'assay-host-'));
  canary = path.join(hostDir, 'canary.txt');
  writeFileSync(canary, CANARY_TEXT);
  // A key in the parent's environment, as an API key would be.
  process.env.ASSAY_ADVERSARIAL_SECRET = SECRET;
});

afterAll(() => {
  delete process.env.ASSAY_ADVERSARIAL_SECRET;
});

/** Runs a program as one HumanEval sample and returns its score and outcome, and a plain run of it. */
async function attempt(source: string): Promise<{ pass: number; outcome: CodeOutcome; run: RunResult }> {
  const request = passAtKRequest([{ language: 'python', program: source, test: '' }], [1]);
  const [{ metrics, outcomes }, run] = await Promise.all([
    runCodeRequest(sandbox, request),
    sandbox.run({ language: 'python', source }),
  ]);
  return { pass: metrics['pass@1'], outcome: outcomes[0], run };
}

function hostUnchanged(): void {
  expect(readFileSync(canary, 'utf8')).toBe(CANARY_TEXT);
  expect(readdirSync(hostDir)).toEqual(['canary.txt']);
  expect(existsSync(path.join(repoRoot, 'PWNED'))).toBe(false);
  expect(existsSync('/usr/PWNED')).toBe(false);
}

/** Host processes named by a program with prctl(PR_SET_NAME). */
function processesNamed(name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

describeSandbox('adversarial programs are contained', () => {
  it('cannot read ~/.ssh, /etc/shadow, the project or host files', async () => {
    const { pass, outcome, run } = await attempt(`
import os
data = ""
for p in ["/etc/shadow", "/root/.ssh/id_rsa", os.path.expanduser("~/.ssh/id_rsa"), ${JSON.stringify(canary)}, ${JSON.stringify(path.join(repoRoot, 'package.json'))}]:
    try:
        data += open(p).read()
    except OSError as error:
        print("blocked", p, type(error).__name__)
print(data)
assert "${CANARY_TEXT}" in data or "root:" in data or "assay" in data, "nothing readable"
`);
    expect(pass).toBe(0);
    expect(outcome).toEqual({ status: 'failed', message: 'AssertionError: nothing readable' });
    expect(run.stdout).not.toContain(CANARY_TEXT);
    hostUnchanged();
  });

  it('cannot write outside its private tmp', async () => {
    const { pass, outcome } = await attempt(`
import os
written = []
for p in [${JSON.stringify(path.join(hostDir, 'pwned.txt'))}, ${JSON.stringify(path.join(repoRoot, 'PWNED'))}, "/usr/PWNED", "/PWNED", "/etc/PWNED"]:
    try:
        with open(p, "w") as handle:
            handle.write("pwned")
        written.append(p)
    except OSError as error:
        print("blocked", p, type(error).__name__)
open("/tmp/fine.txt", "w").write("tmp is writable")
assert written, "no write outside tmp succeeded"
`);
    expect(pass).toBe(0);
    expect(outcome).toEqual({ status: 'failed', message: 'AssertionError: no write outside tmp succeeded' });
    hostUnchanged();
  });

  it('cannot reach a listener on 127.0.0.1 (the listener sees nothing)', async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const { pass, outcome } = await attempt(`
import socket
connection = socket.create_connection(("127.0.0.1", ${port}), timeout=1)
connection.sendall(b"exfiltrated")
`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(pass).toBe(0);
      expect(outcome).toEqual({
        status: 'error',
        message: 'ConnectionRefusedError: [Errno 111] Connection refused',
      });
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('survives a fork bomb, and every forked process is gone afterwards', async () => {
    const { pass, outcome } = await attempt(`
import ctypes, os, time
ctypes.CDLL(None).prctl(15, b"assay-bomb", 0, 0, 0)
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.001)
`);
    expect(pass).toBe(0);
    expect(outcome).toEqual({
      status: 'timed_out',
      message: `timed out after ${LIMITS.timeoutMs} ms (wall clock)`,
    });
    // The PID namespace dies with the sandbox; allow the kernel a moment to reap it (up to 10 s: reaping
    // a few thousand processes took over 2 s when both cores were busy).
    for (let wait = 0; wait < 100 && processesNamed('assay-bomb').length > 0; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(processesNamed('assay-bomb')).toEqual([]);
  });

  it('cannot allocate 10 GB', async () => {
    const { pass, outcome } = await attempt('block = bytearray(10 * 1024 ** 3)\n');
    expect(pass).toBe(0);
    expect(outcome).toEqual({ status: 'error', message: 'MemoryError' });
  });

  it('stops an infinite loop at the timeout', async () => {
    const { pass, outcome, run } = await attempt('while True:\n    pass\n');
    expect(pass).toBe(0);
    expect(outcome).toEqual({
      status: 'timed_out',
      message: `timed out after ${LIMITS.timeoutMs} ms (wall clock)`,
    });
    expect(run.durationMs).toBeLessThan(LIMITS.timeoutMs + 1500);
  });

  it('stops a sleep past the timeout', async () => {
    const { pass, outcome, run } = await attempt('import time\ntime.sleep(60)\n');
    expect(pass).toBe(0);
    expect(outcome).toEqual({
      status: 'timed_out',
      message: `timed out after ${LIMITS.timeoutMs} ms (wall clock)`,
    });
    expect(run.durationMs).toBeLessThan(LIMITS.timeoutMs + 1500);
  });

  it('cannot kill its parent or any host process', async () => {
    const { pass, outcome } = await attempt(`
import os, signal
for pid in [${process.pid}, ${process.ppid}]:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError as error:
        print("blocked", pid, type(error).__name__)
os.kill(os.getppid(), signal.SIGKILL)
assert False, "parent still alive"
`);
    expect(pass).toBe(0);
    expect(outcome.status).not.toBe('passed');
    expect(outcome.message).toMatch(/AssertionError: parent still alive|killed by SIGKILL/);
    // This test process (the program's would-be victim) is still here.
    expect(process.kill(process.pid, 0)).toBe(true);
    expect(process.kill(process.ppid, 0)).toBe(true);
  });

  it('cannot spawn a shell', async () => {
    const target = path.join(hostDir, 'from-shell');
    const { pass, outcome } = await attempt(`
import os, subprocess
status = os.system("touch ${target}")
print("os.system returned", status)
result = subprocess.run(["sh", "-c", "echo shell"], capture_output=True)
assert result.stdout == b"shell\\n", "no shell"
`);
    expect(pass).toBe(0);
    // Refused before the shell is even looked for: programs cannot start processes at all (the shells
    // are masked as well).
    expect(outcome).toEqual({
      status: 'error',
      message: 'PermissionError: [Errno 1] Operation not permitted',
    });
    expect(existsSync(target)).toBe(false);
    hostUnchanged();
  });

  it('sees an empty environment: no API keys', async () => {
    const { pass, outcome, run } = await attempt(`
import os
print(dict(os.environ))
assert "ASSAY_ADVERSARIAL_SECRET" in os.environ, "no secret in the environment"
`);
    expect(pass).toBe(0);
    expect(outcome).toEqual({ status: 'failed', message: 'AssertionError: no secret in the environment' });
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stdout).toContain("'PATH': '/usr/bin:/bin'");
    expect(Object.keys(JSON.parse(run.stdout.split('\n')[0].replaceAll("'", '"'))).sort()).toEqual([
      'HOME',
      'LANG',
      'PATH',
      'PWD',
    ]);
  });

  it('cannot print 1 GB to stdout: it is cut at the cap and killed', async () => {
    const { pass, outcome, run } = await attempt(`
import sys
chunk = "x" * (1024 * 1024)
for _ in range(1024):
    sys.stdout.write(chunk)
`);
    expect(pass).toBe(0);
    expect(outcome).toEqual({
      status: 'error',
      message: `output limit: wrote more than ${1024 ** 2} bytes to stdout or stderr`,
    });
    expect(run.stdout.length).toBe(1024 ** 2);
    expect(run.durationMs).toBeLessThan(LIMITS.timeoutMs);
  });

  it('cannot delete host files through os or subprocess', async () => {
    const { pass, outcome } = await attempt(`
import os, shutil, subprocess
for action in [lambda: os.remove(${JSON.stringify(canary)}), lambda: shutil.rmtree(${JSON.stringify(hostDir)}), lambda: os.remove(${JSON.stringify(path.join(repoRoot, 'package.json'))})]:
    try:
        action()
    except OSError as error:
        print("blocked", type(error).__name__)
try:
    print(subprocess.run(["rm", "-rf", ${JSON.stringify(hostDir)}, "/usr/bin/python3"], capture_output=True))
except OSError as error:
    print("blocked", type(error).__name__)
assert os.path.exists(${JSON.stringify(canary)}), "canary not visible"
`);
    expect(pass).toBe(0);
    expect(outcome).toEqual({ status: 'failed', message: 'AssertionError: canary not visible' });
    expect(existsSync(path.join(repoRoot, 'package.json'))).toBe(true);
    expect(existsSync('/usr/bin/python3')).toBe(true);
    hostUnchanged();
  });
});
