/**
 * Child process of bench/index.ts: builds the task index of one folder in a fresh process, as a command
 * does, and prints JSON with the time spent in buildTaskIndex (module loading excluded) and the entries.
 *   node bench/index-time.ts <tree> <cache-dir | none>
 * It imports the built dist/ (what `assay` runs), so run `npm run build` first.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [tree, cache] = process.argv.slice(2);
const { buildTaskIndex } = (await import(
  pathToFileURL(path.join(root, 'dist', 'tasks', 'index.js')).href
)) as {
  buildTaskIndex: typeof import('../src/tasks/index.js').buildTaskIndex;
};
const cpuBefore = process.cpuUsage();
const start = performance.now();
const index = await buildTaskIndex({
  includePath: [tree],
  cacheDir: cache === 'none' ? undefined : cache,
});
const ms = performance.now() - start;
const cpu = process.cpuUsage(cpuBefore);
const kinds = { task: 0, group: 0, tag: 0 };
for (const entry of index.entries.values()) kinds[entry.kind]++;
process.stdout.write(
  `${JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, entries: index.entries.size, ...kinds, skipped: index.skipped.length })}\n`,
);
