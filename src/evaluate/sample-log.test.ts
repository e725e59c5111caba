import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { simpleEvaluate } from '../run/evaluate.js';

// lm-eval (api/task.py construct_requests, evaluator.py): a generate_until Instance carries
// `deepcopy(config.generation_kwargs)` — the YAML's kwargs after TaskConfig.__post_init__ added
// `until: [fewshot_delimiter]`, dict-updated with --gen_kwargs — and the sample log writes it as
// arguments.gen_args_0.arg_1. Samples are appended filter by filter: every doc under the first filter,
// then every doc under the second.
describe('sample log details, as lm-eval writes them', () => {
  it('logs the YAML generation_kwargs plus until and --gen_kwargs, and lines filter by filter', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'assay-samples-'));
    await writeFile(
      path.join(dir, 'data.jsonl'),
      ['{"q": "one", "a": "1"}', '{"q": "two", "a": "2"}', '{"q": "three", "a": "3"}', ''].join('\n'),
    );
    const task = path.join(dir, 'gen.yaml');
    await writeFile(
      task,
      [
        'task: gen',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        '    test: data.jsonl',
        'test_split: test',
        'doc_to_text: "Q: {{q}}\\nA:"',
        'doc_to_target: a',
        'fewshot_delimiter: "\\n##\\n"',
        'generation_kwargs:',
        '  max_new_tokens: 5',
        '  temperature: 0',
        'filter_list:',
        '  - name: first',
        '    filter:',
        '      - function: take_first',
        '  - name: upper',
        '    filter:',
        '      - function: uppercase',
        '      - function: take_first',
        '',
      ].join('\n'),
    );
    const output = await simpleEvaluate({
      model: new DummyBackend(),
      tasks: [task],
      genKwargs: { do_sample: false },
    });
    const lines = output.samples.gen;
    expect(lines.map((line) => [line.filter, line.doc_id])).toEqual([
      ['first', 0],
      ['first', 1],
      ['first', 2],
      ['upper', 0],
      ['upper', 1],
      ['upper', 2],
    ]);
    expect(lines[0].arguments.gen_args_0).toEqual({
      arg_0: 'Q: one\nA:',
      arg_1: { max_new_tokens: 5, temperature: 0, until: ['\n##\n'], do_sample: false },
    });
    // results.json keeps lm-eval's view of the config, and what assay sent after normalising.
    const config = output.results.configs.gen;
    expect(config.generation_kwargs).toEqual({
      max_new_tokens: 5,
      temperature: 0,
      until: ['\n##\n'],
      do_sample: false,
    });
    expect(config.normalized_generation_kwargs).toEqual({
      until: ['\n##\n'],
      max_gen_toks: 5,
      temperature: 0,
      do_sample: false,
    });
  });
});
