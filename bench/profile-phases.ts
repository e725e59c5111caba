/**
 * Where a whole `assay run` spends its time, by phase, from V8 CPU profiles (`node --cpu-prof`):
 *   node --import tsx bench/profile-phases.ts <profile.cpuprofile>...
 * Each sample goes to the innermost frame that names a phase (a hash inside the writer counts as
 * hashing); samples under no phase count as "other". Prints, per phase, the mean over the profiles in
 * ms of profile time and its share.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PHASES: Array<[string, (frame: CallFrame) => boolean]> = [
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['idle (waiting on I/O, children, the scheduler)', (f) => f.functionName === '(idle)'],
  [
    'hashing (sha256 of docs, prompts, targets)',
    (f) =>
      /^(sha256|docHashes|taskHashOfDocs|taskHash|hash)$/.test(f.functionName) &&
      /samples|crypto/.test(f.url),
  ],
  [
    'module load',
    (f) => /node:internal\/modules\//.test(f.url) || f.functionName === 'compileSourceTextModule',
  ],
  ['task index and task configs', (f) => /^(buildTaskIndex|resolveTasks|loadYamlTask)$/.test(f.functionName)],
  ['data read (JSONL)', (f) => /^(loadLocalSplit|loadSplit|loadSplitWithSource)$/.test(f.functionName)],
  [
    'prompt rendering (few-shot blocks, doc templates)',
    (f) =>
      /^(buildContext|buildPrompt|docToText|docToChoice|docToTarget|fewshotTurns)$/.test(f.functionName) &&
      /prompts/.test(f.url),
  ],
  ['few-shot selection', (f) => /fewshot\.js/.test(f.url)],
  ['request building (the rest of planTask)', (f) => f.functionName === 'planTask'],
  ['the dummy model', (f) => /dummy-backend/.test(f.url)],
  ['execution bookkeeping (dedupe, order, answers mapped back)', (f) => f.functionName === 'executeRequests'],
  ['scoring', (f) => f.functionName === 'scoreTask'],
  ['aggregation and stderr', (f) => /^(aggregateTask|aggregateGroup)$/.test(f.functionName)],
  [
    'output (results, sample logs, leaderboard, table)',
    (f) =>
      /^(writeOutputs|writeStaged|buildResults|runOutput|sampleLineJson|sampleLine)$/.test(f.functionName) ||
      /results\/(table|build|output|staged-write)|cli\/results-table/.test(f.url),
  ],
];
const OTHER = 'other (node start-up, CLI, events, results stage)';

const files = process.argv.slice(2);
const totals = new Array<number>(PHASES.length + 1).fill(0);
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const memo = new Map<number, number>();
  const phaseOf = (id: number): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id) as ProfileNode;
    let phase = PHASES.findIndex(([, test]) => test(node.callFrame));
    const up = parent.get(id);
    if (phase < 0) phase = up === undefined ? PHASES.length : phaseOf(up);
    memo.set(id, phase);
    return phase;
  };
  profile.samples.forEach((sample, index) => {
    totals[phaseOf(sample)] += profile.timeDeltas[index] / 1000 / files.length;
  });
}
const sum = totals.reduce((a, b) => a + b, 0);
const names = [...PHASES.map(([name]) => name), OTHER];
for (const [index, name] of names.entries())
  process.stdout.write(
    `${name}\t${totals[index].toFixed(0)} ms\t${((100 * totals[index]) / sum).toFixed(1)}%\n`,
  );
