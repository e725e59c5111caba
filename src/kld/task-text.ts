/**
 * `assay kld --tasks wikitext`: the text is a perplexity task's evaluation documents (what its
 * loglikelihood_rolling requests score: doc_to_target), joined by blank lines, as llama-perplexity
 * reads wiki.test.raw as one text.
 */
import { AssayError } from '../errors.js';
import { docToTarget } from '../prompts/doc-to.js';
import { checkIncludePath } from '../tasks/include-path.js';
import { resolveTasks } from '../tasks/manager.js';
import { leafTasks } from '../tasks/task.js';

export async function taskText(
  spec: string,
  options: { includePath?: string[]; limit?: number } = {},
): Promise<{ text: string; source: Record<string, unknown> }> {
  checkIncludePath(options.includePath);
  const tasks = (await resolveTasks([spec], { includePath: options.includePath })).flatMap(leafTasks);
  const rolling = tasks.filter((task) => task.config.output_type === 'loglikelihood_rolling');
  if (rolling.length === 0) {
    throw new AssayError(
      'bad_option',
      `\`tasks\` ${spec}: kld needs a loglikelihood_rolling (perplexity) task such as wikitext; got ${tasks.map((task) => `${task.name} (${task.config.output_type})`).join(', ')}`,
    );
  }
  const texts: string[] = [];
  const documents: Record<string, number> = {};
  for (const task of rolling) {
    const docs = await task.evalDocs();
    const used = options.limit === undefined ? docs : docs.slice(0, options.limit);
    used.forEach((doc, docId) => {
      texts.push(String(docToTarget(task.config, doc, { task: task.name, docId })));
    });
    documents[task.name] = used.length;
  }
  return { text: texts.join('\n\n'), source: { tasks: rolling.map((task) => task.name), documents } };
}
