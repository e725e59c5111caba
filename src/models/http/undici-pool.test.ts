import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Pool } from './undici-pool.js';

describe('undici-pool', () => {
  it("is the undici package index's own Pool class", () => {
    const index = createRequire(import.meta.url)('undici') as { Pool: unknown };
    expect(Pool).toBe(index.Pool);
  });

  it('loads without compiling the package index, and its pools have the request API', async () => {
    // In a fresh process: the index's module is absent from the require cache after loading the pool.
    const { execFileSync } = await import('node:child_process');
    const script = `import('${new URL('./undici-pool.ts', import.meta.url).href}').then(({ Pool }) => {
      if (typeof new Pool('http://127.0.0.1:9').request !== 'function') throw new Error('no request API');
      const loaded = Object.keys(require('node:module')._cache ?? {}).concat(Object.keys(require.cache));
      process.stdout.write(JSON.stringify(loaded.filter((file) => file.includes('/undici/'))));
    });`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=commonjs', '-e', script], {
      encoding: 'utf8',
    });
    const files = JSON.parse(out) as string[];
    expect(files.some((file) => file.endsWith('/undici/lib/dispatcher/pool.js'))).toBe(true);
    expect(files.some((file) => file.endsWith('/undici/index.js'))).toBe(false);
  });
});
