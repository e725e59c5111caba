/** Running one program: the gate that holds it until it has been placed (in a cgroup), and the channel. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runProgram } from './run-program.js';
import { DEFAULT_LIMITS } from './types.js';

const limits = { ...DEFAULT_LIMITS, timeoutMs: 5000 };

describe('runProgram', () => {
  it('holds the program at the gate until it has been placed, then runs it with its input', async () => {
    const seen: string[] = [];
    const result = await runProgram({ command: '/usr/bin/cat', args: [] }, 'the input', {
      limits,
      sandboxed: false,
      enter: (pid) => {
        // Still the gate's shell: the program has not started, so nothing of it escapes placement.
        seen.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]);
      },
    });
    expect(seen).toEqual(['/bin/sh']);
    expect(result).toMatchObject({ termination: 'exited', exitCode: 0, stdout: 'the input' });
  });

  it('reports a program it could not place as a start failure, and kills it', async () => {
    const result = await runProgram({ command: '/usr/bin/sleep', args: ['30'] }, '', {
      limits,
      sandboxed: false,
      enter: () => {
        throw new Error('no such cgroup');
      },
    });
    expect(result.termination).toBe('start_failed');
    expect(result.stderr).toContain('cannot place the program in its cgroup: no such cgroup');
    expect(result.durationMs).toBeLessThan(3000);
  });

  it('collects what the program writes to fd 4 apart from its output', async () => {
    const result = await runProgram({ command: '/bin/sh', args: ['-c', 'echo out; echo verdict >&4'] }, '', {
      limits,
      sandboxed: false,
    });
    expect(result).toMatchObject({ stdout: 'out\n', channel: 'verdict\n' });
  });
});
