/**
 * Start-up (issues 29 and 33): what a command costs before its own work, as modules loaded and as time,
 * each against bare `node -e 0` measured in the same rounds. Commands: `assay --help`, `assay ls tasks`
 * (built-in tasks), a dummy-model run of a 10-doc JSONL task (examples/tasks/multiple-choice.jsonl),
 * `assay run --tasks list`, and with ASSAY_BENCH_LM_EVAL_TASKS both listings of lm-eval's tree (warm: its
 * index cached by a first run).
 *
 * Modules: every `file:` URL a `module.register` load hook sees (ESM, and the CommonJS entry points ESM
 * imports) plus the CommonJS `require.cache` at exit, de-duplicated. Time: wall and CPU (user + sys) of
 * each child from `/usr/bin/time -f %e,%U,%S`, median of the rounds, the commands interleaved per round.
 *
 * ASSAY_BENCH_STARTUP_BEFORE=<folder with bin/ and dist/ of another build> measures that build in the
 * same rounds, for a before/after table of one change.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:')) appendFileSync(process.env.ASSAY_BENCH_MODULES, url + '\\n');
  return nextLoad(url, context);
}
`;
const REGISTER = `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
register('./hooks.mjs', import.meta.url);
const require = createRequire(import.meta.url);
process.on('exit', () => {
  const lines = Object.keys(require.cache).map((file) => 'cjs:' + file + '\\n');
  appendFileSync(process.env.ASSAY_BENCH_MODULES, lines.join(''));
});
`;

interface Command {
  label: string;
  /** Arguments after `node <build>/bin/assay.js`; undefined for the `node -e 0` baseline. */
  args?: string[];
}

interface Figures {
  modules?: number;
  wallMs: number;
  cpuMs: number;
}

function commands(): Command[] {
  const list: Command[] = [
    { label: '`node -e 0` (baseline)' },
    { label: '`assay --help`', args: ['--help'] },
    { label: '`assay ls tasks` (built-in tasks)', args: ['ls', 'tasks'] },
    {
      label: '`assay run --model dummy`, 10-doc JSONL task',
      args: [
        'run',
        '--model',
        'dummy',
        '--tasks',
        path.join(root, 'examples', 'tasks', 'multiple-choice.jsonl'),
      ],
    },
    { label: '`assay run --tasks list` (built-in tasks)', args: ['run', '--tasks', 'list'] },
  ];
  const lmEvalTree = process.env.ASSAY_BENCH_LM_EVAL_TASKS;
  if (lmEvalTree)
    list.push(
      {
        label: "`assay ls tasks --include_path <lm-eval's tree>`, warm",
        args: ['ls', 'tasks', '--include_path', lmEvalTree],
      },
      {
        label: "`assay run --tasks list --include_path <lm-eval's tree>`, warm",
        args: ['run', '--tasks', 'list', '--include_path', lmEvalTree],
      },
    );
  return list;
}

function argv(build: string, command: Command): string[] {
  return command.args ? [path.join(build, 'bin', 'assay.js'), ...command.args] : ['-e', '0'];
}

function countModules(work: string, build: string, command: Command, env: NodeJS.ProcessEnv): number {
  const list = path.join(work, 'modules.txt');
  rmSync(list, { force: true });
  const result = spawnSync(
    process.execPath,
    ['--import', path.join(work, 'register.mjs'), ...argv(build, command)],
    { cwd: work, env: { ...env, ASSAY_BENCH_MODULES: list }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (result.status !== 0) throw new Error(`${command.label} failed: ${result.stderr}`);
  const urls = existsSync(list) ? readFileSync(list, 'utf8').split('\n').filter(Boolean) : [];
  return new Set(urls).size;
}

function timeOnce(work: string, build: string, command: Command, env: NodeJS.ProcessEnv) {
  const times = path.join(work, 'time.txt');
  const result = spawnSync(
    '/usr/bin/time',
    ['-o', times, '-f', '%e,%U,%S', process.execPath, ...argv(build, command)],
    {
      cwd: work,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  if (result.status !== 0) throw new Error(`${command.label} failed: ${result.stderr}`);
  const [wall, user, system] =
    readFileSync(times, 'utf8').trim().split('\n').pop()?.split(',').map(Number) ?? [];
  return { wallMs: wall * 1000, cpuMs: (user + system) * 1000 };
}

/** Measures every command of every build and reports one line per build and command. */
export async function runStartupBench(
  report: (line: string) => void,
  rounds = Number(process.env.ASSAY_BENCH_STARTUP_ROUNDS ?? 5),
): Promise<void> {
  if (!existsSync('/usr/bin/time')) {
    report('start-up: skipped (needs /usr/bin/time for the CPU time of each child)');
    return;
  }
  const builds: Array<[string, string]> = [['this build', root]];
  const before = process.env.ASSAY_BENCH_STARTUP_BEFORE;
  if (before) builds.unshift(['before', path.resolve(before)]);
  const work = mkdtempSync(path.join(os.tmpdir(), 'assay-bench-startup-'));
  try {
    writeFileSync(path.join(work, 'hooks.mjs'), HOOKS);
    writeFileSync(path.join(work, 'register.mjs'), REGISTER);
    // One cache folder per build: its first (counting) run writes the index its timed runs find warm.
    const envFor = (buildLabel: string): NodeJS.ProcessEnv => ({
      ...process.env,
      ASSAY_CACHE_DIR: path.join(work, `cache-${buildLabel.replaceAll(' ', '-')}`),
    });
    const list = commands();
    const figures = new Map<string, Map<string, Figures>>();
    const samples = new Map<string, { wall: number[]; cpu: number[] }>();
    for (const [buildLabel, build] of builds) {
      const env = envFor(buildLabel);
      const byCommand = new Map<string, Figures>();
      for (const command of list)
        byCommand.set(command.label, {
          modules: command.args ? countModules(work, build, command, env) : undefined,
          wallMs: 0,
          cpuMs: 0,
        });
      figures.set(buildLabel, byCommand);
    }
    for (let round = 0; round < rounds; round++) {
      // Builds alternate first and second from round to round; commands interleave within a round.
      const order = round % 2 ? [...builds].reverse() : builds;
      for (const command of list) {
        for (const [buildLabel, build] of order) {
          const { wallMs, cpuMs } = timeOnce(work, build, command, envFor(buildLabel));
          const key = `${buildLabel}\u0000${command.label}`;
          const entry = samples.get(key) ?? { wall: [], cpu: [] };
          entry.wall.push(wallMs);
          entry.cpu.push(cpuMs);
          samples.set(key, entry);
        }
      }
    }
    for (const [buildLabel, byCommand] of figures)
      for (const [commandLabel, figure] of byCommand) {
        const entry = samples.get(`${buildLabel}\u0000${commandLabel}`);
        figure.wallMs = median(entry?.wall ?? []);
        figure.cpuMs = median(entry?.cpu ?? []);
      }
    report(
      `start-up, median of ${rounds} rounds (wall / CPU = user + sys, ms; × = ratio to \`node -e 0\` of the same build's rounds); modules: ESM load hook + CommonJS require.cache`,
    );
    for (const [buildLabel, byCommand] of figures) {
      const baseline = byCommand.get(list[0].label) as Figures;
      for (const command of list) {
        const figure = byCommand.get(command.label) as Figures;
        const ratio = command.args
          ? `, ${(figure.wallMs / baseline.wallMs).toFixed(1)}× / ${(figure.cpuMs / baseline.cpuMs).toFixed(1)}×`
          : '';
        const modules = figure.modules === undefined ? '' : `, ${figure.modules} modules`;
        report(
          `  ${buildLabel}: ${command.label}: ${figure.wallMs.toFixed(0)} / ${figure.cpuMs.toFixed(0)} ms${ratio}${modules}`,
        );
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
