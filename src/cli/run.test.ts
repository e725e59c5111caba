/** `assay run`'s flags for code execution become typed sandbox limits, checked at the edge. */
import { describe, expect, it } from 'vitest';
import { optionsFromFlags } from './run.js';

const base = { model: 'dummy', tasks: 'code-exec' };

describe('--code_memory and --code_timeout', () => {
  it('become the sandbox limits, in bytes and milliseconds', () => {
    expect(optionsFromFlags({ ...base, code_memory: '1536M', code_timeout: '5' }).sandbox?.limits).toEqual({
      timeoutMs: 5000,
      cpuSeconds: 5,
      memoryBytes: 1536 * 1024 ** 2,
    });
    expect(optionsFromFlags({ ...base, code_memory: '2G' }).sandbox?.limits).toEqual({
      memoryBytes: 2 * 1024 ** 3,
    });
    expect(optionsFromFlags({ ...base, code_memory: '1.5GiB' }).sandbox?.limits).toEqual({
      memoryBytes: 1.5 * 1024 ** 3,
    });
    expect(optionsFromFlags({ ...base, code_memory: '3221225472' }).sandbox?.limits).toEqual({
      memoryBytes: 3 * 1024 ** 3,
    });
    expect(optionsFromFlags(base).sandbox?.limits).toBeUndefined();
  });

  it('refuses a size it cannot read', () => {
    for (const value of ['lots', '-1G', '0', '2T']) {
      expect(() => optionsFromFlags({ ...base, code_memory: value })).toThrow(
        `--code_memory must be a size such as 2G, 1536M or a number of bytes, got "${value}"`,
      );
    }
  });
});
