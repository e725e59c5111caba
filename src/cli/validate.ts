import { planTask } from '../evaluate/plan.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { startPythonFor } from '../python/python-for-tasks.js';
import { checkIncludePath } from '../tasks/include-path.js';
import { resolveTasks } from '../tasks/manager.js';
import { leafTasks } from '../tasks/task.js';
import { reportError } from './errors.js';

/**
 * Unlike lm-eval's validate (which only checks names), this loads every task, reads its data and
 * renders its first doc, so template and data errors surface before a long run.
 */
export async function validateCommand(flags: Record<string, unknown>): Promise<number> {
  try {
    const specs = (flags.tasks as string[]).flatMap((spec) => spec.split(','));
    const includePath = ((flags.include_path as string[] | undefined) ?? []).flatMap((dir) => dir.split(','));
    checkIncludePath(includePath);
    const nodes = await resolveTasks(specs, {
      includePath,
      logger: { warn: (m) => process.stderr.write(`assay: warning: ${m}\n`) },
    });
    const backend = new DummyBackend();
    let count = 0;
    const python = await startPythonFor(nodes, { python: flags.python as string | undefined });
    try {
      for (const task of nodes.flatMap(leafTasks)) {
        const plan = await planTask(task, {
          limit: 1,
          fewshotSeed: 1234,
          applyChatTemplate: false,
          fewshotAsMultiturn: false,
          genKwargs: {},
          backend,
        });
        const requests = plan.docs[0]?.instances.length ?? 0;
        process.stdout.write(
          `ok  ${task.name}: ${plan.original} docs, ${task.config.output_type}, doc 0 → ${requests} request(s)\n`,
        );
        count++;
      }
    } finally {
      await python?.close();
    }
    process.stdout.write(`${count} task(s) valid\n`);
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
