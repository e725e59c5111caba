/**
 * The Run page's manifest as a reader wants it: the model, the data each task read, the tasks' prompt
 * and scoring settings, and the environment, as labelled fields and tables (the raw JSON stays on the page,
 * folded). The manifest is outside data of any assay version, so every field is read leniently: one that
 * is missing or of another type shows as "—" and never hides the others.
 */
import { z } from 'zod';
import type { ManifestSection } from './api.js';

const scalar = z.union([z.string(), z.number(), z.boolean()]).nullish().catch(null);
const record = z.record(z.string(), z.unknown()).nullish().catch(null);
const object = <Shape extends z.ZodRawShape>(shape: Shape) => z.looseObject(shape).nullish().catch(null);

const dataFileSchema = z.looseObject({ split: scalar, path: scalar, sha256: scalar, size: scalar });

const taskSchema = z.looseObject({
  version: scalar,
  source: scalar,
  format: scalar,
  sha256: scalar,
  config_sha256: scalar,
  dataset_path: scalar,
  dataset_name: scalar,
  dataset_revision: scalar,
  dataset_commit: scalar,
  data_files: z.array(dataFileSchema).nullish().catch(null),
  split: scalar,
  fewshot_split: scalar,
  num_fewshot: scalar,
  fewshot_sampler: scalar,
  fewshot_seed: scalar,
  prompt_template_sha256: scalar,
  scoring_mode: scalar,
  length_normalisation: scalar,
  repeats: scalar,
});

const manifestSchema = z.looseObject({
  model: object({
    backend: scalar,
    name: scalar,
    revision: scalar,
    sha256: scalar,
    model_args: record,
    info: record,
  }),
  assay: object({ version: scalar, git_commit: scalar }),
  tasks: z.record(z.string(), taskSchema.nullish().catch(null)).nullish().catch(null),
  chat_template: object({ applied: scalar, name: scalar, sha256: scalar }),
  system_instruction_sha256: scalar,
  fewshot_as_multiturn: scalar,
  seeds: record,
  limit: object({ used: scalar, value: scalar, samples: scalar }),
  hardware: object({ cpu: scalar, cores: scalar, memory_bytes: scalar, gpu: scalar, numeric_format: scalar }),
  runtime: object({ node: scalar, platform: scalar, arch: scalar }),
  code_execution: object({ isolation: scalar, warning: scalar, workers: scalar }),
  python: object({ path: scalar, version: scalar, implementation: scalar, packages: record }),
  shard: object({ index: scalar, count: scalar }),
});

type Scalar = z.output<typeof scalar>;

const DASH = '—';

function show(value: Scalar | unknown): string {
  if (value === null || value === undefined || value === '') return DASH;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** Hashes are told apart by their first 12 digits; the raw JSON has them whole. */
function hash(value: Scalar): string {
  return typeof value === 'string' && value.length > 12 ? `${value.slice(0, 12)}…` : show(value);
}

function bytes(value: Scalar): string {
  if (typeof value !== 'number') return show(value);
  if (value >= 2 ** 30) return `${(value / 2 ** 30).toFixed(1)} GiB`;
  if (value >= 2 ** 20) return `${(value / 2 ** 20).toFixed(1)} MiB`;
  if (value >= 2 ** 10) return `${(value / 2 ** 10).toFixed(1)} KiB`;
  return `${value} B`;
}

function joined(entries: Record<string, unknown> | null | undefined): string {
  const parts = Object.entries(entries ?? {}).map(([key, value]) => `${key}=${show(value)}`);
  return parts.length ? parts.join(', ') : DASH;
}

const field = (label: string, value: string) => ({ label, value });

export function manifestSections(raw: unknown): ManifestSection[] {
  if (!raw || typeof raw !== 'object') return [];
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) return [];
  const manifest = parsed.data;
  const { model, chat_template: template } = manifest;
  const { name: _name, revision: _revision, sha256: _sha, ...info } = model?.info ?? {};
  const tasks = Object.entries(manifest.tasks ?? {}).filter(
    (entry): entry is [string, z.output<typeof taskSchema>] => entry[1] !== null && entry[1] !== undefined,
  );

  const modelSection: ManifestSection = {
    title: 'Model',
    kind: 'fields',
    fields: [
      field('Name', show(model?.name)),
      field('Backend', show(model?.backend)),
      field('Revision', show(model?.revision)),
      field('SHA-256', show(model?.sha256)),
      field('Model args', joined(model?.model_args)),
      ...(Object.keys(info).length ? [field('Reported by the backend', joined(info))] : []),
      field(
        'Chat template',
        template?.applied === true
          ? `applied${template.name ? ` (${template.name})` : ''}${template.sha256 ? `, sha256 ${hash(template.sha256)}` : ''}`
          : 'not applied',
      ),
      field(
        'System instruction',
        manifest.system_instruction_sha256 ? `sha256 ${hash(manifest.system_instruction_sha256)}` : 'none',
      ),
      field('Few-shot as multiturn', show(manifest.fewshot_as_multiturn)),
    ],
  };

  const dataRows: string[][] = [];
  for (const [task, entry] of tasks) {
    const dataset = [entry.dataset_path, entry.dataset_name].filter((part) => part).join(' / ');
    const revision = [
      entry.dataset_revision,
      entry.dataset_commit ? `commit ${hash(entry.dataset_commit)}` : null,
    ]
      .filter((part) => part)
      .join(', ');
    const common = [task, dataset || DASH, revision || DASH];
    const files = entry.data_files ?? [];
    if (files.length === 0) dataRows.push([...common, show(entry.split), DASH, DASH, DASH]);
    for (const file of files)
      dataRows.push([...common, show(file.split), show(file.path), bytes(file.size), hash(file.sha256)]);
  }
  const dataSection: ManifestSection = {
    title: 'Data',
    kind: 'table',
    columns: ['Task', 'Dataset', 'Revision', 'Split', 'File', 'Size', 'SHA-256'],
    rows: dataRows,
  };

  const tasksSection: ManifestSection = {
    title: 'Tasks',
    kind: 'table',
    columns: [
      'Task',
      'Version',
      'Source',
      'Evaluated split',
      'Few-shot',
      'Scoring',
      'Repeats',
      'Content SHA-256',
      'Prompt template SHA-256',
    ],
    rows: tasks.map(([task, entry]) => [
      task,
      show(entry.version),
      `${show(entry.source)}${entry.format ? ` (${entry.format})` : ''}`,
      show(entry.split),
      entry.num_fewshot === 0
        ? '0'
        : `${show(entry.num_fewshot)} from ${show(entry.fewshot_split)}, ${show(entry.fewshot_sampler)} sampler, seed ${show(entry.fewshot_seed)}`,
      `${show(entry.scoring_mode)}${entry.length_normalisation ? `; ${entry.length_normalisation}` : ''}`,
      show(entry.repeats),
      hash(entry.sha256),
      hash(entry.prompt_template_sha256),
    ]),
  };

  const { assay, runtime, hardware, limit, python, code_execution: sandbox, shard } = manifest;
  const environmentSection: ManifestSection = {
    title: 'Environment',
    kind: 'fields',
    fields: [
      field(
        'assay',
        `${show(assay?.version)}${assay?.git_commit ? ` (commit ${hash(assay.git_commit)})` : ''}`,
      ),
      field('Node', `${show(runtime?.node)} on ${show(runtime?.platform)}/${show(runtime?.arch)}`),
      field(
        'CPU',
        `${show(hardware?.cpu)}, ${show(hardware?.cores)} cores, ${bytes(hardware?.memory_bytes)} memory`,
      ),
      field('GPU', show(hardware?.gpu)),
      field('Numeric format', show(hardware?.numeric_format)),
      field('Seeds', joined(manifest.seeds)),
      field(
        'Limit',
        limit?.used === true
          ? `yes: ${show(limit.value)}${limit.samples === true ? ' (chosen samples)' : ''}`
          : 'no',
      ),
      ...(python
        ? [
            field(
              'Python',
              `${show(python.implementation)} ${show(python.version)} at ${show(python.path)}; ${joined(python.packages)}`,
            ),
          ]
        : []),
      ...(sandbox
        ? [
            field(
              'Code execution',
              `${show(sandbox.isolation)}, ${show(sandbox.workers)} workers${sandbox.warning ? `: ${sandbox.warning}` : ''}`,
            ),
          ]
        : []),
      ...(shard ? [field('Shard', `${show(shard.index)}/${show(shard.count)} (numbered from 0)`)] : []),
    ],
  };
  return [modelSection, dataSection, tasksSection, environmentSection];
}
