/**
 * Checks the index's reader of top-level keys (src/tasks/yaml-keys.ts) against js-yaml on every YAML file
 * of a task tree, and on seeded mutations of each file: whenever the reader answers, js-yaml must read the
 * text without error and give the kept keys the same values. Prints how many files the reader answers
 * for (the rest go to js-yaml) and every disagreement.
 *
 *   npx tsx bench/yaml-keys.ts <task-tree> [--mutants N] [--seed S]
 *
 * Exit 0 when nothing disagrees, 1 otherwise, 2 on bad arguments.
 */
import { readFileSync } from 'node:fs';
import { isYamlFile, listRoot } from '../src/tasks/root-walk.js';
import { checkTopKeys } from '../test/support/yaml-keys-check.js';
import { yamlMutants } from '../test/support/yaml-mutations.js';

const args = process.argv.slice(2);
const tree = args[0];
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : Number(args[at + 1]);
};
const mutantsPerFile = option('--mutants', 20);
const seed = option('--seed', 1);
if (!tree || !Number.isInteger(mutantsPerFile) || !Number.isInteger(seed)) {
  process.stderr.write('usage: npx tsx bench/yaml-keys.ts <task-tree> [--mutants N] [--seed S]\n');
  process.exit(2);
}

// The files the task index reads as YAML, in its order.
const files = listRoot({ dir: tree }).filter(isYamlFile);
let answered = 0;
let mutants = 0;
let mutantsAnswered = 0;
let disagreements = 0;
for (const [index, file] of files.entries()) {
  const text = readFileSync(file, 'utf8');
  const own = checkTopKeys(text);
  if (own === 'agrees') answered++;
  else if (own !== 'refused') {
    disagreements++;
    process.stdout.write(`${file}: ${own}\n`);
  }
  for (const mutant of yamlMutants(text, seed * 1_000_003 + index, mutantsPerFile)) {
    mutants++;
    const result = checkTopKeys(mutant);
    if (result === 'agrees') mutantsAnswered++;
    else if (result !== 'refused') {
      disagreements++;
      process.stdout.write(`${file}, a mutant: ${result}\n${JSON.stringify(mutant)}\n`);
    }
  }
}
process.stdout.write(
  `${files.length} files: the reader answers for ${answered} (${((100 * answered) / files.length).toFixed(1)}%), js-yaml reads the rest; ${mutants} mutants: answers for ${mutantsAnswered}; ${disagreements} disagreements with js-yaml\n`,
);
process.exit(disagreements ? 1 : 0);
