import { describe, expect, it } from 'vitest';
import { caught } from '../../test/support/caught.js';
import type { ErrorLocation } from '../errors.js';
import { applyGenerationDefaults, type Locate, parseGroupConfig, parseTaskConfig } from './schema.js';

/** Records the paths asked for, and answers with a fake file location. */
function recorder(): { locate: Locate; asked: Array<readonly (string | number)[]> } {
  const asked: Array<readonly (string | number)[]> = [];
  return {
    asked,
    locate: async (keyPath): Promise<ErrorLocation> => {
      asked.push(keyPath);
      return { file: 'task.yaml', line: 7, column: 1 };
    },
  };
}

describe('parseTaskConfig', () => {
  it('applies lm-eval defaults, including generate_until generation_kwargs', async () => {
    const config = await parseTaskConfig({ task: 't', dataset_path: 'json' }, recorder().locate);
    expect(config).toEqual({
      task: 't',
      dataset_path: 'json',
      target_delimiter: ' ',
      fewshot_delimiter: '\n\n',
      output_type: 'generate_until',
      repeats: 1,
      generation_kwargs: { temperature: 0.0, do_sample: false, max_gen_toks: 256, until: ['\n\n'] },
    });
  });

  it('adds until (the few-shot delimiter) to given generation_kwargs and leaves the rest as written', async () => {
    const config = await parseTaskConfig(
      { task: 't', fewshot_delimiter: '\n', generation_kwargs: { max_new_tokens: 32, temperature: 0.5 } },
      recorder().locate,
    );
    expect(config.generation_kwargs).toEqual({ max_new_tokens: 32, temperature: 0.5, until: ['\n'] });
  });

  it('gives other output types no generation_kwargs', async () => {
    const config = await parseTaskConfig({ task: 't', output_type: 'multiple_choice' }, recorder().locate);
    expect(config.generation_kwargs).toBeUndefined();
    expect(config.output_type).toBe('multiple_choice');
  });

  it('rejects an unknown field with a suggestion and its location', async () => {
    const { locate, asked } = recorder();
    const error = await caught(parseTaskConfig({ task: 't', doc_to_txt: '{{q}}' }, locate));
    expect(error.code).toBe('unknown_field');
    expect(error.message).toBe('unknown field "doc_to_txt" in task config; did you mean "doc_to_text"?');
    expect(error.location).toEqual({ file: 'task.yaml', line: 7, column: 1, field: 'doc_to_txt' });
    expect(asked).toEqual([['doc_to_txt']]);
  });

  it('rejects an unknown fewshot_config key', async () => {
    const error = await caught(
      parseTaskConfig({ task: 't', fewshot_config: { samplr: 'first_n' } }, recorder().locate),
    );
    expect(error.code).toBe('unknown_field');
    expect(error.message).toBe(
      'unknown field "fewshot_config.samplr" in fewshot_config; did you mean "sampler"?',
    );
  });

  it('lists the valid output types for an unknown one', async () => {
    const { locate, asked } = recorder();
    const error = await caught(parseTaskConfig({ task: 't', output_type: 'generate' }, locate));
    expect(error.code).toBe('unknown_output_type');
    expect(error.message).toBe(
      'unknown output_type "generate"; valid output types: loglikelihood, loglikelihood_rolling, multiple_choice, generate_until',
    );
    expect(asked).toEqual([['output_type']]);
  });

  it('names lm-eval fields that assay does not support', async () => {
    const error = await caught(parseTaskConfig({ task: 't', doc_to_image: 'img' }, recorder().locate));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe('multimodal tasks (doc_to_image) are not supported');
  });

  it('reports a wrongly typed value with its path', async () => {
    const { locate, asked } = recorder();
    const error = await caught(
      parseTaskConfig({ task: 't', metric_list: [{ metric: 'acc' }, { metric: 3 }] }, locate),
    );
    expect(error.code).toBe('invalid_config');
    expect(error.message).toMatch(/^invalid metric_list\.1\.metric: /);
    expect(asked).toEqual([['metric_list', 1, 'metric']]);
  });

  it('keeps extra metric_list keys as metric kwargs', async () => {
    const config = await parseTaskConfig(
      { task: 't', metric_list: [{ metric: 'exact_match', ignore_case: true, regexes_to_ignore: [','] }] },
      recorder().locate,
    );
    expect(config.metric_list).toEqual([
      { metric: 'exact_match', ignore_case: true, regexes_to_ignore: [','] },
    ]);
  });

  it('drops structural keys (group, task_list) as lm-eval does', async () => {
    const config = await parseTaskConfig(
      { task: 't', group: 'old_style', output_type: 'loglikelihood' },
      recorder().locate,
    );
    expect('group' in config).toBe(false);
  });
});

describe('applyGenerationDefaults', () => {
  it('keeps a given until', () => {
    expect(applyGenerationDefaults({ until: ['</s>'], do_sample: true }, '\n\n')).toEqual({
      until: ['</s>'],
      do_sample: true,
    });
  });
});

describe('parseGroupConfig', () => {
  it('normalizes task and aggregate_metric_list, defaults weight_by_size to true, and splits overrides', async () => {
    const { group, overrides } = await parseGroupConfig(
      {
        group: 'g',
        task: 'a',
        aggregate_metric_list: { metric: 'acc' },
        num_fewshot: 2,
        tag: 'ignored_for_children',
        metadata: { version: 1 },
      },
      recorder().locate,
    );
    expect(group).toEqual({
      group: 'g',
      task: ['a'],
      aggregate_metric_list: [{ metric: 'acc', aggregation: 'mean', weight_by_size: true }],
      metadata: { version: 1 },
    });
    expect(overrides).toEqual({ num_fewshot: 2 });
  });

  it('only allows mean as a group aggregation', async () => {
    const { locate, asked } = recorder();
    const error = await caught(
      parseGroupConfig(
        { group: 'g', task: ['a'], aggregate_metric_list: [{ metric: 'acc', aggregation: 'median' }] },
        locate,
      ),
    );
    expect(error.code).toBe('unknown_aggregation');
    expect(error.message).toBe('group aggregation "median" is not supported; valid: mean (as in lm-eval)');
    expect(asked).toEqual([['aggregate_metric_list', 0, 'aggregation']]);
  });
});
