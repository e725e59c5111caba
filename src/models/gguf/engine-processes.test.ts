/**
 * Engine processes are kept for the next backend: a closed backend's process loads the next model
 * (the same pid) and scores it exactly as a new process does, at most two are kept, and a kept one
 * neither keeps a script alive nor outlives it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoglikelihoodRequest } from '../backend.js';
import { idleEngineProcesses, keepEngineProcess, takeEngineProcess } from './engine-processes.js';
import { GgufBackend } from './gguf-backend.js';
import { randomLlamaGguf } from './llama-model.js';
import { writeGguf } from './writer.js';

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-engine-processes-'));
const first = path.join(directory, 'first.gguf');
const second = path.join(directory, 'second.gguf');
await writeFile(first, writeGguf(randomLlamaGguf({ seed: 3 })));
await writeFile(second, writeGguf(randomLlamaGguf({ seed: 4 })));
afterAll(() => rm(directory, { recursive: true, force: true }));

const requests: LoglikelihoodRequest[] = [
  { context: 'Question: 2+2=\nAnswer:', continuation: ' 4' },
  { context: 'abc def', continuation: ' ghi jkl' },
  { context: '', continuation: 'mnop' },
];

const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** Takes every kept process out of the pool for a while, so that the next backend starts a new one. */
async function withoutKept<T>(use: () => Promise<T>): Promise<T> {
  const aside: ChildProcess[] = [];
  while (idleEngineProcesses() > 0) aside.push(takeEngineProcess());
  try {
    return await use();
  } finally {
    // Back, idle as they were (or ended, past the limit): the next test file may load in them.
    for (const child of aside) if (!keepEngineProcess(child)) child.kill('SIGKILL');
  }
}

describe('kept engine processes', () => {
  it('the next backend loads its model in the closed one’s process and scores as a new process does', async () => {
    const a = await GgufBackend.create({ modelPath: first, threads: 1 });
    const pid = a.enginePid as number;
    const fromA = await a.loglikelihood({ requests });
    await a.close();
    expect(a.enginePid).toBeUndefined();
    expect(alive(pid)).toBe(true);

    // The same model again, in the kept process: the same numbers, bit for bit.
    const b = await GgufBackend.create({ modelPath: first, threads: 1 });
    expect(b.enginePid).toBe(pid);
    expect(await b.loglikelihood({ requests })).toEqual(fromA);
    await b.close();

    // Another model in it, against that model in a process that never held another.
    const c = await GgufBackend.create({ modelPath: second, threads: 1 });
    expect(c.enginePid).toBe(pid);
    const text = [{ text: 'the sea was calm and the boats came home' }];
    const reused = await c.loglikelihood({ requests });
    const rolling = await c.loglikelihoodRolling({ requests: text });
    const d = await withoutKept(() => GgufBackend.create({ modelPath: second, threads: 1 }));
    expect(d.enginePid).not.toBe(pid);
    expect(reused).toEqual(await d.loglikelihood({ requests }));
    expect(rolling).toEqual(await d.loglikelihoodRolling({ requests: text }));
    expect(reused).not.toEqual(fromA);
    await Promise.all([c.close(), d.close()]);
  });

  it('closing twice closes once; a call once the close began fails; the next backend is undisturbed', async () => {
    const a = await GgufBackend.create({ modelPath: first, threads: 1 });
    const pid = a.enginePid as number;
    const fromA = await a.loglikelihood({ requests });
    // The second close used to send a second close call, whose answer nobody heard: it never settled.
    const closing = [a.close(), a.close()];
    await expect(a.loglikelihood({ requests })).rejects.toThrow('gguf engine: the backend was closed');
    await Promise.all(closing);
    const b = await GgufBackend.create({ modelPath: first, threads: 1 });
    expect(b.enginePid).toBe(pid);
    expect(await b.loglikelihood({ requests })).toEqual(fromA);
    await b.close();
  });

  it('keeps at most two; the others exit', async () => {
    // Three at once: the kept ones (two after the test above) and a new one.
    const backends = await Promise.all(
      [0, 1, 2].map(() => GgufBackend.create({ modelPath: first, threads: 1 })),
    );
    const pids = backends.map((backend) => backend.enginePid as number);
    expect(new Set(pids).size).toBe(3);
    expect(idleEngineProcesses()).toBe(0);
    for (const backend of backends) await backend.close();
    expect(idleEngineProcesses()).toBe(2);
    expect(pids.filter(alive)).toHaveLength(2);
    expect(alive(pids[2])).toBe(false);
  });

  it('a kept process does not keep a script alive, and leaves with it', async () => {
    const module = path.resolve('dist/models/gguf/gguf-backend.js');
    const script = [
      `const { GgufBackend } = await import(${JSON.stringify(module)});`,
      `const backend = await GgufBackend.create({ modelPath: ${JSON.stringify(first)}, threads: 1 });`,
      'const pid = backend.enginePid;',
      "await backend.loglikelihood({ requests: [{ context: 'a', continuation: ' b' }] });",
      'await backend.close();',
      'console.log(pid);',
    ].join('\n');
    const started = Date.now();
    const { status, stdout } = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      // Kept handles that were not unref'd would hold it for the 60 s idle limit.
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ status: code, stdout });
      });
    });
    expect(status).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    // Its IPC channel closed with the script: it exits (engine-worker.ts), leaving no orphan.
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  });
});
