import { describe, expect, it } from 'vitest';
import { parseKeyValueArgs } from './key-value-args.js';

describe('parseKeyValueArgs', () => {
  it('parses k=v pairs with lm-eval value coercion', () => {
    expect(parseKeyValueArgs('model=a/b,n_ctx=2048,temp=0.5,flash=false,name=x', '--model_args')).toEqual({
      model: 'a/b',
      n_ctx: 2048,
      temp: 0.5,
      flash: false,
      name: 'x',
    });
  });
  it('parses a JSON object', () => {
    expect(parseKeyValueArgs('{"until": ["\\n"], "max_gen_toks": 5}', '--gen_kwargs')).toEqual({
      until: ['\n'],
      max_gen_toks: 5,
    });
  });
  it('rejects a pair without =', () => {
    expect(() => parseKeyValueArgs('model', '--model_args')).toThrow(
      '--model_args: expected key=value, got "model"',
    );
  });
});
