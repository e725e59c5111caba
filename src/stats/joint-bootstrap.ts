/**
 * The joint bootstrap of a suite's scores: each replicate draws the docs of every task with replacement
 * once and recomputes every model's mean on that same draw, so the replicates keep the models' pairing on
 * shared docs (a hard doc is hard for all of them in the same replicate). Tasks are drawn independently.
 */
import { FastRandom } from './fast-random.js';
import { badArgument } from './validate.js';

export interface JointBootstrapOptions {
  iterations: number;
  seed: number;
}

/**
 * `scores[task][model]` holds one score per doc, the docs in the same order for every model of a task.
 * Returns `means[task]`: a Float64Array of `iterations × models`, replicate b's model k at b·models + k.
 */
export function jointBootstrapMeans(
  scores: ReadonlyArray<ReadonlyArray<ArrayLike<number>>>,
  options: JointBootstrapOptions,
): Float64Array[] {
  const { iterations } = options;
  if (!(Number.isInteger(iterations) && iterations >= 1))
    throw badArgument('jointBootstrapMeans', `iterations must be a positive integer, got ${iterations}`);
  const random = new FastRandom(options.seed);
  return scores.map((models, task) => {
    const n = models[0]?.length ?? 0;
    for (const [model, values] of models.entries())
      if (values.length !== n)
        throw badArgument(
          'jointBootstrapMeans',
          `task ${task}: model ${model} has ${values.length} scores where model 0 has ${n}; give the shared docs only`,
        );
    if (n === 0) throw badArgument('jointBootstrapMeans', `task ${task} has no docs`);
    const out = new Float64Array(iterations * models.length);
    const counts = new Uint32Array(n);
    const identity = Uint32Array.from({ length: n }, (_, i) => i);
    for (let b = 0; b < iterations; b++) {
      counts.fill(0);
      random.countUniformDraws(n, n, identity, counts);
      for (let k = 0; k < models.length; k++) {
        const values = models[k];
        let sum = 0;
        for (let i = 0; i < n; i++) if (counts[i] !== 0) sum += counts[i] * values[i];
        out[b * models.length + k] = sum / n;
      }
    }
    return out;
  });
}
