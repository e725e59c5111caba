/**
 * A TypeScript task module in a folder where assay is not installed imports the package's entries by
 * name (they resolve to the built dist/: `npm run build` first), as a CommonJS module (no package.json:
 * tsx compiles it to CommonJS) and as an ES module (`"type": "module"`). The module loads in a process of
 * its own whose working folder is the module's: in this checkout tsx would resolve `assay/*` through
 * tsconfig.json's paths instead.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const TASK = `import { defineTask } from 'assay';
import { mean } from 'assay/stats';
import { isRequestError } from 'assay/backend';

export default defineTask({
  name: 'by_name',
  docs: [{ q: 'a' }],
  docToText: (doc) => String(doc.q),
  docToTarget: () => 'a',
  processResults: (_doc, [answer]) => ({ score: isRequestError(answer) ? 0 : 1 }),
  aggregation: { score: (items) => mean(items as number[]) },
  higherIsBetter: { score: true },
});
`;

/** Loads the task module as `assay run` would, in a process whose working folder is the module's own. */
function load(folder: string): { status: number | null; stdout: string; stderr: string } {
  const defineTask = pathToFileURL(path.join(repoRoot, 'dist', 'tasks', 'define-task.js')).href;
  const script = `const { loadModuleTask } = await import(${JSON.stringify(defineTask)});
const task = await loadModuleTask('by-name.task.ts');
console.log(task.name, task.custom.aggregation.score([1, 0, 1, 1]), JSON.stringify(task.custom.processResults({ q: 'a' }, ['a'])));`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: folder,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('task modules outside the package', () => {
  for (const kind of ['CommonJS', 'ES module'] as const) {
    it(`import assay and its subpaths by name (${kind})`, () => {
      const folder = mkdtempSync(path.join(os.tmpdir(), 'assay-self-reference-'));
      if (kind === 'ES module') writeFileSync(path.join(folder, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(path.join(folder, 'by-name.task.ts'), TASK);
      const loaded = load(folder);
      expect(loaded.status, loaded.stderr).toBe(0);
      // The aggregation is assay/stats' mean: (1 + 0 + 1 + 1) / 4.
      expect(loaded.stdout).toBe('by_name 0.75 {"score":1}\n');
    });
  }
});
